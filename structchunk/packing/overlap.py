"""Step 6, overlap: each chunk may repeat whole trailing sentences of the one before it.

Only within a section, only whole sentences of paragraphs, up to `overlap_tokens`, and
only when the chunk still fits its budget with them.
"""

from __future__ import annotations

from .splitters import SplitContext
from .units import Joint, Unit, join_units


def overlap_bodies(
    groups: list[list[Unit]], head_text: str, overlap_tokens: int, limit: int, ctx: SplitContext
) -> list[str]:
    """The body of each group, after the first with the previous group's tail in front."""
    bodies: list[str] = []
    previous: list[Unit] | None = None
    for group in groups:
        body = join_units(group)
        if previous is not None and overlap_tokens:
            body = with_overlap(previous, group, body, head_text, overlap_tokens, limit, ctx)
        previous = group
        bodies.append(body)
    return bodies


def with_overlap(
    previous: list[Unit],
    group: list[Unit],
    body: str,
    head_text: str,
    overlap_tokens: int,
    limit: int,
    ctx: SplitContext,
) -> str:
    """`body` with whole trailing sentences of `previous` prepended, up to `overlap_tokens`."""
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
            if count(head_text + candidate) <= limit:
                return candidate
        sentences.pop(0)
    return body
