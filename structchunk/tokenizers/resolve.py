"""A tokenizer spec (`ChunkOptions.tokenizer`) to a `Tokenizer`."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..errors import OptionsError
from .base import Tokenizer, memoised
from .plain import CHARS, WORDS, callable_tokenizer


def get_tokenizer(spec: str | Callable[[str], int]) -> Tokenizer:
    """Resolve a tokenizer spec (see `ChunkOptions.tokenizer`) to a `Tokenizer`."""
    if callable(spec):
        return callable_tokenizer(spec)
    return _resolve_named(spec)


@lru_cache(maxsize=16)
def _resolve_named(spec: str) -> Tokenizer:
    if spec == "words":
        return WORDS
    if spec == "chars":
        return CHARS
    kind, _, arg = spec.partition(":")
    if kind == "tiktoken" and arg:
        from .tiktoken_offline import tiktoken_counter

        return Tokenizer(spec, memoised(tiktoken_counter(arg)), additive=False)
    if kind == "hf" and arg:
        from .hf_offline import hf_counter

        return Tokenizer(spec, memoised(hf_counter(arg)), additive=False)
    raise OptionsError(
        f"unknown tokenizer {spec!r}: use words, chars, tiktoken:<encoding> or hf:<name-or-path>"
    )
