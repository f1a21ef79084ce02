"""The document tree every parser produces and the packer consumes.

A `Document` is a root `Section` holding blocks (`Paragraph`, `ListBlock`, `Table`,
`Code`, `Figure`) and child sections. Nothing here knows about file formats or token budgets;
every node carries provenance (source lines for Markdown and text, pages for PDF).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["paragraph", "list", "table", "code", "figure"]
Box = tuple[int, float, float, float, float]
"""`(page, x0, top, x1, bottom)`: a PDF page (1-based) and a box on it in PDF points
from the page's top left, as pdfplumber measures."""
BOX_FIELDS = ("page", "x0", "top", "x1", "bottom")
"""A box's parts by name, in order: the fields of its Parquet struct."""


@dataclass(slots=True)
class Provenance:
    """Where a node came from in the source."""

    lines: tuple[int, int] | None = None
    """1-based inclusive source line range (Markdown, text)."""
    pages: tuple[int, ...] = ()
    """1-based page numbers (PDF)."""

    def merged(self, other: Provenance) -> Provenance:
        """The smallest provenance covering both."""
        if self.lines is None:
            lines = other.lines
        elif other.lines is None:
            lines = self.lines
        else:
            lines = (min(self.lines[0], other.lines[0]), max(self.lines[1], other.lines[1]))
        pages = tuple(sorted(set(self.pages) | set(other.pages)))
        return Provenance(lines, pages)


def page_ranges(pages: Iterable[int], separator: str = ",") -> str:
    """Pages as short, exact ranges: `[3, 4, 5, 7]` → `3-5,7` (a page without text, such
    as a full-page figure, leaves a gap)."""
    runs: list[tuple[int, int]] = []
    for page in sorted(set(pages)):
        if runs and page == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], page)
        else:
            runs.append((page, page))
    return separator.join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


@dataclass(slots=True)
class Paragraph:
    """Running text; line breaks inside it are soft unless the format had hard ones."""

    text: str
    prov: Provenance = field(default_factory=Provenance)
    kind: BlockKind = "paragraph"
    titles_next: bool = False
    """The format marks this text as the title of the block after it (mdBook's
    `<Listing caption="…">` around a code block): the packer keeps the two together."""


@dataclass(slots=True)
class ListItem:
    """One item of a list. Nested lists are flattened into items with a larger `depth`."""

    text: str
    marker: str = "-"
    """As written: `-`, `*`, `+`, `1.`, `2)` …"""
    depth: int = 0
    prov: Provenance = field(default_factory=Provenance)


@dataclass(slots=True)
class ListBlock:
    """A bullet or ordered list, nested lists included (see `ListItem.depth`)."""

    items: list[ListItem]
    prov: Provenance = field(default_factory=Provenance)
    kind: BlockKind = "list"


@dataclass(slots=True)
class Table:
    """A rectangular table: header rows (usually one) and body rows of cell texts."""

    header: list[list[str]]
    rows: list[list[str]]
    caption: str = ""
    prov: Provenance = field(default_factory=Provenance)
    row_provs: list[Provenance] = field(default_factory=list)
    """Per body row, when the format knows it (PDF pages); may be empty."""
    kind: BlockKind = "table"


@dataclass(slots=True)
class Code:
    """Verbatim text (code, preformatted). Never sentence-split."""

    text: str
    language: str = ""
    prov: Provenance = field(default_factory=Provenance)
    kind: BlockKind = "code"


@dataclass(slots=True)
class Figure:
    """The words printed on a chart (ticks, data labels, legend, axis titles), one line
    per printed line, and its caption: kept as the figure they belong to, never run into
    the text around it. Only the PDF reader finds figures (`parsers/pdf/figures.py`)."""

    text: str
    caption: str = ""
    prov: Provenance = field(default_factory=Provenance)
    kind: BlockKind = "figure"


Block = Paragraph | ListBlock | Table | Code | Figure


@dataclass(slots=True)
class Section:
    """A heading and everything under it up to the next heading of the same or higher level.

    `path` is filled in by the builder: the titles from the document root down to this
    section, so the packer never has to rebuild heading paths.
    """

    title: str
    level: int
    """0 for the root; 1–6 for headings (levels may be skipped)."""
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    path: tuple[str, ...] = ()
    prov: Provenance = field(default_factory=Provenance)

    def walk(self) -> list[Section]:
        """This section and all descendants in document order (iterative: no recursion limit)."""
        out: list[Section] = []
        stack = [self]
        while stack:
            section = stack.pop()
            out.append(section)
            stack.extend(reversed(section.children))
        return out


@dataclass(slots=True)
class PageRead:
    """What a reader saw on one page and what of it it left out on purpose: the "nothing
    lost" audit (`strict`) holds the blocks and headings of the page to the rest."""

    page: int
    """1-based."""
    words: str
    """Every word read off the page, space-separated, in the order read."""
    dropped: list[str] = field(default_factory=list)
    """The page's text left out on purpose (furniture, contents entries, a table header
    printed again), each also in `Document.dropped`."""


@dataclass(slots=True)
class Document:
    """A parsed document: its root section, title and format."""

    root: Section
    format: str
    title: str = ""
    warnings: list[str] = field(default_factory=list)
    """Non-fatal problems worth telling the user (e.g. a PDF page without text)."""
    dropped: list[str] = field(default_factory=list)
    """Text left out on purpose as furniture or navigation (PDF running headers and page
    numbers, contents entries), line by line: what an audit of "nothing lost" allows."""
    source_text: str = ""
    """The decoded source (Markdown, text, HTML) that chunk offsets index; for PDF, the
    text of the lines kept, in reading order, that `source_boxes` place on the pages."""
    source_boxes: list[tuple[int, Box]] = field(default_factory=list)
    """PDF: where each kept line (or table) starts in `source_text`, and its box."""
    dropped_boxes: list[Box] = field(default_factory=list)
    """PDF: the boxes of the `dropped` lines (running headers, page numbers, contents)."""
    ocr_pages: dict[int, float] = field(default_factory=dict)
    """PDF: the pages read by OCR (1-based), each with its words' mean confidence (0-100)."""
    read: list[PageRead] = field(default_factory=list)
    """PDF: page by page, the words the reader saw and what of them it dropped (empty for
    formats read without pages, which the audit then leaves alone)."""

    def sections(self) -> list[Section]:
        return self.root.walk()

    def has_headings(self) -> bool:
        return bool(self.root.children)


@dataclass(slots=True)
class GrowingDocument:
    """A document whose tree is built a piece at a time (long Markdown), so that it never
    exists whole: the packer takes the sections no later piece can change as they
    settle (`packing.outline.settled_sections`)."""

    root: Section
    format: str
    source_text: str
    """As `Document.source_text`."""
    open_paths: Iterator[list[Section]]
    """After each piece is read, the sections a later piece may still add to: the root,
    then each open section down to the current one. Every other section is final."""
    warnings: list[str]
    """As `Document.warnings`, complete once `open_paths` is exhausted."""
