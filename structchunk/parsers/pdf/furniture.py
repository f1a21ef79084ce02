"""Running headers, running footers and page numbers: with line numbers
(`margins.py`), the only PDF text that is dropped.

A line is page furniture when it sits in the top or bottom margin band of its page, or
is a note in a side margin (`margins.py`), and the same text (digits ignored, so `Page 3
of 9` matches `Page 4 of 9`) appears at about the same height on a good share of the
pages; a lone page number in a margin band is furniture on any document of two pages or
more; and a page's first or last line is, wherever it sits, when a number in it counts
along with the pages and the rest of it is the same on several pages, and so is a first
or last line holding nothing but a number of that count."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import NamedTuple

from .running import PAGE_DIGITS, Measures, moved_or_changed, running_headers
from .tables import header_rows
from .types import Line, PageContent, PageTable
from .typography import body_style

DEFAULT_MARGIN_BAND = 0.12
"""Top and bottom share of the page height where running headers and footers live
(US Letter: the top and bottom 95 points, about 1.3 inches)."""
DEFAULT_NUMBER_BAND = 0.25
"""A lone page number may sit this far from the top or bottom edge (LaTeX prints it 1.6
inches up), when it is the first or last line of its page."""
DEFAULT_REPEAT_SHARE = 0.4
"""Share of the pages a line must repeat on to be a running header or footer; 0.4, not
0.5, so that headers alternating between odd and even pages still count."""
DEFAULT_ENOUGH_REPEATS = 4
"""Repeating on this many pages is enough in a long document: a part or chapter has its
own running header (the corpus's strategic plans title their contents pages apart)."""
DEFAULT_HEADING_SIZE = 1.2
"""A margin line this many times the body size or larger, with text between it and the
page's edge, is a running header only when it repeats on the full share of the pages,
never on `DEFAULT_ENOUGH_REPEATS` alone: the 2014 performance report tops each goal's
results page, under its running header, with `FY 2014 Results` at 15 pt over 9-point
text — a heading, on 11 of 120 pages."""
DEFAULT_SECTION_SHARE = 0.5
"""A bold running header on a run of pages starting after the first two and covering
less than this share of the document is its section's title carried over (`NOTES TO
THE ... FINANCIAL STATEMENTS` atop each page of a filing's notes): its first
occurrence, where the section starts, is kept as the heading it is there."""
DEFAULT_BOLD_SHARE = 0.95
DEFAULT_POSITION_TOLERANCE = 6.0
"""How far (points) a running header may move from page to page."""
DEFAULT_MIN_COUNTED_PAGES = 3
"""Pages whose end line counts along with the page number before such a line is taken
for a page number outside the margins."""
_DIGITS = re.compile(r"\d+")
_LONE_NUMBER = re.compile(r"\d{1,5}")
_PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|seite|página|pagina)\s*)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*"
    r"[-–—)\]]?(?:\s*(?:of|/|von|de)\s*\d{1,4})?$",
    re.I,
)


def _key(line: Line) -> str:
    return _DIGITS.sub("#", " ".join(line.printed().casefold().split()))


def _in_band(line: Line, height: float, share: float = DEFAULT_MARGIN_BAND) -> bool:
    band = share * height
    return line.top < band or line.bottom > height - band


def _in_margin(line: Line, height: float) -> bool:
    """In the top or bottom margin band, or a note in a side margin."""
    return line.margin_note or _in_band(line, height)


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def _repeated(positions: list[tuple[int, float]], needed: int) -> set[int]:
    """Pages on which the line sits at a height shared with enough other pages."""
    buckets: dict[int, set[int]] = defaultdict(set)
    for page, top in positions:
        buckets[_bucket(top)].add(page)
    keep: set[int] = set()
    for bucket, pages in buckets.items():
        near = pages | buckets.get(bucket - 1, set()) | buckets.get(bucket + 1, set())
        if len(near) >= needed:
            keep |= pages
    return keep


