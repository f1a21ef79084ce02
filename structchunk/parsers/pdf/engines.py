"""The two engines that read a PDF's pages: PDFium (the default) and pdfplumber.

An engine opens the bytes (password, repairs) and gives the document-level evidence —
page count, metadata title, bookmarks, whether the file is tagged — and reads pages into
`PageContent` values; everything after that is shared. Both give the same `Word`
values to the same layout code, so they differ only where their readings of the file
do (docs/pdf.md, "Engines").

- `pdfium` (pdfium_engine.py): characters, drawing, tags and bookmarks through PDFium's
  C library; pdfplumber only for the ruled tables of pages whose drawing holds a grid.
- `pdfplumber` (this module): pdfminer's interpretation of every page, as before PDFium.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

from ...errors import EncryptedDocumentError, NoTextError, ParseError, StructChunkError
from . import plumber_page
from .opening import open_pdf, open_plain
from .page import read_pages
from .structure import OutlineEntry, has_structure, read_outline
from .types import PageContent

EngineName = Literal["pdfium", "pdfplumber"]
DEFAULT_ENGINE: EngineName = "pdfium"
"""Measured on the corpus (docs/pdf.md, "Engines"): as good on headings and text, and
several times faster."""


class OpenPdf(ABC):
    """An open PDF behind one engine."""

    engine: EngineName
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
    def read_page(self, index: int, tagged: bool) -> PageContent:
        """One page (0-based index) read into its lines and tables."""

    @abstractmethod
    def close(self) -> None: ...

    def read_pages(self, indexes: list[int], tagged: bool) -> list[PageContent]:
        """The pages in turn; one that fails keeps its error."""
        return read_pages(lambda index: self.read_page(index, tagged), indexes)


def metadata_title(pdf: Any) -> str:
    """The Title of a pdfplumber PDF's metadata, whitespace collapsed."""
    value = (pdf.metadata or {}).get("Title")
    return " ".join(value.split()) if isinstance(value, str) else ""


class PlumberPdf(OpenPdf):
    """A PDF read by pdfplumber (pdfminer) alone."""

    engine: EngineName = "pdfplumber"

    def __init__(self, pdf: Any, data: bytes, password: str, repaired: bool = False) -> None:
        self.pdf = pdf
        self.data = data
        self.password = password
        self.repaired = repaired

    @property
    def count(self) -> int:
        return len(self.pdf.pages)

    def tagged(self) -> bool:
        return has_structure(self.pdf)

    def outline(self, warnings: list[str]) -> list[OutlineEntry]:
        return read_outline(self.pdf, warnings)

    def title(self) -> str:
        return metadata_title(self.pdf)

    def extractable(self) -> bool:
        return bool(getattr(self.pdf.doc, "is_extractable", True))

    def read_page(self, index: int, tagged: bool) -> PageContent:
        page = self.pdf.pages[index]
        try:
            return plumber_page.read_page(page, tagged)
        finally:
            page.close()

    def close(self) -> None:
        self.pdf.close()


def open_document(engine: EngineName, data: bytes, password: str = "") -> OpenPdf:
    """Open PDF bytes with `engine`, repairing what viewers repair; one-line typed errors
    (`EncryptedDocumentError`, `ParseError`) otherwise."""
    if engine == "pdfplumber":
        opened = open_pdf(data, password)
        return PlumberPdf(opened.pdf, opened.data, opened.password, opened.repaired)
    from .pdfium_engine import open_pdfium

    try:
        return open_pdfium(data, password)
    except (EncryptedDocumentError, NoTextError):
        raise
    except ParseError as error:  # damaged past PDFium's repair: pdfminer may still read it
        try:
            fallback = open_document("pdfplumber", data, password)
        except StructChunkError:
            raise error from None
        reason = str(error).removeprefix("damaged PDF that cannot be read ")
        fallback.notes = (f"PDFium cannot open the file {reason}; read with pdfplumber",)
        return fallback


def reopen(engine: EngineName, data: bytes, password: str) -> OpenPdf:
    """The bytes an `OpenPdf` was opened from, opened again as they are (in a worker)."""
    if engine == "pdfplumber":
        return PlumberPdf(open_plain(data, password), data, password)
    from .pdfium_engine import open_pdfium_plain

    return open_pdfium_plain(data, password)
