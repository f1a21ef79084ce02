"""Ruled tables on scanned pages (parsers/pdf/engines/ocr_rules.py): the rules found in
the rendered image, JPEG noise and all, read into a table as on a born-digital page; text
alone, a framed note and an underline are no table."""

from __future__ import annotations

import sys

import numpy
import pypdfium2
import pytest
from pdf_factory import BODY, Page, pdf_bytes
from test_pdf_ocr import needs_tesseract, scanned

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers.pdf.engines import reopen
from structchunk.parsers.pdf.engines.ocr import OcrSettings, _grey
from structchunk.parsers.pdf.engines.ocr_rules import erased, find_rules, table_rules

CELLS = [
    (["Step"], ["Action"], ["Owner"]),
    (["Install"], ["Copy the package to", "the server"], ["Operations"]),
    (["Configure"], ["Set the region and", "the storage bucket"], ["Developers"]),
    (["Verify"], ["Run the smoke tests"], ["Quality team"]),
]
"""A checklist whose cells wrap: read by alignment, its lines come out loose."""
LEFT, TOP, WIDTHS, HEIGHT = 72, 680, (110, 170, 120), 32


def checklist() -> bytes:
    page = Page().text(72, 740, "Release Checklist", font="Helvetica-Bold", size=14)
    page.lines(72, 710, ["Each step of a release is done by the team named beside it."], size=11)
    for row, cells in enumerate(CELLS):
        x = LEFT
        for column, width in enumerate(WIDTHS):
            page.box(x, TOP - (row + 1) * HEIGHT, width, HEIGHT)
            page.lines(x + 6, TOP - row * HEIGHT - 13, cells[column], size=11)
            x += width
    page.lines(72, TOP - 5 * HEIGHT - 20, ["Steps are done in this order."], size=11)
    return pdf_bytes([page])


def _gray(data: bytes, dpi: int) -> numpy.typing.NDArray[numpy.uint8]:
    """The first page as OCR renders it."""
    document = pypdfium2.PdfDocument(data)
    image = document[0].render(scale=dpi / 72).to_pil()
    document.close()
    return numpy.asarray(image.convert("L"))


@pytest.mark.parametrize("dpi", [150, 300])
def test_the_rules_of_a_scanned_grid_are_found_where_they_were_drawn(dpi: int) -> None:
    rules = table_rules(_gray(scanned(checklist(), dpi), dpi), 72 / dpi)
    assert rules is not None
    horizontal, vertical = rules.edges()
    right = LEFT + sum(WIDTHS)
    rows = [792 - TOP + k * HEIGHT for k in range(len(CELLS) + 1)]
    columns = [LEFT + sum(WIDTHS[:k]) for k in range(len(WIDTHS) + 1)]
    assert [y for y, _, _ in horizontal] == pytest.approx(rows, abs=1.0)
    assert all(x0 == pytest.approx(LEFT, abs=1.5) for _, x0, _ in horizontal)
    assert all(x1 == pytest.approx(right, abs=1.5) for _, _, x1 in horizontal)
    assert [x for x, _, _ in vertical] == pytest.approx(columns, abs=1.0)
    assert all(top == pytest.approx(rows[0], abs=1.5) for _, top, _ in vertical)


def shaded() -> bytes:
    """The checklist drawn as Word draws its banded tables: light grey cells, white gaps
    between them, no line at all."""
    page = Page().text(72, 740, "Release Checklist", font="Helvetica-Bold", size=14)
    for row, cells in enumerate(CELLS):
        x = LEFT
        for column, width in enumerate(WIDTHS):
            y = TOP - (row + 1) * HEIGHT
            page.ops.append(f"0.88 g {x + 1} {y + 1} {width - 2} {HEIGHT - 2} re f 0 g")
            page.lines(x + 6, TOP - row * HEIGHT - 13, cells[column], size=11)
            x += width
    return pdf_bytes([page])


@pytest.mark.parametrize("dpi", [150, 300])
def test_the_edges_of_shaded_cells_are_rules(dpi: int) -> None:
    """A born-digital page gives the table finder its filled rectangles' edges; a scan's
    are where the shading meets the paper."""
    rules = table_rules(_gray(scanned(shaded(), dpi), dpi), 72 / dpi)
    assert rules is not None
    horizontal, vertical = rules.edges()
    tops = [792 - TOP + k * HEIGHT for k in range(len(CELLS) + 1)]
    assert all(any(abs(y - top) <= 2 for y, _, _ in horizontal) for top in tops)
    lefts = [LEFT + sum(WIDTHS[:k]) for k in range(len(WIDTHS) + 1)]
    assert all(any(abs(x - left) <= 2 for x, _, _ in vertical) for left in lefts)


