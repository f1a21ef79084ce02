"""Answers at equal context (`eval --context-budget`): the retriever's ranked chunks fill
a context of N tokens, as a RAG prompt would be filled; is the answer wholly inside it?

Three fillings of the same ranking:

- *chunks*: the ranked chunks themselves;
- *parents* (small-to-big): each ranked chunk's parent record instead (`parents`), each
  parent once; a parent that does not fit the room left gives way to its chunk;
- *merged*: the chunks, but once a second chunk of one parent comes in, the parent takes
  the place of its chunks when it fits the room they leave (LlamaIndex's auto-merging
  retriever does this, with a share of the parent's chunks for "a second").

In all three, items go in whole, in rank order; one that does not fit is passed over for
the next that does, down to `CONTEXT_DEPTH` hits. The answer is in the context when one
item holds all its tokens, contiguous (as `hit@k` judges a chunk).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .normalize import match_tokens

DEFAULT_BUDGETS = (512, 1024, 2048)
"""Context sizes in tokens: a small prompt, a common one, a generous one."""

CONTEXT_DEPTH = 100
"""Ranked hits a context is filled from: more than 2 048 tokens of the smallest chunks
the corpus runs make (20-word chunks would need 102; none are that small on average)."""


@dataclass(frozen=True, slots=True)
class Item:
    """Something a context can hold: its key (no item goes in twice), its tokens and its
    text as matching tokens, joined."""

    key: str
    tokens: int
    joined: str


def joined_tokens(text: str) -> str:
    """`text` as the padded, space-joined tokens answers are looked for in."""
    return " " + " ".join(match_tokens(text)) + " "


def fill(ranked: Sequence[tuple[Item, Item | None]], budget: int) -> list[Item]:
    """The context of `budget` tokens from ranked (chunk, parent or None) pairs: the
    parent when given and it fits, else the chunk; each key once, whole items only."""
    chosen: list[Item] = []
    seen: set[str] = set()
    room = budget
    for chunk, parent in ranked:
        for item in (parent, chunk) if parent is not None else (chunk,):
            if item.key in seen:
                break  # already in: the chunk is too, or its parent holds it
            if item.tokens <= room:
                chosen.append(item)
                seen.add(item.key)
                room -= item.tokens
                break
    return chosen


def fill_merging(ranked: Sequence[tuple[Item, Item | None]], budget: int) -> list[Item]:
    """The context of `budget` tokens from ranked (chunk, parent) pairs: the chunks, and
    a parent in place of its chunks from the second of them on, when it fits the room
    they leave; whole items only, each once."""
    chosen: list[Item] = []
    seen: set[str] = set()
    parent_of: dict[str, str] = {}
    room = budget
    for chunk, parent in ranked:
        if chunk.key in seen or (parent is not None and parent.key in seen):
            continue
        siblings = [c for c in chosen if parent is not None and parent_of.get(c.key) == parent.key]
        freed = sum(sibling.tokens for sibling in siblings)
        if parent is not None and siblings and parent.tokens <= room + freed:
            at = chosen.index(siblings[0])
            chosen = [item for item in chosen if item not in siblings]
            chosen.insert(at, parent)
            seen.add(parent.key)
            room += freed - parent.tokens
        elif chunk.tokens <= room:
            chosen.append(chunk)
            seen.add(chunk.key)
            room -= chunk.tokens
            if parent is not None:
                parent_of[chunk.key] = parent.key
    return chosen


Filling = Callable[[Sequence[tuple[Item, Item | None]], int], list[Item]]


def in_context(context: Sequence[Item], answer: Sequence[str]) -> bool:
    needle = " " + " ".join(answer) + " "
    return any(needle in item.joined for item in context)


def context_scores(
    ranked: Sequence[tuple[Item, Item | None]],
    answers: Sequence[list[str]],
    budgets: Sequence[int],
    filling: Filling = fill,
) -> dict[int, float]:
    """Per budget, the share of `answers` wholly inside the context `filling` fills from
    `ranked`."""
    scores = {}
    for budget in budgets:
        context = filling(ranked, budget)
        found = [in_context(context, answer) for answer in answers]
        scores[budget] = sum(found) / len(found) if found else 0.0
    return scores


class ItemCache:
    """Items made once per chunk or parent, whatever number of questions rank them."""

    def __init__(self) -> None:
        self._items: dict[str, Item] = {}

    def get(self, key: str, tokens: int, text: Callable[[], str]) -> Item:
        item = self._items.get(key)
        if item is None:
            item = self._items[key] = Item(key, tokens, joined_tokens(text()))
        return item
