"""Step 7, finish: a packed group becomes a `PackedChunk` — text, count, kinds, provenance.

Also the shortcut before all other steps: a section that fits the budget whole is one
chunk, counted with one call instead of one per block (what keeps sub-word tokenizers
cheap on the common case).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..document import Provenance, Section
from ..errors import BudgetError
from ..tokenizers import Tokenizer, count_words
from ..tokenizers.plain import count_spaced
from .prefix import Head
from .room import Room
from .units import Unit


@dataclass(slots=True)
class PackedChunk:
    """A chunk before it gets its ids: text, provenance and what it holds."""

    heading_path: tuple[str, ...]
    text: str
    body: str
    n_tokens: int
    block_types: list[str]
    prov: Provenance
    table_rows: tuple[int, int, int] | None
    prefix_shortened: bool
    language: str | None = None
    """The section's language (step 0), set by the packer."""
    own: str | None = None
    """The body without what it repeats of the chunk before (overlap, a lead-in); None
    when it repeats nothing."""
    joiner: str = "\n\n"
    """What joins its own text to the chunk before it in the same section: a blank line
    at a block boundary, a space or newline inside a cut block."""
    at_block: bool = True
    """Whether it starts at a block boundary of its section."""
    opens_section: bool = True
    """Whether it is the first chunk of its section (parents group chunks by section)."""


def finish(
    path: tuple[str, ...],
    head: Head,
    units: Sequence[Unit],
    body: str,
    *,
    tokenizer: Tokenizer,
    room: Room,
    n_tokens: int | None = None,
) -> PackedChunk:
    """The chunk of `units` (joined, with overlap, as `body`) under `head`; its final
    count is checked against `room.limit` once more, on the text as written."""
    text = head.text + body
    if n_tokens is None:
        n_tokens = tokenizer.count(text)
    if n_tokens > room.limit:  # fitting guarantees this
        raise BudgetError(f"chunk of {n_tokens} tokens exceeds max_tokens {room.limit}")
    kinds: list[str] = []
    prov = units[0].prov
    for unit in units:
        if unit.kind not in kinds:
            kinds.append(unit.kind)
        prov = prov.merged(unit.prov)
    table_parts = [u.table_rows for u in units if u.table_rows]
    return PackedChunk(
        heading_path=path,
        text=text,
        body=body,
        n_tokens=n_tokens,
        block_types=kinds,
        prov=prov,
        table_rows=table_parts[0] if len(table_parts) == 1 else None,
        prefix_shortened=head.shortened,
    )


def whole_section(
    section: Section, head: Head, texts: list[str], tokenizer: Tokenizer, room: Room
) -> PackedChunk | None:
    """The section as one chunk when it fits (blocks rendered as `texts`), else None.

    Words are counted block by block first, and the section given up once they pass the
    limit: every tokenizer gives at least one token per whitespace word (sub-word ones
    skip their own count so), and joining a 50 MB section to count it took 550 MB. With
    the words tokenizer that count is the chunk's (it adds up over blocks)."""
    floor = count_words if tokenizer.count is count_words else count_spaced
    words = floor(head.text)
    for text in texts:
        words += floor(text)
        if words > room.limit:
            return None
    body = "\n\n".join(texts)
    # the word count is the one just taken (the head ends with its blank line)
    n_tokens = words if tokenizer.count is count_words else tokenizer.count(head.text + body)
    if n_tokens > room.limit:
        return None
    units = [
        Unit(text=text, tokens=0, kind=block.kind, prov=block.prov)
        for block, text in zip(section.blocks, texts)
    ]
    return finish(
        section.path, head, units, body, tokenizer=tokenizer, room=room, n_tokens=n_tokens
    )
