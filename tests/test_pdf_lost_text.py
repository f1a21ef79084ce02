"""Nothing the PDF reader read is lost: the `strict` audit of each page's words against
its blocks (`packing/page_audit.py`), and the readings it caught losing text — a ruled
table open on one side, a column only its header marks, a letter or number starting a
line inside a list item. The corpus cases need ../shared/corpus."""

from __future__ import annotations

import pytest
from conftest import SHARED_CORPUS
from corpus_pdf import read_corpus_pdf
from pdf_factory import Page, pdf_bytes

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import (
    Document,
    ListBlock,
    PageRead,
    Paragraph,
    Provenance,
    Section,
    Table,
)
from structchunk.errors import BudgetError
from structchunk.options import PdfEngine
from structchunk.packing import Packer
from structchunk.packing.page_audit import lost_text
from structchunk.parsers import ParseSettings
from structchunk.parsers.builder import TreeBuilder
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.blocks import BlockWriter
from structchunk.parsers.pdf.cleanup import Vocabulary
from structchunk.parsers.pdf.engines import grids
from structchunk.parsers.pdf.types import Line, PageContent

ENGINES = ["pdfium", "pdfplumber"]


def _document(blocks: list[Paragraph | Table], read: list[PageRead]) -> Document:
    return Document(Section("", 0, blocks=list(blocks)), "pdf", read=read)


def _on(page: int) -> Provenance:
    return Provenance(pages=(page,))


# -- the audit ---------------------------------------------------------------------


def test_a_lost_cell_is_a_loss_named_by_page_and_words() -> None:
    table = Table(
        [["Goal", "Statement"]],
        [["Workforce", ""]],
        prov=_on(2),
        row_provs=[_on(2)],
    )
    read = [
        PageRead(1, "An opening paragraph."),
        PageRead(2, "Goal Statement Workforce Attract and engage a diverse workforce."),
    ]
    document = _document([Paragraph("An opening paragraph.", _on(1)), table], read)
    (loss,) = lost_text(document)
    assert loss.page == 2
    # `workforce` is read twice and kept once: which of the two was lost, no count says
    assert loss.words[-5:] == ("Attract", "and", "engage", "a", "diverse")
    assert loss.count == 6
    with pytest.raises(BudgetError, match=r"page 2 reached no chunk: '.*Attract and engage"):
        list(Packer(ChunkOptions(strict=True)).pack(document))
    assert list(Packer(ChunkOptions()).pack(document))  # only `strict` audits


def test_words_joined_or_split_by_the_reader_are_no_loss() -> None:
    """A line-end hyphen repaired, a letter-spaced word read as one, a glued cell split:
    the same letters, spelled as the output spells them."""
    read = [PageRead(1, "The infor- mation M e s s a g e reads TotalRevenue 2022")]
    text = "The information Message reads Total Revenue 2022"
    assert lost_text(_document([Paragraph(text, _on(1))], read)) == []


def test_text_dropped_on_another_page_excuses_no_loss() -> None:
    """Page numbers and running headers are dropped page by page: `8` dropped on page 2
    does not account for a figure `8` lost from page 1's table."""
    read = [PageRead(1, "Claims 8 days"), PageRead(2, "Body text 8", dropped=["8"])]
    blocks = [Paragraph("Claims days", _on(1)), Paragraph("Body text", _on(2))]
    (loss,) = lost_text(_document(blocks, read))
    assert (loss.page, loss.words) == (1, ("8",))


def test_a_paragraph_over_a_page_break_is_compared_with_both_pages() -> None:
    read = [PageRead(1, "A sentence that goes"), PageRead(2, "on overleaf.")]
    blocks = [Paragraph("A sentence that goes on overleaf.", Provenance(pages=(1, 2)))]
    assert lost_text(_document(blocks, read)) == []


def test_the_document_title_counts_once_on_its_page() -> None:
    """The title heads every chunk, so page 1 may print it as nothing else; but it is no
    second copy of words page 1 prints and then loses."""
    read = [PageRead(1, "Metadata and Docs URLs Set the docs URLs.")]
    kept = _document([Paragraph("Set the docs URLs.", _on(1))], read)
    kept.root.title = "Metadata and Docs URLs"
    assert lost_text(kept) == []
    lost = _document([Paragraph("Set the URLs.", _on(1))], read)
    lost.root.title = "Metadata and Docs URLs"
    assert [loss.words for loss in lost_text(lost)] == [("Docs",)]


