"""Ruled grids off a page through pdfplumber's table finder, for both engines.

The finder's `Table`s read their page's characters, so each is read here, while the page
is open: its cells' text (cells the rules leave open filled in), its box in the page's
reading frame, whether its first row is a title band. Grids whose columns overlap are
no tables and are dropped here; the rest are judged by parsers/pdf/tables.py
(`kept_tables`). An engine that has read a page's edges and characters itself (PDFium's
drawing, the rules of a scan) hands them to the finder as a `GridPage` (`found_grids`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

from pdfplumber.table import TableFinder, TableSettings
from pdfplumber.utils.text import extract_text

from .base import Box, RuledGrid
from .words import DEFAULT_WORD_GAP

TABLE_SETTINGS: dict[str, Any] = {"vertical_strategy": "lines", "horizontal_strategy": "lines"}
"""Only ruled tables: text-alignment strategies find "tables" in every two-column list."""
DEFAULT_GRID_SLACK = 2.0
"""Points two columns of a ruled table may overlap (rules drawn twice)."""


class GridPage:
    """The part of a pdfplumber page that `TableFinder` and `Table.extract` read."""

    def __init__(self, edges: list[dict[str, Any]], chars: list[dict[str, Any]], bbox: Box) -> None:
        self.edges = edges
        self.chars = chars
        self.bbox = bbox


def line_edge(x0: float, top: float, x1: float, bottom: float, vertical: bool) -> dict[str, Any]:
    """A line's box as a pdfplumber edge, drawn down its middle."""
    if vertical:
        x0 = x1 = (x0 + x1) / 2
    else:
        top = bottom = (top + bottom) / 2
    return {
        "object_type": "line",
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "doctop": top,
        "width": x1 - x0,
        "height": bottom - top,
        "orientation": "v" if vertical else "h",
    }


def char_dict(text: str, box: Box, size: float, upright: bool) -> dict[str, Any]:
    """A character as `Table.extract` reads it."""
    x0, top, x1, bottom = box
    return {
        "text": text,
        "x0": x0,
        "x1": x1,
        "top": top,
        "bottom": bottom,
        "doctop": top,
        "upright": upright,
        "size": size,
        "width": x1 - x0,
        "height": bottom - top,
    }


def found_grids(page: GridPage) -> list[RuledGrid]:
    """The ruled grids pdfplumber's table finder finds among a `GridPage`'s edges, boxes
    as the page's."""
    finder = TableFinder(page, TableSettings.resolve(TABLE_SETTINGS))  # type: ignore[arg-type]
    for table in finder.tables:  # `extract` tests every character of its page per row
        table.page = GridPage(page.edges, _within(page.chars, table.bbox), page.bbox)  # type: ignore[assignment]
    return ruled_grids(finder.tables, lambda box: box)


def grid_boxes(page: GridPage) -> list[Box]:
    """Where the table finder finds grids among a `GridPage`'s edges (its characters are
    not read)."""
    finder = TableFinder(page, TableSettings.resolve(TABLE_SETTINGS))  # type: ignore[arg-type]
    return [table.bbox for table in finder.tables]


def _within(chars: list[dict[str, Any]], bbox: Box) -> list[dict[str, Any]]:
    """The characters whose centre is inside `bbox`: all `Table.extract` can place in a
    cell (it tests centres against each row), so the cells come out the same."""
    x0, top, x1, bottom = bbox
    return [
        char
        for char in chars
        if x0 <= (char["x0"] + char["x1"]) / 2 <= x1
        and top <= (char["top"] + char["bottom"]) / 2 <= bottom
    ]


def ruled_grids(found: Sequence[Any], to_frame: Callable[[Box], Box]) -> list[RuledGrid]:
    """The grids among pdfplumber `Table`s (`find_tables`), boxes in the page's reading
    frame."""
    grids = []
    for table in found:
        band = _title_band(table)
        if _overlapping_columns(table, band is not None):
            continue  # shaded rows, not a grid: read as a borderless table instead
        raw = _fill_open_cells(table, table.extract(x_tolerance_ratio=DEFAULT_WORD_GAP))
        box = table.bbox
        if band is not None:
            raw, box = raw[1:], (box[0], band, box[2], box[3])
        grids.append(RuledGrid(raw, to_frame(box), band is not None))
    return grids