def drop_furniture(pages: list[PageContent]) -> list[Line]:
    """Remove running headers, footers and page numbers in place; returns them."""
    readable = [p for p in pages if not p.error]
    if len(readable) < 2:
        return []
    share = max(2, round(DEFAULT_REPEAT_SHARE * len(readable)))
    needed = min(share, max(2, DEFAULT_ENOUGH_REPEATS))
    seen = _margin_spots(readable)
    body, _ = body_style([line for page in readable for line in page.lines()])
    furniture = _running(seen, share, needed, body)
    openings = _section_openings(seen, furniture, readable)
    pieces = _header_pieces(seen, furniture)
    page_ends = {page.number: _ends(page) for page in readable}
    counted, series = _counted_ends(page_ends, needed)
    offsets = {offset for _, offset in series}
    counted |= _lone_counted_numbers(page_ends, offsets)
    dropped: list[Line] = []
    for page in readable:
        dropped.extend(_numbered_rows(page, series, offsets))
        ends = {id(line) for line in page_ends[page.number]}
        kept = []
        for item in page.items:
            if isinstance(item, Line) and (
                _in_margin(item, page.height)
                and (page.number, _key(item)) not in openings
                and (
                    page.number in furniture.get(_key(item), ())
                    or (page.number, _bucket(item.top)) in pieces.get(_key(item), ())
                )
                or id(item) in ends
                and _in_band(item, page.height, DEFAULT_NUMBER_BAND)
                and is_page_number(item.printed())
                or id(item) in counted
            ):
                dropped.append(item)
                continue
            kept.append(item)
        page.items = kept
    heights = {page.number: page.height for page in readable}
    headers = running_headers(seen, furniture, heights, needed, _bucket)
    headed = {
        (line.page, line.top < heights[line.page] / 2)
        for line in dropped
        if _in_band(line, heights[line.page])
    }
    measures = Measures(_key, _bucket, DEFAULT_MARGIN_BAND, body, offsets, headed)
    dropped.extend(moved_or_changed(readable, headers, measures))
    return dropped


class Spot(NamedTuple):
    """Where a margin line sits: its page, top and horizontal extent, its size,
    whether it is the page's outermost text (no line between it and the page's edge),
    and whether it is a side margin's note."""

    page: int
    top: float
    x0: float
    x1: float
    size: float
    outer: bool
    side: bool
    """A note in a side margin: never a heading, whatever its size."""
    numbers: tuple[int, ...] = ()
    """The numbers in the text (which its key leaves out), in order."""
    font: str = ""
    bold: bool = False


def _margin_spots(pages: list[PageContent]) -> dict[str, list[Spot]]:
    """Where each text of the pages' margin bands sits, by its key (digits ignored)."""
    seen: dict[str, list[Spot]] = defaultdict(list)
    for page in pages:
        lines = page.lines()
        if not lines:
            continue
        first_bottom = min(line.bottom for line in lines)
        last_top = max(line.top for line in lines)
        for line in lines:
            if _in_margin(line, page.height):
                outer = line.top < first_bottom or line.bottom > last_top
                spot = Spot(
                    page.number,
                    line.top,
                    line.x0,
                    line.x1,
                    line.size,
                    outer,
                    line.margin_note,
                    tuple(int(n) for n in _DIGITS.findall(line.printed())),
                    line.font,
                    line.bold_share >= DEFAULT_BOLD_SHARE,
                )
                seen[_key(line)].append(spot)
    return seen


def _running(
    seen: dict[str, list[Spot]], share: int, needed: int, body: float
) -> dict[str, set[int]]:
    """The pages on which each margin text is a running header or footer: it repeats at
    one height on `needed` pages — or on the full `share` when it is set larger than the
    body with text above or below it (a part's running header is small type or the
    page's outermost text; a large line under the running header is a heading)."""
    furniture: dict[str, set[int]] = {}
    for key, spots in seen.items():
        heading = (
            not any(spot.side for spot in spots)
            and any(not spot.outer for spot in spots)
            and min(spot.size for spot in spots) > DEFAULT_HEADING_SIZE * body
        )
        repeats = share if heading else needed
        if len({spot.page for spot in spots}) >= repeats and _numbered_alike(spots, repeats):
            furniture[key] = _repeated([(spot.page, spot.top) for spot in spots], repeats)
    return furniture


