"""Small builders for the packing-step tests: units, contexts and tokenizers by hand."""

from __future__ import annotations

from structchunk.document import BlockKind, Provenance
from structchunk.packing.context import SplitContext
from structchunk.packing.room import Room
from structchunk.packing.units import Joint, Unit
from structchunk.sentences import get_segmenter
from structchunk.tokenizers import Tokenizer, count_words, get_tokenizer

WORDS = get_tokenizer("words")


def unit(
    text: str,
    joint: Joint = Joint.BLOCK,
    sep: str = "\n\n",
    kind: BlockKind = "paragraph",
    prov: Provenance | None = None,
) -> Unit:
    """A unit counted in words, as the splitters would make it."""
    return Unit(
        text=text,
        tokens=count_words(text),
        sep=sep,
        sep_tokens=count_words(sep),
        joint=joint,
        kind=kind,
        prov=prov or Provenance(),
    )


def room(limit: int, head: int = 0) -> Room:
    """A chunk's room with all that the head leaves for content (no overlap reserved)."""
    return Room(limit=limit, head=head, content=limit - head)


def context(tokenizer: Tokenizer = WORDS) -> SplitContext:
    return SplitContext(tokenizer, get_segmenter())


def joins_cost_a_token() -> Tokenizer:
    """A sub-word-like counter: every paragraph break costs one token more than its pieces,
    so estimates from the pieces undercount joined text."""

    def count(text: str) -> int:
        return count_words(text) + text.count("\n\n")

    return Tokenizer("joins", count, additive=False)


def texts(groups: list[list[Unit]]) -> list[list[str]]:
    return [[u.text for u in group] for group in groups]
