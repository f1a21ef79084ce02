"""OCR of pages without a text layer (parsers/pdf/engines/ocr.py): a scan made here from
a PDF the tests write (rendered by PDFium, wrapped as an image-only PDF by Pillow) reads
end to end, with its headings; born-digital pages are never rendered under `auto`."""

from __future__ import annotations

import ctypes
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from pdf_factory import BODY, Page, pdf_bytes

from structchunk import Chunk, ChunkOptions, progress
from structchunk.api import iter_chunks_from_bytes
from structchunk.batch import BatchConfig, run_batch
from structchunk.batch.inputs import expand_inputs
from structchunk.errors import NoTextError, OptionHint
from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.engines import ocr as ocr_module
from structchunk.parsers.pdf.engines import reopen
from structchunk.parsers.pdf.engines.ocr import (
    DEFAULT_MAX_PIXELS,
    OcrPdf,
    OcrSettings,
    OcrUnavailableError,
    ocr_missing,
    ocr_settings,
    render_zoom,
)
from structchunk.records import to_json_line

DPI = 150
needs_tesseract = pytest.mark.skipif(
    bool(ocr_missing("eng")), reason=ocr_missing("eng") or "Tesseract is here"
)


def scanned(data: bytes, dpi: int = DPI) -> bytes:
    """`data`'s pages rendered at `dpi`, as an image-only PDF of the same page size."""
    document = pypdfium2.PdfDocument(data)
    images = [page.render(scale=dpi / 72).to_pil().convert("RGB") for page in document]
    document.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out.getvalue()


def turned_scan(data: bytes, degrees: int, dpi: int = DPI) -> bytes:
    """`data`'s first page scanned, then turned `degrees` counter-clockwise (a sheet fed
    sideways or upside down)."""
    document = pypdfium2.PdfDocument(data)
    image = document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()
    out = io.BytesIO()
    image.rotate(degrees, expand=True).save(out, "PDF", resolution=dpi)
    return out.getvalue()


def stamped(data: bytes, text: str, y: float = 30) -> bytes:
    """`data` with `text` written on every page as a text layer (a scanner's watermark, a
    Bates number, a cover's title over its photograph)."""
    document = pypdfium2.PdfDocument(data)
    for page in document:
        stamp = pdfium_c.FPDFPageObj_NewTextObj(document.raw, b"Helvetica", 10.0)
        wide = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
        pdfium_c.FPDFText_SetText(stamp, ctypes.cast(wide, pdfium_c.FPDF_WIDESTRING))
        pdfium_c.FPDFPageObj_Transform(stamp, 1, 0, 0, 1, 72, y)
        pdfium_c.FPDFPage_InsertObject(page.raw, stamp)
        pdfium_c.FPDFPage_GenerateContent(page.raw)
    out = io.BytesIO()
    document.save(out)
    document.close()
    return out.getvalue()


def manual() -> bytes:
    page = Page()
    page.text(72, 700, "Installation Guide", font="Helvetica-Bold", size=22)
    y = page.lines(72, 660, BODY, size=11)
    page.text(72, y - 20, "Requirements", font="Helvetica-Bold", size=16)
    page.lines(72, y - 50, BODY[::-1], size=11)
    return pdf_bytes([page])


