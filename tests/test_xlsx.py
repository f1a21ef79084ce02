"""Excel workbooks: sheets as sections, blocks of cells as tables with their header rows,
merged cells, formulas' cached values, values as text, hidden sheets, and sheets that
are larger (or claim to be) than they look — on workbooks the tests build."""

from __future__ import annotations

import datetime as dt
import io
import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from office_factory import rewrite_part, with_dimension, workbook_bytes, xlsxwriter_bytes
from openpyxl.worksheet.table import Table as DefinedTable

from structchunk import ChunkOptions, chunk_file
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import Block, Document, Paragraph, Section, Table
from structchunk.parsers import ParseSettings
from structchunk.parsers.numbers import format_number
from structchunk.parsers.xlsx import parse
from structchunk.parsers.xlsx.values import format_temporal, percent_decimals

ROOT = Path(__file__).resolve().parent.parent


def read(data: bytes) -> Document:
    return parse(data, "book.xlsx", ParseSettings())


def sheet(document: Document, name: str) -> Section:
    found = [s for s in document.root.children if s.title == name]
    assert found, f"no sheet {name!r}: {[s.title for s in document.root.children]}"
    return found[0]


def tables(section: Section) -> list[Table]:
    return [block for block in section.blocks if isinstance(block, Table)]


def rows_of(ws: Any, rows: list[list[Any]], start: str = "A1") -> None:
    """Write `rows` into `ws` from the cell `start` (None leaves a cell empty)."""
    first = ws[start]
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                ws.cell(first.row + r, first.column + c, value)


def test_each_visible_sheet_is_a_section_and_its_first_row_the_header() -> None:
    def build(book: Any) -> None:
        book.properties.title = "Inventory 2024"
        rows_of(book.create_sheet("Stock"), [["Item", "Count"], ["bolts", 120], ["nuts", 80]])
        rows_of(book.create_sheet("Suppliers"), [["Name", "City"], ["Acme", "Lyon"]])

    document = read(workbook_bytes(build))
    assert document.title == "Inventory 2024"
    assert [s.path for s in document.root.children] == [
        ("Inventory 2024", "Stock"),
        ("Inventory 2024", "Suppliers"),
    ]
    (stock,) = tables(sheet(document, "Stock"))
    assert stock.header == [["Item", "Count"]]
    assert stock.rows == [["bolts", "120"], ["nuts", "80"]]


def test_hidden_and_very_hidden_sheets_are_left_out_with_a_warning() -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Shown"), [["a", "b"], [1, 2]])
        book.create_sheet("Lookup").sheet_state = "hidden"
        rows_of(book["Lookup"], [["code"], ["X"]])
        book.create_sheet("Secret").sheet_state = "veryHidden"
        rows_of(book["Secret"], [["key"], ["Y"]])

    document = read(workbook_bytes(build))
    assert [s.title for s in document.root.children] == ["Shown"]
    assert document.warnings == [
        "hidden sheets left out: 'Lookup', 'Secret' (unhide them in Excel to include them)"
    ]


def test_blocks_apart_are_separate_tables_in_reading_order() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Two tables")
        rows_of(ws, [["Left", "x"], ["a", 1], ["b", 2], ["c", 3], ["d", 4]])
        rows_of(ws, [["Right", "y"], ["e", 5], ["f", 6]], "D1")
        rows_of(ws, [["Below right", "z"], ["g", 7], ["h", 8]], "D6")
        rows_of(ws, [["Under", "w"], ["i", 9]], "A10")

    section = sheet(read(workbook_bytes(build)), "Two tables")
    assert [t.header[0][0] for t in tables(section)] == ["Left", "Right", "Below right", "Under"]
    assert tables(section)[1].rows == [["e", "5"], ["f", "6"]]


def test_tables_that_touch_only_at_a_corner_are_two() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Diagonal")
        rows_of(ws, [["A", "B"], ["a1", "b1"], ["a2", "b2"]])
        rows_of(ws, [["C", "D"], ["c1", "d1"]], "C4")

    found = tables(sheet(read(workbook_bytes(build)), "Diagonal"))
    assert [t.header for t in found] == [[["A", "B"]], [["C", "D"]]]


