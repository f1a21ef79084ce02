"""Word tables into rectangular `Table` blocks: merged cells filled, header rows known.

A `w:tbl` lays its cells on a grid: `w:gridSpan` widens a cell over several columns,
`w:vMerge` continues the cell above into this row (`w:hMerge`, the legacy horizontal
form, continues the cell on the left), and `w:gridBefore`/`w:gridAfter` leave columns
empty at a row's ends. Every grid position a merged cell covers gets its text, so a row
read alone is complete — except a row that is one cell across the whole table (a group
label), which keeps its text once. Header rows are the leading rows marked "repeat as
header row" (`w:tblHeader`), else the first row of a table of two or more rows. Rows and
columns empty everywhere (spacers) are left out; deleted rows and cells (tracked
changes) too. A cell's text is read by the caller (`cell_text`), which also flattens a
table nested in a cell into that cell's text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ...document import Table
from .xml import Element, child, is_on, val, w

MAX_GRID_SPAN = 64
"""Columns one cell may span (Word's tables have at most 63 columns); a hostile span on
every row must not allocate millions of cells."""

_WRAPPERS = (w("sdt"), w("customXml"), w("ins"), w("moveTo"))
"""Row- and cell-level wrappers whose content is read (content controls, custom XML,
tracked insertions)."""


@dataclass(slots=True)
class _Cell:
    element: Element
    span: int
    continues_above: bool
    continues_left: bool


def own_children(element: Element, tag: str) -> Iterator[Element]:
    """`element`'s children named `tag`, through wrappers (content controls, custom XML,
    insertions), skipping deleted ones; not those of nested tables."""
    stack = [iter(element)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        elif node.tag == tag:
            yield node
        elif node.tag in _WRAPPERS:
            content = child(node, "sdtContent") if node.tag == w("sdt") else node
            if content is not None:
                stack.append(iter(content))


def _span(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), MAX_GRID_SPAN))
    except ValueError:
        return 1


def _deleted(properties: Element | None) -> bool:
    """A row (`w:trPr/w:del`) or cell (`w:tcPr/w:cellDel`) deleted as a tracked change."""
    return child(properties, "del") is not None or child(properties, "cellDel") is not None


def table_rows(table: Element) -> list[Element]:
    """The table's own rows, tracked-deleted rows left out."""
    return [row for row in own_children(table, w("tr")) if not _deleted(child(row, "trPr"))]


def row_cells(row: Element) -> list[Element]:
    return [cell for cell in own_children(row, w("tc")) if not _deleted(child(cell, "tcPr"))]


def is_single_cell(table: Element) -> bool:
    """A table of one row and one cell: a framed box around paragraphs, not data."""
    rows = table_rows(table)
    return len(rows) == 1 and len(row_cells(rows[0])) == 1


def _cells(row: Element) -> list[_Cell]:
    out = []
    for cell in row_cells(row):
        props = child(cell, "tcPr")
        vmerge = child(props, "vMerge")
        hmerge = child(props, "hMerge")
        out.append(
            _Cell(
                element=cell,
                span=_span(val(props, "gridSpan")),
                continues_above=vmerge is not None and val(props, "vMerge") != "restart",
                continues_left=hmerge is not None and val(props, "hMerge") != "restart",
            )
        )
    return out


def _grid(rows: list[Element], cell_text: Callable[[Element], str]) -> list[list[str]]:
    """Every row as one text per grid column, merged cells filled."""
    grid: list[list[str]] = []
    for row in rows:
        props = child(row, "trPr")
        line = [""] * _span(val(props, "gridBefore")) if val(props, "gridBefore") else []
        cells = _cells(row)
        for cell in cells:
            column = len(line)
            if cell.continues_above:
                above = grid[-1] if grid else []
                text = above[column] if column < len(above) else ""
            elif cell.continues_left and line:
                text = line[-1]
            else:
                text = cell_text(cell.element)
            alone = len(cells) == 1 and cell.span > 1 and not line
            line.extend([text] + [("" if alone else text)] * (cell.span - 1))
        grid.append(line)
    width = max((len(line) for line in grid), default=0)
    return [line + [""] * (width - len(line)) for line in grid]


def _header_count(rows: list[Element]) -> int:
    count = 0
    for row in rows:
        if not is_on(child(child(row, "trPr"), "tblHeader")):
            break
        count += 1
    return count if count else (1 if len(rows) > 1 else 0)


def read_table(table: Element, cell_text: Callable[[Element], str]) -> Table | None:
    """The `Table` block of a `w:tbl`, or None when it holds no text."""
    rows = table_rows(table)
    grid = _grid(rows, cell_text)
    headers = _header_count(rows)
    kept = [(index, line) for index, line in enumerate(grid) if any(line)]
    if not kept:
        return None
    columns = [c for c in range(len(kept[0][1])) if any(line[c] for _, line in kept)]
    lines = [[line[c] for c in columns] for _, line in kept]
    header_rows = sum(1 for index, _ in kept if index < headers)
    if header_rows >= len(lines):
        header_rows = len(lines) - 1 if len(lines) > 1 else 0
    caption = val(child(table, "tblPr"), "tblCaption") or ""
    return Table(header=lines[:header_rows], rows=lines[header_rows:], caption=caption.strip())
