"""Two columns whose lines interleave: a side list of names beside the text about them.

The page's column gutters (`layout.find_gutters`) need rows with prose on both sides.
Agency strategic plans set a stakeholder list (`Multilateral Institutions`, `Civil
Society`, …, bold at 17-point pitch) beside a paragraph in 9-point italics at 9-point
pitch: their lines never share a row, so no row shows two columns, and read in order of
height the names land inside the paragraph's sentences (`secure international
Multilateral Institutions commitments, and build …`). Here a run of rows that a wide
vertical strip separates is read as two columns — left, then right — when each side has
lines on baselines of its own (the label and value of a form, a table's cells, a term
and its definition line up row by row), and no row is a row of figures.
"""

from __future__ import annotations

from itertools import takewhile
from typing import NamedTuple

from .layout import DEFAULT_COLUMN_MIN_WORDS, Row, count_wordy
from .types import Word

DEFAULT_SIDE_GAP_EM = 2.0
"""The strip between the two sides is at least this wide (body-text ems): wider than a
bullet's gap to its text or the space between words."""
DEFAULT_MIN_PROSE_PAIRS = 4
"""Rows with a line of running text on both sides that make a run two columns even when
their lines share baselines."""
DEFAULT_MIN_SIDE_ROWS = 3
"""Lines of its own (on no baseline of the other side) each side needs."""
DEFAULT_RUN_GAP_EM = 3.0
"""A vertical gap this wide (ems) ends a run: columns read apart stop at the next block
(a page number at the foot of the page is not the end of the right column)."""
DEFAULT_LINE_GAP_EM = 0.5
"""A gap between two lines (ems) that never parts a column's lines: line spacing, not a
heading's space above."""
DEFAULT_BASELINE_APART = 0.15
"""Baselines further apart than this (ems) are two lines' although they share a row."""

Interval = tuple[float, float]


class Part(NamedTuple):
    """Rows read in order; `beside`: the right column of an interleaved pair."""

    rows: list[Row]
    beside: bool = False


def _free(row: Row, left: float, right: float) -> list[Interval]:
    """The horizontal stretches of [left, right] that no word of the row covers."""
    out: list[Interval] = []
    edge = left
    for word in sorted(row.words, key=lambda w: w.x0):
        if word.x0 > edge:
            out.append((edge, word.x0))
        edge = max(edge, word.x1)
    if right > edge:
        out.append((edge, right))
    return out


def _intersect(a: list[Interval], b: list[Interval], min_width: float) -> list[Interval]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if hi - lo >= min_width:
                out.append((lo, hi))
    return out


def _halves(row: Row, strip: Interval) -> tuple[list[Word], list[Word]]:
    """The row's words left of the strip and right of it."""
    return (
        [w for w in row.words if w.x1 <= strip[0]],
        [w for w in row.words if w.x0 >= strip[1]],
    )


def _side(row: Row, strip: Interval, em: float) -> str:
    """Where the row's words lie about the strip: `L`, `R`, `B` (both, their baselines
    apart: lines of two columns at different pitches caught in one row) or `A` (both, on
    one baseline: a label and its value, a row of a table)."""
    left, right = _halves(row, strip)
    if left and right:
        baselines = max(w.bottom for w in left) - max(w.bottom for w in right)
        return "B" if abs(baselines) > DEFAULT_BASELINE_APART * em else "A"
    return "L" if left else "R"


def _figures(row: Row) -> bool:
    """A row of a table's figures (`$ 49 $ (11) $ 9`, `2022 2021`): a statement whose
    labels and figures are read apart would lose what each figure is."""
    numeric = len(row.words) - count_wordy(row.words)
    return numeric >= 2 and 2 * numeric >= len(row.words)


def _interleaves(rows: list[Row], strip: Interval, em: float) -> bool:
    """Each side has lines of its own: lines with no line of the other side on their
    baseline. A form's labels, a table's first column, terms beside their definitions
    all share a baseline with the text they go with."""
    if any(_figures(row) for row in rows):
        return False
    sides = [_side(row, strip, em) for row in rows]
    alone_left = sum(s in "LB" for s in sides)
    alone_right = sum(s in "RB" for s in sides)
    if min(alone_left, alone_right) >= DEFAULT_MIN_SIDE_ROWS:
        return True
    return _prose_pairs(rows, sides, strip) >= DEFAULT_MIN_PROSE_PAIRS


def _prose_pairs(rows: list[Row], sides: list[str], strip: Interval) -> int:
    """Rows holding a line of running text on each side, on one baseline: two columns
    set at one pitch, too short for a page's gutter (an agency plan's two stakeholder
    descriptions side by side). A form's label or a table's first cell is no such line."""
    pairs = 0
    for row, side in zip(rows, sides):
        if side == "A":
            left, right = _halves(row, strip)
            pairs += min(count_wordy(left), count_wordy(right)) >= DEFAULT_COLUMN_MIN_WORDS
    return pairs


