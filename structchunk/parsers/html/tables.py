"""HTML tables into rectangular `Table` blocks, and telling data tables from layout tables.

`colspan`/`rowspan` are expanded so every row has the same width (a row-spanning cell
is repeated in each row it covers, so a row read alone is complete; a column-spanning
body cell keeps its text in its first column). Tables nested inside a cell are flattened
into that cell's text.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from ...document import Table
from .dom import child_named, has_descendant, inline_text, text_longer_than
from .tree import Element

MAX_COLSPAN = 1000
MAX_ROWSPAN = 65534
"""The limits the HTML standard puts on `colspan` and `rowspan`."""

DEFAULT_MAX_TABLE_CELLS = 200_000
"""Above this many cells after expansion, spans are ignored (a hostile `colspan` on every
row must not allocate millions of empty cells)."""

DEFAULT_LAYOUT_CELL_CHARS = 1200
"""A cell holding more text than this is page layout (a column of articles), not data."""

_SECTION_TAGS = ("thead", "tbody", "tfoot")
_CELL_TAGS = ("td", "th")
_LAYOUT_ROLES = ("presentation", "none")


@dataclass(slots=True)
class _Cell:
    text: str
    colspan: int
    rowspan: int


@dataclass(slots=True)
class _Row:
    cells: list[_Cell]
    in_head: bool
    all_th: bool


def _span(cell: Element, name: str, limit: int) -> int:
    raw = cell.get(name)
    try:
        value = int(str(raw).strip()) if raw is not None else 1
    except ValueError:
        return 1
    if value == 0 and name == "rowspan":  # "to the end of the table"
        return limit
    return max(1, min(value, limit))


def table_rows(table: Element, skip: Container[Element]) -> list[tuple[Element, bool]]:
    """The table's own `tr`s (not those of nested tables) with whether each is in `thead`;
    `tfoot` rows go last, as browsers draw them."""
    head: list[tuple[Element, bool]] = []
    body: list[tuple[Element, bool]] = []
    foot: list[tuple[Element, bool]] = []
    for child in table:
        if child in skip:
            continue
        name = child.tag
        if name == "tr":
            body.append((child, False))
        elif name in _SECTION_TAGS:
            target = head if name == "thead" else foot if name == "tfoot" else body
            target.extend(
                (tr, name == "thead") for tr in child if tr.tag == "tr" and tr not in skip
            )
    return head + body + foot


def row_cells(tr: Element, skip: Container[Element]) -> list[Element]:
    return [cell for cell in tr if cell.tag in _CELL_TAGS and cell not in skip]


def is_data_table(table: Element, skip: Container[Element]) -> bool:
    """A table that holds data (rows of values), as opposed to one that lays out a page.

    Layout tables are walked like `div`s, so the paragraphs and headings inside stay
    blocks; data tables become `Table` blocks.
    """
    if table.get("role") in _LAYOUT_ROLES:
        return False
    rows = table_rows(table, skip)
    if child_named(table, "caption") is not None or any(head for _, head in rows):
        return True
    widths = []
    has_th = False
    for tr, _ in rows:
        cells = row_cells(tr, skip)
        widths.append(len(cells))
        has_th = has_th or any(cell.tag == "th" for cell in cells)
        if any(has_descendant(cell, "table") for cell in cells):
            return False  # checked first: it stops on the nested table's own tag
        if any(text_longer_than(cell, DEFAULT_LAYOUT_CELL_CHARS) for cell in cells):
            return False
    if has_th:
        return True
    return len(rows) >= 2 and max(widths, default=0) >= 2


def _read_rows(table: Element, skip: Container[Element]) -> list[_Row]:
    rows = []
    for tr, in_head in table_rows(table, skip):
        cells = row_cells(tr, skip)
        rows.append(
            _Row(
                [
                    _Cell(
                        inline_text(c, skip),
                        _span(c, "colspan", MAX_COLSPAN),
                        _span(c, "rowspan", MAX_ROWSPAN),
                    )
                    for c in cells
                ],
                in_head,
                bool(cells) and all(c.tag == "th" for c in cells),
            )
        )
    return rows


def expand_spans(rows: list[list[_Cell]], header_rows: int) -> list[list[str]]:
    """A grid of cell texts with spans expanded; rows padded to one width."""
    width = max((sum(c.colspan for c in row) for row in rows), default=0)
    use_spans = width * len(rows) <= DEFAULT_MAX_TABLE_CELLS
    grid: list[list[str]] = []
    carried: dict[int, tuple[int, str]] = {}  # column -> (rows still covered, text)
    for index, cells in enumerate(rows):
        repeat = index < header_rows
        out: list[str] = []
        next_cell = 0
        last_carried = max(carried, default=-1)  # spans from rows above reach this far
        while next_cell < len(cells) or len(out) <= last_carried:
            col = len(out)
            if col in carried:
                left, text = carried.pop(col)
                out.append(text)
                if left > 1:
                    carried[col] = (left - 1, text)
                continue
            if next_cell == len(cells):
                out.append("")
                continue
            cell = cells[next_cell]
            next_cell += 1
            colspan = cell.colspan if use_spans else 1
            for offset in range(colspan):
                carried.pop(col + offset, None)  # overlapping spans: the later cell wins
                out.append(cell.text if offset == 0 or repeat else "")
                if use_spans and cell.rowspan > 1:
                    carried[col + offset] = (cell.rowspan - 1, out[-1])
        grid.append(out)
    width = max((len(row) for row in grid), default=0)
    return [row + [""] * (width - len(row)) for row in grid]


def _drop_empty(grid: list[list[str]]) -> list[list[str]]:
    """Rows and columns that are empty everywhere (spacers) are left out."""
    rows = [row for row in grid if any(cell for cell in row)]
    if not rows:
        return []
    keep = [col for col in range(len(rows[0])) if any(row[col] for row in rows)]
    return [[row[col] for col in keep] for row in rows]


def read_table(table: Element, skip: Container[Element]) -> Table | None:
    """The `Table` block for a data table, or None when it has no text."""
    rows = _read_rows(table, skip)
    if not rows:
        return None
    grid = expand_spans([row.cells for row in rows], len(_leading(rows)))
    kept = [(row, line) for row, line in zip(rows, grid) if any(cell for cell in line)]
    header_rows = len(_leading([row for row, _ in kept]))
    lines = _drop_empty([line for _, line in kept])
    if not lines:
        return None
    caption_tag = child_named(table, "caption")
    caption = inline_text(caption_tag, skip) if caption_tag is not None else ""
    header_rows = min(header_rows, len(lines) - 1) if len(lines) > 1 else 0
    return Table(header=lines[:header_rows], rows=lines[header_rows:], caption=caption)


def _leading(rows: list[_Row]) -> list[_Row]:
    """Header rows: those in `thead`, else the leading rows made only of `th` cells."""
    if any(row.in_head for row in rows):
        return [row for row in rows if row.in_head]
    out = []
    for row in rows:
        if not row.all_th:
            break
        out.append(row)
    return out
