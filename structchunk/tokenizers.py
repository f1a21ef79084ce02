"""Token counters for the budget: words, chars, tiktoken:…, hf:…, or any callable.

The packer only needs `count(text) -> int` and a name for the records. `additive`
tells it whether counts add up over whitespace-joined pieces (words, chars); for
sub-word tokenizers they do not, so the packer verifies every final text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .errors import OptionsError

COUNT_CACHE_SIZE = 65536
"""Distinct texts whose sub-word counts are memoised (pieces recur while packing)."""


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """A named token counter."""

    name: str
    count: Callable[[str], int]
    additive: bool
    """count(a + sep + b) == count(a) + count(sep) + count(b) for whitespace `sep`."""


def count_words(text: str) -> int:
    """Whitespace-separated words: the default budget unit."""
    return len(text.split())


def count_chars(text: str) -> int:
    """Unicode code points."""
    return len(text)


def _memoised(count: Callable[[str], int]) -> Callable[[str], int]:
    return lru_cache(maxsize=COUNT_CACHE_SIZE)(count)


def _from_callable(fn: Callable[[str], int]) -> Tokenizer:
    name = "callable:" + getattr(fn, "__name__", type(fn).__name__)

    def count(text: str) -> int:
        n = fn(text)
        if not isinstance(n, int) or n < 0:
            raise OptionsError(
                f"tokenizer {name} returned {n!r} for a text; "
                "a token counter must return a non-negative int"
            )
        return n

    return Tokenizer(name, _memoised(count), additive=False)


def get_tokenizer(spec: str | Callable[[str], int]) -> Tokenizer:
    """Resolve a tokenizer spec (see `ChunkOptions.tokenizer`) to a `Tokenizer`."""
    if callable(spec):
        return _from_callable(spec)
    return _resolve_named(spec)


@lru_cache(maxsize=16)
def _resolve_named(spec: str) -> Tokenizer:
    if spec == "words":
        return Tokenizer("words", count_words, additive=True)
    if spec == "chars":
        return Tokenizer("chars", count_chars, additive=True)
    kind, _, arg = spec.partition(":")
    if kind == "tiktoken" and arg:
        from .subword import tiktoken_counter

        return Tokenizer(spec, _memoised(tiktoken_counter(arg)), additive=False)
    if kind == "hf" and arg:
        from .subword import hf_counter

        return Tokenizer(spec, _memoised(hf_counter(arg)), additive=False)
    raise OptionsError(
        f"unknown tokenizer {spec!r}: use words, chars, tiktoken:<encoding> or hf:<name-or-path>"
    )