def test_a_blank_row_inside_a_table_does_not_split_it() -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Gap"), [["Month", "Sales"], ["Jan", 10], ["Feb", 12]])
        rows_of(book["Gap"], [["Mar", 14], ["Apr", 9]], "A5")

    (table,) = tables(sheet(read(workbook_bytes(build)), "Gap"))
    assert table.rows == [["Jan", "10"], ["Feb", "12"], ["Mar", "14"], ["Apr", "9"]]


def test_a_second_table_below_with_its_own_header_is_not_joined() -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Stacked"), [["Month", "Sales"], ["Jan", 10]])
        rows_of(book["Stacked"], [["Month", "Costs"], ["Jan", 4]], "A4")

    found = tables(sheet(read(workbook_bytes(build)), "Stacked"))
    assert [t.header for t in found] == [[["Month", "Sales"]], [["Month", "Costs"]]]


def test_a_spacer_column_inside_a_form_does_not_split_its_rows() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Form")
        rows_of(ws, [[1, None, "Voltage", "kV", 130], [2, None, "Frequency", "Hz", 50]], "A2")
        rows_of(ws, [[3, None, "Phases", None, 3]], "A4")
        rows_of(ws, [["No.", None, "Quantity", "Unit", "Value"]])

    (table,) = tables(sheet(read(workbook_bytes(build)), "Form"))
    assert table.header == [["No.", "Quantity", "Unit", "Value"]]
    assert table.rows[0] == ["1", "Voltage", "kV", "130"]


def test_a_title_row_above_a_table_becomes_its_caption() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Report")
        rows_of(ws, [["Reading list"], ["Title", "Author"], ["Dune", "Herbert"]])
        rows_of(ws, [["Emma", "Austen"]], "A4")
        ws.merge_cells("A1:B1")

    (table,) = tables(sheet(read(workbook_bytes(build)), "Report"))
    assert table.caption == "Reading list"
    assert table.header == [["Title", "Author"]]
    assert table.rows == [["Dune", "Herbert"], ["Emma", "Austen"]]


def test_merged_cells_fill_down_rows_and_across_header_rows() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Merged")
        rows_of(
            ws,
            [
                ["Region", "Revenue", None, "Note"],
                [None, "Q1", "Q2", None],
                ["North", 10, 11, "steady growth over both quarters"],
                [None, 12, 13, None],
                ["South", 9, 8, "x"],
            ],
        )
        ws.merge_cells("B1:C1")  # a column group over Q1 | Q2
        ws.merge_cells("A3:A4")  # a region over two rows
        ws.merge_cells("D3:D4")
        ws.merge_cells("B5:C5")  # across body columns: kept once

    (table,) = tables(sheet(read(workbook_bytes(build)), "Merged"))
    assert table.header == [["Region", "Revenue", "Revenue", "Note"], ["", "Q1", "Q2", ""]]
    assert table.rows == [
        ["North", "10", "11", "steady growth over both quarters"],
        ["North", "12", "13", "steady growth over both quarters"],
        ["South", "9", "", "x"],
    ]


def test_a_defined_table_keeps_its_range_header_and_name() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Orders")
        rows_of(ws, [["Order", "Amount"], ["SO-1", 10], [None, None], ["SO-2", 20]])
        ws.add_table(DefinedTable(displayName="LargeOrders", ref="A1:B4"))
        rows_of(ws, [["Unrelated", "note"]], "A7")

    section = sheet(read(workbook_bytes(build)), "Orders")
    assert isinstance(section.blocks[0], Table)
    assert section.blocks[0].caption == "LargeOrders"
    assert section.blocks[0].header == [["Order", "Amount"]]
    assert section.blocks[0].rows == [["SO-1", "10"], ["SO-2", "20"]]
    assert isinstance(section.blocks[1], Paragraph)
    assert section.blocks[1].text == "Unrelated | note"


