"""Word tables built here: header rows, merged cells, nesting, boxes, tracked rows."""

from __future__ import annotations

from docx_factory import (
    blocks,
    body_xml,
    cell,
    new,
    outline,
    para,
    read,
    row,
    run,
    styled,
    table,
    texts,
)

from structchunk.document import Table

# --- tables -------------------------------------------------------------------------------


def only_table(doc: object) -> Table:
    (block,) = blocks(read(doc))
    assert isinstance(block, Table)
    return block


def test_a_table_with_a_header_row_and_merged_cells_filled() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("Region"), cell("Sales", '<w:gridSpan w:val="2"/>')),
            row(cell("North", '<w:vMerge w:val="restart"/>'), cell("Q1"), cell("10")),
            row(cell("", "<w:vMerge/>"), cell("Q2"), cell("12")),
            row(cell("South"), cell("n/a", '<w:gridSpan w:val="2"/>')),
        ),
    )
    block = only_table(doc)
    assert block.header == [["Region", "Sales", "Sales"]]
    assert block.rows == [
        ["North", "Q1", "10"],
        ["North", "Q2", "12"],
        ["South", "n/a", "n/a"],
    ]


def test_repeated_header_rows_are_the_header() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("Name"), cell("Size"), props="<w:tblHeader/>"),
            row(cell("(text)"), cell("(bytes)"), props="<w:tblHeader/>"),
            row(cell("a.txt"), cell("10")),
            props='<w:tblCaption w:val="Files"/>',
        ),
    )
    block = only_table(doc)
    assert block.header == [["Name", "Size"], ["(text)", "(bytes)"]]
    assert block.rows == [["a.txt", "10"]]
    assert block.caption == "Files"


def test_python_docx_tables_read_with_their_first_row_as_header() -> None:
    doc = new()
    grid = doc.add_table(rows=3, cols=2)
    for r, values in enumerate([("k", "v"), ("a", "1"), ("b", "2")]):
        for c, value in enumerate(values):
            grid.cell(r, c).text = value
    a = grid.cell(1, 1).merge(grid.cell(2, 1))  # python-docx writes vMerge
    a.text = "same"
    block = only_table(doc)
    assert block.header == [["k", "v"]]
    assert block.rows == [["a", "same"], ["b", "same"]]


def test_a_group_row_spanning_the_table_keeps_its_text_once() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("A"), cell("B"), cell("C")),
            row(cell("Group one", '<w:gridSpan w:val="3"/>')),
            row(cell("1"), cell("2"), cell("3")),
        ),
    )
    assert only_table(doc).rows == [["Group one", "", ""], ["1", "2", "3"]]


def test_a_nested_table_is_flattened_into_its_cell() -> None:
    doc = new()
    inner = table(row(cell("x"), cell("y")), row(cell("1"), cell("2")))
    body_xml(
        doc,
        table(
            row(cell("Key"), cell("Value")),
            row(cell("coords"), f"<w:tc>{para(run('See:'))}{inner}{para('')}</w:tc>"),
        ),
    )
    assert only_table(doc).rows == [["coords", "See:\n| x | y |\n| 1 | 2 |"]]


def test_a_one_cell_table_is_a_box_of_paragraphs() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(
                "<w:tc>"
                + para(run("Note"), styled("Heading2"))
                + para(run("Keep the lid closed."))
                + "</w:tc>"
            )
        ),
    )
    tree = read(doc)
    assert outline(tree) == []  # a heading inside a box is text
    assert texts(tree) == ["Note", "Keep the lid closed."]


def test_deleted_rows_and_cells_are_left_out() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("h1"), cell("h2")),
            row(cell("gone"), cell("row"), props='<w:del w:id="1" w:author="A"/>'),
            row(cell("kept"), cell("x", '<w:cellDel w:id="2" w:author="A"/>'), cell("row")),
        ),
    )
    assert only_table(doc).rows == [["kept", "row"]]


def test_rows_in_content_controls_and_legacy_horizontal_merges() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("a"), cell("b"), cell("c")),
            "<w:sdt><w:sdtContent>"
            + row(cell("wide", '<w:hMerge w:val="restart"/>'), cell("", "<w:hMerge/>"), cell("z"))
            + "</w:sdtContent></w:sdt>",
        ),
    )
    assert only_table(doc).rows == [["wide", "wide", "z"]]
