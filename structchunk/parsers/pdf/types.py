"""The values the PDF reader passes between its stages: words, lines, tables, pages.

Reading a page (the slow pdfminer part) turns it into a `PageContent` of plain,
picklable values, so pages can be read in other processes and the page objects
closed at once; every later stage (running headers, headings, blocks) works on these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass(slots=True)
class Word:
    """A run of characters in one font, with its box in reading-frame coordinates."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    font: str
    """Font name without the subset prefix (`ABCDEF+`)."""
    mcid: int | None = None
    """Marked-content id (tagged PDFs): links the word to the structure tree."""
    tag: str | None = None
    """Marked-content tag (`Span`, `Artifact`, …) the word was drawn in."""
    confidence: float | None = None
    """OCR's confidence in the word, 0-100 (None on a text layer)."""


@dataclass(slots=True)
class Line:
    """One line of text within one column, in reading order.

    The style fields describe the dominant font (by characters); `uniform` says the
    whole line is in that style, which typography needs to tell headings from body text.
    """

    text: str
    page: int
    """1-based page number."""
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    font: str
    bold: bool = False
    mono: bool = False
    """Every word is in a monospace font (code)."""
    uniform: bool = True
    """All words are about the same size (a heading may mix fonts: `The Tuple Type`)."""
    main_share: float = 1.0
    """Share of the characters in the dominant font."""
    bold_share: float = 0.0
    """Share of the letters in a bold font (a whole-line bold heading has all of them)."""
    italic_share: float = 0.0
    """Share of the letters in an italic font."""
    region: int = 0
    """Reading-order region (column segment) of the page; lines of one paragraph share it."""
    beside: bool = False
    """The region stands beside the one before it (the right of two interleaved columns),
    so its text never continues that region's last line."""
    short: bool = False
    """The line stops before the middle of its region or starts after it, or stands in
    a region too narrow for running text: a paragraph's last line, a name, a label.
    After a page or column break only a line set in under it or starting in lower case
    continues it (a stakeholder's name at the foot of a page took the next page's
    `Performance Indicators` into its line)."""
    margin_note: bool = False
    """Set in a side margin beside the body text (`margins.py`): a journal's short title
    and page number there are running furniture as a header in the top margin is."""
    marker: str = ""
    """List marker found at the start of the line (`•`, `1.`, `a)`), or a drawn bullet."""
    marker_x: float = 0.0
    """Left edge of the marker (the line's left edge when there is none)."""
    label: bool = False
    """The marker is an entry's number set a cell's gap from the text (`31.1*` in a 10-Q's
    exhibit index): an entry starts there, wherever the line follows."""
    chars: int = 0
    cells: int = 1
    """Runs of words separated by wide gaps: more than one in a row of a borderless table."""
    inline_styles: tuple[tuple[str, float], ...] = ()
    """Styles (font, size) of the words that differ from the dominant one."""
    tag: tuple[int, int] | None = None
    """(structure element id, heading level) when tagged as a heading (`H1`…`H6`)."""
    heading: int = 0
    """Heading level decided by the heading stage; 0 for body text."""
    turned: bool = False
    """Text running across the page's reading direction (a line printed up the margin):
    read as a line of its own, never a heading or a title."""
    unsure: bool = False
    """Read by OCR with little confidence (`unsure`): a drawing's strokes or a misread
    line, kept as text but never a heading."""

    def printed(self) -> str:
        """The line as printed, list marker included."""
        return f"{self.marker} {self.text}" if self.marker else self.text


@dataclass(slots=True)
class PageTable:
    """A ruled table found on a page, as cell texts."""

    rows: list[list[str]]
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    region: int = 0
    header_rows: int = 1
    """How many leading rows are header rows (0 or 1)."""


@dataclass(slots=True)
class PageFigure:
    """A chart's words — ticks, data labels, legend, axis titles — taken out of the
    page's text (`figures.py`): its lines from the top, and the chart's box."""

    lines: list[str]
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    region: int = 0

    def printed(self) -> str:
        """The figure's lines, one under the other."""
        return "\n".join(self.lines)


Item = Line | PageTable | PageFigure


class CellPlace(NamedTuple):
    """Where a tagged table cell sits in its table's grid (1-based row and column)."""

    table: int
    row: int
    column: int
    header: bool
    span: int = 1
    """Columns the cell covers (its `ColSpan` attribute)."""


@dataclass(slots=True)
class PageTags:
    """What a tagged PDF's structure tree says about one page's marked content."""

    headings: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Marked-content id → (heading element id, level)."""
    cells: dict[int, CellPlace] = field(default_factory=dict)
    """Marked-content id → the table cell it is drawn in."""


OCR_FONT = "OCR"
"""The font name of words read by OCR: Tesseract names no font (`OCR-Bold`: heavy
strokes, `engines/ocr_weight.py`)."""


DEFAULT_UNSURE_CONFIDENCE = 50.0
"""OCR's mean confidence (by letters) under which a line is unsure. On the three scanned
sets of `benchmarks/ocr.py` (30 rows: 3 sets, 5 conditions, 150 and 300 dpi), taking
unsure lines out of the headings gained on 25 documents-and-conditions and lost on 6
(17 rows up, 2 down): a drawing's strokes read `LJ` at 31 points is no title, while a
few real headings on noisy 150-dpi scans read under it."""


def unsure(words: list[Word]) -> bool:
    """Whether OCR read these words with a mean confidence (by letters) under
    `DEFAULT_UNSURE_CONFIDENCE`; words off a text layer are sure."""
    rated = [(w.confidence, len(w.text)) for w in words if w.confidence is not None]
    letters = sum(n for _c, n in rated)
    if not letters:
        return False
    return sum(c * n for c, n in rated) < DEFAULT_UNSURE_CONFIDENCE * letters


def measured(line: Line) -> bool:
    """The line was read off an image, so its size is Tesseract's estimate from the
    pixels, a few per cent either way, not the size the file sets."""
    return line.font.startswith(OCR_FONT)


MAX_CHARS_PER_PAGE = 500_000
"""Characters read off one page; the rest are left out with a warning. A dense page of
prose holds 3 000, a page of 6-point tables 20 000; each character read costs Python
some microseconds and a few hundred bytes until the page's lines are made."""

MAX_DRAWINGS = 5000
"""Drawn shapes and images an engine collects per page, and figures.py looks at, at most:
a map or a technical drawing holds tens of thousands and no scale this reading would
want."""


@dataclass(slots=True)
class PageContent:
    """Everything later stages need from one page, in reading order."""

    number: int
    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    chars: int = 0
    images: int = 0
    error: str = ""
    """Why the page could not be read (it then has no items)."""
    chars_left_out: int = 0
    """Characters past `MAX_CHARS_PER_PAGE` that were not read."""
    line_numbers: list[Line] = field(default_factory=list)
    """Numbers counting the lines in a side margin (`margins.py`): dropped, as furniture."""
    ocr_confidence: float | None = None
    """The words' mean confidence (0-100) when the page was read by OCR."""
    orientation: str = "ltr"
    """`ltr`, or `ttb`/`btt` when the text runs down/up the page, `rtl` for a scan read
    upside down: boxes are in the reading frame, and `source.page_box` turns them back
    into page coordinates."""
    read: str = ""
    """Every word the engine read off the page (hidden text and invisible copies left
    out already), space-separated: what the "nothing lost" audit (`strict`) holds the
    document's blocks and dropped lines to (`Document.read`)."""

    def lines(self) -> list[Line]:
        return [item for item in self.items if isinstance(item, Line)]
