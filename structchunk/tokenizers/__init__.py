"""Token counters for the budget: words, chars, tiktoken:…, hf:…, or any callable.

The packer only needs `count(text) -> int` and a name for the records. `additive`
tells it whether counts add up over whitespace-joined pieces (words, chars); for
sub-word tokenizers they do not, so the packer verifies every final text.

    base.py              the `Tokenizer` value and the memoised count cache
    plain.py             words, chars, callables
    tiktoken_offline.py  tiktoken:<encoding>, from its local cache only
    hf_offline.py        hf:<name-or-path>, a local or cached tokenizer.json
    resolve.py           a spec string (or callable) to a `Tokenizer`
"""

from __future__ import annotations

from .base import Tokenizer
from .plain import count_chars, count_words
from .resolve import get_tokenizer

__all__ = ["Tokenizer", "count_chars", "count_words", "get_tokenizer"]
