"""Hostile PDFs for the gate (see hostile_cases.py): bombs, pages of millions of text
objects or characters, and a bomb the stream bounds cannot see."""

from __future__ import annotations

import functools
import zlib
from pathlib import Path

from hostile_cases import HostileCase
from pdf_factory import Page, bomb_stream, hexed_bomb_stream, pdf_bytes

_TEXT_OPERATOR = b"BT /F1 10 Tf 72 700 Td (Hello world again) Tj ET\n"


@functools.cache
def _gigabyte_bomb() -> tuple[bytes, str]:
    return bomb_stream(1024)


def _bomb(path: Path) -> None:
    """A 6 KB file whose first page inflates twice to 1 GiB; its second page is fine."""
    path.write_bytes(pdf_bytes([Page(written=_gigabyte_bomb()), Page().text(72, 700, "Fine.")]))


def _only_a_bomb(path: Path) -> None:
    path.write_bytes(pdf_bytes([Page(written=_gigabyte_bomb())]))


def _hexed_bomb(path: Path) -> None:
    """The bomb behind an ASCIIHex filter, which the stream bounds do not decode."""
    pages = [Page(written=hexed_bomb_stream(1024)), Page().text(72, 700, "Fine.")]
    path.write_bytes(pdf_bytes(pages))


def _text_operators(megabytes: int, deflated: bool) -> HostileCase.Builder:
    def build(path: Path) -> None:
        content = _TEXT_OPERATOR * ((megabytes << 20) // len(_TEXT_OPERATOR))
        written = (
            (zlib.compress(content, 1), " /Filter [/FlateDecode]") if deflated else (content, "")
        )
        path.write_bytes(pdf_bytes([Page(written=written)]))

    return build


def _dense_page(path: Path) -> None:
    """One 200-inch page of 600 000 characters in 2 000 lines."""
    line = ("abcdefgh " * 34)[:300]
    page = Page(size=(14400.0, 14400.0))
    page.ops.append("BT /F1 4 Tf 10 10000 Td")
    page.ops.extend(f"0 -5 Td ({line}) Tj" for _ in range(2000))
    page.ops.append("ET")
    path.write_bytes(pdf_bytes([page], deflate_layers=1))


BOMB = "inflates past 256 MB (a decompression bomb?)"
CASES = [
    HostileCase("pdf-bomb-1gib.pdf", _bomb, "converted", says=(BOMB,), slow=False),
    HostileCase(
        "pdf-bomb-1gib-pdfplumber.pdf",
        _bomb,
        "converted",
        says=(BOMB,),
        args=("--pdf-engine", "pdfplumber"),
    ),
    HostileCase(
        "pdf-bomb-only-page.pdf", _only_a_bomb, "error", says=("no page could be read", BOMB)
    ),
    HostileCase(
        "pdf-bomb-behind-asciihex.pdf",
        _hexed_bomb,
        "error",
        says=("512 MB", "--max-memory-per-file"),
        args=("--max-memory-per-file", "512M"),
    ),
    HostileCase(
        "pdf-text-operators-200mib.pdf",
        _text_operators(200, deflated=False),
        "converted",
        peak_mb=1536,
        says=("shows text 4,279,902 times; only the first 200,000 were read",),
    ),
    HostileCase(
        "pdf-text-operators-200mib-deflated.pdf",
        _text_operators(200, deflated=True),
        "converted",
        says=("only the first 200,000 were read",),
        slow=False,
    ),
    HostileCase(
        "pdf-600000-characters-on-a-page.pdf",
        _dense_page,
        "converted",
        says=("page 1: only its first 500,000 characters were read",),
    ),
]