def test_formats_read_without_pages_are_not_audited() -> None:
    assert lost_text(_document([Paragraph("Anything.")], [])) == []


# -- ruled tables open on one side ---------------------------------------------------

GOALS = [
    ("Diverse and Effective", "OPM Workforce", "Attract and engage a diverse and effective"),
    ("Timely, Accurate, and", "Responsive Service", "Provide timely, accurate, and responsive"),
    ("Healthier Americans", "", "Provide high quality health benefits and improve"),
]


def _open_table() -> Page:
    """Table 1.10 of the 2014 performance report: the right edge and the rule under the
    header are drawn across the header row only, so the body rows' second cells are
    open on their right; each statement is wrapped over two lines."""
    page = Page().text(72, 720, "Table 1.10", font="Helvetica-Bold")
    x0, split, x1, top, height = 72, 200, 540, 700, 30
    bottom = top - 20 - height * len(GOALS)
    page.rule(x0, top, x1, top).rule(x0, top - 20, x1, top - 20)
    page.rule(x1, top, x1, top - 20)  # the right edge, on the header row only
    page.rule(x0, top, x0, bottom).rule(split, top, split, bottom)
    page.text(76, top - 14, "Strategic Goal", font="Helvetica-Bold")
    page.text(204, top - 14, "Goal Statement", font="Helvetica-Bold")
    y = top - 20
    for first, second, statement in GOALS:
        page.text(76, y - 12, first).text(76, y - 24, second)
        page.text(204, y - 12, statement).text(204, y - 24, "workforce.")
        y -= height
        page.rule(x0, y, x1, y)
    return page


@pytest.mark.parametrize("engine", ENGINES)
def test_a_ruled_table_open_on_its_right_keeps_its_last_column(engine: PdfEngine) -> None:
    """`find_tables` makes a cell of a box closed on four sides only, and `extract`
    reads only cells: the `Goal Statement` column of every body row was in no chunk."""
    document = parse(pdf_bytes([_open_table()]), "t.pdf", ParseSettings(pdf_engine=engine))
    (table,) = [b for s in document.sections() for b in s.blocks if isinstance(b, Table)]
    assert table.header == [["Strategic Goal", "Goal Statement"]]
    assert table.rows[0] == [
        "Diverse and Effective OPM Workforce",
        "Attract and engage a diverse and effective workforce.",
    ]
    assert table.rows[-1][1] == "Provide high quality health benefits and improve workforce."
    assert lost_text(document) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_open_cells_side_by_side_each_read_their_own_column(engine: PdfEngine) -> None:
    """Rules drawn on the header row only leave both figure cells of each body row open;
    each reads the characters of its own column of the grid, once."""
    page = Page()
    x0, x1, top, bottom = 72, 540, 700, 640
    for y in (700, 680, 660, 640):
        page.rule(x0, y, x1, y)
    for x in (300, 420, 540):
        page.rule(x, top, x, top - 20)  # the header row's rules only
    page.rule(x0, top, x0, bottom).rule(200, top, 200, bottom)
    page.text(76, 686, "Measure").text(304, 686, "FY 2014").text(424, 686, "FY 2013")
    for y, (label, this, last) in ((666, ("Claims", "21", "35")), (646, ("Cases", "7", "9"))):
        page.text(76, y, label).text(304, y, this).text(424, y, last)
    document = parse(pdf_bytes([page]), "t.pdf", ParseSettings(pdf_engine=engine))
    (table,) = [b for s in document.sections() for b in s.blocks if isinstance(b, Table)]
    assert table.header == [["Measure", "FY 2014", "FY 2013"]]
    assert table.rows == [["Claims", "21", "35"], ["Cases", "7", "9"]]


