"""The "nothing lost" checks behind `strict`: every word of a section comes out, in order,
and every heading reaches a chunk."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..document import Section
from ..errors import BudgetError
from ..markup import HEADING_SEPARATOR
from .finish import PackedChunk
from .render import render_block
from .units import Joint, Unit


def first_missing_word(expected: Iterable[str], produced: Iterable[str]) -> str | None:
    """The first word of `expected` that does not appear, in order, in `produced`.

    `produced` may hold extra words (repeated table headers, code fences, overlap), so
    this is a subsequence check. None when nothing is missing.
    """
    stream = iter(produced)
    for word in expected:
        for candidate in stream:
            if candidate == word:
                break
        else:
            return word
    return None


def _inside_a_word(unit: Unit) -> bool:
    """Whether `unit` starts inside what the source has as one whitespace word: a giant
    word cut apart, or Chinese or Japanese sentences cut where no space separates them
    (the gap before the unit is empty)."""
    return unit.joint == Joint.CHAR or (unit.joint < Joint.BLOCK and unit.sep == "")


def audit_section(section: Section, groups: list[list[Unit]]) -> None:
    """Raise `BudgetError` naming the section and the word if the groups lost any text."""
    expected = (w for block in section.blocks for w in render_block(block).split())
    produced: list[str] = []
    for unit in (u for group in groups for u in group):
        words = unit.text.split()
        if produced and words and _inside_a_word(unit):
            produced[-1] += words.pop(0)
        produced.extend(words)
    missing = first_missing_word(expected, produced)
    if missing is not None:
        where = HEADING_SEPARATOR.join(section.path) or "(document start)"
        raise BudgetError(f"text lost while packing section {where!r}: {missing!r}")


def _title_key(title: str) -> str:
    return " ".join(title.split()).casefold()


def audit_headings(root: Section, chunks: Sequence[PackedChunk]) -> None:
    """Raise `BudgetError` if a heading reached no chunk: neither a chunk's heading path
    nor, for a heading with nothing under it, a chunk's body. A first heading that
    repeats the document title in other case or spacing is in every path as the title
    (the builder does not repeat it)."""
    in_paths = {_title_key(title) for chunk in chunks for title in chunk.heading_path}
    bodies: str | None = None  # joined only if some heading is in no path
    for section in root.walk():
        if not section.title or _title_key(section.title) in in_paths:
            continue
        if bodies is None:
            bodies = " ".join(" ".join(chunk.body.split()) for chunk in chunks)
        if " ".join(section.title.split()) not in bodies:
            raise BudgetError(f"heading lost while packing: {section.title!r}")
