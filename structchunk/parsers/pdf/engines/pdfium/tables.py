"""Ruled tables for the PDFium engine: pdfplumber's `find_tables` over PDFium's reading.

pdfplumber's table finder (lines strategy) reads three things off a page: its edges
(the horizontal and vertical pieces of lines, rectangles and curves), its characters
(to fill the cells) and its box. PDFium has read all three already (objects.py,
text.py), so the finder is given them as a `GridPage` (../grids.py) instead of a
pdfplumber page, whose pdfminer parse would cost ten times the rest of the page. Only pages whose
ruling could hold a table (ruling.py) get here; the grids are read as the pdfplumber
engine's are (../grids.py) and judged by the same rules (parsers/pdf/tables.py `kept_tables`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base import Box, RuledGrid
from ..grids import GridPage, char_dict, found_grids, line_edge
from ..words import SPACE, Char, Style, frame
from .geometry import PageGeometry
from .objects import PageObjects


def _edge(
    geometry: PageGeometry,
    to_frame: Callable[[Box], Box],
    a: tuple[float, float],
    b: tuple[float, float],
) -> dict[str, Any]:
    """A user-space segment as a pdfplumber edge, in the page's reading frame."""
    (ax, ay), (bx, by) = geometry.point(*a), geometry.point(*b)
    x0, top, x1, bottom = to_frame((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
    return line_edge(x0, top, x1, bottom, x1 - x0 < bottom - top)


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
            if char is not SPACE:
                box = to_frame((char.x0, char.top, char.x1, char.bottom))
                out.append(char_dict(char.text, box, style.size, upright))
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
    return found_grids(page)
