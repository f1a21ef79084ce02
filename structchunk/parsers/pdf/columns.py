"""A PDF table's columns as its reader sees them, not as its grid lines cut them.

Word processors lay financial tables out on a fine grid: the `$` of a figure sits in a
cell of its own, and blank spacer cells separate the column groups, so a statement of
four figures per row becomes fifteen columns (`| $ | 17,002 |  | $ | 15,936 |`). Read
like that, a row's figures lose their titles and a piece of the table carries more cell
rules than words. Here a lone currency sign joins the figure after it; neighbouring
columns that never both hold text in one body row, under titles that agree, are one
column; a column left with no body text joins the neighbour whose titles include its
own (or goes, when it has none); and the title rows are stacked into one title per
column (`Three Months Ended December 31, 2022`). No cell text is dropped or reordered
within its row.
"""

from __future__ import annotations

from ..table_titles import is_figure
from .cleanup import CLOSERS, CURRENCY_SIGNS

MAX_HEADER_ROWS = 3
"""Leading rows read as column titles at most."""

_TRAILING_SIGNS = CLOSERS | {"%)"}

Row = list[str]


def is_title_row(cells: dict[int, str]) -> bool:
    """Column titles: text (or years) in some column after the first, and no figure."""
    titled = [text for column, text in cells.items() if column > 1 and text]
    return bool(titled) and not any(is_figure(text) for text in titled)


def tidy_columns(header: list[Row], body: list[Row]) -> tuple[list[Row], list[Row]]:
    """Currency signs joined to their figures, then split columns joined (see module)."""
    body = [_signs_joined(row) for row in body]
    groups = _column_groups(header, body)
    return [_joined(row, groups) for row in header], [_joined(row, groups) for row in body]


def stack_header(header: list[Row]) -> list[Row]:
    """Several title rows as one: each column's titles top to bottom, a title a spanning
    cell repeats over its columns said once."""
    if not header:
        return []
    width = max(len(row) for row in header)
    stacked = []
    for column in range(width):
        parts: list[str] = []
        for row in header:
            text = row[column] if column < len(row) else ""
            if text and (not parts or parts[-1] != text):
                parts.append(text)
        stacked.append(" ".join(parts))
    return [stacked]


def _signs_joined(row: Row) -> Row:
    """`$` alone before a figure moves into that figure's cell; a lone `%` or `)` after a
    figure moves into the figure's."""
    out = list(row)
    for index, text in enumerate(out):
        if text in CURRENCY_SIGNS:
            after = _next_filled(out, index)
            if after is not None and is_figure(out[after]):
                out[after] = f"{text} {out[after]}"
                out[index] = ""
        elif text in _TRAILING_SIGNS:
            before = _previous_filled(out, index)
            if before is not None and is_figure(out[before] + text):
                out[before] += text
                out[index] = ""
    return out


def _next_filled(row: Row, index: int) -> int | None:
    return next((i for i in range(index + 1, len(row)) if row[i]), None)


def _previous_filled(row: Row, index: int) -> int | None:
    return next((i for i in range(index - 1, -1, -1) if row[i]), None)


def _column_groups(header: list[Row], body: list[Row]) -> list[list[int]]:
    """Which grid columns are one reader's column (see `tidy_columns`)."""
    width = max((len(row) for row in [*header, *body]), default=0)
    if width == 0:
        return []
    rows_of = [{i for i, row in enumerate(body) if c < len(row) and row[c]} for c in range(width)]
    titles = [[row[c] if c < len(row) else "" for row in header] for c in range(width)]
    filled = [c for c in range(1, width) if rows_of[c]]
    groups: list[list[int]] = [[0]]
    rows: set[int] = set()
    for column in filled:
        last = groups[-1]
        if (
            len(groups) > 1
            and not rows_of[column] & rows
            and _agree(titles[last[0]], titles[column])
        ):
            last.append(column)
            rows |= rows_of[column]
        else:
            groups.append([column])
            rows = set(rows_of[column])
    owner = {c: group for group in groups for c in group}
    for column in range(1, width):
        if column in owner:
            continue
        named = {t for t in titles[column] if t}
        right = next((c for c in filled if c > column), None)
        left = next((c for c in reversed(filled) if c < column), None)
        for neighbour in (right, left):
            if neighbour is not None and named <= set(titles[neighbour]):
                owner[neighbour].append(column)
                break
        else:
            if named:
                groups.append([column])
    return sorted((sorted(group) for group in groups), key=lambda group: group[0])


def _agree(a: list[str], b: list[str]) -> bool:
    """Two columns' titles, row by row, are the same or one is blank."""
    return all(x == y or not x or not y for x, y in zip(a, b))


def _joined(row: Row, groups: list[list[int]]) -> Row:
    """One cell per group: its columns' distinct texts, left to right."""
    out = []
    for group in groups:
        parts: list[str] = []
        for column in group:
            text = row[column] if column < len(row) else ""
            if text and text not in parts:
                parts.append(text)
        out.append(" ".join(parts))
    return out
