"""One page's words, tables, tags and bullets to a `PageContent`: lines in reading order.

Both engines end here. Each reads a page its own way — `plumber_page.py` through
pdfplumber's page objects, `pdfium_page.py` through PDFium's text page and objects —
into the same values: words in the page's reading frame, ruled tables, the structure
tree's evidence, drawn bullet shapes. `assemble` does the rest the same way for both:
tagged and borderless tables out of the flow, column gutters, reading-order regions,
lines with their list markers and heading tags. `read_pages` is the per-page loop that
keeps one bad page from losing the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .borderless import find_borderless_tables
from .cleanup import clean_text
from .figures import Box, figure_areas, take_figures
from .interleaved import Part, split_interleaved
from .layout import Row, body_size, cluster_rows, find_gutters, make_line, regions
from .margins import take_margins
from .symbol_fonts import glyph_text
from .tables import tagged_tables
from .terms import take_term_tables
from .types import Line, PageContent, PageFigure, PageTable, PageTags, Word

DEFAULT_NARROW = 8.0
"""A region narrower than this many ems holds names or labels, not running text (a
newspaper's narrowest column is about 15)."""
DEFAULT_BULLET_MAX = 8.0
"""Largest drawn bullet (points): browsers draw list discs and circles of about 3.7 pt."""
DEFAULT_BULLET_REACH = 2.5
"""How far left of a line's first word (in font sizes) a drawn bullet may sit."""
PROGRESS_PAGES = 4
"""Pages read between two progress reports."""

Shape = tuple[float, float, float, float, bool]
"""A small drawn shape: (x0, top, x1, bottom, filled), in the page's coordinates."""


@dataclass(slots=True)
class PageReading:
    """What an engine read off one page, before layout."""

    number: int
    width: float
    height: float
    """Of the reading frame (swapped for a page read sideways)."""
    orientation: str = "ltr"
    chars: int = 0
    images: int = 0
    chars_left_out: int = 0
    """Characters past `MAX_CHARS_PER_PAGE` that were not read."""
    words: list[Word] = field(default_factory=list)
    tables: list[PageTable] = field(default_factory=list)
    tags: PageTags | None = None
    shapes: list[Shape] = field(default_factory=list)
    """Bullet candidates (only looked for on pages read left to right)."""
    aside: list[Word] = field(default_factory=list)
    """Lines of text running across the page's reading direction, one `Word` each: each
    is a row of its own."""
    drawings: list[Box] = field(default_factory=list)
    """The boxes of the page's drawn shapes and images, where a chart may be (only on
    pages read left to right)."""


def _inside(word: Word, table: PageTable) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return table.x0 <= cx <= table.x1 and table.top <= cy <= table.bottom


def is_bullet_shape(width: float, height: float) -> bool:
    """Square-ish and small: how list bullets are drawn."""
    return (
        1.5 <= width <= DEFAULT_BULLET_MAX
        and 1.5 <= height <= DEFAULT_BULLET_MAX
        and 0.6 <= width / height <= 1.6
    )


def _attach_bullet(line: Line, shapes: list[Shape]) -> None:
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
    keeps no id, and neither do artifacts. (PDFium keeps the outer id: nothing to do.)
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


def assemble(reading: PageReading) -> PageContent:
    """Lines and tables in reading order from what an engine read off the page."""
    number, tags = reading.number, reading.tags
    content = PageContent(
        number,
        reading.width,
        reading.height,
        chars=reading.chars,
        images=reading.images,
        chars_left_out=reading.chars_left_out,
        orientation=reading.orientation,
    )
    if not reading.chars:
        return content
    tables = list(reading.tables)
    words, read = _outside_tables(reading.words, tables)
    em = body_size(words)
    areas = figure_areas(words, reading.drawings, (reading.width, reading.height), em)
    page = (number, reading.height)
    figures, words, turned_words = take_figures(words, reading.aside, areas, page, em)
    rows = cluster_rows(words)
    if tags:
        rows = _apply_tags(rows, words, tags, tables, number)
    rows = _take_borderless_tables(rows, tables, number, em)
    rows, margin, numbers = take_margins(rows, em)
    content.line_numbers = [
        line for row in numbers if (line := make_line(row.words, number, -1)) is not None
    ]
    gutters = find_gutters(rows, em)
    rows, term_tables = take_term_tables(rows, gutters, number)
    tables.extend(term_tables)
    placed: list[PageTable | PageFigure] = [*tables, *figures]
    rows.extend(Row([], t.top, t.bottom, table=t) for t in placed)
    aside = [glyph_text(w) for w in turned_words if not any(_inside(w, t) for t in tables)]
    _, read_aside = _outside_tables(reading.aside, tables)
    content.read = clean_text(" ".join([*read, *read_aside]))  # `(cid:N)` glyphs go
    rows.extend(Row([w], w.top, w.bottom) for w in aside)
    turned = {id(w) for w in aside}
    rows.sort(key=lambda r: r.top)
    shapes = reading.shapes if reading.orientation == "ltr" else []
    parts = [part for region in regions(rows, gutters) for part in split_interleaved(region, em)]
    margin_part = len(parts)  # the page's margin notes are read after its text
    if margin:
        parts.append(Part(margin))
    for index, (region, beside) in enumerate(parts):
        middle = _middle(region, em)
        for row in region:
            if row.table is not None:
                row.table.region = index
                content.items.append(row.table)
                continue
            line = make_line(row.words, number, index)
            if line is None:
                continue
            line.turned = id(row.words[0]) in turned
            line.beside = beside
            line.margin_note = index == margin_part
            line.short = row.x1 < middle or row.x0 > middle
            if shapes:
                _attach_bullet(line, shapes)
            if tags and tags.headings:
                line.tag = _tag(row.words, tags.headings)
            content.items.append(line)
    return content


def _outside_tables(words: list[Word], tables: list[PageTable]) -> tuple[list[Word], list[str]]:
    """The words outside the ruled tables (symbol fonts mapped), and every word's text as
    read: a ruled table's cells are read from its characters without fonts."""
    outside: list[Word] = []
    read: list[str] = []
    for word in words:
        if tables and any(_inside(word, t) for t in tables):
            read.append(word.text)
        else:
            word = glyph_text(word)
            outside.append(word)
            read.append(word.text)
    return outside, read


def _middle(region: list[Row], em: float) -> float:
    """The middle of the region's text width (-inf when it holds no text); +inf when
    the region is too narrow for running text (a column of names), so that every line
    in it counts as short."""
    text = [row for row in region if row.words]
    if not text:
        return float("-inf")
    left, right = min(row.x0 for row in text), max(row.x1 for row in text)
    if right - left < DEFAULT_NARROW * em:
        return float("inf")
    return (left + right) / 2


def read_pages(read: Callable[[int], PageContent], indexes: list[int]) -> list[PageContent]:
    """`read` each page in turn; a page that fails keeps its error (its number 1-based)."""
    out = []
    for index in indexes:
        try:
            content = read(index)
        except Exception as error:  # one bad page never loses the rest of the document
            cause = _unwrapped(error)
            content = PageContent(
                index + 1, 0.0, 0.0, error=f"{type(cause).__name__}: {cause}"[:200]
            )
        out.append(content)
    return out


def _unwrapped(error: Exception) -> BaseException:
    """pdfminer's own error inside pdfplumber's `PdfminerException`, which says nothing."""
    if type(error).__name__ == "PdfminerException" and error.args:
        inner = error.args[0]
        if isinstance(inner, BaseException):
            return inner
    return error
