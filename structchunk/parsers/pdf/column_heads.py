"""Which header phrases of a borderless table head which of its columns.

Each column takes, row by row, the header phrase nearest to it (a phrase over several
columns heads each of them: `Three Months Ended` over both quarters), within 1.2 times
the spacing of the columns the figures make. No phrase is left out: one that no column
takes joins its nearest column's header, and a stack of such phrases clear of every
column of figures heads a column of its own, which the figures under it fill — Apple's
`Approximate Dollar Value of Shares That May Yet Be Purchased…`, whose only figure is on
the total row, was in no chunk, and `$ 41,665` read as part of the label `Total`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Phrase(Protocol):
    """A header phrase as borderless.py's `Phrase` reads one: its extent, the left edge of
    its figure, its text."""

    @property
    def x0(self) -> float: ...

    @property
    def figure_x0(self) -> float: ...

    @property
    def x1(self) -> float: ...

    @property
    def text(self) -> str: ...


Column = tuple[float, float]
"""A column's extent: its left edge and the right edge its figures line up on."""
DEFAULT_HEAD_REACH = 1.2
"""How far, in column spacings, a header phrase's middle may stand from a column's
middle and still head it (a phrase centred over a column of right-aligned figures sits
about half a column's width left of their middle)."""


def spacing(columns: list[Column]) -> float:
    """Smallest distance between column centres (a column's own width when alone)."""
    centers = [(x0 + x1) / 2 for x0, x1 in columns]
    return min((b - a for a, b in zip(centers, centers[1:])), default=columns[0][1] - columns[0][0])


def _middle(phrase: Phrase) -> float:
    return (phrase.x0 + phrase.x1) / 2


class ColumnHeads:
    """The header rows (`rows`: each row's phrases, left to right) over `columns`."""

    def __init__(self, columns: list[Column], rows: Sequence[Sequence[Phrase]]) -> None:
        self.spacing = spacing(columns)
        self.reach = columns[0][0] - self.spacing / 2
        self.columns = columns
        self.rows = rows

    def _over(self, row: Sequence[Phrase]) -> list[Phrase]:
        """The row's phrases over the columns (the rest are in the label column)."""
        return [p for p in row if p.x0 >= self.reach - self.spacing / 2]

    def _picks(self, over: list[Phrase]) -> list[Phrase | None]:
        """Per column, the phrase nearest to it, if near enough or over it."""
        picks: list[Phrase | None] = []
        for x0, x1 in self.columns:
            center = (x0 + x1) / 2
            nearest = min(over, key=lambda p: abs(_middle(p) - center)) if over else None
            if nearest is not None and not (
                abs(_middle(nearest) - center) <= self.spacing * DEFAULT_HEAD_REACH
                or nearest.x0 - 1 <= center <= nearest.x1 + 1
            ):
                nearest = None
            picks.append(nearest)
        return picks

    def add_unclaimed(self, loose: Sequence[Phrase]) -> list[Column]:
        """The columns, with a column for each stack of phrases no column takes that is
        clear of every column, widened to the `loose` figures (in no column) under it."""
        spans: list[Column] = []
        for row in self.rows:
            over = self._over(row)
            taken = {id(p) for p in self._picks(over) if p is not None}
            spans.extend((p.x0, p.x1) for p in over if id(p) not in taken)
        stacks: list[Column] = []
        for x0, x1 in sorted(spans):
            if stacks and x0 <= stacks[-1][1]:
                stacks[-1] = (stacks[-1][0], max(stacks[-1][1], x1))
            else:
                stacks.append((x0, x1))
        added = []
        for x0, x1 in stacks:
            if any(x1 >= c0 - 1 and x0 <= c1 + 1 for c0, c1 in self.columns):
                continue
            under = [p for p in loose if p.x0 <= x1 and p.x1 >= x0]
            added.append(
                (min([x0, *(p.figure_x0 for p in under)]), max([x1, *(p.x1 for p in under)]))
            )
        self.columns = sorted(self.columns + added)
        return self.columns

    def cells(self) -> list[str]:
        """Per column (label column first), its header phrases top to bottom."""
        if not self.rows:
            return []
        cells: list[list[str]] = [[] for _ in range(len(self.columns) + 1)]
        centers = [(x0 + x1) / 2 for x0, x1 in self.columns]
        for row in self.rows:
            over = self._over(row)
            cells[0].extend(p.text for p in row if p not in over)
            chosen = [[p] if p is not None else [] for p in self._picks(over)]
            taken = {id(p) for phrases in chosen for p in phrases}
            for phrase in over:
                if id(phrase) not in taken:
                    nearest = min(
                        range(len(centers)), key=lambda c: abs(centers[c] - _middle(phrase))
                    )
                    chosen[nearest] = sorted([*chosen[nearest], phrase], key=lambda p: p.x0)
            for column, phrases in enumerate(chosen):
                if phrases:
                    cells[column + 1].append(" ".join(p.text for p in phrases))
        return [" ".join(parts) for parts in cells]
