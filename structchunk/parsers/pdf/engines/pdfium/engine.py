"""The PDFium engine: open a PDF with PDFium and read its pages into `PageReading`s.

PDFium (pypdfium2, which pdfplumber itself depends on) reads characters, drawing, tags
and bookmarks in C. pdfplumber's table finder reads the ruled tables of pages whose
drawing could hold one, from what PDFium read (tables.py); pdfplumber opens the
file itself (lazily, once) only for a page whose drawing is too large to collect.

Opening: junk before `%PDF-` is skipped as for the other engine; PDFium rebuilds a
broken cross-reference table itself (the file then counts as repaired, as when the
pdfplumber engine has PDFium rewrite it), and a file cut short is cut back to its last
whole object and given a trailer (../opening.py) when PDFium cannot open it as it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import pypdfium2
import pypdfium2.raw as raw

from .....errors import NoTextError, ParseError
from .....options import PdfEngine
from ...structure import OutlineEntry
from ..base import Box, OpenPdf, PageReading, RuledGrid
from ..opening import encrypted_error, from_header, open_pdf, rebuild_trailer, xref_pointer_ok
from ..pdfplumber.page import page_grids, visible
from ..words import frame, make_words, orientation
from .api import LOCK, handle
from .geometry import PageGeometry
from .glyph_names import GlyphNames, spell_private_codes
from .objects import page_objects
from .repeats import restore_repeats
from .structure import pdfium_outline, pdfium_page_tags
from .tables import pdfium_grids
from .text import read_text
from .visibility import visible_runs

log = logging.getLogger("structchunk")

_REASONS = {
    raw.FPDF_ERR_FORMAT: "not a valid PDF structure",
    raw.FPDF_ERR_FILE: "the file cannot be read",
    raw.FPDF_ERR_SECURITY: "an encryption PDFium does not support",
    raw.FPDF_ERR_PAGE: "no readable page",
}
"""PDFium's load errors in words, for the one-line error."""
_COPY_PERMISSION = 1 << 4
"""Bit 5 of the permission flags: copy or otherwise extract text."""


def _geometry(page: Any) -> PageGeometry:
    """The page's rotation and MediaBox (PDFium does not inherit a MediaBox from the page
    tree: a page without its own takes the page's bounding box, which does)."""
    box = page.get_mediabox(fallback_ok=False) or page.get_bbox()
    x0, x1 = sorted((float(box[0]), float(box[2])))
    y0, y1 = sorted((float(box[1]), float(box[3])))
    return PageGeometry(page.get_rotation() % 360, x0, y0, x1, y1)


