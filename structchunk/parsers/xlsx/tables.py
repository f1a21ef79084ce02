"""One block of cells into blocks of the tree: a `Table`, or a paragraph for a lone row.

The first row of a block is its header (a defined table says how many it has), and so is
the next when the row above groups columns under merged cells and it holds no numbers
(`Revenue` merged over `Q1 | Q2`); leading rows that hold a single value above a wider
block (a title such as "Sales 2024") become the table's caption. A block of one row is a
paragraph of its values joined by ` | `; a lone cell is a table of that one row (its
header row: a pipe table's first row is its header), as a one-column block is a table of
its rows: a sheet's cells stay in table
rows, as in the grid they come from.

Merged cells are filled as the HTML reader fills spans: a vertical merge repeats its text
in every row it covers (each row of a split table must stand alone), a horizontal merge
repeats across header rows only and keeps its text once, in its first column, in body
rows.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from ...document import Block, Paragraph, Table
from .reading import Rows
from .regions import Region

MAX_CAPTION_ROWS = 2
"""A title and a subtitle above a table; a third single-value row is data."""
MAX_HEADER_ROWS = 3
"""Column groups two deep over the column labels; deeper grouping is rare in sheets."""
DEFAULT_SPARSE_FACTOR = 20
"""A block whose bounding box has more than this many cells per non-empty cell (and at
least `_SPARSE_MIN_AREA`) is not drawn as a grid of empty cells: each row becomes a line
of its values. A real table is at least half full; a diagonal of values is not a table."""
_SPARSE_MIN_AREA = 100_000

Merges = dict[int, list[tuple[int, int, int, int]]]
"""Merged ranges `(top, left, bottom, right)` by their top row."""


def index_merges(merges: list[tuple[int, int, int, int]]) -> Merges:
    out: Merges = {}
    for merge in merges:
        out.setdefault(merge[0], []).append(merge)
    return out


def region_blocks(
    rows: Rows,
    region: Region,
    merges: Merges,
    typed_rows: set[int],
    header_rows: int | None = None,
    caption: str = "",
) -> list[Block]:
    """The blocks of one region; `header_rows` None means "guess" (see the module)."""
    width = region.right - region.left + 1
    filled = sum(1 for r in region.rows for c in rows[r] if region.left <= c <= region.right)
    area = width * len(region.rows)
    if area >= _SPARSE_MIN_AREA and area > DEFAULT_SPARSE_FACTOR * filled:
        return _sparse_lines(rows, region)
    grid = [[rows[r].get(c, "") for c in range(region.left, region.right + 1)] for r in region.rows]
    titles = [caption] if caption else []
    taken = 0
    if header_rows is None:
        titles.extend(_title_rows(grid))
        taken = len(titles) - (1 if caption else 0)
        header_rows = _header_rows(region, merges, typed_rows, taken)
    _fill_merges(grid, region, merges, taken, taken + header_rows)
    body = _drop_empty_columns(grid[taken:])
    caption = " ".join(titles)
    if len(body) == 1 and len(body[0]) > 1 and not caption:
        return [Paragraph(" | ".join(cell for cell in body[0] if cell))]
    if len(body) == 1 and len(body[0]) == 1:  # a lone cell: a row of one cell
        return [Table(body, [], caption=caption)]
    rows_out = [row for row in body[header_rows:] if any(row)]
    return [Table(body[:header_rows], rows_out, caption=caption)]


def _title_rows(grid: list[list[str]]) -> list[str]:
    """Leading rows holding a single value above a wider block of at least two rows."""
    titles: list[str] = []
    while (
        len(titles) < MAX_CAPTION_ROWS
        and len(grid) - len(titles) >= 3
        and len(grid[0]) >= 2
        and sum(1 for cell in grid[len(titles)] if cell) == 1
    ):
        titles.append(next(cell for cell in grid[len(titles)] if cell))
    return titles


def _header_rows(region: Region, merges: Merges, typed_rows: set[int], first: int) -> int:
    """One header row, and the next ones too while the row above groups columns under a
    merged cell and the row itself holds no number or date (`Revenue` over `Q1 | Q2`)."""
    count = 1
    while count < MAX_HEADER_ROWS and first + count < len(region.rows) - 1:
        above, row = region.rows[first + count - 1], region.rows[first + count]
        grouped = any(
            right > left and region.left <= left <= region.right
            for _, left, _, right in merges.get(above, ())
        )
        if not grouped or row in typed_rows:
            break
        count += 1
    return count


def _drop_empty_columns(grid: list[list[str]]) -> list[list[str]]:
    """Columns empty in every row left out (a spacer column inside a joined block)."""
    if not grid:
        return grid
    keep = [c for c in range(len(grid[0])) if any(row[c] for row in grid)]
    if len(keep) == len(grid[0]):
        return grid
    return [[row[c] for c in keep] for row in grid]


def _sparse_lines(rows: Rows, region: Region) -> list[Block]:
    lines: list[Block] = []
    for r in region.rows:
        values = [rows[r][c] for c in sorted(rows[r]) if region.left <= c <= region.right]
        lines.append(Paragraph(" | ".join(values)))
    return lines


def _fill_merges(
    grid: list[list[str]], region: Region, merges: Merges, first: int, header_end: int
) -> None:
    """Fill the cells merged ranges cover (grid rows from `first`; header rows up to
    `header_end` also across). Only empty cells are written, and the work is bounded by
    a few times the grid's size, whatever the merges claim."""
    budget = 4 * len(grid) * max(len(grid[0]), 1) if grid else 0
    for origin_row in region.rows:
        for top, left, bottom, right in merges.get(origin_row, ()):
            if not region.left <= left <= region.right:
                continue
            start = bisect_left(region.rows, top)
            if start < first or start >= len(grid):
                continue
            text = grid[start][left - region.left]
            if not text:
                continue
            stop = bisect_right(region.rows, bottom)
            for i in range(start, stop):
                across = right if i < header_end else left
                for column in range(left, min(across, region.right) + 1):
                    budget -= 1
                    if budget < 0:
                        return
                    if not grid[i][column - region.left]:
                        grid[i][column - region.left] = text
