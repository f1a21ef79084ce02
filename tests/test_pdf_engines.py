"""The two PDF engines (PDFium, pdfplumber) read generated PDFs alike; what PDFium reads
better is pinned here, one test per case; and the engine is an option everywhere.

The generated PDFs (tests/pdf_factory.py) use the standard fonts, so both engines place
every glyph from the same metrics: on them the engines must give the same words in the
same order, lines in the same places. The corpus cases need ../shared/corpus.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, SHARED_CORPUS
from corpus_pdf import read_words
from pdf_factory import Page, pdf_bytes

from structchunk import ChunkOptions, chunk_file
from structchunk.api import iter_chunks_from_bytes
from structchunk.cli import cli
from structchunk.errors import ParseError
from structchunk.options import PdfEngine
from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parallel, parse, read_all_pages
from structchunk.parsers.pdf.engines import open_document
from structchunk.parsers.pdf.engines.base import OpenPdf, PageReading
from structchunk.parsers.pdf.engines.pdfium.engine import PdfiumPdf
from structchunk.parsers.pdf.types import Line, PageContent, PageTable

ENGINES: tuple[PdfEngine, ...] = ("pdfium", "pdfplumber")
PROSE = (
    "Structured documents are read page by page, and every page is turned into lines",
    "of words in reading order. Each line keeps the box it is printed in, so a chunk",
    "can point back to the place on the page its words come from, even after the",
    "lines of a paragraph have been joined and the paragraph packed into a chunk.",
)


def _pages(data: bytes, engine: PdfEngine) -> list[PageContent]:
    pdf = open_document(engine, data)
    try:
        return read_all_pages(pdf, pdf.tagged())
    finally:
        pdf.close()


def _prose() -> list[Page]:
    page = Page().text(72, 720, "Reading PDF Pages", font="Helvetica-Bold", size=18)
    y = page.lines(72, 690, list(PROSE))
    page.text(72, y - 10, "A Times Paragraph", font="Times-Bold", size=12)
    y = page.lines(72, y - 30, list(PROSE[:3]), font="Times-Roman", size=11)
    page.lines(90, y - 10, ["def read(page):", "    return page.lines()"], font="Courier")
    page.text(72, 300, "An oblique line of Homeland staff: fjord, offer.", "Helvetica-Oblique")
    page.text(72, 280, "Quotes “like these”, dashes – and — and a price of $1,250.", "Times-Roman")
    second = Page().text(72, 720, "2. Second Section", font="Helvetica-Bold", size=14)
    second.lines(72, 690, list(PROSE) * 2)
    return [page, second]


def _letter_spaced() -> list[Page]:
    page = Page().text(72, 720, "MESSAGE", font="Helvetica-Bold", size=14, char_space=6)
    page.text(72, 690, "Tightly set words", size=10, char_space=-0.4)
    page.lines(72, 660, list(PROSE))
    return [page]


def _columns() -> list[Page]:
    page = Page().text(72, 740, "Two Columns Below", font="Helvetica-Bold", size=16)
    words = " ".join(PROSE).split()
    for column, x in enumerate((72, 320)):
        lines = [" ".join(words[i : i + 6]) for i in range(column * 3, len(words), 6)]
        page.lines(x, 700, (lines * 3)[:24], size=9)
    return [page]


def _tables() -> list[Page]:
    page = Page().text(72, 740, "Statement of Operations", font="Helvetica-Bold", size=12)
    rows = [("Net sales", "96,388", "97,278"), ("Cost of sales", "52,860", "54,719")]
    rows += [("Gross margin", "43,528", "42,559"), ("Operating income", "30,316", "30,553")]
    page.text(330, 710, "2023", "Helvetica-Bold").text(430, 710, "2022", "Helvetica-Bold")
    for index, (label, a, b) in enumerate(rows):
        y = 690 - index * 16
        page.text(72, y, label).text(350 - 5.6 * len(a), y, a).text(450 - 5.6 * len(b), y, b)
    top, left, widths, height = 560, 72, (150, 120, 120), 20
    for row in range(4):
        x = left
        for column, width in enumerate(widths):
            page.box(x, top - (row + 1) * height, width, height)
            page.text(x + 4, top - (row + 1) * height + 6, f"cell {row}-{column}")
            x += width
    page.rule(72, 420, 540, 420)
    page.box(72, 340, 300, 60).text(80, 380, "A framed note is no table.")
    return [page]


def _rotated() -> list[Page]:
    pages = []
    for rotate in (90, 180, 270):
        page = Page(rotate=rotate).text(72, 720, f"Turned {rotate}", "Helvetica-Bold", 14)
        page.lines(72, 690, list(PROSE))
        pages.append(page)
    return pages


GENERATED = {
    "prose": _prose,
    "letter-spaced": _letter_spaced,
    "columns": _columns,
    "tables": _tables,
    "rotated": _rotated,
}


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_both_engines_read_the_same_words_in_the_same_places(name: str) -> None:
    data = pdf_bytes(GENERATED[name]())
    pdfium, plumber = _pages(data, "pdfium"), _pages(data, "pdfplumber")
    assert read_words(pdfium) == read_words(plumber)
    for ours, theirs in zip(pdfium, plumber, strict=True):
        assert (ours.width, ours.height, ours.orientation) == (
            theirs.width,
            theirs.height,
            theirs.orientation,
        )
        assert [type(item) for item in ours.items] == [type(item) for item in theirs.items]
        for a, b in zip(ours.items, theirs.items, strict=True):
            assert abs(a.x0 - b.x0) < 0.2 and abs(a.x1 - b.x1) < 0.2, (a, b)
            assert abs(a.top - b.top) < 0.2 and abs(a.bottom - b.bottom) < 0.2, (a, b)
            if isinstance(a, Line) and isinstance(b, Line):
                assert (a.font, a.bold, a.mono, a.marker) == (b.font, b.bold, b.mono, b.marker)
                if ours.orientation == "ltr":  # see the test below for the others
                    assert abs(a.size - b.size) < 0.01


def test_text_on_a_turned_page_keeps_its_font_size() -> None:
    """pdfminer gives a glyph turned sideways the size of its advance width (the height
    of its box on the page), so a turned page's 14-point title read as 8.6 points."""
    pages = _pages(pdf_bytes(_rotated()), "pdfium")
    assert [page.orientation for page in pages] == ["ttb", "ltr", "btt"]  # 180°: upside down
    for page in pages:
        sizes = sorted(line.size for line in page.lines())
        assert sizes == [10.0] * len(PROSE) + [14.0]


