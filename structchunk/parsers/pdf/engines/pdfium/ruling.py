"""Could a page's ruling lines hold a table? A cheap test before pdfplumber's `find_tables`.

`find_tables` (lines strategy) snaps and joins the page's horizontal and vertical edges,
finds where they cross, and makes cells of rectangles whose corners are crossings joined
by edges. A table is kept only with two rows and two columns (parsers/pdf/tables.py `is_grid`), and
in any such grid one joined horizontal line crosses three vertical ones (the line under
two side-by-side cells: it must run unbroken past their shared corner, or the corner is
no crossing) and one vertical line crosses three horizontal ones. Boxes drawn around code
or notes, underlines and separator rules cross two lines at most, so their pages never
reach the table finder. The tolerances are pdfplumber's defaults and a little more, so
the test errs on the side of asking.
"""

from __future__ import annotations

Edge = tuple[float, float, float]
"""(position, start, end): a horizontal edge's y and x extent, or a vertical's x and y."""

TOLERANCE = 3.0
"""pdfplumber's snap, join and intersection tolerances (points)."""
SLACK = 0.5
"""Points added to the tolerances here, so that this test errs on the side of asking."""
EDGE_MIN_LENGTH = 3.0
"""pdfplumber's `edge_min_length`: shorter merged edges never make a cell."""
PREFILTER_LENGTH = 1.0
"""pdfplumber's `edge_min_length_prefilter`: shorter pieces are ignored before joining."""
MAX_EDGES = 20_000
"""Past this many edges of one direction the page is handed to pdfplumber unexamined (a
chart or a map; the corpus's busiest ruled page has a few thousand)."""
CROSSINGS = 3
"""Crossings a row and a column of a two-by-two grid have at least."""
MAX_CROSSING_TESTS = 1_000_000
"""Merged rules of one direction times those of the other past which a page is taken for
a drawing, not a table (a 200-row, 30-column grid is 6 000; the corpus's busiest ruled
page, in Microsoft's filing, 27 176): the crossings and pdfplumber's own finder cost
that many steps."""


def _clusters(values: list[float]) -> dict[float, float]:
    """Each value mapped to the mean of its cluster (a chain of values each within
    `TOLERANCE` of the one before), as pdfplumber snaps edges."""
    ordered = sorted(set(values))
    out: dict[float, float] = {}
    group: list[float] = []
    for value in ordered:
        if group and value > group[-1] + TOLERANCE:
            mean = sum(group) / len(group)
            out.update(dict.fromkeys(group, mean))
            group = []
        group.append(value)
    if group:
        mean = sum(group) / len(group)
        out.update(dict.fromkeys(group, mean))
    return out


def merged(edges: list[Edge]) -> list[Edge]:
    """Edges snapped to common positions and joined where they touch, short ones dropped."""
    edges = [e for e in edges if e[2] - e[1] >= PREFILTER_LENGTH]
    if not edges:
        return []
    snap = _clusters([e[0] for e in edges])
    by_position: dict[float, list[tuple[float, float]]] = {}
    for position, start, end in edges:
        by_position.setdefault(snap[position], []).append((start, end))
    out = []
    for position, spans in by_position.items():
        spans.sort()
        start, end = spans[0]
        for s, e in spans[1:]:
            if s <= end + TOLERANCE + SLACK:
                end = max(end, e)
                continue
            out.append((position, start, end))
            start, end = s, e
        out.append((position, start, end))
    return [e for e in out if e[2] - e[1] >= EDGE_MIN_LENGTH]


def could_hold_table(horizontal: list[Edge], vertical: list[Edge]) -> bool:
    """Whether `find_tables` could find a grid of two rows and two columns in these
    edges (see the module docstring)."""
    if len(horizontal) > MAX_EDGES or len(vertical) > MAX_EDGES:
        return True
    rows, columns = merged(horizontal), merged(vertical)
    if len(rows) < CROSSINGS or len(columns) < CROSSINGS:
        return False
    if len(rows) * len(columns) > MAX_CROSSING_TESTS:
        return False
    row_crossings = [0] * len(rows)
    column_crossings = [0] * len(columns)
    reach = TOLERANCE + SLACK
    for i, (y, x0, x1) in enumerate(rows):
        for j, (x, top, bottom) in enumerate(columns):
            if x0 - reach <= x <= x1 + reach and top - reach <= y <= bottom + reach:
                row_crossings[i] += 1
                column_crossings[j] += 1
    return max(row_crossings) >= CROSSINGS and max(column_crossings) >= CROSSINGS
