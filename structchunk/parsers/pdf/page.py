"""One pdfplumber page to a `PageContent`: words, ruled tables, lines in reading order.

This is the only stage that touches pdfplumber page objects; the caller closes each
page right after, so memory stays one page deep. Rotated pages (text running up or
down the page) are turned into a reading frame first, so the layout code only ever
sees left-to-right lines stacked top to bottom.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...progress import report
from .borderless import find_borderless_tables
from .cleanup import font_name
from .columns import tidy_columns
from .layout import Row, body_size, cluster_rows, find_gutters, make_line, regions
from .structure import page_tags
from .tables import TABLE_SETTINGS, clean_rows, header_rows, is_grid, tagged_tables
from .types import Line, PageContent, PageTable, PageTags, Word

Box = tuple[float, float, float, float]
log = logging.getLogger("structchunk")

DEFAULT_BULLET_MAX = 8.0
"""Largest drawn bullet (points): browsers draw list discs and circles of about 3.7 pt."""
DEFAULT_BULLET_REACH = 2.5
"""How far left of a line's first word (in font sizes) a drawn bullet may sit."""
PROGRESS_PAGES = 4
"""Pages read between two progress reports."""
HIDDEN_TEXT_MAX_SIZE = 2.0
"""Points: white text smaller than this is invisible on the page (see `is_hidden_text`)."""
DEFAULT_DUPLICATE_TOLERANCE = 1.0
"""Words repeated within this distance (points) are one word printed twice (fake bold)."""
DEFAULT_GRID_SLACK = 2.0
"""Points two columns of a ruled table may overlap (rules drawn twice)."""
DEFAULT_WORD_GAP = 0.15
"""A gap wider than this many font sizes between two glyphs separates words. pdfplumber's
fixed 3 points glues words of tightly set text (reports whose spaces are 2.5 points wide
read `U.S.DOToverseesandadministers`); glyphs within a word sit 0–0.1 em apart."""
_WORD_OPTIONS: dict[str, Any] = {
    "x_tolerance_ratio": DEFAULT_WORD_GAP,
    "y_tolerance": 3,
    "keep_blank_chars": False,
    "use_text_flow": False,
    "extra_attrs": ["size", "fontname", "mcid", "tag"],
}


def is_hidden_text(obj: dict[str, Any]) -> bool:
    """A glyph no reader can see: white and under `HIDDEN_TEXT_MAX_SIZE` points.

    Some generators print ids (`_63ec12c0-c0c9-…`) in 1-point white type on every page;
    they would land in chunks as noise. White alone is not enough (white on a dark
    table header is visible), nor is small alone (a scaled-down table is still read).
    """
    if obj.get("object_type") != "char":
        return False
    size = obj.get("size") or 0.0
    return 0.0 < float(size) < HIDDEN_TEXT_MAX_SIZE and _is_white(obj.get("non_stroking_color"))


def _is_white(color: Any) -> bool:
    """Gray 1, RGB (1, 1, 1) or CMYK (0, 0, 0, 0); patterns and unknown spaces are not."""
    if isinstance(color, (int, float)):
        color = (color,)
    if not isinstance(color, (tuple, list)) or not color:
        return False
    if not all(isinstance(c, (int, float)) for c in color):
        return False
    if len(color) == 4:
        return all(c <= 0.01 for c in color)
    return len(color) in (1, 3) and all(c >= 0.99 for c in color)


def _orientation(chars: list[dict[str, Any]]) -> str:
    """`ltr` for ordinary pages; `ttb`/`btt` when most text runs down/up the page."""
    turned = Counter(
        "btt" if c["matrix"][1] > 0 else "ttb" for c in chars if not c.get("upright", True)
    )
    if sum(turned.values()) * 2 <= len(chars):
        return "ltr"
    return turned.most_common(1)[0][0]


def _frame(orientation: str, width: float, height: float) -> Callable[[Box], Box]:
    """A map from page boxes (x0, top, x1, bottom) to reading-frame boxes."""
    if orientation == "ttb":
        return lambda b: (b[1], width - b[2], b[3], width - b[0])
    if orientation == "btt":
        return lambda b: (height - b[3], b[0], height - b[1], b[2])
    return lambda b: b


