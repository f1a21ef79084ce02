"""The `Tokenizer` value the packer counts with, and the one memoised count cache."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

COUNT_CACHE_SIZE = 65536
"""Distinct texts whose sub-word counts are memoised (heads, joiners and pieces recur
while packing). Word and character counts are cheaper to redo than to look up."""


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """A named token counter."""

    name: str
    count: Callable[[str], int]
    additive: bool
    """count(a + sep + b) == count(a) + count(sep) + count(b) for whitespace `sep`."""


def memoised(count: Callable[[str], int]) -> Callable[[str], int]:
    """`count` with the cache every costly counter gets (sub-word tokenizers, callables)."""
    return lru_cache(maxsize=COUNT_CACHE_SIZE)(count)