def _section_openings(
    seen: dict[str, list[Spot]], furniture: dict[str, set[int]], pages: list[PageContent]
) -> set[tuple[int, str]]:
    """(page, key) of each section title carried over as a running header
    (`DEFAULT_SECTION_SHARE`) where its section starts: that occurrence is a heading —
    unless the text was printed before (a company's name over each statement, first
    set lower on the page that opens them)."""
    out = set()
    for key, found in furniture.items():
        if not found or "#" in key or not any(ch.isalpha() for ch in key):
            continue
        first = min(found)
        opening = [spot for spot in seen[key] if spot.page == first]
        if (
            first > 2
            and len(found) < DEFAULT_SECTION_SHARE * len(pages)
            and all(spot.bold and not spot.side for spot in opening)
            and not any(
                _key(line) == key for page in pages if page.number < first for line in page.lines()
            )
        ):
            out.add((first, key))
    return out


def _numbered_alike(spots: list[Spot], repeats: int) -> bool:
    """Whether the numbers of a text that repeats but for them are a running header's:
    the same on several pages (a chapter's number), or counting along with the pages
    (a page number) on `repeats` of them. A number of its own on every page, not
    counting with them, numbers the text's own things: `Definition 20` opening one
    page of a textbook, `Definition 26` another, or exhibits `31.1` to `32.2` each
    titling a page of its own."""
    numbers = [spot.numbers for spot in spots]
    if not numbers[0] or len(set(numbers)) < len(numbers):
        return True
    for position in range(len(numbers[0])):
        offsets = Counter(spot.numbers[position] - spot.page for spot in spots)
        if offsets.most_common(1)[0][1] >= repeats:
            return True
    return False


def _bucket(top: float) -> int:
    return round(top / DEFAULT_POSITION_TOLERANCE)


def _header_pieces(
    seen: dict[str, list[Spot]], furniture: dict[str, set[int]]
) -> dict[str, set[tuple[int, int]]]:
    """Margin lines that are a part of a running header, set where that header sits and
    flush with one of its ends: (page, height bucket) per text. A header printed in two
    pieces (`Strategic Plan` in a coloured band at the left, the agency's name at the
    right) reads as one line on most pages, as two where the page's columns part it,
    and some pages print one piece only. A piece needs a letter (a lone figure is a page
    number or a plot's label)."""
    wholes = [
        (f" {key} ", _anchors([spot for spot in seen[key] if spot.page in pages]))
        for key, pages in furniture.items()
        if pages
    ]
    out: dict[str, set[tuple[int, int]]] = {}
    for key, spots in seen.items():
        if furniture.get(key) or not any(ch.isalpha() for ch in key):
            continue
        padded = f" {key} "
        anchors = set().union(*(ends for text, ends in wholes if padded in text))
        hits = {
            (spot.page, _bucket(spot.top))
            for spot in spots
            if not anchors.isdisjoint(_anchors([spot], spread=0))
        }
        if hits:
            out[key] = hits
    return out


def _anchors(spots: list[Spot], spread: int = 1) -> set[tuple[int, str, int]]:
    """Each spot's height and left and right ends, in buckets of the position tolerance
    (and the buckets beside them, with `spread`), so that finding a piece flush with a
    whole is a set lookup, not a comparison with every page's header."""
    near = range(-spread, spread + 1)
    return {
        (_bucket(spot.top) + dy, side, _bucket(x) + dx)
        for spot in spots
        for side, x in (("left", spot.x0), ("right", spot.x1))
        for dy in near
        for dx in near
    }


