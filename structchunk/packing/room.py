"""Room: the tokens a section's chunks have, fixed once its head is known — all of it, what
the head takes and what is left for content — under one name along the packing path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class Room:
    """The room of every chunk of one section, in tokens of the packer's tokenizer."""

    limit: int
    """The most a chunk's whole text may count — head, content and any repeated text:
    the user's `ChunkOptions.max_tokens`. Fitting, overlap and finishing check it."""
    head: int
    """What the section's head (its heading prefix and the blank line after it) takes
    from every chunk: `Head.tokens` (the prefix is shortened to half of `limit`)."""
    content: int
    """What the units of a chunk may cost together: `limit` less `head` and, with
    overlap, less the most a repeated tail and its joiner may take; at least 1. Step 2
    cuts blocks to it and step 3 fills chunks to it (each calls it its `budget`, as do
    the smaller budgets it derives: a split table's rows, fitting's shrunk retries)."""


def section_room(
    *, limit: int, head_tokens: int, overlap_tokens: int, count: Callable[[str], int]
) -> Room:
    """The room of a section's chunks under a head of `head_tokens`: overlap is reserved
    up front, so repeating a tail never pushes a chunk over `limit`."""
    content = limit - head_tokens
    if overlap_tokens:
        content -= overlap_tokens + count("\n\n")  # the tail, and the joiner after it
    return Room(limit=limit, head=head_tokens, content=max(content, 1))
