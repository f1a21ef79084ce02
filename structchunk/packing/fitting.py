"""Step 5, fit: every chunk's real token count within the budget, prefix included.

Exact tokenizers (words, chars) pass first time, since their estimates are the counts.
Sub-word tokenizers may count a joined text differently from its pieces, so the budget
shrinks by the overshoot and the group is regrouped (or its single unit re-split) until
it fits.
"""

from __future__ import annotations

from ..errors import BudgetError
from .context import SplitContext
from .grouping import group_units
from .prefix import Head
from .room import Room
from .splitters import resplit
from .units import Unit, group_cost, join_units


def fit(group: list[Unit], head: Head, room: Room, ctx: SplitContext) -> list[list[Unit]]:
    """`group` cut until `count(head + body) <= room.limit` for every piece."""
    tokenizer = ctx.tokenizer
    if tokenizer.additive and room.head + group_cost(group) <= room.limit:
        return [group]  # additive estimates never undercount: no need to recount
    done: list[list[Unit]] = []
    work = [(group, room.content)]
    while work:
        current, current_budget = work.pop(0)
        over = tokenizer.count(head.text + join_units(current)) - room.limit
        if over <= 0:
            done.append(current)
            continue
        smaller = max(current_budget - over, 1)
        if len(current) > 1:
            parts = group_units(current, smaller)
            if len(parts) == 1:  # estimates say it fits: force a cut
                parts = [current[:-1], current[-1:]]
        else:
            parts = [[u] for u in resplit(ctx, current[0], smaller)]
            if len(parts) == 1 and smaller == 1:
                raise BudgetError(
                    f"cannot fit {current[0].text[:40]!r} into "
                    f"{room.limit} tokens with its heading prefix"
                )
        work[0:0] = [(part, smaller) for part in parts]
    return done
