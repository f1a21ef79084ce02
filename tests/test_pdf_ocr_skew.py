"""Crooked scans (engines/ocr_skew.py): the page's skew is measured from its rows of ink
and the image straightened before Tesseract reads it, which otherwise takes a crooked
ruled table for a picture and reads nothing of it."""

from __future__ import annotations

from pathlib import Path

import numpy
import pypdfium2
import pytest
from conftest import load_benchmark
from pdf_factory import BODY, Page, pdf_bytes
from test_pdf_ocr import needs_tesseract

from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.engines.ocr_skew import DEFAULT_MIN_SKEW, skew_angle
from structchunk.parsers.pdf.engines.ocr_weight import otsu


def _page_image() -> numpy.ndarray:
    page = Page()
    y = 720.0
    for _ in range(6):
        y = page.lines(72, y, BODY) - 14
    document = pypdfium2.PdfDocument(pdf_bytes([page]))
    image = document[0].render(scale=150 / 72).to_pil().convert("L")
    document.close()
    return numpy.asarray(image)


@pytest.mark.parametrize("degrees", [-2.5, -1.5, -0.8, 0.8, 1.2, 2.0])
def test_the_skew_is_measured_within_a_step_or_two(degrees: float) -> None:
    from PIL import Image

    turned = numpy.asarray(
        Image.fromarray(_page_image()).rotate(degrees, Image.Resampling.BICUBIC, fillcolor=255)
    )
    assert skew_angle(turned, otsu(turned)) == pytest.approx(-degrees, abs=0.2)


def test_a_level_page_and_a_blank_one_are_left_as_they_are() -> None:
    image = _page_image()
    assert skew_angle(image, otsu(image)) == 0.0
    blank = numpy.full((1100, 850), 255, dtype=numpy.uint8)
    assert skew_angle(blank, 128) == 0.0
    assert DEFAULT_MIN_SKEW > 0.1


@needs_tesseract
@pytest.mark.slow
def test_a_crooked_ruled_list_is_read(corpus: Path) -> None:
    scans = load_benchmark("ocr_scans")
    path = corpus / "pdf/pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf"
    data = scans.cut_pages(path.read_bytes(), 1, 1)
    straight = parse(scans.scanned(data, 300, "clean"), "warn.pdf", ParseSettings(ocr_dpi=300))
    crooked = parse(scans.scanned(data, 300, "skew"), "warn.pdf", ParseSettings(ocr_dpi=300))
    want = " ".join(page.words for page in straight.read).split()
    got = " ".join(page.words for page in crooked.read).split()
    found, wanted = scans.word_recall(want, got)
    assert wanted > 300
    assert found / wanted > 0.9
