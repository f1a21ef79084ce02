"""Headings on scans of real pages: what typography finds on the born-digital page it
finds on the page's scan (300 dpi, grey, as `benchmarks/ocr.py` renders its set).

Each case failed before the rule it names: Tesseract's `x_size` read as the font size
(a numbered heading's quad wider than a cell gap: `1 Foo` a table row; a heading without
`g`, `p` or `y` read a tenth smaller than its siblings: `3.2.3. Threats` at body size;
`engines/ocr.py` `line_sizes`), and a wrapped heading's lines split by a few per cent of
size noise (`DEFAULT_MEASURED_SIZE_ERROR`), and a line of bold capitals at body size
read 6 % under its page's body, below the floor for a body-size heading (the same
margin now lowers that floor for lines read by OCR).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_benchmark
from test_pdf_ocr import needs_tesseract

from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse

DPI = 300


def _titles(data: bytes, name: str, dpi: int = 0) -> list[str]:
    document = parse(data, name, ParseSettings(ocr_dpi=dpi) if dpi else ParseSettings())
    return [section.title for section in document.sections() if section.level and section.title]


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "first", "expected"),
    [
        pytest.param(
            "pdf/pypdf-samples/mistitled_outlines_example.pdf",
            1,
            ["1 Foo", "2 Bar", "3 Baz", "4 Foo", "5 Bar", "6 Baz", "7 Foo"],
            id="latex-numbered-sections",
        ),
        pytest.param(
            "pdf/usgov/DOL2022.pdf",
            4,
            ["National Dislocated Worker Grants Program"],
            id="wrapped-heading-topleaf",
        ),
        pytest.param(
            "pdf/usgov/DHS2020.pdf",
            18,
            ["3.2.3. Threats", "3.2.6. Communications", "3.3.1. Trends", "3.3.4. Internet"],
            id="numbered-headings-without-descenders",
        ),
        pytest.param(
            "pdf/sec-10q/2023-Q1-AAPL.pdf",
            3,
            ["PART I — FINANCIAL INFORMATION"],
            id="bold-capitals-read-a-little-small",
        ),
        pytest.param(
            "pdf/pdfplumber/issue-316-example.pdf",
            0,
            ["Shift work interventions"],
            id="wrapped-heading-3b2",
        ),
    ],
)
def test_the_scan_has_the_born_digital_headings(
    corpus: Path, path: str, first: int, expected: list[str]
) -> None:
    scans = load_benchmark("ocr_scans")
    data = scans.cut_pages((corpus / path).read_bytes(), first, 2)
    born = _titles(data, path)
    read = _titles(scans.scanned(data, DPI, "clean"), path, DPI)
    for title in expected:
        assert title in born
        assert title in read, read


@needs_tesseract
@pytest.mark.slow
def test_a_drawing_read_as_large_letters_is_no_heading(corpus: Path) -> None:
    """PDFill's demo draws arrows and boxes Tesseract reads as `LJ` at 31 points, with a
    confidence under 45: kept as text, it is no longer taken for the page's title."""
    scans = load_benchmark("ocr_scans")
    path = "pdf/pdfplumber/pdffill-demo.pdf"
    data = scans.cut_pages((corpus / path).read_bytes(), 0, 2)
    read = _titles(scans.scanned(data, DPI, "clean"), path, DPI)
    assert "Line Width and Color" in read
    assert not any(title.strip() in {"LJ", "lj"} for title in read), read