def test_formulas_are_read_as_their_cached_values() -> None:
    def build(book: Any) -> None:
        ws = book.add_worksheet("Sums")
        ws.write_row(0, 0, ["a", "b", "total"])
        ws.write_row(1, 0, [2, 3])
        ws.write_formula(1, 2, "=A2+B2", None, 5)
        ws.write_formula(2, 2, '=IF(A2>1,"big","small")', None, "big")

    data = xlsxwriter_bytes(build)
    document = read(data)
    (table,) = tables(sheet(document, "Sums"))
    assert table.rows == [["2", "3", "5"], ["", "", "big"]]
    assert document.warnings == []


def test_formulas_without_cached_values_are_left_empty_with_a_warning() -> None:
    def build(book: Any) -> None:
        rows_of(
            book.create_sheet("Sums"), [["a", "b", "total"], [2, 3, "=A2+B2"], [4, 5, "=A3+B3"]]
        )

    document = read(workbook_bytes(build))  # openpyxl stores no results
    (table,) = tables(sheet(document, "Sums"))
    assert table.rows == [["2", "3", ""], ["4", "5", ""]]
    assert len(document.warnings) == 1
    assert document.warnings[0].startswith("2 formula cells have no cached value")


def test_values_read_as_a_person_sees_them() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Values")
        values: list[tuple[Any, str]] = [
            (dt.datetime(2024, 3, 1), "yyyy-mm-dd"),
            (dt.datetime(2024, 3, 1, 14, 30), "yyyy-mm-dd hh:mm"),
            (dt.time(9, 5, 30), "hh:mm:ss"),
            (0.1 + 0.2, "General"),
            (3.0, "General"),
            (0.255, "0.0%"),
            (True, "General"),
            (-1234567.125, "#,##0.00"),
            ("  spaced\n  text ", "General"),
        ]
        ws.append([f"v{i}" for i in range(len(values))])
        for column, (value, number_format) in enumerate(values, start=1):
            cell = ws.cell(2, column, value)
            cell.number_format = number_format

    (table,) = tables(sheet(read(workbook_bytes(build)), "Values"))
    assert table.rows == [
        [
            "2024-03-01",
            "2024-03-01 14:30",
            "09:05:30",
            "0.3",
            "3",
            "25.5%",
            "TRUE",
            "-1234567.125",
            "spaced text",
        ]
    ]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.1 + 0.2, "0.3"),
        (1e20, "1e+20"),
        (2.5e-7, "2.5e-07"),
        (-0.0, "0"),
        (10**16, "10000000000000000"),
    ],
)
def test_numbers_keep_fifteen_significant_digits(value: float, text: str) -> None:
    assert format_number(value) == text


@pytest.mark.parametrize(
    ("code", "decimals"),
    [("0%", 0), ("0.00%", 2), ('0.0" %"', None), ("General", None), ("[Red]0.0%", 1)],
)
def test_percent_formats_are_recognised(code: str, decimals: int | None) -> None:
    assert percent_decimals(code) == decimals


def test_durations_show_hours_past_a_day() -> None:
    assert format_temporal(dt.timedelta(hours=26, minutes=5)) == "26:05:00"


def test_a_sheet_claiming_the_whole_grid_reads_only_its_cells() -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Claims"), [["a", "b"], [1, 2]])

    data = with_dimension(workbook_bytes(build), "A1:XFD1048576")
    start = time.perf_counter()
    (table,) = tables(sheet(read(data), "Claims"))
    assert time.perf_counter() - start < 5
    assert table.rows == [["1", "2"]]


def test_a_row_of_sixteen_thousand_columns_converts_within_bounds() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Wide")
        ws.append([f"c{i}" for i in range(16384)])
        ws.append(list(range(16384)))
        far = book.create_sheet("Far apart")
        far["A1"] = "first"
        far["XFD1"] = "last"
        far["XFD1048576"] = "corner"

    data = workbook_bytes(build)
    start = time.perf_counter()
    chunks = list(iter_chunks_from_bytes(data, "wide.xlsx", None, ChunkOptions(), strict=True))
    assert time.perf_counter() - start < 60
    assert all(chunk.n_tokens <= 256 for chunk in chunks)
    far = [c.body for c in chunks if c.heading_path == ["Far apart"]]
    assert far == ["\n\n".join(f"| {cell} |\n|---|" for cell in ("first", "last", "corner"))]


