"""Lead-ins and labels: the blocks that introduce what follows them, and how much room they
may take where the steps keep them with it.

A lead-in is a paragraph ending with a colon ("The following names are reserved:"); a
label is a short title set as a one-line paragraph (`KPI 1.6.2 Collaborators`). Right
before a list, table or code block — or before another block that introduces one — they
should start the chunk that holds what they introduce. Three steps act on that:

- units (`splitters.section_units`) marks them `keep_with_next` (`keeps_with_next`), and
  cuts a split table or code block's first piece smaller to leave them room;
- group (`grouping.group_units`) moves a trailing run of them on to what it introduces;
- overlap (`overlap.with_lead_in`) repeats a lead-in sentence that could not move.

Each asks `within_lead_in_room` how much of the budget such a run may take.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..document import Block, Paragraph
from .units import Joint, Unit

MAX_LEAD_IN_ROOM = 0.25
"""A run of lead-ins and labels up to this share of the budget is short: it moves on
with what it introduces whatever it leaves behind, and a split table or code block
leaves room for it in its first piece. A longer run moves only from a chunk that stays
`grouping.DEFAULT_MIN_FILL` full. A lead-in sentence repeated by the overlap step may
take at most this share of the room after the head."""

LABEL_MAX_WORDS = 12
"""A one-line paragraph this short that does not end like a sentence or a clause is a
label: a title the document set as text. Right before a list, table or code block it
names it (`KPI 1.6.2 Collaborators` over its table, `To set a CloudWatch alarm` over its
steps, `(In millions)` over a statement), so it stays with it — unless it asks or
exclaims (a question, not a title) or captions a figure (printed under what it names).
Before a paragraph it may as well close the text above (`Yes ☒ No ☐`, a signature), so
there it is left where it falls."""

_SENTENCE_OR_CLAUSE_END = re.compile(r"[.!?;,:…—–][\"”’)\]]*(?:\[\d+\])*$")
_NOT_A_LABEL = re.compile(r"[?!]|^fig(?:ure|\.)?\s*\d", re.IGNORECASE)


def within_lead_in_room(tokens: int, budget: int) -> bool:
    """Whether a run of lead-ins and labels (or a lead-in sentence) of `tokens` is short
    within `budget`: at most `MAX_LEAD_IN_ROOM` of it."""
    return tokens <= MAX_LEAD_IN_ROOM * budget


def is_lead_in(block: Block, text: str) -> bool:
    """Whether `block` reads as a lead-in: a paragraph ending with a colon, whose last
    sentence introduces what follows ("The following names are reserved:"). However
    long the paragraph, it is unfinished without what comes after it; `group_units`
    decides how much of it may move on."""
    return isinstance(block, Paragraph) and ends_as_lead_in(text)


def ends_as_lead_in(text: str) -> bool:
    """Whether a paragraph's text (or its last sentences) ends as a lead-in does."""
    return text.rstrip().endswith(":")


def is_label(block: Block, text: str) -> bool:
    """Whether `block` reads as a label: a short title set as a one-line paragraph."""
    line = text.strip()
    return (
        isinstance(block, Paragraph)
        and "\n" not in line
        and 0 < len(line.split()) <= LABEL_MAX_WORDS
        and any(char.isalnum() for char in line)
        and _SENTENCE_OR_CLAUSE_END.search(line) is None
        and _NOT_A_LABEL.search(line) is None
    )


def keeps_with_next(blocks: Sequence[Block], texts: Sequence[str]) -> list[bool]:
    """For each block, whether it introduces what comes after it: a lead-in, a label or
    a caption the format marks as the title of what follows, right before a list, table
    or code block, or before another block that does (`Performance Indicators`, then
    `KPI 1.6.2 Collaborators`, then the table)."""
    keep = [False] * len(blocks)
    for index in reversed(range(len(blocks) - 1)):
        following = blocks[index + 1]
        introduces = not isinstance(following, Paragraph) or keep[index + 1]
        block, text = blocks[index], texts[index]
        titled = isinstance(block, Paragraph) and block.titles_next
        keep[index] = introduces and (titled or is_lead_in(block, text) or is_label(block, text))
    return keep


def ends_with_lead_in_of(last: Unit, first: Unit) -> bool:
    """Whether `last`, the end of a chunk, is a lead-in of `first`, the start of the next:
    a paragraph ending with a colon, before the first piece of a list, table or code
    block."""
    if first.kind == "paragraph" or first.joint < Joint.BLOCK or last.kind != "paragraph":
        return False
    return ends_as_lead_in(last.text)