def _fill_open_cells(table: Any, raw: list[list[str | None]]) -> list[list[str | None]]:
    """The text of cells the rules leave open, in the column they stand in.

    `find_tables` makes a cell of each box closed on four sides and `extract` reads the
    characters of those cells only; where a side is not drawn (the 2014 performance
    report rules its tables' right edge on the header row only), the row has no cell in
    that column and its text was lost: all of Table 1.10's `Goal Statement` column.
    Such a hole spans its column of the grid (to the table's right edge for the last);
    its characters — those in no cell — are its text.
    """
    rows = table.rows
    if not any(cell is None for row in rows for cell in row.cells):
        return raw
    cells = [cell for row in rows for cell in row.cells if cell is not None]
    starts = sorted({cell[0] for cell in cells})
    right = table.bbox[2]
    chars: list[dict[str, Any]] = []
    heights: list[float] = []
    for index, row in enumerate(rows):
        _, top, _, bottom = row.bbox
        in_band: list[Box] | None = None
        for column, cell in enumerate(row.cells):
            x0 = starts[column]
            if cell is not None or any(c is not None and c[0] <= x0 < c[2] for c in row.cells):
                continue
            if not heights:  # the characters by height, once
                chars = sorted(table.page.chars, key=_height)
                heights = [_height(char) for char in chars] or [float("inf")]
            x1 = starts[column + 1] if column + 1 < len(starts) else right
            box = (x0, top, x1, bottom)
            if in_band is None:  # the cells reaching into the row, rows spanned too
                in_band = [c for c in cells if c[1] < bottom and c[3] > top]
            others = [c for c in in_band if c[0] < x1 and c[2] > x0]
            band = chars[bisect_left(heights, top) : bisect_left(heights, bottom)]
            held = [
                char
                for char in band
                if _holds(box, char) and not any(_holds(c, char) for c in others)
            ]
            if held:
                raw[index][column] = extract_text(held, x_tolerance_ratio=DEFAULT_WORD_GAP)
    return raw


def _height(char: dict[str, Any]) -> float:
    """Where the character's centre is, down the page."""
    return (float(char["top"]) + float(char["bottom"])) / 2


def _holds(box: Box, char: dict[str, Any]) -> bool:
    """The character's centre is in `box` (as `Table.extract` places characters)."""
    x0, top, x1, bottom = box
    middle = (float(char["x0"]) + float(char["x1"])) / 2
    return x0 <= middle < x1 and top <= _height(char) < bottom


def _title_band(table: Any) -> float | None:
    """Where a first row that is one cell across the whole table ends: a title band
    (`PERFORMANCE MEASURE: Claims Inventory`, a form's `Airport Information`) over the
    columns. It is left out of the table, so its lines are read as the text they are —
    a heading or a label over the table — in their own type."""
    if not table.rows:
        return None
    cells = [cell for cell in table.rows[0].cells if cell is not None]
    if len(cells) != 1:
        return None
    x0, _, x1, bottom = cells[0]
    if x0 > table.bbox[0] + DEFAULT_GRID_SLACK or x1 < table.bbox[2] - DEFAULT_GRID_SLACK:
        return None
    return float(bottom)


def _overlapping_columns(table: Any, banded: bool) -> bool:
    """Columns that overlap are no grid: alternate-row shading (financial statements)
    gives `find_tables` cell edges that differ from row to row. A title band (`banded`:
    a first row that is one cell across the table) overlaps every column and says
    nothing about them; every other row counts, so lines of text that rules happen to
    box (a risk factor's, one cell here and one there) stay no grid."""
    columns: dict[float, float] = {}
    for index, row in enumerate(table.rows):
        if index == 0 and banded:
            continue
        for x0, _, x1, _ in (cell for cell in row.cells if cell is not None):
            columns[x0] = max(columns.get(x0, x1), x1)
    spans = sorted(columns.items())
    return any(b0 < a1 - DEFAULT_GRID_SLACK for (_, a1), (b0, _) in zip(spans, spans[1:]))
