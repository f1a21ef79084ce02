"""A sheet's cells cut into blocks: the separate tables (and notes) a sheet lays out.

A recursive XY-cut over the non-empty cells: a region is cut between two rows when an
empty row lies between them, or when no column has cells on both sides (a table that
ends where another, in other columns, begins); failing that, between two columns on the
same terms, unless the columns either side share most of their rows (see
`DEFAULT_ROW_ALIGNMENT`); a region that cannot be cut is one block. Blocks come out in
reading order: top to bottom, and a group of columns read to its end before the group
to its right.

A table interrupted by a blank row is cut in two; when the part below has the same
columns, follows within `DEFAULT_MAX_GAP_ROWS` and starts with a row of numbers, dates
or booleans under a part whose first row holds none (a header), the two are joined again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from .reading import Rows

MAX_CUT_DEPTH = 32
"""Cuts nested deeper leave the region whole (real sheets need three or four)."""
DEFAULT_ROW_ALIGNMENT = 0.75
"""Blocks either side of an empty column whose rows are this much the same rows (shared
rows over the larger block's) are one block: a form's numbers, labels and values set
apart by a narrow spacer column read row by row. Tables side by side rarely share three
quarters of their rows (one is longer, or starts lower); two that do are read as one
wide table, their rows still whole."""
MAX_SPACER_COLUMNS = 2
"""Empty columns a spacer may be; blocks further apart are never one block."""
DEFAULT_MAX_GAP_ROWS = 2
"""Blank rows a table may have inside it and still be read as one: authors leave one or
two to set off groups of rows; a wider gap separates tables."""


@dataclass(frozen=True, slots=True)
class Region:
    """A block of cells: its bounds (1-based, inclusive) and the rows in it that hold one."""

    top: int
    left: int
    bottom: int
    right: int
    rows: tuple[int, ...]


def split_regions(rows: Rows) -> list[Region]:
    """The blocks of `rows`, in reading order."""
    if not rows:
        return []
    left = min(min(row) for row in rows.values())
    right = max(max(row) for row in rows.values())
    out: list[Region] = []
    stack: list[tuple[list[int], int, int, int]] = [(sorted(rows), left, right, 0)]
    while stack:
        keys, lo, hi, depth = stack.pop()
        parts = _cut(rows, keys, lo, hi, depth)
        if isinstance(parts, Region):
            out.append(parts)
        else:
            stack.extend(reversed(parts))
    return out


def _cut(
    rows: Rows, keys: list[int], lo: int, hi: int, depth: int
) -> Region | list[tuple[list[int], int, int, int]]:
    """The region's parts after one cut, or the region itself when nothing cuts it."""
    present: list[int] = []
    spans: list[tuple[int, int]] = []
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for key in keys:
        columns = [c for c in rows[key] if lo <= c <= hi]
        if not columns:
            continue
        position = len(present)
        present.append(key)
        spans.append((min(columns), max(columns)))
        for column in columns:
            first.setdefault(column, position)
            last[column] = position
    if not present:
        return []
    columns = sorted(first)
    region = Region(present[0], columns[0], present[-1], columns[-1], tuple(present))
    if depth >= MAX_CUT_DEPTH:
        return region
    row_cuts = _cuts(present, ((first[c], last[c]) for c in columns))
    if row_cuts:
        return [(group, lo, hi, depth + 1) for group in _groups(present, row_cuts)]
    index = {column: j for j, column in enumerate(columns)}
    column_cuts = _cuts(columns, ((index[a], index[b]) for a, b in spans))
    groups = _join_aligned(rows, present, _groups(columns, column_cuts)) if column_cuts else []
    if len(groups) > 1:
        return [(present, group[0], group[-1], depth + 1) for group in groups]
    return region


def _cuts(positions: list[int], extents: Iterable[tuple[int, int]]) -> list[int]:
    """Boundaries `i` (between `positions[i]` and `positions[i + 1]`) to cut at: a gap in
    the numbering (an empty row or column) or no extent reaching across."""
    across = [0] * (len(positions) + 1)
    for start, end in extents:
        if start < end:
            across[start] += 1
            across[end] -= 1
    cuts = []
    running = 0
    for i in range(len(positions) - 1):
        running += across[i]
        if positions[i + 1] > positions[i] + 1 or running == 0:
            cuts.append(i)
    return cuts


def _groups(positions: list[int], cuts: list[int]) -> list[list[int]]:
    groups = []
    start = 0
    for cut in cuts:
        groups.append(positions[start : cut + 1])
        start = cut + 1
    groups.append(positions[start:])
    return groups


def _join_aligned(rows: Rows, present: list[int], groups: list[list[int]]) -> list[list[int]]:
    """Column groups joined again where they share their rows (`DEFAULT_ROW_ALIGNMENT`)
    across a narrow gap: the columns of one form or table with an empty spacer column,
    not two tables."""
    starts = [group[0] for group in groups]
    members: list[set[int]] = [set() for _ in groups]
    for key in present:
        for column in rows[key]:
            if starts[0] <= column <= groups[-1][-1]:
                members[bisect_right(starts, column) - 1].add(key)
    out = [list(groups[0])]
    joined = members[0]
    for group, group_rows in zip(groups[1:], members[1:]):
        shared = len(joined & group_rows)
        if group[0] - out[-1][-1] - 1 <= MAX_SPACER_COLUMNS and shared >= (
            DEFAULT_ROW_ALIGNMENT * max(len(joined), len(group_rows))
        ):
            out[-1].extend(group)
            joined |= group_rows
        else:
            out.append(list(group))
            joined = group_rows
    return out


def join_continuations(regions: list[Region], typed_rows: set[int]) -> list[Region]:
    """Join a table cut in two by blank rows (see the module docstring)."""
    out: list[Region] = []
    for region in regions:
        previous = out[-1] if out else None
        if (
            previous is not None
            and (previous.left, previous.right) == (region.left, region.right)
            and 0 < region.top - previous.bottom - 1 <= DEFAULT_MAX_GAP_ROWS
            and previous.top not in typed_rows
            and region.top in typed_rows
        ):
            out[-1] = Region(
                previous.top,
                previous.left,
                region.bottom,
                previous.right,
                previous.rows + region.rows,
            )
        else:
            out.append(region)
    return out
