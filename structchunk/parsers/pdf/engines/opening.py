"""Opening a PDF: password, junk before the header, damaged files.

Both engines skip junk before the header (`from_header`), give a truncated file a
trailer (`rebuild_trailer`) and word a wrong password alike (`encrypted_error`); the
rest is pdfplumber's open (`open_pdf`), which the PDFium engine also uses for the ruled
tables of a page too crowded to collect itself.

pdfminer (under pdfplumber) is strict about the file's skeleton. When it cannot open a
file, the bytes are handed to PDFium (pypdfium2, which pdfplumber already installs),
which rebuilds a broken cross-reference table the way viewers do; the rewritten file
is then read as usual and a warning says the file was repaired.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from typing import Any

import pdfplumber
from pdfminer.pdfdocument import PDFPasswordIncorrect

from ....errors import OPTION_SLOT, EncryptedDocumentError, OptionHint, ParseError
from .. import inflate

log = logging.getLogger("structchunk")
inflate.install()  # before any PDF is opened here or in a page reader

HEADER = b"%PDF-"
DEFAULT_HEADER_SEARCH = 65536
"""How far to look for `%PDF-` past junk at the start. The spec allows 1 KB (PDF 1.7,
Annex H.3); viewers look further, and mail gateways prepend longer banners."""
DEFAULT_CATALOG_LOOKBACK = 4096
"""How far before `/Type /Catalog` its `N 0 obj` header may be (a long catalog dictionary)."""
_OBJECT_HEADER = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
_STARTXREF = re.compile(rb"startxref\s+(\d+)")
DEFAULT_TRAILER_SEARCH = 4096
"""How far from the end to look for `startxref` (the spec puts it in the last 1 KB;
trailing junk pushes it further)."""
_CATALOG = re.compile(rb"/Type\s*/Catalog\b")
_PDFIUM_REMOVE_SECURITY = 3
"""`FPDF_REMOVE_SECURITY`: write the repaired copy unencrypted (it was opened already)."""


@dataclass
class OpenedPdf:
    """An open pdfplumber document and the exact bytes it was opened from."""

    pdf: Any
    data: bytes
    password: str
    """The password that opens `data` (empty after PDFium rewrote it unencrypted)."""
    repaired: bool = False


def _chain(error: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in out:
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def _reason(error: BaseException) -> str:
    messages = [str(e).strip() for e in _chain(error) if str(e).strip()]
    return messages[-1] if messages else type(_chain(error)[-1]).__name__


def open_plain(data: bytes, password: str) -> Any:
    """pdfplumber's own open, nothing more (used by worker processes too)."""
    pdf = pdfplumber.open(io.BytesIO(data), password=password)
    _ = pdf.pages  # builds the page list: a broken page tree fails here, not later
    return pdf


PASSWORD = OptionHint("pdf_password")


def encrypted_error(error: BaseException, password: str) -> EncryptedDocumentError:
    """The one-line error for a wrong or missing password (both engines)."""
    if password:
        return EncryptedDocumentError(
            "the PDF is encrypted and the password given is wrong; "
            f"pass the right one with {OPTION_SLOT}",
            hint=PASSWORD,
        )
    return EncryptedDocumentError(
        f"the PDF is encrypted; pass its password with {OPTION_SLOT}", hint=PASSWORD
    )


def _repair(data: bytes, password: str) -> bytes | None:
    """PDFium's rewrite of a damaged file, or None when PDFium cannot read it either."""
    try:
        import pypdfium2
    except ImportError:  # pragma: no cover - pdfplumber depends on it
        return None
    from .pdfium.api import LOCK

    try:
        with LOCK:
            document = pypdfium2.PdfDocument(data, password=password or None)
            try:
                if len(document) == 0:
                    return None
                out = io.BytesIO()
                document.save(out, flags=_PDFIUM_REMOVE_SECURITY)
                return out.getvalue()
            finally:
                document.close()
    except Exception as error:  # PDFium refuses the file: the caller reports pdfminer's reason
        log.debug("PDFium could not repair the file: %s", error)
        return None


