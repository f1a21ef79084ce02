"""Counters that need nothing installed: words, characters, and any callable str -> int."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import OptionsError
from .base import Tokenizer, memoised
from .scripts import count_unspaced, has_unspaced


def count_words(text: str) -> int:
    """Whitespace-separated words, and in unspaced scripts (Chinese, Japanese, Thai, ...)
    characters (see scripts.py): the default budget unit."""
    if has_unspaced(text):
        return count_unspaced(text)
    return len(text.split())


def count_spaced(text: str) -> int:
    """Whitespace-separated words only: a floor on every tokenizer's count."""
    return len(text.split())


def count_chars(text: str) -> int:
    """Unicode code points."""
    return len(text)


WORDS = Tokenizer("words", count_words, additive=True)
CHARS = Tokenizer("chars", count_chars, additive=True)


def callable_tokenizer(fn: Callable[[str], int]) -> Tokenizer:
    """A library caller's own counter, checked on every call (its bugs get a clear error)
    and memoised, since the packer may count the same piece more than once."""
    name = "callable:" + getattr(fn, "__name__", type(fn).__name__)

    def count(text: str) -> int:
        n = fn(text)
        if not isinstance(n, int) or n < 0:
            raise OptionsError(
                f"tokenizer {name} returned {n!r} for a text; "
                "a token counter must return a non-negative int"
            )
        return n

    return Tokenizer(name, memoised(count), additive=False)