def _columns(rows: list[Row], strip: Interval) -> tuple[list[Row], list[Row]]:
    """The run's rows as its left column, then its right one."""
    left: list[Row] = []
    right: list[Row] = []
    for row in rows:
        words_left, words_right = _halves(row, strip)
        if words_left:
            left.append(Row(words_left, row.top, row.bottom))
        if words_right:
            right.append(Row(words_right, row.top, row.bottom))
    return left, right


def _span(run: list[Row], sides: list[str], em: float) -> tuple[int, int]:
    """The rows [first, last) read as two columns. Before the first line with words on the
    right: a paragraph's last line, a title, a running header, read before the columns;
    after the last one: a heading, read after them. A line on one baseline with a line of
    the other column (`A`) is the columns' first or last only when set close to them."""
    gap = DEFAULT_LINE_GAP_EM * em
    near = [False] + [b.top - a.bottom <= gap for a, b in zip(run, run[1:])] + [False]
    first = next(i for i, side in enumerate(sides) if side in "RB" or (side == "A" and near[i + 1]))
    last = max(i for i, side in enumerate(sides) if side in "RB" or (side == "A" and near[i]))
    return first, last + 1


def _left(pair: tuple[Row, str]) -> bool:
    return pair[1] == "L"


def _going_on(column: list[Row], after: list[Row], em: float) -> list[Row]:
    """The rows after the right column's last line that go on with the left column: at
    no wider a gap than its own lines leave, or than a line gap (a description that wraps
    below the list beside it), up to a heading's wider gap."""
    gaps = [b.top - a.bottom for a, b in zip(column, column[1:])]
    widest = max([DEFAULT_LINE_GAP_EM * em, *gaps])
    out: list[Row] = []
    for row in after:
        if row.top - (out or column)[-1].bottom > widest:
            break
        out.append(row)
    return out


def _is_prose(rows: list[Row]) -> bool:
    """Lines of running text (which may go on at the top of the next column), not a list
    of names."""
    words = sum(count_wordy(row.words) for row in rows)
    return words >= DEFAULT_COLUMN_MIN_WORDS * len(rows)


def _strip(rows: list[Row], strips: list[Interval], em: float) -> Interval | None:
    return next((strip for strip in strips if _interleaves(rows, strip, em)), None)


def split_interleaved(region: list[Row], em: float) -> list[Part]:
    """The region, with each run of interleaved two-column rows read column by column."""
    text_rows = [row for row in region if row.table is None and row.words]
    if len(text_rows) < 2 * DEFAULT_MIN_SIDE_ROWS:
        return [Part(region)]
    left = min(row.x0 for row in text_rows)
    right = max(row.x1 for row in text_rows)
    min_width = DEFAULT_SIDE_GAP_EM * em
    out: list[Part] = []
    pending: list[Row] = []  # rows read in order, not (yet) part of a split run
    run: list[Row] = []
    strips: list[Interval] = []

    def inner(strip: Interval) -> bool:
        return strip[0] > left and strip[1] < right

    def close_run() -> None:
        candidates = [s for s in strips if inner(s)]
        strip = _strip(run, candidates, em) if len(run) >= 2 * DEFAULT_MIN_SIDE_ROWS else None
        if strip is None:
            pending.extend(run)
            return
        sides = [_side(row, strip, em) for row in run]
        first, last = _span(run, sides, em)
        pending.extend(run[:first])
        if pending:
            out.append(Part(list(pending)))
            pending.clear()
        left_rows, right_rows = _columns(run[first:last], strip)
        left_only = [row for row, side in takewhile(_left, zip(run[last:], sides[last:]))]
        going_on = _going_on(left_rows, left_only, em)
        left_rows.extend(going_on)
        out.extend([Part(left_rows), Part(right_rows, beside=not _is_prose(left_rows))])
        pending.extend(run[last + len(going_on) :])

    for row in region:
        if row.table is not None or not row.words:
            close_run()
            run, strips = [], []
            pending.append(row)
            continue
        free = [s for s in _free(row, left, right) if s[1] - s[0] >= min_width]
        narrowed = _intersect(strips, free, min_width) if run else free
        apart = run and row.top - run[-1].bottom > DEFAULT_RUN_GAP_EM * em
        if run and (apart or not any(inner(s) for s in narrowed)):
            # the run can no longer be split: keep what it has, and look again from here
            # (a paragraph's short last line has only the margin free beside it)
            close_run()
            run, strips = [row], free
            continue
        run.append(row)
        strips = narrowed
    close_run()
    if pending:
        out.append(Part(pending))
    return out if len(out) > 1 else [Part(region)]
