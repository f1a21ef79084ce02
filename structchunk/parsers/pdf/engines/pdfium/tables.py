"""Ruled tables for the PDFium engine: pdfplumber's `find_tables` over PDFium's reading.

pdfplumber's table finder (lines strategy) reads three things off a page: its edges
(the horizontal and vertical pieces of lines, rectangles and curves), its characters
(to fill the cells) and its box. PDFium has read all three already (objects.py,
text.py), so the finder is given them as a `GridPage` instead of a pdfplumber
page, whose pdfminer parse would cost ten times the rest of the page. Only pages whose
ruling could hold a table (ruling.py) get here; the grids are read as the pdfplumber
engine's are (../grids.py) and judged by the same rules (parsers/pdf/tables.py `kept_tables`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdfplumber.table import TableFinder, TableSettings

from ..base import Box, RuledGrid
from ..grids import TABLE_SETTINGS, ruled_grids
from ..words import SPACE, Char, Style, frame
from .geometry import PageGeometry
from .objects import PageObjects


class GridPage:
    """The part of a pdfplumber page that `TableFinder` and `Table.extract` read."""

    def __init__(self, edges: list[dict[str, Any]], chars: list[dict[str, Any]], bbox: Box) -> None:
        self.edges = edges
        self.chars = chars
        self.bbox = bbox


def _edge(
    geometry: PageGeometry,
    to_frame: Callable[[Box], Box],
    a: tuple[float, float],
    b: tuple[float, float],
) -> dict[str, Any]:
    """A user-space segment as a pdfplumber edge, in the page's reading frame."""
    (ax, ay), (bx, by) = geometry.point(*a), geometry.point(*b)
    x0, top, x1, bottom = to_frame((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
    vertical = x1 - x0 < bottom - top
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


def _edges(
    objects: PageObjects, geometry: PageGeometry, to_frame: Callable[[Box], Box]
) -> list[dict[str, Any]]:
    out = [_edge(geometry, to_frame, (x0, y), (x1, y)) for y, x0, x1 in objects.horizontal]
    out.extend(_edge(geometry, to_frame, (x, y0), (x, y1)) for x, y0, y1 in objects.vertical)
    return out


def _chars(
    runs: list[tuple[Style, list[Char]]], orientation: str, to_frame: Callable[[Box], Box]
) -> list[dict[str, Any]]:
    """The characters as pdfplumber's `Table.extract` reads them, in the reading frame
    (where text running with the page's reading direction is upright)."""
    out = []
    for style, chars in runs:
        upright = style.direction == orientation
        for char in chars:
            if char is SPACE:
                continue
            x0, top, x1, bottom = to_frame((char.x0, char.top, char.x1, char.bottom))
            out.append(
                {
                    "text": char.text,
                    "x0": x0,
                    "x1": x1,
                    "top": top,
                    "bottom": bottom,
                    "doctop": top,
                    "upright": upright,
                    "size": style.size,
                    "width": x1 - x0,
                    "height": bottom - top,
                }
            )
    return out


def pdfium_grids(
    objects: PageObjects,
    runs: list[tuple[Style, list[Char]]],
    geometry: PageGeometry,
    orientation: str,
) -> list[RuledGrid]:
    """The page's ruled grids, boxes in its reading frame (see the module docstring).

    The table finder works in the reading frame, so a table on a page printed sideways
    reads as one printed upright (pdfplumber's own page would hand it sideways glyphs,
    whose words it splits at a fixed 3 points instead of the font-relative gap).
    """
    width, height = geometry.width, geometry.height
    to_frame = frame(orientation, width, height)
    if orientation != "ltr":
        width, height = height, width
    page = GridPage(
        _edges(objects, geometry, to_frame),
        _chars(runs, orientation, to_frame),
        (0.0, 0.0, width, height),
    )
    finder = TableFinder(page, TableSettings.resolve(TABLE_SETTINGS))  # type: ignore[arg-type]
    for table in finder.tables:  # `extract` tests every character of its page per row
        table.page = GridPage(page.edges, _within(page.chars, table.bbox), page.bbox)  # type: ignore[assignment]
    return ruled_grids(finder.tables, lambda box: box)


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