def _lines(data: bytes, engine: PdfEngine = "pdfium") -> list[str]:
    return [line.printed() for page in _pages(data, engine) for line in page.lines()]


def test_an_italic_glyph_overhanging_its_advance_does_not_glue_words() -> None:
    """PDFium's loose box covers the ink: an oblique `f` reaches 1.4 pt past its advance,
    over most of the space before `Homeland`. Boxes are the advance, as pdfminer's."""
    page = Page().text(72, 700, "of Homeland staff", font="Helvetica-Oblique", size=10)
    assert _lines(pdf_bytes([page])) == ["of Homeland staff"]


def test_a_space_that_starts_the_next_text_object_still_parts_words() -> None:
    """A contents line whose page number is drawn by its own `Tj`, led by a space: the
    space belongs to the next object; it still ends the leader (Chelsea's contents)."""
    page = Page().text(72, 700, "Introduction.......").text(160.6, 700, " 5")
    assert _lines(pdf_bytes([page])) == ["Introduction....... 5"]


def test_white_text_under_two_points_is_hidden() -> None:
    page = Page().text(72, 700, "Visible words stay.")
    page.ops.append("1 1 1 rg BT /F1 1 Tf 72 690 Td (_63ec12c0-c0c9-11ec-a4ba) Tj ET 0 0 0 rg")
    page.ops.append("1 1 1 rg BT /F1 10 Tf 72 670 Td (White on a dark band.) Tj ET 0 0 0 rg")
    assert _lines(pdf_bytes([page])) == ["Visible words stay.", "White on a dark band."]


def test_invisible_text_over_visible_text_is_dropped_an_ocr_layer_is_kept() -> None:
    """Render mode 3 (`3 Tr`): an invisible copy of visible text is no new text; the
    invisible text of an OCRed scan is all the text there is."""
    page = Page().text(72, 700, "Printed once.")
    page.ops.append("BT 3 Tr /F1 10 Tf 72 700 Td (Printed once.) Tj ET")
    page.ops.append("BT 3 Tr /F1 10 Tf 72 650 Td (Recognised beside it.) Tj ET")
    assert _lines(pdf_bytes([page])) == ["Printed once.", "Recognised beside it."]
    scan = Page()
    scan.ops.append("BT 3 Tr /F1 10 Tf 72 700 Td (Recognised text of a scan.) Tj ET")
    assert _lines(pdf_bytes([scan])) == ["Recognised text of a scan."]