def _words(page: Any, orientation: str, to_frame: Callable[[Box], Box]) -> list[Word]:
    options = dict(_WORD_OPTIONS)
    if orientation != "ltr":
        options["char_dir_rotated"] = orientation
        options["line_dir_rotated"] = "rtl" if orientation == "ttb" else "ltr"
    words = []
    seen: set[tuple[str, int, int]] = set()
    for raw in page.extract_words(**options):
        x0, top, x1, bottom = to_frame((raw["x0"], raw["top"], raw["x1"], raw["bottom"]))
        key = (
            raw["text"],
            round(x0 / DEFAULT_DUPLICATE_TOLERANCE),
            round(top / DEFAULT_DUPLICATE_TOLERANCE),
        )
        if key in seen:
            continue
        seen.add(key)
        words.append(
            Word(
                raw["text"],
                x0,
                x1,
                top,
                bottom,
                float(raw["size"] or 0.0),
                font_name(raw["fontname"]),
                raw.get("mcid"),
                raw.get("tag"),
            )
        )
    return words


def _tables(page: Any, number: int, to_frame: Callable[[Box], Box]) -> list[PageTable]:
    if not (page.rects or page.lines or page.curves):
        return []
    found = []
    for table in page.find_tables(TABLE_SETTINGS):
        if _overlapping_columns(table):
            continue  # shaded rows, not a grid: read as a borderless table instead
        rows = clean_rows(table.extract(x_tolerance_ratio=DEFAULT_WORD_GAP))
        if not is_grid(rows):
            continue
        head = header_rows(rows)
        header, body = tidy_columns(rows[:head], rows[head:])
        rows = clean_rows([*header, *body])
        x0, top, x1, bottom = to_frame(table.bbox)
        found.append(PageTable(rows, number, x0, x1, top, bottom, header_rows=head))
    return found


def _overlapping_columns(table: Any) -> bool:
    """Columns that overlap are no grid: alternate-row shading (financial statements)
    gives `find_tables` cell edges that differ from row to row."""
    spans = sorted((column.bbox[0], column.bbox[2]) for column in table.columns)
    return any(b0 < a1 - DEFAULT_GRID_SLACK for (_, a1), (b0, _) in zip(spans, spans[1:]))


def _inside(word: Word, table: PageTable) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return table.x0 <= cx <= table.x1 and table.top <= cy <= table.bottom


def _bullets(page: Any) -> list[tuple[float, float, float, float, bool]]:
    """Small square-ish drawn shapes (x0, top, x1, bottom, filled): list bullets."""
    shapes = []
    for obj in (*page.curves, *page.rects):
        w, h = obj["x1"] - obj["x0"], obj["bottom"] - obj["top"]
        if (
            1.5 <= w <= DEFAULT_BULLET_MAX
            and 1.5 <= h <= DEFAULT_BULLET_MAX
            and 0.6 <= w / h <= 1.6
        ):
            shapes.append((obj["x0"], obj["top"], obj["x1"], obj["bottom"], bool(obj.get("fill"))))
    return shapes


def _attach_bullet(line: Line, shapes: list[tuple[float, float, float, float, bool]]) -> None:
    if line.marker:
        return
    reach = DEFAULT_BULLET_REACH * max(line.size, 1.0)
    for x0, top, x1, bottom, filled in shapes:
        middle = (top + bottom) / 2
        if line.x0 - reach <= x1 <= line.x0 + 0.5 and line.top - 1 <= middle <= line.bottom + 1:
            line.marker = "•" if filled else "◦"
            line.marker_x = x0
            return


def _inherit_mcids(rows: list[Row]) -> None:
    """Give words drawn in a nested untagged span their enclosing marked-content id.

    pdfplumber forgets the outer MCID after a nested marked-content sequence ends (a
    ligature wrapped in a `Span` with ActualText, as browsers write `fi`), so the rest
    of a tagged heading would look untagged. Only words after such a nested span inherit:
    text drawn outside any marked content (no id, no tag) right after a tagged word
    keeps no id, and neither do artifacts.
    """
    last: int | None = None
    nested = False
    for row in rows:
        for word in row.words:
            if word.mcid is not None:
                last, nested = word.mcid, False
            elif word.tag is not None and word.tag != "Artifact":
                word.mcid, nested = last, True
            elif word.tag is None and nested:
                word.mcid = last
            else:
                last, nested = None, False


def _tag(words: list[Word], tags: dict[int, tuple[int, int]]) -> tuple[int, int] | None:
    """The heading element most of the line's characters belong to, if any."""
    counts: Counter[tuple[int, int]] = Counter()
    total = 0
    for word in words:
        total += len(word.text)
        if word.mcid is not None and word.mcid in tags:
            counts[tags[word.mcid]] += len(word.text)
    if not counts:
        return None
    element, chars = counts.most_common(1)[0]
    return element if chars * 2 >= total else None