class PdfiumPdf(OpenPdf):
    """A PDF read by PDFium (see the module docstring)."""

    engine: PdfEngine = "pdfium"

    def __init__(self, document: Any, data: bytes, password: str, repaired: bool) -> None:
        self.document = document
        self.data = data
        self.password = password
        self.repaired = repaired
        self._plumber: Any = None
        self._plumber_failed = False
        self._heights: dict[int, float] = {}
        self._names = GlyphNames(self._open_plumber)

    @property
    def count(self) -> int:
        with LOCK:
            return len(self.document)

    def tagged(self) -> bool:
        """Always look: each page's structure tree is read (when it has one) in C."""
        return True

    def outline(self, warnings: list[str]) -> list[OutlineEntry]:
        try:
            with LOCK:
                return pdfium_outline(self.document, self._height)
        except Exception as error:  # a broken outline only costs us its evidence
            warnings.append(
                f"bookmarks unreadable, headings from layout instead ({type(error).__name__})"
            )
            return []

    def _height(self, index: int) -> float:
        if index not in self._heights:
            page = self.document[index]
            try:
                self._heights[index] = _geometry(page).height
            finally:
                page.close()
        return self._heights[index]

    def title(self) -> str:
        with LOCK:
            return " ".join(self.document.get_metadata_value("Title").split())

    def extractable(self) -> bool:
        with LOCK:
            flags = raw.FPDF_GetDocPermissions(self.document)
        return bool(flags & _COPY_PERMISSION)

    def read_page(self, index: int, tagged: bool) -> PageReading:
        with LOCK:
            page = self.document[index]
            try:
                return self._read(page, index, tagged)
            finally:
                page.close()

    def _read(self, page: Any, index: int, tagged: bool) -> PageReading:
        geometry = _geometry(page)
        address = handle(page)
        tags = pdfium_page_tags(address) if tagged else None
        objects = page_objects(address, geometry, tags is not None)
        textpage = page.get_textpage()
        try:
            spell = partial(self._names.spell, index)
            text = read_text(handle(textpage), geometry, tags is not None, objects.inherited, spell)
            restore_repeats(text, objects, geometry)
            if text.private:
                private = partial(self._names.spell_private, index)
                spell_private_codes([*text.runs, *text.invisible], private)
        finally:
            textpage.close()
        runs = visible_runs(text.runs, text.invisible)
        turned = orientation(runs)
        width, height = geometry.width, geometry.height
        reading = PageReading(index + 1, width, height, turned, images=objects.images, tags=tags)
        reading.chars = sum(len(chars) for _, chars in runs)
        reading.chars_left_out = text.left_out
        if reading.chars:
            reading.words, reading.across = make_words(runs, turned, width, height)
            if objects.ruled:
                reading.grids = (
                    self._grids(index, frame(turned, width, height))
                    if objects.crowded
                    else pdfium_grids(objects, runs, geometry, turned)
                )
            reading.shapes = objects.shapes
            reading.drawings = objects.drawings if turned == "ltr" else []
        if turned != "ltr":
            reading.width, reading.height = height, width
        return reading

    def _grids(self, index: int, to_frame: Callable[[Box], Box]) -> list[RuledGrid]:
        """The ruled grids of a page whose drawing is too large to collect, by
        pdfplumber's own page (the file opened on first use)."""
        pdf = self._open_plumber()
        if pdf is None:
            return []
        page = pdf.pages[index]
        try:
            return page_grids(visible(page), to_frame)
        finally:
            page.close()

    def _open_plumber(self) -> Any:
        if self._plumber is None and not self._plumber_failed:
            try:
                opened = open_pdf(self.data, self.password)
                if len(opened.pdf.pages) == self.count:
                    self._plumber = opened.pdf
                else:
                    opened.pdf.close()
                    self._plumber_failed = True
            except Exception as error:  # ruled tables then stay text; the rest is read
                log.debug("pdfplumber cannot open the file for its tables: %s", error)
                self._plumber_failed = True
        return self._plumber

    def close(self) -> None:
        if self._plumber is not None:
            self._plumber.close()
        with LOCK:
            self.document.close()


def _load(data: bytes, password: str) -> Any:
    with LOCK:
        return pypdfium2.PdfDocument(data, password=password or None)


def open_pdfium(data: bytes, password: str = "") -> PdfiumPdf:
    """Open PDF bytes with PDFium, repairing what viewers repair (see the module
    docstring); `EncryptedDocumentError` or `ParseError` in one line otherwise."""
    data = from_header(data)
    try:
        return PdfiumPdf(_load(data, password), data, password, not xref_pointer_ok(data))
    except pypdfium2.PdfiumError as error:
        if error.err_code == raw.FPDF_ERR_PASSWORD:
            raise encrypted_error(error, password) from None
        if error.err_code == raw.FPDF_ERR_SUCCESS:
            raise NoTextError("the PDF has no pages") from None
        reason = _REASONS.get(error.err_code or 0, "PDFium cannot read it")
    fixed = rebuild_trailer(data)
    if fixed is not None:
        try:
            return PdfiumPdf(_load(fixed, password), fixed, password, True)
        except pypdfium2.PdfiumError as error:
            log.debug("repaired copy unreadable: %s", error)
    raise ParseError(f"damaged PDF that cannot be read ({reason})")


def open_pdfium_plain(data: bytes, password: str) -> PdfiumPdf:
    """PDFium's own open of bytes already opened once (in a page-reading worker)."""
    return PdfiumPdf(_load(data, password), data, password, False)
