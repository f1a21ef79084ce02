"""The two engines that read a PDF's pages, by the name `ParseSettings.pdf_engine` gives.

Each engine opens the bytes and reads pages into `PageReading` values (base.py); all that
follows is shared. Both give the same `Word` values to the same layout code, so they
differ only where their readings of the file do (docs/pdf.md, "Engines").

    base.py        `OpenPdf`, what an open PDF answers, and the `PageReading` of one page
    opening.py     header junk, truncated files, passwords; pdfplumber's open, damaged
                   files repaired by PDFium (both engines)
    words.py       characters to words, as pdfplumber groups them; reading frames
    grids.py       ruled grids through pdfplumber's table finder (both engines)
    ocr.py         pages without a text layer rendered and read by Tesseract (either
                   engine, `ParseSettings.ocr`)
    pdfium/        `pdfium` (the default): characters, drawing, tags and bookmarks through
                   PDFium's C library; pdfplumber only for the ruled tables of pages
                   whose drawing holds a grid
    pdfplumber/    `pdfplumber`: pdfminer's interpretation of every page

The names and the default are `options.PdfEngine` and `options.DEFAULT_PDF_ENGINE`.
"""

from __future__ import annotations

from ....errors import EncryptedDocumentError, NoTextError, ParseError, StructChunkError
from ....options import PdfEngine
from .base import OpenPdf
from .ocr import OcrSettings, with_ocr
from .pdfium.engine import open_pdfium, open_pdfium_plain
from .pdfplumber.engine import open_plumber, open_plumber_plain


def open_document(engine: PdfEngine, data: bytes, password: str = "") -> OpenPdf:
    """Open PDF bytes with `engine`, repairing what viewers repair; one-line typed errors
    (`EncryptedDocumentError`, `ParseError`) otherwise."""
    if engine == "pdfplumber":
        return open_plumber(data, password)
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


def reopen(engine: PdfEngine, data: bytes, password: str, ocr: OcrSettings) -> OpenPdf:
    """The bytes an `OpenPdf` was opened from, opened again as they are (in a worker),
    with the same OCR settings."""
    if engine == "pdfplumber":
        return with_ocr(open_plumber_plain(data, password), ocr)
    return with_ocr(open_pdfium_plain(data, password), ocr)
