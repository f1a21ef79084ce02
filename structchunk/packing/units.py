"""Units: the pieces the packer arranges, and what every step needs to know about them.

A `Unit` is text the packer will not cut any further (a whole block, a list item, a
sentence, a run of words …) plus the joiner that goes before it and how good a place a
cut before it is (`Joint`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from ..document import BlockKind, Provenance


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


@dataclass(slots=True, kw_only=True)
class Unit:
    """An uncuttable piece of chunk text with what the packer needs to know about it
    (built by keyword: most fields are small numbers or strings easy to swap)."""

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
    """A lead-in ("… as follows:") or a label (`KPI 1.6.2 Collaborators`) that should start
    the chunk holding what it introduces."""

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