def test_a_large_table_is_split_into_row_groups_each_under_its_header() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("Orders")
        ws.append(["id", "customer", "amount"])
        for i in range(1, 2001):
            ws.append([i, f"Customer {i % 97}", round(i * 1.1, 2)])

    chunks = list(
        iter_chunks_from_bytes(
            workbook_bytes(build), "orders.xlsx", None, ChunkOptions(max_tokens=128)
        )
    )
    assert len(chunks) > 20
    covered = []
    for chunk in chunks:
        lines = chunk.body.splitlines()
        assert lines[:2] == ["| id | customer | amount |", "|---|---|---|"]
        assert chunk.table_rows is not None and chunk.table_rows[2] == 2000
        covered.extend(range(chunk.table_rows[0], chunk.table_rows[1] + 1))
        first = chunk.table_rows[0]
        assert (
            lines[2]
            == f"| {first} | Customer {first % 97} | {format_number(round(first * 1.1, 2))} |"
        )
    assert covered == list(range(1, 2001))


def test_one_broken_sheet_is_skipped_and_the_others_still_read() -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Broken"), [["a"], [1]])
        rows_of(book.create_sheet("Fine"), [["b"], [2]])

    data = rewrite_part(workbook_bytes(build), "xl/worksheets/sheet1.xml", lambda x: x[:-40])
    document = read(data)
    assert [s.title for s in document.root.children] == ["Fine"]
    assert document.warnings[0].startswith("sheet 'Broken': ")
    assert document.warnings[0].endswith(" (sheet skipped)")


def test_a_workbook_whose_every_sheet_is_broken_fails_in_one_line() -> None:
    from structchunk.errors import ParseError

    def build(book: Any) -> None:
        rows_of(book.create_sheet("Broken"), [["a"], [1]])

    data = rewrite_part(workbook_bytes(build), "xl/worksheets/sheet1.xml", lambda x: x[:-40])
    with pytest.raises(
        ParseError, match=r"^the workbook cannot be read \(sheet 'Broken': "
    ) as raised:
        read(data)
    assert "\n" not in str(raised.value)


def test_an_empty_workbook_gives_no_records() -> None:
    def build(book: Any) -> None:
        book.properties.title = "Nothing here"
        book.create_sheet("Empty")

    document = read(workbook_bytes(build))
    assert not document.has_headings() and document.title == ""