def test_text_printed_up_the_margin_reads_as_one_line_apart() -> None:
    """The Federal Register prints a line up its margin on every page: pdfplumber's
    reading spread its letters over the body lines (`h wD wingno longeris`)."""
    page = Page()
    page.lines(72, 700, list(PROSE))
    page.ops.append(
        "BT /F1 8 Tf 0 1 -1 0 560 600 Tm (jbell on DSKJLSW7X2PROD with PROPOSALS) Tj ET"
    )
    lines = _lines(pdf_bytes([page]))
    assert "jbell on DSKJLSW7X2PROD with PROPOSALS" in lines
    assert [line for line in lines if line in PROSE] == list(PROSE)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_engine_is_an_option_of_the_library_and_the_cli(
    engine: PdfEngine, tmp_path: Path
) -> None:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf_bytes(_prose()))
    chunks = chunk_file(path, max_tokens=64, pdf_engine=engine)
    assert any("Reading PDF Pages" in c.text for c in chunks)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        cli, ["convert", str(path), "--pdf-engine", engine, "-o", str(out), "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "Reading PDF Pages" in out.read_text()


def test_an_unknown_engine_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf_bytes(_prose()))
    result = CliRunner().invoke(cli, ["convert", str(path), "--pdf-engine", "mupdf"])
    assert result.exit_code == 2 and "mupdf" in result.output
    with pytest.raises(ValueError, match="pdf_engine"):
        ChunkOptions(pdf_engine="mupdf")  # type: ignore[arg-type]


def test_the_engine_changes_the_options_fingerprint() -> None:
    assert ChunkOptions().fingerprint() != ChunkOptions(pdf_engine="pdfplumber").fingerprint()


@pytest.mark.parametrize("engine", ENGINES)
def test_several_page_workers_give_the_same_document(
    engine: PdfEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "DEFAULT_MIN_PAGES_PER_JOB", 2)
    monkeypatch.setattr(parallel, "DEFAULT_PAGES_PER_TASK", 1)
    data = (ROOT / "samples" / "rust-data-types.pdf").read_bytes()
    one = parse(data, "s.pdf", ParseSettings(pdf_engine=engine))
    two = parse(data, "s.pdf", ParseSettings(pdf_engine=engine, page_workers=2))
    assert repr(two.root) == repr(one.root)


_PARENT = os.getpid()


def _crash_in_a_worker(self: OpenPdf, index: int, tagged: bool) -> PageReading:
    if os.getpid() != _PARENT:
        faulthandler.disable()  # pytest's would print the crash's stack
        os.kill(os.getpid(), signal.SIGSEGV)
    return _READ_PAGE(self, index, tagged)


_READ_PAGE = PdfiumPdf.read_page


@pytest.mark.skipif(sys.platform != "linux", reason="forks a worker that segfaults")
def test_a_page_worker_that_crashes_fails_the_file_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A crash in PDFium (C code) kills the process reading the page: the document
    fails with a `ParseError`, not a `BrokenProcessPool` traceback."""
    monkeypatch.setattr(parallel, "DEFAULT_MIN_PAGES_PER_JOB", 2)
    monkeypatch.setattr(PdfiumPdf, "read_page", _crash_in_a_worker)
    monkeypatch.setattr(parallel, "start_context", _fork)
    data = (ROOT / "samples" / "rust-data-types.pdf").read_bytes()
    with pytest.raises(ParseError, match="page-reading process died") as caught:
        parse(data, "s.pdf", ParseSettings(page_workers=2))
    assert "\n" not in str(caught.value)


def _fork() -> object:
    import multiprocessing

    return multiprocessing.get_context("fork")


# -- the corpus: where PDFium reads better ------------------------------------------------


def _corpus(relative: str) -> Path:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    return SHARED_CORPUS / relative


def test_an_emoji_beyond_the_basic_plane_is_one_character() -> None:
    """PDFium hands a ToUnicode entry beyond U+FFFF on as two UTF-16 surrogates."""
    data = _corpus("pdf/fastapi/deployment-concepts.pdf").read_bytes()
    words = read_words(_pages(data, "pdfium"))
    assert "😅)." in words and not any("\ud83d" in word for word in words)


def test_a_table_on_a_page_printed_sideways_reads_upright() -> None:
    """The NICS statistics (`/Rotate 90`): pdfplumber's page hands `find_tables`
    sideways glyphs and read one table of 15 columns of stacked state names."""
    data = _corpus("pdf/pdfplumber/nics-background-checks-2015-11-rotated.pdf").read_bytes()
    (page,) = _pages(data, "pdfium")
    tables = [item for item in page.items if isinstance(item, PageTable)]
    assert any(
        t.rows[0][:3] == ["State / Territory", "Permit", "Handgun"]
        and t.rows[2][:3] == ["Alaska", "209", "3,062"]
        for t in tables
    )


def test_a_ruled_report_table_keeps_its_dates_whole() -> None:
    """pdfplumber's reading of the WARN report's cells split every date into digits
    (`0 3 / 2 5 / 2 0 16`)."""
    path = _corpus("pdf/pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    chunks = list(
        iter_chunks_from_bytes(path.read_bytes(), str(path), "pdf", ChunkOptions(max_tokens=200))
    )
    text = " ".join(c.text for c in chunks)
    assert "03/25/2016" in text and "0 3 / 2 5" not in text


def test_a_file_pdfium_cannot_open_is_read_by_pdfplumber() -> None:
    """A linearized file whose first-page cross-reference is broken: PDFium refuses it,
    pdfminer's fallback reads its text."""
    path = _corpus("robustness/pdf/pypdf-samples/unreadablemetadata.pdf")
    document = parse(path.read_bytes(), str(path), ParseSettings())
    assert any("read with pdfplumber" in warning for warning in document.warnings)
    assert document.sections()


