"""PDF table columns as a reader sees them (parsers/pdf/columns.py), and tagged cells
placed by their spans (parsers/pdf/structure.py)."""

from __future__ import annotations

import pytest
from conftest import SHARED_CORPUS
from hypothesis import given
from hypothesis import strategies as st
from pdfplumber.structure import PDFStructElement

from structchunk.options import PdfEngine
from structchunk.parsers.pdf.columns import stack_header, tidy_columns
from structchunk.parsers.pdf.engines import open_document
from structchunk.parsers.pdf.page import read_pages
from structchunk.parsers.pdf.structure import MAX_CELL_SPAN, _Context, _TreeWalk
from structchunk.parsers.pdf.types import PageTable
from structchunk.parsers.table_titles import is_figure

THREE = "Three Months Ended December 31,"
# Microsoft's 10-Q segment table as its tagged grid lays it out (shortened to the
# three-month group): `$` and blank spacer cells of their own, spanning titles repeated.
GRID_HEADER = [
    ["(In millions)", "", THREE, THREE, THREE, THREE, THREE, THREE, "", "", "Change", "Change"],
    ["", "", "2022", "2022", "", "", "2021", "2021", "", "", "", ""],
]
GRID_BODY = [
    ["Revenue", "", "", "", "", "", "", "", "", "", "", ""],
    ["Productivity", "", "$", "17,002", "", "", "$", "15,936", "", "", "", "7%"],
    ["Intelligent Cloud", "", "", "21,508", "", "", "", "18,262", "", "", "", "18%"],
    ["More Personal Computing", "", "", "14,237", "", "", "", "17,530", "", "", "", "(19)%"],
]


def test_a_word_processor_grid_reads_as_its_columns() -> None:
    header, body = tidy_columns(GRID_HEADER, GRID_BODY)
    assert stack_header(header) == [
        ["(In millions)", f"{THREE} 2022", f"{THREE} 2021", "Change"],
    ]
    assert body == [
        ["Revenue", "", "", ""],
        ["Productivity", "$ 17,002", "$ 15,936", "7%"],
        ["Intelligent Cloud", "21,508", "18,262", "18%"],
        ["More Personal Computing", "14,237", "17,530", "(19)%"],
    ]


def test_signs_join_figures_only() -> None:
    """`$` before a figure and `%` after one move in; a cost rating `$$`, or `$` before
    words, is a cell of its own."""
    _, body = tidy_columns([], [["Cost", "$", "1,200", "12", "%"], ["Rating", "$$", "low", "", ""]])
    assert body == [["Cost", "", "$ 1,200", "12%"], ["Rating", "$$", "low", ""]]
    _, body = tidy_columns([], [["Item", "$", "varies"]])
    assert body == [["Item", "$", "varies"]]


def test_columns_under_different_titles_stay_apart() -> None:
    """A feature matrix marks one plan per row: its columns never share a row, but their
    titles differ, so they are not one column."""
    header, body = tidy_columns(
        [["Feature", "Free", "Pro"]], [["Export", "yes", ""], ["Audit log", "", "yes"]]
    )
    assert header == [["Feature", "Free", "Pro"]]
    assert body == [["Export", "yes", ""], ["Audit log", "", "yes"]]


def test_the_label_column_is_never_joined() -> None:
    _, body = tidy_columns([], [["", "5"], ["Total", ""]])
    assert body == [["", "5"], ["Total", ""]]


def test_years_are_titles_not_figures() -> None:
    assert not is_figure("2022")
    assert is_figure("(19)%") and is_figure("$ 17,002") and is_figure("0.25")


_cell = st.sampled_from(["", "", "", "$", "%", "12", "(3)", "2021", "net", "a b"])


@given(
    st.integers(1, 6).flatmap(
        lambda width: st.tuples(
            st.lists(st.lists(_cell, min_size=width, max_size=width), max_size=2),
            st.lists(st.lists(_cell, min_size=width, max_size=width), min_size=1, max_size=6),
        )
    )
)
def test_no_cell_text_is_lost_or_reordered(grid: tuple[list[list[str]], list[list[str]]]) -> None:
    """Every body row keeps its characters in order (a sign may lose the space before its
    figure); every title word is still a title."""
    header, body = grid
    new_header, new_body = tidy_columns(header, body)
    for before, after in zip(body, new_body, strict=True):
        assert "".join("".join(before).split()) == "".join("".join(after).split())
    widths = {len(row) for row in [*new_header, *new_body]}
    assert len(widths) == 1
    titles = {word for row in header for cell in row for word in cell.split()}
    assert titles <= {word for row in new_header for cell in row for word in cell.split()}


def _cell_element(kind: str, **attributes: object) -> PDFStructElement:
    return PDFStructElement(kind, None, None, None, None, None, None, None, dict(attributes))


def test_tagged_cells_take_the_columns_their_spans_give() -> None:
    """`ColSpan` moves the cells after it; `RowSpan` keeps its columns taken in the rows
    below (a hostile span is capped)."""
    walk = _TreeWalk()
    row1 = _Context(table=1, row=1)
    row2 = _Context(table=1, row=2)
    first = walk.place(_cell_element("TH", RowSpan=2), row1)
    wide = walk.place(_cell_element("TH", ColSpan=3), row1)
    last = walk.place(_cell_element("TH"), row1)
    below = walk.place(_cell_element("TD"), row2)
    huge = walk.place(_cell_element("TD", ColSpan=10**9), row2)
    odd = walk.place(_cell_element("TD", ColSpan="two"), row2)
    assert [(c.column, c.span, c.header) for c in (first, wide, last)] == [
        (1, 1, True),
        (2, 3, True),
        (5, 1, True),
    ]
    assert (below.column, huge.column, huge.span) == (2, 3, MAX_CELL_SPAN)
    assert (odd.column, odd.span, odd.header) == (3 + MAX_CELL_SPAN, 1, False)


@pytest.mark.skipif(SHARED_CORPUS is None, reason="needs ../shared/corpus")
@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
def test_a_tagged_financial_table_reads_with_its_column_titles(engine: PdfEngine) -> None:
    """Microsoft's 10-Q page 37 (`TD` cells only, `$` in cells of their own, titles
    spanning six grid columns) was read as 15 misaligned columns under an empty header."""
    assert SHARED_CORPUS is not None
    pdf = open_document(engine, (SHARED_CORPUS / "pdf/sec-10q/2023-Q1-MSFT.pdf").read_bytes())
    try:
        (content,) = read_pages(pdf, [36], tagged=True)
    finally:
        pdf.close()
    tables = [item for item in content.items if isinstance(item, PageTable)]
    segment = next(t for t in tables if any("Intelligent Cloud" in row[0] for row in t.rows))
    assert segment.header_rows == 1
    assert segment.rows[0] == [
        "(In millions, except percentages)",
        "Three Months Ended December 31, 2022",
        "Three Months Ended December 31, 2021",
        "Percentage Change",
        "Six Months Ended December 31, 2022",
        "Six Months Ended December 31, 2021",
        "Percentage Change",
    ]
    assert ["Intelligent Cloud", "21,508", "18,262", "18%", "41,833", "35,174", "19%"] in (
        segment.rows
    )