def _ends(page: PageContent) -> list[Line]:
    """The page's first and last lines (one line when it has only one)."""
    lines = page.lines()
    if not lines:
        return []
    first, last = min(lines, key=lambda x: x.top), max(lines, key=lambda x: x.bottom)
    return [first] if first is last else [first, last]


def _lone_counted_numbers(page_ends: dict[int, list[Line]], offsets: set[int]) -> set[int]:
    """End lines holding nothing but a number that falls in a counted page series: the
    Federal Register prints `47698` alone over its first page's masthead and
    `Federal Register / … 47699` on the next, so the lone number is the page number,
    though no other page prints it alone."""
    return {
        id(line)
        for number, ends in page_ends.items()
        for line in ends
        if _LONE_NUMBER.fullmatch(text := line.printed().strip()) and int(text) - number in offsets
    }


def _counted_ends(
    page_ends: dict[int, list[Line]], needed: int
) -> tuple[set[int], set[tuple[str, int]]]:
    """First or last lines whose number counts along with the pages (`28` on page 28, or
    on page 30 of a file with a two-page cover) while the rest of the line stays the same
    (`Apple Inc. | Q1 2023 Form 10-Q | 16`), wherever they sit: some filings print their
    footer right below the text, mid-page on a short page. Also how far each such count
    runs ahead of the file's pages (`47699` printed on page 2: 47697), with the line's
    text around it (`#` for the number): the page series."""
    candidates: dict[tuple[str, int], list[Line]] = defaultdict(list)
    for number, ends in page_ends.items():
        for line in ends:
            for key in _series_keys(" ".join(line.printed().split()), number):
                candidates[key].append(line)
    series = {
        key: lines
        for key, lines in candidates.items()
        if len(lines) >= max(needed, DEFAULT_MIN_COUNTED_PAGES)
    }
    return {id(line) for lines in series.values() for line in lines}, set(series)


def _numbered_rows(
    page: PageContent, series: set[tuple[str, int]], offsets: set[int]
) -> list[Line]:
    """A table that ends (or starts) its page, whose last (first) row holds nothing but
    the page's number in the document's count (a lone number running ahead of the page
    as the other pages' numbers do, or a footer of a page series): the page number, which
    the table's ruling or tags took in as a row (`| 8 | | |` under a cash flow
    statement). The row is taken out and returned as a line, boxed as the table's row
    of average height at that end; a table keeps two rows at least."""
    if not page.items:
        return []
    out: list[Line] = []
    for table, last in (
        (max(page.items, key=lambda item: item.bottom), True),
        (min(page.items, key=lambda item: item.top), False),
    ):
        if not isinstance(table, PageTable) or len(table.rows) < 3:
            continue
        row = table.rows[-1 if last else 0]
        cells = [cell for cell in row if cell]
        if len(cells) != 1 or not _counts(" ".join(cells[0].split()), page.number, series, offsets):
            continue
        height = (table.bottom - table.top) / len(table.rows)
        top = table.bottom - height if last else table.top
        line = Line(cells[0], page.number, table.x0, table.x1, top, top + height, height, "")
        if last:
            table.rows.pop()
        else:
            table.rows.pop(0)
            table.header_rows = header_rows(table.rows) if table.header_rows else 0
        out.append(line)
    return out


def _counts(text: str, page: int, series: set[tuple[str, int]], offsets: set[int]) -> bool:
    """Whether `text` is the page's number: a lone number in the count of the
    document's page numbers, or the text of a page series with its number in place."""
    if _LONE_NUMBER.fullmatch(text):
        return int(text) - page in offsets
    return any(key in series for key in _series_keys(text, page))


def _series_keys(text: str, page: int) -> Iterator[tuple[str, int]]:
    """Each number in `text` that could be its page's: (the text with `#` in the number's
    place, how far the number runs ahead of the page) — a page series' key."""
    for found in PAGE_DIGITS.finditer(text):
        yield text[: found.start()] + "#" + text[found.end() :], int(found.group()) - page
