"""Units — the pieces the packer arranges — and greedy grouping under a budget.

A `Unit` is text the packer will not cut any further (a whole block, a list item, a
sentence, a run of words …) plus the joiner that goes before it and how good a place
a cut before it is (`Joint`). `group_units` fills chunks greedily, but when a chunk
must close it steps back to the strongest joint in its second half, so chunks end at
block boundaries rather than mid-paragraph whenever that costs little room.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from .document import BlockKind, Provenance


class Joint(IntEnum):
    """How good a cut is before a unit: higher is better."""

    CHAR = 0
    WORD = 1
    SENTENCE = 2
    LINE = 3
    NESTED_ITEM = 4
    ITEM = 5
    """List item, table row group, blank-line group of code."""
    BLOCK = 6


DEFAULT_MIN_FILL = 0.5
"""A chunk may close early at a stronger joint only once it is at least this full; below
that, cutting early would leave chunks much smaller than the budget. Chosen so that a
chunk never holds less than half the budget just to end on a paragraph."""


@dataclass(slots=True)
class Unit:
    """An uncuttable piece of chunk text with what the packer needs to know about it."""

    text: str
    tokens: int
    sep: str = "\n\n"
    """Joiner placed before this unit when it follows another unit in the same chunk."""
    sep_tokens: int = 0
    joint: Joint = Joint.BLOCK
    kind: BlockKind = "paragraph"
    prov: Provenance = field(default_factory=Provenance)
    table_rows: tuple[int, int, int] | None = None
    keep_with_next: bool = False
    """A lead-in ("… as follows:") that should start the chunk holding what it introduces."""

    def cost_after(self) -> int:
        """Tokens this unit adds when it follows another unit."""
        return self.sep_tokens + self.tokens


def group_cost(units: Sequence[Unit]) -> int:
    """Estimated tokens of the units joined (exact for additive tokenizers)."""
    if not units:
        return 0
    return units[0].tokens + sum(u.cost_after() for u in units[1:])


def join_units(units: Sequence[Unit]) -> str:
    parts = [units[0].text]
    for unit in units[1:]:
        parts.append(unit.sep)
        parts.append(unit.text)
    return "".join(parts)


def _best_cut(current: list[Unit], closing_joint: Joint, budget: int, min_fill: float) -> int:
    """Index in `current` to cut before; len(current) means cut at the end (before the next)."""
    best, best_joint = len(current), closing_joint
    floor = min_fill * budget
    cost = current[0].tokens
    for index in range(1, len(current)):
        unit = current[index]
        if cost >= floor and unit.joint > best_joint:
            best, best_joint = index, unit.joint
        elif cost >= floor and unit.joint == best_joint and best != len(current):
            best = index  # the later of two equal joints keeps chunks fuller
        cost += unit.cost_after()
    return best


def _lead_in_cut(current: list[Unit], following: Unit, budget: int) -> int | None:
    """Cut before a trailing lead-in, so it moves to the chunk of what it introduces."""
    lead_in = current[-1]
    if (
        len(current) > 1
        and lead_in.keep_with_next
        and lead_in.tokens + following.cost_after() <= budget
    ):
        return len(current) - 1
    return None


def group_units(
    units: Sequence[Unit], budget: int, min_fill: float = DEFAULT_MIN_FILL
) -> list[list[Unit]]:
    """Split `units` into consecutive groups whose estimated cost is at most `budget`.

    Every unit must fit alone (the caller splits finer first); a unit that does not is
    still placed, alone, and left for the caller's final verification.
    """
    groups: list[list[Unit]] = []
    current: list[Unit] = []
    cost = 0
    index = 0
    while index < len(units):
        unit = units[index]
        add = unit.cost_after() if current else unit.tokens
        if current and cost + add > budget:
            cut = _lead_in_cut(current, unit, budget)
            if cut is None:
                cut = _best_cut(current, unit.joint, budget, min_fill)
            groups.append(current[:cut])
            current = current[cut:]
            cost = group_cost(current)
            continue
        current.append(unit)
        cost += add
        index += 1
    if current:
        groups.append(current)
    return groups