def rebuild_trailer(data: bytes) -> bytes | None:
    """A truncated file cut back to its last whole object, with a trailer naming its
    catalog: pdfminer's own fallback then indexes the objects (object streams too)."""
    end = data.rfind(b"endobj")
    if end < 0:
        return None
    body = data[: end + len(b"endobj")]
    for found in _CATALOG.finditer(body):
        window = body[max(0, found.start() - DEFAULT_CATALOG_LOOKBACK) : found.start()]
        headers = list(_OBJECT_HEADER.finditer(window))
        if headers:
            number, generation = headers[-1].groups()
            return body + b"\ntrailer\n<< /Root " + number + b" " + generation + b" R >>\n%%EOF\n"
    return None


def _reopen(data: bytes, password: str, reason: str) -> OpenedPdf:
    """Try PDFium's rewrite, then a rebuilt trailer; a one-line error if both fail."""
    for repair in (_repair, lambda d, p: rebuild_trailer(d)):
        fixed = repair(data, password)
        if fixed is None:
            continue
        try:
            key = "" if repair is _repair else password
            return OpenedPdf(open_plain(fixed, key), fixed, key, repaired=True)
        except Exception as error:  # this repair did not help: try the next one
            log.debug("repaired copy unreadable: %s", _reason(error))
    raise ParseError(f"damaged PDF that cannot be read ({reason})")


def xref_pointer_ok(data: bytes) -> bool:
    """Whether the last `startxref` points at a cross-reference table or stream.

    When it does not, pdfminer falls back to parsing every object in the file, which on
    a damaged file of a few MB takes tens of seconds and often ends in failure anyway;
    PDFium's repair takes a fraction of a second.
    """
    pointers = list(_STARTXREF.finditer(data, max(0, len(data) - DEFAULT_TRAILER_SEARCH)))
    if not pointers:
        return False
    offset = int(pointers[-1].group(1))
    if offset >= len(data):
        return False
    target = data[offset : offset + 64].lstrip()
    return target.startswith(b"xref") or _OBJECT_HEADER.match(target) is not None


def _repaired_first(data: bytes, password: str) -> OpenedPdf | None:
    """PDFium's rewrite, opened, for a file whose cross-reference pointer is broken; None
    (read it as usual) when PDFium cannot help."""
    fixed = _repair(data, password)
    if fixed is None:
        return None
    try:
        return OpenedPdf(open_plain(fixed, ""), fixed, "", repaired=True)
    except Exception as error:  # PDFium's copy is no better: pdfminer's own fallback next
        log.debug("repaired copy unreadable: %s", _reason(error))
        return None


def from_header(data: bytes) -> bytes:
    """The bytes from the `%PDF-` header on (viewers read past bytes before it), for
    either engine; a one-line `ParseError` for an empty file or one without the header
    near its start."""
    if not data.strip():
        raise ParseError("empty file, not a PDF")
    start = data.find(HEADER, 0, DEFAULT_HEADER_SEARCH)
    if start < 0:
        raise ParseError("not a PDF (no %PDF- header)")
    return data[start:] if start else data


def open_pdf(data: bytes, password: str = "") -> OpenedPdf:
    """Open PDF bytes, repairing what viewers repair; raise one-line errors otherwise."""
    data = from_header(data)
    if not xref_pointer_ok(data):
        repaired = _repaired_first(data, password)
        if repaired is not None:
            return repaired
    try:
        return OpenedPdf(open_plain(data, password), data, password)
    except Exception as error:  # classified below; pdfminer raises many unrelated types
        if any(isinstance(e, PDFPasswordIncorrect) for e in _chain(error)):
            raise encrypted_error(error, password) from None
        reason = _reason(error)
    return _reopen(data, password, reason)
