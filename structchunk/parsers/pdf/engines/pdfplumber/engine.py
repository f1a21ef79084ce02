"""The pdfplumber engine's open PDF: pages read by pdfminer, one at a time and closed."""

from __future__ import annotations

from typing import Any

from .....options import PdfEngine
from ...structure import OutlineEntry, has_structure, read_outline
from ..base import OpenPdf, PageReading
from ..opening import open_pdf, open_plain
from . import page as plumber_page


def metadata_title(pdf: Any) -> str:
    """The Title of a pdfplumber PDF's metadata, whitespace collapsed."""
    value = (pdf.metadata or {}).get("Title")
    return " ".join(value.split()) if isinstance(value, str) else ""


class PlumberPdf(OpenPdf):
    """A PDF read by pdfplumber (pdfminer) alone."""

    engine: PdfEngine = "pdfplumber"

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

    def read_page(self, index: int, tagged: bool) -> PageReading:
        page = self.pdf.pages[index]
        try:
            return plumber_page.read_page(page, tagged)
        finally:
            page.close()

    def close(self) -> None:
        self.pdf.close()


def open_plumber(data: bytes, password: str = "") -> PlumberPdf:
    """Open PDF bytes with pdfplumber, repairing what viewers repair (opening.py)."""
    opened = open_pdf(data, password)
    return PlumberPdf(opened.pdf, opened.data, opened.password, opened.repaired)


def open_plumber_plain(data: bytes, password: str) -> PlumberPdf:
    """pdfplumber's own open of bytes already opened once (in a page-reading worker)."""
    return PlumberPdf(open_plain(data, password), data, password)