def test_strict_fails_a_file_that_loses_a_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the open cells left unread (as before), `--strict` fails the file, naming it,
    the page and the words; without it the file converts (exit 0 before: no audit read
    the page)."""
    monkeypatch.setattr(grids, "_fill_open_cells", lambda table, raw: raw)
    data = pdf_bytes([_open_table()])
    said = r"t\.pdf: text read on page 1 reached no chunk: 'Attract"
    with pytest.raises(BudgetError, match=said):
        list(iter_chunks_from_bytes(data, "t.pdf", "pdf", ChunkOptions(strict=True)))
    assert list(iter_chunks_from_bytes(data, "t.pdf", "pdf", ChunkOptions()))


# -- a column only its header marks --------------------------------------------------


def _repurchases() -> Page:
    """Apple's share repurchases: three columns of figures, and a fourth whose only
    figure is on the total row, under a header stacked over four lines."""
    page = Page()
    heads = {
        330: ["Total Number", "of Shares", "Purchased"],
        420: ["Average Price", "Paid Per", "Share"],
        500: ["Approximate Dollar", "Value of Shares", "That May Yet Be", "Purchased"],
    }
    for x, lines in heads.items():
        page.lines(x, 700, lines, size=7, leading=8)
    rows = [
        ("October 2022 purchases", "69,169", "$ 144.57", ""),
        ("November 2022 purchases", "23,113", "$ 149.26", ""),
        ("December 2022 purchases", "40,557", "$ 136.85", ""),
        ("Total", "132,839", "", "$ 41,665"),
    ]
    y = 660.0
    for label, count, price, left in rows:
        page.text(72, y, label, size=7)
        for right, value in ((375.0, count), (465.0, price), (570.0, left)):
            if value:
                sign, _, number = value.rpartition(" ")
                page.text(right - 3.9 * len(number), y, number, size=7)
                if sign:
                    page.text(right - 55, y, sign, size=7)
        y -= 11
    return page


def test_a_column_only_its_header_marks_keeps_its_header_and_figure() -> None:
    """A column with a figure in one row of four is no column of figures, and no other
    column took its header phrases: `Approximate Dollar Value of Shares That May Yet Be
    Purchased` was in no chunk, and `$ 41,665` read as part of the label `Total`."""
    document = parse(pdf_bytes([_repurchases()]), "t.pdf", ParseSettings())
    (table,) = [b for s in document.sections() for b in s.blocks if isinstance(b, Table)]
    assert table.header[0][-1] == "Approximate Dollar Value of Shares That May Yet Be Purchased"
    assert table.header[0][1] == "Total Number of Shares Purchased"
    assert table.rows[-1] == ["Total", "132,839", "", "$ 41,665"]
    assert lost_text(document) == []


# -- a marker starting a line inside a list item -------------------------------------


def test_a_marker_inside_a_list_item_stays_in_its_text() -> None:
    """GeoTopo's proof: item `(ii)` holds the cases `a)` and `b)`, each at the item's
    text; the `b)` line went on in the item (it starts none) without its marker."""
    size = 10.0

    def line(text: str, top: float, x0: float, marker: str = "", marker_x: float = 0) -> Line:
        return Line(text, 1, x0, 400, top, top + size, size, "Times-Roman", marker=marker,
                    marker_x=marker_x or x0)  # fmt: skip

    builder = TreeBuilder("pdf")
    writer = BlockWriter(builder, Vocabulary([], hyphenates=False), line_gap=2.0)
    page = PageContent(1, 612, 792)
    page.items = [
        line("a) B liegt zwischen P und C", 100, 95, "(ii)", 72),
        line("d(P, A) + d(A, C) > d(P, C)", 112, 95),
        line("C liegt zwischen P und B", 124, 112, "b)", 95),
    ]
    writer.feed(page)
    writer.flush()
    (block,) = builder.finish().root.blocks
    assert isinstance(block, ListBlock)
    assert block.items[0].text.endswith("d(P, C) b) C liegt zwischen P und B")


# -- the corpus ----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_the_performance_report_s_goal_statements_reach_their_chunk(engine: PdfEngine) -> None:
    """Issue #40: Table 1.10 (page 14) lost its `Goal Statement` column under either
    engine, and `--strict` passed."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    path = SHARED_CORPUS / "pdf" / "usgov" / "2014-annual-performance-report.pdf"
    document = read_corpus_pdf(path, engine).document
    assert document is not None
    chunks = Packer(ChunkOptions(max_tokens=256, strict=True)).pack(document)
    text = "\n".join(chunk.text for chunk in chunks if 14 in chunk.prov.pages)
    row = "| Diverse and Effective OPM Workforce | Attract and engage a diverse and effective"
    assert row in text
    assert "| Healthier Americans | Provide high quality health benefits" in text
