"""Excel workbooks (.xlsx, .xlsm, .xltx) into the section tree: a section a sheet.

The stages, in order:

    packages.py     the zip checked: a workbook, not encrypted, not a bomb
    workbook.py     the sheet list and states, shared strings, number formats; hidden
                    sheets and chart sheets left out
    reading.py      each sheet streamed: non-empty cells as text (values.py), merged
                    ranges, table parts, formulas never calculated
    parts.py        relationships, and the sheet's defined tables (range, header rows)
    regions.py      the other cells cut into blocks at empty rows and columns
    tables.py       each block into a `Table` (header row, caption, merges filled) or a
                    paragraph

Headings: the workbook title (core properties) is the document title; each visible sheet
is a level-1 section titled by the sheet's name. Records carry no pages or lines: a
table's pieces carry `table_rows` instead.
"""

from __future__ import annotations

import zipfile
import zlib

from lxml import etree

from ...document import Block, Document
from ...errors import ParseError
from ..builder import TreeBuilder
from ..packages import open_package
from ..settings import ParseSettings
from . import reading
from .parts import DefinedTable, defined_tables
from .reading import Rows, SheetCells, read_sheet
from .regions import Region, join_continuations, split_regions
from .tables import index_merges, region_blocks
from .values import CellText
from .workbook import SheetEntry, open_workbook

READ_ERRORS = (
    etree.LxmlError,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    KeyError,
    ValueError,
)
"""What reading a damaged sheet part raises: lxml's syntax errors, zipfile's CRC and
truncation errors (a member's data cut short), zlib's for corrupt compressed data."""


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse an Excel package into a `Document` with one section per visible sheet."""
    package = open_package(data, "xlsx")
    try:
        book = open_workbook(package)
    except READ_ERRORS as error:
        raise ParseError(f"the workbook cannot be read ({_one_line(error)})") from None
    builder = TreeBuilder("xlsx", book.title)
    texts = CellText(book)
    budget = reading.DEFAULT_MAX_CELLS
    left_out: list[SheetEntry] = []
    failures: list[str] = []
    """`sheet 'Name': what went wrong`, for each sheet that could not be read."""
    uncached = 0
    for sheet in book.sheets:
        if sheet.kind != "worksheet" or sheet.state != "visible":
            left_out.append(sheet)
            continue
        try:
            cells = read_sheet(package, sheet.path, book.ns, texts, budget)
        except READ_ERRORS as error:
            failures.append(f"sheet {sheet.name!r}: {_one_line(error)}")
            continue
        budget -= cells.cells
        uncached += cells.uncached_formulas
        blocks = sheet_blocks(cells, defined_tables(package, sheet.path, cells.table_parts))
        if blocks:
            builder.heading(1, sheet.name)
            for block in blocks:
                builder.add(block)
    if failures and len(failures) == sum(1 for s in book.sheets if s not in left_out):
        raise ParseError(f"the workbook cannot be read ({failures[0]})")
    builder.warnings.extend(f"{failure} (sheet skipped)" for failure in failures)
    _warn(builder, left_out, uncached)
    document = builder.finish()
    if not document.has_headings():  # nothing to read: no title alone in the records
        document.title = document.root.title = ""
        document.root.path = ()
    return document


def sheet_blocks(cells: SheetCells, tables: list[DefinedTable]) -> list[Block]:
    """A sheet's blocks in reading order: defined tables where they stand, and the blocks
    cut from the other cells."""
    merges = index_merges(cells.merges)
    placed: list[tuple[tuple[int, int], list[Block]]] = []
    for table in tables:
        region = _take(cells.rows, table)
        if region is not None:
            blocks = region_blocks(
                cells.rows, region, merges, cells.typed_rows, table.header_rows, table.caption
            )
            placed.append(((region.top, region.left), blocks))
            _remove(cells.rows, region)
    regions = join_continuations(split_regions(cells.rows), cells.typed_rows)
    out: list[Block] = []
    placed.sort(key=lambda item: item[0])
    for region in regions:
        while placed and placed[0][0] < (region.top, region.left):
            out.extend(placed.pop(0)[1])
        out.extend(region_blocks(cells.rows, region, merges, cells.typed_rows))
    for _, blocks in placed:
        out.extend(blocks)
    return out


def _take(rows: Rows, table: DefinedTable) -> Region | None:
    """The region of a defined table: its range, trimmed to the rows that hold a value."""
    present = tuple(
        r
        for r in sorted(rows)
        if table.top <= r <= table.bottom and any(table.left <= c <= table.right for c in rows[r])
    )
    if not present:
        return None
    return Region(present[0], table.left, present[-1], table.right, present)


def _remove(rows: Rows, region: Region) -> None:
    for r in region.rows:
        row = rows[r]
        for column in [c for c in row if region.left <= c <= region.right]:
            del row[column]
        if not row:
            del rows[r]


def _warn(builder: TreeBuilder, left_out: list[SheetEntry], uncached: int) -> None:
    hidden = [sheet.name for sheet in left_out if sheet.state != "visible"]
    if hidden:
        names = ", ".join(repr(name) for name in hidden)
        builder.warnings.append(
            f"hidden sheets left out: {names} (unhide them in Excel to include them)"
        )
    if uncached:
        builder.warnings.append(
            f"{uncached:,} formula cells have no cached value and are left empty: the file "
            "was saved by a program that does not calculate formulas; open and save it "
            "in Excel or LibreOffice to fill them in"
        )


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