def _apply_tags(
    rows: list[Row], words: list[Word], tags: PageTags, tables: list[PageTable], number: int
) -> list[Row]:
    """Fix marked-content ids, then take tagged table cells out of the flow into `tables`."""
    _inherit_mcids(rows)
    if not tags.cells:
        return rows
    found, rest = tagged_tables(words, tags.cells, number)
    if not found:
        return rows
    tables.extend(found)
    return cluster_rows(rest)


def _take_borderless_tables(
    rows: list[Row], tables: list[PageTable], number: int, em: float
) -> list[Row]:
    """Move the rows of borderless tables into `tables`; return the rows left."""
    found = find_borderless_tables(
        [r.words for r in rows], [r.top for r in rows], [r.bottom for r in rows], number, em
    )
    if not found:
        return rows
    used = {index for table in found for index in table.rows}
    tables.extend(table.table for table in found)
    return [row for index, row in enumerate(rows) if index not in used]


def _page_tags(page: Any) -> PageTags | None:
    try:
        return page_tags(page.pdf, page)
    except Exception as error:  # a broken tree only costs us its evidence
        log.debug("page %s: structure tree unreadable: %s", page.page_number, error)
        return None


def read_page(page: Any, tagged: bool = False) -> PageContent:
    """Everything later stages need from one page, in reading order."""
    number = page.page_number
    tagged_page = page
    chars = page.chars
    if any(is_hidden_text(c) for c in chars):
        page = page.filter(lambda obj: not is_hidden_text(obj))
        chars = page.chars
    orientation = _orientation(chars) if chars else "ltr"
    width, height = float(page.width), float(page.height)
    to_frame = _frame(orientation, width, height)
    if orientation != "ltr":
        width, height = height, width
    content = PageContent(
        number, width, height, chars=len(chars), images=len(page.images), orientation=orientation
    )
    if not chars:
        return content
    tags = _page_tags(tagged_page) if tagged else None
    tables = _tables(page, number, to_frame)
    words = [
        w for w in _words(page, orientation, to_frame) if not any(_inside(w, t) for t in tables)
    ]
    rows = cluster_rows(words)
    if tags:
        rows = _apply_tags(rows, words, tags, tables, number)
    em = body_size(words)
    rows = _take_borderless_tables(rows, tables, number, em)
    gutters = find_gutters(rows, em)
    rows.extend(Row([], t.top, t.bottom, table=t) for t in tables)
    rows.sort(key=lambda r: r.top)
    shapes = _bullets(page) if orientation == "ltr" else []
    for index, region in enumerate(regions(rows, gutters)):
        for row in region:
            if row.table is not None:
                row.table.region = index
                content.items.append(row.table)
                continue
            line = make_line(row.words, number, index)
            if line is None:
                continue
            if shapes:
                _attach_bullet(line, shapes)
            if tags and tags.headings:
                line.tag = _tag(row.words, tags.headings)
            content.items.append(line)
    return content


def read_all_pages(pdf: Any, tagged: bool) -> list[PageContent]:
    """Every page in order, in this process, reporting progress as pages finish."""
    count = len(pdf.pages)
    pages: list[PageContent] = []
    for start in range(0, count, PROGRESS_PAGES):
        pages.extend(
            read_pages(pdf, list(range(start, min(start + PROGRESS_PAGES, count))), tagged)
        )
        report(len(pages), count)
    return pages


def read_pages(pdf: Any, indexes: list[int], tagged: bool) -> list[PageContent]:
    """Read pages one at a time, closing each; a page that fails keeps its error."""
    out = []
    for index in indexes:
        page = pdf.pages[index]
        try:
            content = read_page(page, tagged)
        except Exception as error:  # one bad page never loses the rest of the document
            cause = _unwrapped(error)
            content = PageContent(
                index + 1, 0.0, 0.0, error=f"{type(cause).__name__}: {cause}"[:200]
            )
        finally:
            page.close()
        out.append(content)
    return out


def _unwrapped(error: Exception) -> BaseException:
    """pdfminer's own error inside pdfplumber's `PdfminerException`, which says nothing."""
    if type(error).__name__ == "PdfminerException" and error.args:
        inner = error.args[0]
        if isinstance(inner, BaseException):
            return inner
    return error