@pytest.mark.parametrize("font", ["Helvetica", "Times-Roman", "Courier"])
def test_text_alone_has_no_rules(font: str) -> None:
    """Letters' stems and a serif font's baseline are no rules, a large heading's neither."""
    page = Page().text(72, 720, "Illumination Fill Lines", font="Helvetica-Bold", size=24)
    page.lines(72, 680, [*BODY, *BODY, "lllllll IIIIIII ||||||| mmmmmmmm"], font, 12)
    rules = find_rules(_gray(scanned(pdf_bytes([page]), 300), 300), 72 / 300)
    assert rules.edges() == ([], [])


def test_a_framed_note_and_an_underline_are_no_table() -> None:
    page = Page()
    page.lines(72, 700, BODY, size=11)
    page.rule(72, 640, 540, 640).box(72, 540, 300, 60).text(80, 580, "A framed note is no table.")
    gray = _gray(scanned(pdf_bytes([page]), 300), 300)
    horizontal, vertical = find_rules(gray, 72 / 300).edges()
    assert (len(horizontal), len(vertical)) == (3, 2)
    assert table_rules(gray, 72 / 300) is None


def test_erasing_paints_the_rules_out_and_keeps_the_text() -> None:
    data = scanned(checklist(), 300)
    document = pypdfium2.PdfDocument(data)
    image = document[0].render(scale=300 / 72).to_pil()
    document.close()
    rules = table_rules(numpy.asarray(image.convert("L")), 72 / 300)
    assert rules is not None
    after = numpy.asarray(erased(image, rules).convert("L"))
    assert find_rules(after, 72 / 300).edges() == ([], [])
    before = numpy.asarray(image.convert("L"))
    cell = numpy.s_[int((792 - TOP + 8) * 300 / 72) : int((792 - TOP + 24) * 300 / 72), 320:700]
    assert (after[cell] < 128).sum() == (before[cell] < 128).sum() > 0  # "Step" untouched


def test_erasing_leaves_rules_outside_the_grids() -> None:
    """A large title's stems are long and thin like rules; painted out, `Titre` was read
    `~|tre` (Word 365's sample)."""
    page = Page().text(72, 750, "Illicit Hill", font="Helvetica", size=30)
    for row in range(3):
        for column in range(2):
            page.box(72 + 150 * column, 600 - 20 * row, 150, 20)
            page.text(78 + 150 * column, 606 - 20 * row, f"cell {row}-{column}")
    document = pypdfium2.PdfDocument(scanned(pdf_bytes([page]), 300))
    image = document[0].render(scale=300 / 72).to_pil()
    document.close()
    rules = table_rules(numpy.asarray(image.convert("L")), 72 / 300)
    assert rules is not None
    title = numpy.s_[0 : int(60 * 300 / 72), :]
    assert any(top < 60 for _, top, _ in rules.edges()[1])  # the stems are found ...
    before = numpy.asarray(image.convert("L"))
    after = numpy.asarray(erased(image, rules).convert("L"))
    assert (after[title] == before[title]).all()  # ... and left
    assert find_rules(after, 72 / 300).edges()[0] == []  # the grid's rules are painted out


def test_without_numpy_a_scan_has_no_grids(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy comes with the ocr extra; pytesseract alone still OCRs, without ruled tables
    (or bold): the page image is not made an array."""
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert _grey(object()) is None


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("dpi", [150, 300])
def test_a_scanned_ruled_table_reads_as_a_table(dpi: int) -> None:
    """Before: the checklist's wrapped cells came out as loose lines (`Install Copy the
    package to Operations`, `the server`), no table."""
    options = ChunkOptions(ocr_dpi=dpi)
    chunks = list(iter_chunks_from_bytes(scanned(checklist(), dpi), "scan.pdf", "pdf", options))
    (table,) = [chunk for chunk in chunks if "table" in chunk.block_types]
    assert "| Step | Action | Owner |" in table.text
    assert "| Install | Copy the package to the server | Operations |" in table.text
    assert "| Configure | Set the region and the storage bucket | Developers |" in table.text
    assert "| Verify | Run the smoke tests | Quality team |" in table.text


@needs_tesseract
@pytest.mark.slow
def test_a_scanned_shaded_table_reads_as_a_table() -> None:
    chunks = list(iter_chunks_from_bytes(scanned(shaded(), 300), "scan.pdf", "pdf", ChunkOptions()))
    (table,) = [chunk for chunk in chunks if "table" in chunk.block_types]
    assert "| Install | Copy the package to the server | Operations |" in table.text


@needs_tesseract
@pytest.mark.slow
def test_a_scanned_page_without_rules_has_no_grid() -> None:
    page = Page().text(72, 720, "Requirements", font="Helvetica-Bold", size=16)
    page.lines(72, 690, [*BODY, *BODY], size=11)
    pdf = reopen("pdfium", scanned(pdf_bytes([page]), 300), "", OcrSettings("auto", "eng", 300))
    reading = pdf.read_page(0, False)
    pdf.close()
    assert reading.words and reading.grids == []