@pytest.fixture
def without_the_extra(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """pytesseract not importable, as without the ocr extra."""
    monkeypatch.setitem(sys.modules, "pytesseract", None)
    ocr_missing.cache_clear()
    yield
    ocr_missing.cache_clear()


@pytest.mark.usefixtures("without_the_extra")
def test_without_the_extra_a_scan_names_how_to_install_it() -> None:
    with pytest.raises(NoTextError, match=r"no text layer.*\[ocr\].*apt-get install tesseract-ocr"):
        parse(scanned(manual()), "scan.pdf", ParseSettings())
    with pytest.raises(OcrUnavailableError, match=r"^OCR needs the ocr extra"):
        parse(manual(), "a.pdf", ParseSettings(ocr="always"))


@pytest.mark.usefixtures("without_the_extra")
def test_without_the_extra_born_digital_pdfs_read_as_before() -> None:
    assert parse(manual(), "a.pdf", ParseSettings()).source_text


@needs_tesseract
@pytest.mark.slow
def test_a_scan_reads_by_ocr_with_its_headings() -> None:
    document = parse(scanned(manual()), "scan.pdf", ParseSettings(ocr_dpi=300))
    paths = [section.path for section in document.sections() if section.level]
    assert ("Installation Guide", "Requirements") in paths
    assert "manufactures and markets smartphones" in document.source_text
    assert any("read by OCR" in warning for warning in document.warnings)


def test_never_keeps_the_no_text_error() -> None:
    with pytest.raises(NoTextError, match="no text layer") as raised:
        parse(scanned(manual()), "scan.pdf", ParseSettings(ocr="never"))
    assert raised.value.hint == OptionHint("ocr", "auto")


@needs_tesseract
def test_born_digital_pages_are_not_rendered_under_auto() -> None:
    data = manual()
    assert parse(data, "a.pdf", ParseSettings()) == parse(data, "a.pdf", ParseSettings(ocr="never"))


@needs_tesseract
@pytest.mark.slow
@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_a_scan_fed_sideways_or_upside_down_reads_upright(degrees: int) -> None:
    scan = turned_scan(manual(), degrees, dpi=200)
    document = parse(scan, "scan.pdf", ParseSettings(ocr_dpi=200))
    paths = [section.path for section in document.sections() if section.level]
    assert ("Installation Guide", "Requirements") in paths
    assert "manufactures and markets smartphones" in document.source_text
    chunk = next(iter_chunks_from_bytes(scan, "scan.pdf", "pdf", ChunkOptions(ocr_dpi=200)))
    _, x0, top, x1, bottom = chunk.boxes[0]
    width, height = (612, 792) if degrees == 180 else (792, 612)
    # the title sits at the top left of the upright page: turned back onto the scan
    corner = {90: (0, height), 180: (width, height), 270: (width, 0)}[degrees]
    assert abs((x0 + x1) / 2 - corner[0]) < width / 2
    assert abs((top + bottom) / 2 - corner[1]) < height / 2


@needs_tesseract
def test_a_document_stops_asking_which_way_is_up_after_two_fruitless_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every page of a scan of noise looks turned; each question costs seconds."""
    asked: list[object] = []
    monkeypatch.setattr(ocr_module, "looks_turned", lambda words, confidences: True)
    monkeypatch.setattr(ocr_module, "upright_turn", lambda image: asked.append(image) or 0)
    page = Page()
    page.text(72, 700, "Noise", size=22)
    parse(scanned(pdf_bytes([page] * 4), 72), "noise.pdf", ParseSettings(ocr_dpi=72))
    assert len(asked) == ocr_module.MAX_FRUITLESS_TURNS == 2


@needs_tesseract
def test_a_scan_under_a_watermark_reads_by_ocr() -> None:
    scan = stamped(scanned(manual()), "Scanned by ExampleScan - CONFIDENTIAL")
    document = parse(scan, "scan.pdf", ParseSettings())
    assert "manufactures and markets smartphones" in document.source_text
    assert any("page 1 read by OCR" in warning for warning in document.warnings)
    assert not any("almost no text" in warning for warning in document.warnings)


@needs_tesseract
@pytest.mark.slow
def test_a_scan_reports_its_pages_read_by_ocr_in_a_batch_worker(tmp_path: Path) -> None:
    """Through a batch pool's worker, as `convert` on a terminal sees it."""
    (tmp_path / "scan.pdf").write_bytes(scanned(manual(), 150))
    (tmp_path / "manual.pdf").write_bytes(manual())
    items, _ = expand_inputs([str(tmp_path)], None)
    config = BatchConfig(out=str(tmp_path / "out.jsonl"), jobs=2)
    reports: list[tuple[int, int, int]] = []
    with progress.listening_with_ocr(lambda *report: reports.append(report)):
        batch = run_batch(items, ChunkOptions(), config)
    assert (batch.ok, batch.failed) == (2, 0)
    assert (1, 1, 1) in reports


@needs_tesseract
def test_a_thin_layer_over_an_image_without_more_text_keeps_its_layer() -> None:
    """A cover: its title as text over a full-page picture (here a blank scan), which OCR
    reads no more text off than the layer holds."""
    cover = stamped(scanned(pdf_bytes([Page()])), "Annual Report 2014", y=500)
    auto = parse(cover, "cover.pdf", ParseSettings())
    assert auto == parse(cover, "cover.pdf", ParseSettings(ocr="never"))
    assert "Annual Report 2014" in auto.source_text


@needs_tesseract
@pytest.mark.slow
def test_always_reads_a_born_digital_page_by_ocr() -> None:
    document = parse(manual(), "a.pdf", ParseSettings(ocr="always", ocr_dpi=200))
    assert any("read by OCR" in warning for warning in document.warnings)


@needs_tesseract
def test_a_missing_language_names_its_package() -> None:
    with pytest.raises(OcrUnavailableError, match="tesseract-ocr-xyz"):
        parse(manual(), "a.pdf", ParseSettings(ocr="always", ocr_language="eng+xyz"))


def test_a_worker_reopens_with_the_same_ocr_settings() -> None:
    settings = OcrSettings("always", "eng+deu", 200)
    pdf = reopen("pdfium", manual(), "", settings)
    assert isinstance(pdf, OcrPdf) and ocr_settings(pdf) == settings
    pdf.close()
    assert ocr_settings(reopen("pdfplumber", manual(), "", OcrSettings("never"))).mode == "never"


@needs_tesseract
@pytest.mark.slow
def test_page_workers_ocr_their_pages() -> None:
    pages = [Page() for _ in range(16)]
    for n, page in enumerate(pages, 1):
        page.lines(72, 700 - 20 * n, [f"The scan of part {n} is read.", *BODY], size=12)
    data = pdf_bytes(pages)
    settings = ParseSettings(page_workers=2, ocr_dpi=100)
    document = parse(scanned(data, dpi=100), "scan.pdf", settings)
    assert "pages 1-16 read by OCR" in " ".join(document.warnings)
    assert "The scan of part 16 is read." in document.read[15].words


def test_a_poster_sized_page_is_rendered_below_the_pixel_limit() -> None:
    assert render_zoom(612, 792, 300) == 300 / 72  # a Letter page at the dpi asked for
    zoom = render_zoom(14400, 14400, 300)  # 200 inches square: 3.6 G pixels at 300 dpi
    assert (14400 * zoom) ** 2 <= DEFAULT_MAX_PIXELS * 1.001


@needs_tesseract
@pytest.mark.slow
def test_a_poster_sized_page_reads_by_ocr() -> None:
    page = Page(size=(14400.0, 14400.0)).text(72, 14000, "A poster of one line", size=400)
    document = parse(pdf_bytes([page]), "poster.pdf", ParseSettings(ocr="always"))
    assert "A poster of one line" in document.source_text


@needs_tesseract
@pytest.mark.slow
def test_records_of_ocr_pages_say_so_with_a_confidence_and_others_do_not() -> None:
    """A scan's chunks carry `ocr: true` and the engine's mean word confidence, in the
    record, its JSONL line, its metadata and a Parquet row; a born-digital PDF's lines
    leave both fields out, as before OCR existed."""
    pytest.importorskip("pyarrow")
    from structchunk.batch.parquet import arrow_row, chunk_arrow_schema

    chunks = list(iter_chunks_from_bytes(scanned(manual()), "scan.pdf", "pdf", ChunkOptions()))
    assert chunks and all(chunk.ocr is True for chunk in chunks)
    assert all(50 < (chunk.ocr_confidence or 0) <= 100 for chunk in chunks)
    line = json.loads(to_json_line(chunks[0]))
    assert line["ocr"] is True and line["ocr_confidence"] == chunks[0].ocr_confidence
    assert chunks[0].metadata()["ocr_confidence"] == chunks[0].ocr_confidence
    assert {"ocr", "ocr_confidence"} <= set(chunk_arrow_schema().names)

    born = list(iter_chunks_from_bytes(manual(), "a.pdf", "pdf", ChunkOptions()))
    assert all(chunk.ocr is None and chunk.ocr_confidence is None for chunk in born)
    assert all('"ocr' not in to_json_line(chunk) for chunk in born)
    assert "ocr" not in born[0].metadata()
    row = arrow_row(json.loads(to_json_line(born[0])))
    assert row["ocr"] is None and Chunk.model_validate(row) == born[0]
