"""The page stages: what an engine read off one page (`PageReading`) to a `PageContent`.

Each engine reads a page its own way (engines/) into the same raw values: words in the
page's reading frame, ruled grids, the structure tree's evidence, drawn shapes. The
stages in `PAGE_STAGES` do the rest the same way for both, in order, each on the one
`PageWork` of the page; `read_pages` is the per-page loop (in this process or in a
page-reading worker, parallel.py) that keeps one bad page from losing the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .borderless import find_borderless_tables
from .cleanup import clean_text
from .engines.base import Across, OpenPdf, PageReading, Shape
from .figures import figure_areas, take_figures
from .interleaved import Part, split_interleaved
from .layout import (
    Row,
    body_size,
    cluster_rows,
    find_gutters,
    join_words,
    make_line,
    regions,
)
from .margins import take_margins
from .symbol_fonts import glyph_text
from .tables import kept_tables, tagged_tables
from .terms import Gutter, take_term_tables
from .types import Line, PageContent, PageFigure, PageTable, PageTags, Word, unsure

DEFAULT_NARROW = 8.0
"""A region narrower than this many ems holds names or labels, not running text (a
newspaper's narrowest column is about 15)."""
DEFAULT_BULLET_REACH = 2.5
"""How far left of a line's first word (in font sizes) a drawn bullet may sit."""
PROGRESS_PAGES = 4
"""Pages read between two progress reports."""


@dataclass(slots=True)
class PageWork:
    """One page on its way through `PAGE_STAGES`: what its engine read, what the stages
    have taken out of the text so far, and the rows left."""

    reading: PageReading
    content: PageContent
    tables: list[PageTable] = field(default_factory=list)
    """Ruled, tagged, borderless and term tables, as each stage finds them."""
    words: list[Word] = field(default_factory=list)
    """The words of the text: outside the ruled tables, then outside the figures."""
    read: list[str] = field(default_factory=list)
    """Every word's text as read, tables' too (for the audit, `PageContent.read`)."""
    across: list[Word] = field(default_factory=list)
    """Text running across the page, as whole lines."""
    turned: list[Word] = field(default_factory=list)
    """Those lines not on a figure: lines of the page's text of their own."""
    em: float = 0.0
    """The body text's font size."""
    figures: list[PageFigure] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    margin: list[Row] = field(default_factory=list)
    """The margin notes' rows, read after the page's text."""
    gutters: list[Gutter] = field(default_factory=list)


PageStage = Callable[[PageWork], None]


def _inside(word: Word, table: PageTable) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return table.x0 <= cx <= table.x1 and table.top <= cy <= table.bottom


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


def _lines_across(across: Across) -> list[Word]:
    """Text running across the page (a margin note printed sideways, a rotated column
    title) as whole lines, one `Word` each: read in its own frame, line by line, then
    placed on the page. Left with the page's words, its letters would sit on the page's
    lines one by one, or its tall boxes swallow several lines."""
    to_page = across.to_page
    out = []
    for row in cluster_rows(across.words):
        text = join_words(row.words)
        if not text:
            continue
        x0, top, x1, bottom = to_page(
            (
                min(w.x0 for w in row.words),
                min(w.top for w in row.words),
                max(w.x1 for w in row.words),
                max(w.bottom for w in row.words),
            )
        )
        first = row.words[0]
        out.append(Word(text, x0, x1, top, bottom, first.size, first.font, first.mcid, first.tag))
    return out


def _ruled_tables(work: PageWork) -> None:
    """Ruled grids kept as tables and their words out of the text; the text running
    across the page as whole lines; the body size."""
    reading = work.reading
    work.tables = kept_tables(reading.grids, reading.number)
    work.across = [line for across in reading.across for line in _lines_across(across)]
    work.words, work.read = _outside_tables(reading.words, work.tables)
    work.em = body_size(work.words)


def _figures(work: PageWork) -> None:
    """Charts: the words on a plot beside its scale taken out as a figure."""
    reading = work.reading
    areas = figure_areas(work.words, reading.drawings, (reading.width, reading.height), work.em)
    page = (reading.number, reading.height)
    work.figures, work.words, work.turned = take_figures(
        work.words, work.across, areas, page, work.em
    )


def _rows(work: PageWork) -> None:
    """The words into rows."""
    work.rows = cluster_rows(work.words)


def _tagged_tables(work: PageWork) -> None:
    """Marked-content ids mended; tagged table cells out of the rows."""
    tags = work.reading.tags
    if tags:
        work.rows = _apply_tags(work.rows, work.words, tags, work.tables, work.reading.number)


def _borderless_tables(work: PageWork) -> None:
    """Aligned figures under header lines (financial statements) out of the rows."""
    work.rows = _take_borderless_tables(work.rows, work.tables, work.reading.number, work.em)


def _margins(work: PageWork) -> None:
    """Margin notes and line numbers beside the text out of its rows."""
    number = work.reading.number
    work.rows, work.margin, numbers = take_margins(work.rows, work.em)
    work.content.line_numbers = [
        line for row in numbers if (line := make_line(row.words, number, -1)) is not None
    ]


def _gutters(work: PageWork) -> None:
    """The gutters between columns."""
    work.gutters = find_gutters(work.rows, work.em)


def _term_tables(work: PageWork) -> None:
    """Terms printed beside their definitions out of the rows, as a table."""
    work.rows, term_tables = take_term_tables(work.rows, work.gutters, work.reading.number)
    work.tables.extend(term_tables)


def _text_as_read(work: PageWork) -> None:
    """Every word as read, the text across the page too, for the audit."""
    _, read_across = _outside_tables(work.across, work.tables)
    work.content.read = clean_text(" ".join([*work.read, *read_across]))  # `(cid:N)` glyphs go


def _placed(work: PageWork) -> None:
    """Tables, figures and the text across the page placed among the rows, top down."""
    tables = work.tables
    placed: list[PageTable | PageFigure] = [*tables, *work.figures]
    work.rows.extend(Row([], t.top, t.bottom, table=t) for t in placed)
    work.turned = [glyph_text(w) for w in work.turned if not any(_inside(w, t) for t in tables)]
    work.rows.extend(Row([w], w.top, w.bottom) for w in work.turned)
    work.rows.sort(key=lambda r: r.top)


def _lines(work: PageWork) -> None:
    """Reading-order regions, column by column, and their lines with list markers and
    heading tags."""
    reading, content, em = work.reading, work.content, work.em
    number, tags = reading.number, reading.tags
    turned = {id(w) for w in work.turned}
    shapes = reading.shapes if reading.orientation == "ltr" else []
    parts = [
        part
        for region in regions(work.rows, work.gutters)
        for part in split_interleaved(region, em)
    ]
    margin_part = len(parts)  # the page's margin notes are read after its text
    if work.margin:
        parts.append(Part(work.margin))
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
            line.unsure = unsure(row.words)
            line.beside = beside
            line.margin_note = index == margin_part
            line.short = row.x1 < middle or row.x0 > middle
            if shapes:
                _attach_bullet(line, shapes)
            if tags and tags.headings:
                line.tag = _tag(row.words, tags.headings)
            content.items.append(line)


PAGE_STAGES: tuple[PageStage, ...] = (
    _ruled_tables,
    _figures,
    _rows,
    _tagged_tables,
    _borderless_tables,
    _margins,
    _gutters,
    _term_tables,
    _text_as_read,
    _placed,
    _lines,
)
"""The page stages, in order: the ruled tables out of the text first (their words are
read from the grid), then the figures, before the rows are made; tagged, borderless and
term tables out of the rows (the term tables need the gutters, after the margins are
taken); last everything placed in reading order and made lines."""


def assemble(reading: PageReading, stages: tuple[PageStage, ...] = PAGE_STAGES) -> PageContent:
    """Lines and tables in reading order from what an engine read off the page."""
    content = PageContent(
        reading.number,
        reading.width,
        reading.height,
        chars=reading.chars,
        images=reading.images,
        chars_left_out=reading.chars_left_out,
        orientation=reading.orientation,
        ocr_confidence=reading.ocr_confidence,
    )
    if not reading.chars:
        return content
    work = PageWork(reading, content)
    for stage in stages:
        stage(work)
    return content


def read_pages(pdf: OpenPdf, indexes: list[int], tagged: bool) -> list[PageContent]:
    """The pages of `pdf` in turn, each read and assembled; a page that fails keeps its
    error (its number 1-based)."""
    out = []
    for index in indexes:
        try:
            content = assemble(pdf.read_page(index, tagged))
        except Exception as error:  # one bad page never loses the rest of the document
            cause = _unwrapped(error)
            content = PageContent(
                index + 1, 0.0, 0.0, error=f"{type(cause).__name__}: {cause}"[:200]
            )
        out.append(content)
    return out


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


def _unwrapped(error: Exception) -> BaseException:
    """pdfminer's own error inside pdfplumber's `PdfminerException`, which says nothing."""
    if type(error).__name__ == "PdfminerException" and error.args:
        inner = error.args[0]
        if isinstance(inner, BaseException):
            return inner
    return error


def ocr_pages(pages: list[PageContent]) -> int:
    """How many of `pages` were read by OCR (for the progress reports)."""
    return sum(page.ocr_confidence is not None for page in pages)