def test_a_large_line_up_the_margin_is_no_heading() -> None:
    """arXiv prints its identifier up the left margin of page 1 in 20-point type: read as
    a line of its own it was the largest text on the page, and every later section hung
    under it. pdfplumber's reading scattered its letters over the body instead."""
    page = Page().text(72, 720, "Creativity in Machine Learning", font="Helvetica-Bold", size=18)
    y = page.lines(72, 690, list(PROSE) * 3)
    page.text(72, y - 10, "Basics of Machine Learning", font="Helvetica-Bold", size=14)
    page.lines(72, y - 30, list(PROSE) * 3)
    page.ops.append(
        "0.5 g BT /F3 20 Tf 0 1 -1 0 40 250 Tm (arXiv:1601.03642v1 [cs.CV] 12 Jan 2016) Tj ET"
    )
    document = parse(pdf_bytes([page]), "arxiv.pdf", ParseSettings())
    titles = [section.title for section in document.sections() if section.level]
    assert titles == ["Creativity in Machine Learning", "Basics of Machine Learning"]
    assert "arXiv:1601.03642v1 [cs.CV] 12 Jan 2016" in document.source_text


def test_pdfs_read_in_several_threads_read_as_in_one() -> None:
    """PDFium may not be called from two threads at once: a web server converting two
    uploads at a time must get what one thread gets (the engine holds one lock)."""
    from concurrent.futures import ThreadPoolExecutor

    documents = [pdf_bytes(builder()) for builder in GENERATED.values()]
    documents.append((ROOT / "samples" / "rust-data-types.pdf").read_bytes())

    def read(data: bytes) -> str:
        return repr(parse(data, "t.pdf", ParseSettings()).root)

    alone = [read(data) for data in documents]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(read, documents * 3))
    assert together == alone * 3


def _grid(rows: int, columns: int, left: float = 72, top: float = 700) -> tuple[list, list]:
    """The edges of a ruled grid of 20 x 100-point cells (user space)."""
    right, bottom = left + 100 * columns, top - 20 * rows
    horizontal = [(top - 20 * r, left, right) for r in range(rows + 1)]
    vertical = [(left + 100 * c, bottom, top) for c in range(columns + 1)]
    return horizontal, vertical


def test_only_ruling_that_could_hold_a_grid_goes_to_the_table_finder() -> None:
    from structchunk.parsers.pdf.engines.pdfium.ruling import could_hold_table

    assert could_hold_table(*_grid(2, 2))
    assert could_hold_table(*_grid(12, 5))
    assert not could_hold_table(*_grid(1, 1))  # a framed note
    assert not could_hold_table(*_grid(1, 3))  # one row: no table is kept
    boxes = [_grid(1, 1, top=700), _grid(1, 1, top=600), _grid(1, 1, left=300, top=700)]
    assert not could_hold_table(
        [e for h, _ in boxes for e in h], [e for _, v in boxes for e in v]
    )  # boxes around code blocks and notes: two crossings per rule
    pieces = [(700.0, 72.0 + 10 * i, 80.0 + 10 * i) for i in range(30)]  # a rule in dashes
    assert could_hold_table(pieces + _grid(2, 2)[0][1:], _grid(2, 2)[1])


def test_a_page_of_a_million_crossings_is_a_drawing_not_a_table() -> None:
    """A hostile page of 1 100 rules each way: its crossings (and pdfplumber's finder)
    would take 1.2 million steps a page."""
    from structchunk.parsers.pdf.engines.pdfium.ruling import could_hold_table

    horizontal = [(float(y), 0.0, 600.0) for y in range(0, 1100)]
    vertical = [(float(x), 0.0, 1100.0) for x in range(0, 550 * 10, 5)]
    assert not could_hold_table(horizontal, vertical)
