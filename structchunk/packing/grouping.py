"""Step 3, group: units into chunks, greedily under the budget.

Chunks are filled greedily, but when a chunk must close it steps back to the strongest
joint in its second half, so chunks end at block boundaries rather than mid-paragraph
whenever that costs little room; trailing lead-ins and labels move on with what they
introduce.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lead_ins import within_lead_in_room
from .units import Joint, Unit, group_cost

DEFAULT_MIN_FILL = 0.5
"""A chunk may close early at a stronger joint only once it is at least this full; below
that, cutting early would leave chunks much smaller than the budget. Chosen so that a
chunk never holds less than half the budget just to end on a paragraph."""


def _best_cut(current: list[Unit], closing_joint: Joint, budget: int, min_fill: float) -> int:
    """Index in `current` to cut before; len(current) means cut at the end (before the next).
    Never right after a lead-in or label: that would part it from what it introduces."""
    best, best_joint = len(current), closing_joint
    floor = min_fill * budget
    cost = current[0].tokens
    for index in range(1, len(current)):
        unit = current[index]
        if cost >= floor and not current[index - 1].keep_with_next:
            if unit.joint > best_joint:
                best, best_joint = index, unit.joint
            elif unit.joint == best_joint and best != len(current):
                best = index  # the later of two equal joints keeps chunks fuller
        cost += unit.cost_after()
    return best


def _kept_cut(current: list[Unit], following: Unit, budget: int, min_fill: float) -> int | None:
    """Cut before the chunk's trailing run of lead-ins and labels (as much of it as fits
    with `following`), so it moves to the chunk of what it introduces. A long run (a
    whole paragraph ending in a colon) moves only while the chunk it leaves stays at
    least `min_fill` full: a title left alone in a chunk says nothing."""
    cut = None
    index = len(current) - 1
    while index > 0 and current[index].keep_with_next:
        run = group_cost(current[index:])
        if run + following.cost_after() > budget:
            break
        if not within_lead_in_room(run, budget) and group_cost(current[:index]) < min_fill * budget:
            break
        cut = index
        index -= 1
    return cut


def group_units(
    units: Sequence[Unit],
    budget: int,
    min_fill: float = DEFAULT_MIN_FILL,
    first_budget: int | None = None,
) -> list[list[Unit]]:
    """Split `units` into consecutive groups whose estimated cost is at most `budget`
    (the first group's at most `first_budget`, when given).

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
        limit = budget if groups or first_budget is None else first_budget
        if current and cost + add > limit:
            cut = _kept_cut(current, unit, limit, min_fill)
            if cut is None:
                cut = _best_cut(current, unit.joint, limit, min_fill)
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
