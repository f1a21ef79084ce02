"""Bold on scanned pages (engines/ocr_weight.py): a bold line is measured heavier than
the body in the rendered image, and a bold heading at body size is a heading on the scan
as on the born-digital page; Tesseract's bar after a word in capitals is a capital I."""

from __future__ import annotations

import numpy
import pypdfium2
import pytest
from pdf_factory import BODY, Page, pdf_bytes
from test_pdf_ocr import needs_tesseract, scanned

from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.engines.ocr import DEFAULT_EM_PER_ASCENDER, hocr_lines, line_sizes
from structchunk.parsers.pdf.engines.ocr_weight import BOLD_FONT, line_weights, weighed
from structchunk.parsers.pdf.types import Word

PROSE = [
    "Net sales rose in every segment, led by services and by the new models of the",
    "phones launched in the autumn; the gross margin held within a point of the year",
    "before, and operating expenses grew with research and development in particular.",
]


def _page(bold: str = "Helvetica-Bold") -> bytes:
    page = Page()
    y = page.lines(72, 720, BODY)
    page.text(72, y - 14, "PART II OTHER INFORMATION", font=bold)
    page.lines(72, y - 40, PROSE)
    return pdf_bytes([page])


def _grey(data: bytes, dpi: int) -> numpy.ndarray:
    document = pypdfium2.PdfDocument(data)
    image = document[0].render(scale=dpi / 72).to_pil().convert("L")
    document.close()
    return numpy.asarray(image)


def _lines(data: bytes, dpi: int) -> list[list[Word]]:
    """The page's lines as Tesseract gives them: the born-digital words of each line
    with their boxes, all at one size (the body and the heading are of one size)."""
    document = pypdfium2.PdfDocument(data)
    text = document[0].get_textpage()
    lines: dict[int, list[Word]] = {}
    for index in range(text.count_rects()):
        left, bottom, right, top = text.get_rect(index)
        words = text.get_text_bounded(left, bottom, right, top).split()
        step = (right - left) / max(len(words), 1)
        row = lines.setdefault(round(792 - top), [])
        for n, word in enumerate(words):
            x0 = left + n * step
            row.append(Word(word, x0, x0 + step, 792 - top, 792 - bottom, 10.0, "OCR"))
    document.close()
    return list(lines.values())


@pytest.mark.parametrize("dpi", [150, 300])
def test_a_bold_line_weighs_more_than_the_body(dpi: int) -> None:
    data = _page()
    lines = _lines(data, dpi)
    weights = line_weights(_grey(data, dpi), lines, 72 / dpi)
    heading = next(i for i, line in enumerate(lines) if line[0].text == "PART")
    body = [w for i, w in enumerate(weights) if i != heading and w is not None]
    assert weights[heading] is not None
    assert weights[heading] > 1.3 * max(body)


@pytest.mark.parametrize("dpi", [150, 300])
def test_only_the_bold_line_is_marked_bold(dpi: int) -> None:
    for font, expected in (
        ("Helvetica-Bold", {"PART", "II", "OTHER", "INFORMATION"}),
        ("Helvetica", set()),
    ):
        data = _page(font)
        words = weighed(_grey(data, dpi), _lines(data, dpi), 72 / dpi)
        assert {word.text for word in words if word.font == BOLD_FONT} == expected


def test_noise_does_not_make_the_body_bold() -> None:
    data = _page()
    grey = _grey(data, 300).astype(numpy.float32)
    rng = numpy.random.default_rng(7)
    noisy = numpy.clip(grey + rng.normal(0, 25, grey.shape), 0, 255).astype(numpy.uint8)
    words = weighed(noisy, _lines(data, 300), 72 / 300)
    assert {word.text for word in words if word.font == BOLD_FONT} == {
        "PART",
        "II",
        "OTHER",
        "INFORMATION",
    }


HOCR = b"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body>
<span class='ocr_line'
 title="bbox 0 0 400 30; baseline 0 -6; x_size 28.9; x_descenders 4.9; x_ascenders 5.8">
<span class='ocrx_word' title='bbox 0 0 80 30; x_wconf 96'>PART</span>
<span class='ocrx_word' title='bbox 90 0 95 30; x_wconf 90'>|</span>
<span class='ocrx_word' title='bbox 100 0 400 30; x_wconf 95'>FINANCIAL</span></span>
<span class='ocr_line'
 title="bbox 0 40 400 70; baseline 0 0; x_size 36; x_descenders 9; x_ascenders 9">
<span class='ocrx_word' title='bbox 0 40 80 70; x_wconf 96'>Inc.</span>
<span class='ocrx_word' title='bbox 90 40 95 70; x_wconf 90'>|</span>
<span class='ocrx_word' title='bbox 100 40 400 70; x_wconf 95'>2022</span></span>
</body></html>"""


def test_hocr_lines_read_the_bar_after_capitals_as_i() -> None:
    lines, confidences = hocr_lines(HOCR, 0.24)
    assert [word.text for word in lines[0]] == ["PART", "I", "FINANCIAL"]
    assert [word.text for word in lines[1]] == ["Inc.", "|", "2022"]
    # the words' boxes (30 pixels over the baseline on both lines) agree with each other
    # better than Tesseract's fitted heights (28.9 - 4.9 and 36 - 9 pixels) do
    assert lines[0][0].size == pytest.approx(30 * 0.24 * DEFAULT_EM_PER_ASCENDER)
    assert lines[1][0].size == pytest.approx(30 * 0.24 * DEFAULT_EM_PER_ASCENDER)
    assert len(confidences) == 6


def test_line_sizes_take_the_measure_that_scatters_the_page_less() -> None:
    weights = [40] * 10
    steady = [10.0] * 9 + [14.0]  # nine body lines and a heading
    scattered = [10.0, 13.0, 10.0, 7.5, 10.0, 12.5, 10.0, 10.0, 8.0, 14.0]
    assert line_sizes(scattered, list(steady), weights) == steady
    assert line_sizes(steady, list(scattered), weights) == steady
    # a line without a word reaching the ascender line keeps the fitted size
    assert line_sizes(scattered, [None, *steady[1:]], weights)[0] == 10.0
    assert line_sizes(steady, [None] * 10, weights) == steady


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("dpi", [150, 300])
def test_a_bold_heading_at_body_size_is_a_heading_on_the_scan(dpi: int) -> None:
    page = Page()
    y = page.lines(72, 720, BODY)
    y = page.lines(72, y - 6, PROSE)
    page.text(72, y - 14, "Liquidity and Capital Resources", font="Helvetica-Bold")
    y = page.lines(72, y - 34, BODY)
    page.lines(72, y - 6, PROSE)
    data = pdf_bytes([page])
    born = parse(data, "a.pdf", ParseSettings())
    scan = parse(scanned(data, dpi), "scan.pdf", ParseSettings(ocr_dpi=dpi))
    titles = {section.title for section in born.sections() if section.level}
    assert titles == {"Liquidity and Capital Resources"}
    assert {section.title for section in scan.sections() if section.level} == titles
