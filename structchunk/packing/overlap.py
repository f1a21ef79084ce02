"""Step 6, overlap: a chunk may repeat text from the end of the one before it.

Two kinds, both only within a section and only when the chunk still fits its limit:

- `overlap_tokens`: whole trailing sentences of paragraphs, up to that many tokens;
- `repeat_lead_ins`: a chunk that opens with a list, table or code block whose lead-in
  ("…in the following ways:") ended the chunk before starts with that sentence again.
  Packing moves a lead-in on with what it introduces when it can; it cannot when the
  lead-in closes a paragraph that fits (a paragraph is not cut for it) or when the two
  together exceed the budget, and a list without its introduction reads as a list of
  what?
"""

from __future__ import annotations

from .context import SplitContext
from .lead_ins import ends_with_lead_in_of, within_lead_in_room
from .room import Room
from .units import Joint, Unit, join_units


def overlap_bodies(
    groups: list[list[Unit]],
    head_text: str,
    room: Room,
    ctx: SplitContext,
    *,
    overlap_tokens: int = 0,
    repeat_lead_ins: bool = False,
) -> list[str]:
    """The body of each group, after the first with what it repeats of the previous one
    in front (each chunk under `head_text` still within `room.limit`)."""
    bodies: list[str] = []
    previous: list[Unit] | None = None
    for group in groups:
        body = join_units(group)
        if previous is not None:
            repeated = None
            if overlap_tokens:
                repeated = with_overlap(
                    previous,
                    group,
                    body,
                    head_text=head_text,
                    room=room,
                    ctx=ctx,
                    overlap_tokens=overlap_tokens,
                )
            if repeated is None and repeat_lead_ins:
                repeated = with_lead_in(
                    previous, group, body, head_text=head_text, room=room, ctx=ctx
                )
            body = repeated or body
        previous = group
        bodies.append(body)
    return bodies


def with_overlap(
    previous: list[Unit],
    group: list[Unit],
    body: str,
    *,
    head_text: str,
    room: Room,
    ctx: SplitContext,
    overlap_tokens: int,
) -> str | None:
    """`body` with whole trailing sentences of `previous` prepended, up to
    `overlap_tokens`; None when none fits."""
    count = ctx.tokenizer.count
    sentences: list[str] = []
    for unit in reversed(previous):
        if unit.kind != "paragraph" or unit.joint < Joint.SENTENCE:
            break
        found = ctx.segmenter.split(unit.text) if unit.joint == Joint.BLOCK else [unit.text]
        sentences[0:0] = found
        if unit.joint == Joint.BLOCK or sum(count(s) for s in sentences) > overlap_tokens:
            break
    joiner = group[0].sep if group[0].joint < Joint.BLOCK else "\n\n"
    while sentences:
        tail = " ".join(sentences)
        if count(tail) <= overlap_tokens:
            candidate = tail + joiner + body
            if count(head_text + candidate) <= room.limit:
                return candidate
        sentences.pop(0)
    return None


def with_lead_in(
    previous: list[Unit],
    group: list[Unit],
    body: str,
    *,
    head_text: str,
    room: Room,
    ctx: SplitContext,
) -> str | None:
    """`body` with the lead-in sentence that ends `previous` prepended, when `body` opens
    with the list, table or code block it introduces; None otherwise, or when it does not
    fit. A lead-in sentence over a quarter of the room is not repeated: the chunk would be
    as much the text before as its own."""
    last = previous[-1]
    if not ends_with_lead_in_of(last, group[0]):
        return None
    count = ctx.tokenizer.count
    sentence = ctx.segmenter.split(last.text)[-1]
    if not within_lead_in_room(count(sentence), room.limit - room.head):
        return None
    candidate = sentence + "\n\n" + body
    return candidate if count(head_text + candidate) <= room.limit else None
