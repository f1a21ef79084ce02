"""What every engine gives: an open PDF (`OpenPdf`) and, per page, a `PageReading`.

An engine opens the bytes (password, repairs) and gives the document-level evidence —
page count, metadata title, bookmarks, whether the file is tagged — and reads each page
into a `PageReading`: the raw values of one page (words in its reading frame, ruled
grids, the structure tree's evidence, drawn shapes), before any layout. The page stages
(parsers/pdf/page.py) make a `PageContent` of it, the same way for both engines.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from ....options import PdfEngine
from ..structure import OutlineEntry
from ..types import PageTags, Word

Box = tuple[float, float, float, float]
"""(x0, top, x1, bottom) from the page's top left."""
Shape = tuple[float, float, float, float, bool]
"""A small drawn shape: (x0, top, x1, bottom, filled), in the page's coordinates."""

DEFAULT_BULLET_MAX = 8.0
"""Largest drawn bullet (points): browsers draw list discs and circles of about 3.7 pt."""


@dataclass(slots=True)
class RuledGrid:
    """A ruled table as pdfplumber's table finder read it, before it is judged a table
    (parsers/pdf/tables.py `kept_tables`)."""

    raw: list[list[str | None]]
    """The cells' text, row by row (`None` where no cell is)."""
    box: Box
    """In the page's reading frame."""
    banded: bool
    """Its first row, one cell across the table, was a title band and is left out."""


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
    grids: list[RuledGrid] = field(default_factory=list)
    tags: PageTags | None = None
    shapes: list[Shape] = field(default_factory=list)
    """Bullet candidates (only looked for on pages read left to right)."""
    across: list[Across] = field(default_factory=list)
    """Text running across the page's reading direction, one group per direction: the
    page stages make whole lines of it, each a row of its own."""
    drawings: list[Box] = field(default_factory=list)
    """The boxes of the page's drawn shapes and images, where a chart may be (only on
    pages read left to right)."""
    ocr_confidence: float | None = None
    """The words' mean confidence (0-100) when they were read by OCR (engines/ocr.py)."""


@dataclass(slots=True)
class Across:
    """Words running across the page (a margin note printed sideways, a rotated column
    title), boxes in their own reading frame, and how to place a box of that frame on
    the page."""

    words: list[Word]
    to_page: Callable[[Box], Box]


def is_bullet_shape(width: float, height: float) -> bool:
    """Square-ish and small: how list bullets are drawn."""
    return (
        1.5 <= width <= DEFAULT_BULLET_MAX
        and 1.5 <= height <= DEFAULT_BULLET_MAX
        and 0.6 <= width / height <= 1.6
    )


class OpenPdf(ABC):
    """An open PDF behind one engine."""

    engine: PdfEngine
    data: bytes
    """The bytes it was opened from (repaired, when it was)."""
    password: str
    repaired: bool = False
    notes: tuple[str, ...] = ()
    """Warnings about how the file was opened."""

    @property
    @abstractmethod
    def count(self) -> int:
        """Number of pages."""

    @abstractmethod
    def tagged(self) -> bool:
        """Whether the file has a structure tree (tags)."""

    @abstractmethod
    def outline(self, warnings: list[str]) -> list[OutlineEntry]:
        """The bookmarks; a broken outline adds a warning and gives none."""

    @abstractmethod
    def title(self) -> str:
        """The Title of the metadata, whitespace collapsed ("" when there is none)."""

    @abstractmethod
    def extractable(self) -> bool:
        """Whether the permissions allow copying text."""

    @abstractmethod
    def read_page(self, index: int, tagged: bool) -> PageReading:
        """What one page (0-based index) holds, before layout."""

    @abstractmethod
    def close(self) -> None: ...
