"""Step 4, merge small: no chunk under `min_tokens` where a neighbour in the section can help."""

from __future__ import annotations

from .room import Room
from .units import Unit, group_cost


def merge_small(groups: list[list[Unit]], room: Room, *, floor: int) -> list[list[Unit]]:
    """`groups` with every chunk smaller than `floor` (`min_tokens`, head included) merged
    or rebalanced.

    A small chunk is merged into its predecessor (or a small predecessor into it) when
    the result fits `room.content`; otherwise, when it is the tail of a longer run, units move
    to it from the end of the previous chunk until it is big enough, as long as the
    previous chunk stays big enough too.
    """
    if floor <= 0 or len(groups) < 2:
        return groups

    def small(group: list[Unit]) -> bool:
        return group_cost(group) + room.head < floor

    merged: list[list[Unit]] = [groups[0]]
    for group in groups[1:]:
        last = merged[-1]
        if (small(group) or small(last)) and group_cost(last + group) <= room.content:
            merged[-1] = last + group
            continue
        while (
            small(group)
            and len(last) > 1
            and not small(last[:-1])
            and group_cost(last[-1:] + group) <= room.content
        ):
            group = last[-1:] + group
            last = merged[-1] = last[:-1]
        merged.append(group)
    return merged
