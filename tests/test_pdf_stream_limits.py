"""The bounds on a PDF's streams and pages, kept before either engine parses the file.

Each test writes the PDF it needs; the limits are lowered where a test would otherwise
build hundreds of MB (the gate, test_hostile_gate.py, runs the full-size files).
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdf_factory import Page, bomb_stream, pdf_bytes
from test_pdf import text_of

import structchunk.parsers.pdf as pdf_parser
from structchunk.api import parse_document
from structchunk.options import ChunkOptions
from structchunk.parsers.pdf import stream_limits
from structchunk.parsers.pdf.engines.pdfium import text as pdfium_text
from structchunk.parsers.pdf.engines.pdfplumber import page as plumber_page

ENGINES = ["pdfium", "pdfplumber"]
LOCAL_PDFS = sorted((Path(__file__).parent / "corpus").rglob("*.pdf"))


def _words_page(count: int) -> Page:
    """One line per word `w0`, `w1`, …: each its own text object."""
    page = Page()
    page.ops.append("BT /F1 8 Tf 72 760 Td 9 TL")
    page.ops.extend(f"(w{i}) ' " for i in range(count))
    page.ops.append("ET")
    return page


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("layers", [0, 1, 2])
def test_a_stream_showing_too_much_text_is_cut_after_the_bound(
    engine: str, layers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a page of 4 million text objects cost PDFium 3.2 GB in one call. The
    stream is cut after the bound, in as many Flate layers as it had, and the rest of
    its page is left out with a warning; the file is not repaired (offsets hold)."""
    monkeypatch.setattr(stream_limits, "MAX_TEXT_OBJECTS", 40)
    data = pdf_bytes([_words_page(60), Page().text(72, 700, "Next page.")], deflate_layers=layers)
    document = parse_document(data, "ops.pdf", "pdf", ChunkOptions(pdf_engine=engine))
    words = text_of(document).split()
    assert [w for w in words if w.startswith("w")] == [f"w{i}" for i in range(40)]
    assert "page." in words
    assert document.warnings == [
        "a stream (object 11) shows text 60 times; only the first 40 were read and the rest "
        "of its page was left out"
    ]


def test_streams_within_the_bounds_are_left_as_they_are() -> None:
    """The same bytes object, so a file no bound touches is read exactly as before."""
    for path in LOCAL_PDFS:
        data = path.read_bytes()
        assert stream_limits.bound_streams(data) == (data, []), path.name
        assert stream_limits.bound_streams(data)[0] is data


def test_an_image_stream_is_not_inflated() -> None:
    """Neither engine decodes an image to read text, so a bomb in one costs nothing."""
    stream, filters = bomb_stream(1024)
    image = (
        b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1%s >>\nstream\n" % filters.encode()
    )
    data = b"%PDF-1.4\n1 0 obj\n" + image + stream + b"\nendstream\nendobj\n"
    assert stream_limits.bound_streams(data) == (data, [])


def test_a_bomb_without_room_for_an_empty_stream_is_blanked() -> None:
    """A stream too short to hold even an empty Flate stream in its layers is written
    over with spaces: no Flate data is left to inflate."""
    packed = zlib.compress(zlib.compress(b"x" * 2000, 9), 9)
    finding = stream_limits._Finding(stream_limits._Span(0, 4, layers=9), 0, "")
    assert stream_limits._replacement(packed, finding) == b"    "


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([b"Tj", b"TJ", b"'", b'"', b"T", b"j", b"(a)", b" ", b"\n"])),
    st.integers(min_value=1, max_value=7),
    st.booleans(),
)
def test_text_operators_are_counted_across_the_pieces_a_stream_is_read_in(
    parts: list[bytes], piece: int, deflated: bool
) -> None:
    content = b"".join(parts)
    data = b"<< >>\nstream\n" + (zlib.compress(content) if deflated else content) + b"\nendstream"
    start = data.index(b"stream\n") + 7
    expected = sum(content.count(operator) for operator in (b"Tj", b"TJ", b"'", b'"'))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream_limits, "_OUT", piece)
        patch.setattr(stream_limits, "_IN", piece)
        span = stream_limits._Span(start, stream_limits._raw_end(data, start))
        shows, _ = stream_limits._count_shows(data, span)
    if deflated or not content.startswith((b"x", b"h")):  # raw text read as a zlib header
        assert shows == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_a_page_of_too_many_characters_is_read_up_to_the_bound(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The characters past the bound are left out (in the order they are drawn) and the
    warning names the page; the pages after it are read."""
    for module in (pdfium_text, plumber_page, pdf_parser):
        monkeypatch.setattr(module, "MAX_CHARS_PER_PAGE", 20, raising=False)
    first = Page()
    first.lines(72, 700, ["alpha beta gamma", "delta epsilon zeta", "eta theta iota"])
    document = parse_document(
        pdf_bytes([first, Page().text(72, 700, "Second page.")]),
        "dense.pdf",
        "pdf",
        ChunkOptions(pdf_engine=engine),
    )
    words = text_of(document).split()
    assert words[:3] == ["alpha", "beta", "gamma"] and "iota" not in words
    assert "Second" in words
    (warning,) = document.warnings
    assert warning.startswith("page 1: only its first 20 characters were read; ")
