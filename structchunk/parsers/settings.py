"""What every parser is told besides the bytes, and the shape of a parser.

Its own module so the format table (`formats.py`), which `parsers/__init__.py` imports,
can name these types without importing the package that imports it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..document import Document
from ..options import DEFAULT_OCR_DPI, DEFAULT_PDF_ENGINE, OcrMode, PdfEngine


@dataclass(frozen=True, slots=True)
class ParseSettings:
    """What a parser may need besides the bytes (only the PDF reader reads any of it)."""

    pdf_password: str = ""
    """Password of an encrypted PDF ("" tries the empty user password)."""
    page_workers: int = 1
    """Processes that may read the pages of one large PDF (output is the same for any)."""
    pdf_engine: PdfEngine = DEFAULT_PDF_ENGINE
    """What reads a PDF's pages: `pdfium` or `pdfplumber` (docs/pdf.md, "Engines")."""
    ocr: OcrMode = "auto"
    """Which PDF pages are read by OCR: `auto` (pages without a text layer), `always`,
    `never`."""
    ocr_language: str = "eng"
    """Tesseract's languages (`eng+deu`)."""
    ocr_dpi: int = DEFAULT_OCR_DPI
    """Resolution pages are rendered at for OCR."""


ParseFunction = Callable[[bytes, str, ParseSettings], Document]