def test_the_command_line_and_the_api_convert_a_workbook(tmp_path: Path) -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Stock"), [["Item", "Count"], ["bolts", 120]])

    path = tmp_path / "stock.xlsm"
    path.write_bytes(workbook_bytes(build))
    (chunk,) = chunk_file(path)
    assert chunk.heading_path == ["Stock"] and chunk.block_types == ["table"]
    assert chunk.pages is None and chunk.offsets is None
    out = tmp_path / "out.jsonl"
    run = subprocess.run(
        [sys.executable, "-m", "structchunk", "convert", str(path), "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["format"] == "xlsx" and record["body"] == chunk.body


_CELL = st.one_of(
    st.integers(min_value=-(10**12), max_value=10**12),
    st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=1, max_value=5).flatmap(
        lambda width: st.lists(
            st.lists(_CELL, min_size=width, max_size=width), min_size=1, max_size=8
        )
    )
)
def test_a_dense_table_comes_back_cell_for_cell(body: list[list[int | str]]) -> None:
    width = len(body[0])
    header = [f"h{i}" for i in range(width)]

    def build(book: Any) -> None:
        rows_of(book.create_sheet("Data"), [header, *body])

    blocks: list[Block] = sheet(read(workbook_bytes(build)), "Data").blocks
    assert blocks == [Table([header], [[str(cell) for cell in row] for row in body])]


def test_a_workbook_over_the_cell_limit_fails_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from structchunk.errors import ParseError
    from structchunk.parsers.xlsx import reading

    monkeypatch.setattr(reading, "DEFAULT_MAX_CELLS", 5)

    def build(book: Any) -> None:
        rows_of(book.create_sheet("One"), [["a", "b"], [1, 2]])
        rows_of(book.create_sheet("Two"), [["c", "d"], [3, 4]])

    with pytest.raises(ParseError, match="the workbook holds more than 5 non-empty cells"):
        read(workbook_bytes(build))


SHEET_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


@pytest.mark.parametrize(
    ("content_type", "suffix"),
    [
        ("application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml", "xltx"),
        ("application/vnd.ms-excel.sheet.macroEnabled.main+xml", "xlsm"),
    ],
)
def test_templates_and_macro_workbooks_are_read_like_workbooks(
    content_type: str, suffix: str
) -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Stock"), [["Item", "Count"], ["bolts", 120]])

    data = rewrite_part(
        workbook_bytes(build),
        "[Content_Types].xml",
        lambda xml: xml.replace(SHEET_MAIN.encode(), content_type.encode()),
    )
    assert content_type.encode() in zipfile.ZipFile(io.BytesIO(data)).read("[Content_Types].xml")
    (chunk,) = iter_chunks_from_bytes(data, f"stock.{suffix}")
    assert chunk.heading_path == ["Stock"] and "| bolts | 120 |" in chunk.body


def test_a_workbook_in_strict_ooxml_namespaces_reads_the_same() -> None:
    def build(book: Any) -> None:
        rows_of(book.create_sheet("Stock"), [["Item", "Count"], ["bolts", 120]])

    transitional = workbook_bytes(build)
    source = zipfile.ZipFile(io.BytesIO(transitional))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as strict:  # ISO 29500 Strict's namespaces
        for info in source.infolist():
            part = source.read(info.filename).replace(
                b"http://schemas.openxmlformats.org/spreadsheetml/2006/main",
                b"http://purl.oclc.org/ooxml/spreadsheetml/main",
            )
            part = part.replace(
                b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
                b"http://purl.oclc.org/ooxml/officeDocument/relationships",
            )
            strict.writestr(info.filename, part)
    expected = read(transitional).root.children
    assert expected and read(buffer.getvalue()).root.children == expected


@pytest.mark.parametrize("writer", ["shared", "inline"])
def test_escaped_characters_in_strings_are_decoded(writer: str) -> None:
    """`_x000D_` is Excel's carriage return inside a string, `_x005F_` an escaped
    underscore: a reader sees a line break and the literal text, not the escape (in the
    shared strings XlsxWriter writes, and openpyxl's inline strings)."""

    def change(xml: bytes) -> bytes:
        return xml.replace(b"one two", b"one_x000D__x000A_two").replace(
            b"literal", b"_x005F_x000D_ stays"
        )

    def build(book: Any) -> None:
        ws = book.add_worksheet("S") if writer == "shared" else book.create_sheet("S")
        for r, row in enumerate([["Note", "Code"], ["one two", "literal"]]):
            for c, value in enumerate(row):
                ws.write(r, c, value) if writer == "shared" else ws.cell(r + 1, c + 1, value)

    if writer == "shared":
        data = rewrite_part(xlsxwriter_bytes(build), "xl/sharedStrings.xml", change)
    else:
        data = rewrite_part(workbook_bytes(build), "xl/worksheets/sheet1.xml", change)
    (table,) = tables(sheet(read(data), "S"))
    assert table.rows == [["one two", "_x000D_ stays"]]


def test_a_lone_cell_is_a_table_row_as_a_one_column_block_is() -> None:
    def build(book: Any) -> None:
        ws = book.create_sheet("S")
        ws["A1"] = "Prepared by the finance team"
        rows_of(ws, [["Fruit"], ["apple"], ["pear"]], "A3")

    blocks = sheet(read(workbook_bytes(build)), "S").blocks
    assert all(isinstance(block, Table) for block in blocks)
    lone, column = blocks
    assert isinstance(lone, Table) and isinstance(column, Table)
    assert (lone.header, lone.rows) == ([["Prepared by the finance team"]], [])
    assert (column.header, column.rows) == ([["Fruit"]], [["apple"], ["pear"]])
