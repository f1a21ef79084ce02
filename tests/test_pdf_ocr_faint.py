"""Faint text on scans (engines/ocr_faint.py): a line printed in light grey beside black
text falls on the paper's side of Tesseract's page-wide threshold and was read as
nothing (a 10-Q's grey `PART I. FINANCIAL INFORMATION` over its black statements); its
row is now found, stretched and read on its own."""

from __future__ import annotations

from pathlib import Path

import numpy
import pytest
from conftest import load_benchmark
from pdf_factory import BODY, Page, pdf_bytes
from test_pdf_ocr import needs_tesseract, scanned

from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.engines.ocr_faint import (
    DEFAULT_MIN_CONFIDENCE,
    faint_rows,
    moved,
    new_words,
)
from structchunk.parsers.pdf.types import OCR_FONT, Word

SCALE = 72 / 300
"""Points a pixel at 300 dpi."""
THRESHOLD = 128


def _word(
    text: str, x0: float, top: float, x1: float, bottom: float, confidence: float = 96.0
) -> Word:
    return Word(text, x0, x1, top, bottom, 10.0, OCR_FONT, confidence=confidence)


def _page() -> numpy.ndarray:
    return numpy.full((600, 1000), 255, dtype=numpy.uint8)


def _letters(image: numpy.ndarray, top: int, left: int, level: int, count: int = 20) -> None:
    """A row of letter-like strokes (3 px stems, 40 px tall, 12 px apart)."""
    for index in range(count):
        x = left + 12 * index
        image[top : top + 40, x : x + 3] = level


def test_a_grey_row_outside_the_words_read_is_found() -> None:
    image = _page()
    _letters(image, 100, 100, level=0)  # black: read
    _letters(image, 300, 100, level=150)  # grey: not read
    read = [_word("read", 100 * SCALE, 100 * SCALE, 340 * SCALE, 140 * SCALE)]
    rows = faint_rows(image, THRESHOLD, read, SCALE)
    assert len(rows) == 1
    left, top, right, bottom = rows[0]
    assert left <= 100 and right >= 330 and top <= 300 and bottom >= 340


def test_grey_inside_a_read_word_black_ink_shading_and_rules_are_not_faint_rows() -> None:
    image = _page()
    _letters(image, 100, 100, level=150)  # grey, but read
    _letters(image, 200, 100, level=0)  # black, unread: not faint
    image[300:360, 100:700] = 200  # a shaded panel: fills its box
    image[450:454, 100:900] = 150  # a grey rule: too thin for a line
    read = [_word("read", 100 * SCALE, 100 * SCALE, 340 * SCALE, 140 * SCALE)]
    assert faint_rows(image, THRESHOLD, read, SCALE) == []


def test_words_of_a_faint_row_are_kept_only_when_sure_and_new() -> None:
    read = [_word("Revenue", 10, 50, 60, 60)]
    found = [
        [_word("PART", 0, 0, 20, 10, 95.0), _word("I.", 22, 0, 30, 10, DEFAULT_MIN_CONFIDENCE - 1)],
        [_word("Revenue", 10, 50, 60, 60, 96.0)],  # read already
    ]
    lines = new_words(found, read)
    assert [[w.text for w in line] for line in lines] == [["PART"]]
    assert [w.confidence for line in lines for w in line] == [95.0]


def test_a_drawing_read_as_a_few_letters_adds_nothing() -> None:
    found = [[_word("Sy", 0, 0, 10, 10, 45.0), _word("IF", 12, 0, 20, 10, 79.0)]]
    assert new_words(found, []) == []


def test_a_faint_rows_words_are_moved_to_the_page() -> None:
    (line,) = moved([[_word("PART", 0, 0, 20, 10)]], 100.0, 50.0)
    assert (line[0].x0, line[0].top, line[0].x1, line[0].bottom) == (100, 50, 120, 60)


def _grey_heading_page() -> bytes:
    page = Page()
    page.ops.append("0.7 g")  # light grey (Tesseract read nothing of it before)
    page.text(72, 720, "PART I. FINANCIAL INFORMATION", font="Helvetica-Bold", size=12)
    page.ops.append("0 g")
    y = 690.0
    for _ in range(8):
        y = page.lines(72, y, BODY) - 14
    return pdf_bytes([page])


@needs_tesseract
def test_a_grey_line_over_black_text_is_read() -> None:
    text = parse(scanned(_grey_heading_page()), "grey.pdf", ParseSettings(ocr_dpi=300)).source_text
    assert "PART I. FINANCIAL INFORMATION" in text
    assert "customers around the world" in text


@needs_tesseract
@pytest.mark.slow
def test_the_10qs_grey_part_and_item_lines_are_read_as_headings(corpus: Path) -> None:
    scans = load_benchmark("ocr_scans")
    data = scans.cut_pages((corpus / "pdf/sec-10q/2022-Q3-NVDA.pdf").read_bytes(), 2, 2)
    document = parse(scans.scanned(data, 300, "clean"), "nvda.pdf", ParseSettings(ocr_dpi=300))
    titles = [section.title for section in document.sections() if section.level]
    assert "PART I. FINANCIAL INFORMATION" in titles
    assert any(title.startswith("ITEM 1.") for title in titles), titles
