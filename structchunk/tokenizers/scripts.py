"""How the `words` counter counts scripts written without spaces between words.

Whitespace words are the budget unit for spaced scripts (Latin, Cyrillic, Greek, Arabic,
Hebrew, Devanagari, Hangul, ...). Chinese, Japanese and the scripts of South-East Asia
have no spaces between words, so a whole paragraph would be one "word". There:

- each Han ideograph, kana, CJK symbol or punctuation mark and full-width form counts
  as one token (`PER_CHARACTER`);
- Thai, Lao, Khmer and Myanmar count one token per base character: combining vowel
  signs and tone marks ride on the character before them (`SOUTH_EAST_ASIAN`) — a
  rule without a dictionary;
- inside a whitespace word, each run of other characters between those counts one
  (`GPT模型` is 1 + 2).

Measured against two multilingual sub-word vocabularies in benchmarks/tokenizer_scripts.py
(docs/tokenizers.md has the table): per character tracks them for Chinese and Japanese;
Thai per base character over-counts the better one.
"""

from __future__ import annotations

import re
import unicodedata

PER_CHARACTER = (
    "\u2e80-\u2fdf"  # CJK radicals, Kangxi radicals
    "\u3000-\u303f"  # CJK symbols and punctuation (。、「」)
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u312f\u31a0-\u31bf"  # bopomofo
    "\u31f0-\u31ff"  # katakana phonetic extensions
    "\u3200-\u33ff"  # enclosed CJK letters, CJK compatibility
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\ufe30-\ufe4f"  # CJK compatibility forms
    "\uff00-\uffef"  # half-width and full-width forms (，！？)
    "\U00020000-\U0003ffff"  # CJK extensions B and later
)
"""Characters that count one token each."""

SOUTH_EAST_ASIAN = (
    "\u0e00-\u0e7f"  # Thai
    "\u0e80-\u0eff"  # Lao
    "\u1000-\u109f"  # Myanmar
    "\u1780-\u17ff\u19e0-\u19ff"  # Khmer, Khmer symbols
)
"""Scripts counted one token per base (non-combining) character."""

_UNSPACED = re.compile(f"[{PER_CHARACTER}{SOUTH_EAST_ASIAN}]")
_PIECE = re.compile(
    f"(?P<char>[{PER_CHARACTER}])|(?P<sea>[{SOUTH_EAST_ASIAN}]+)"
    f"|[^\\s{PER_CHARACTER}{SOUTH_EAST_ASIAN}]+"
)


def _combining_marks() -> str:
    """The combining marks of `SOUTH_EAST_ASIAN`, as a character class body."""
    marks = []
    for block in re.findall(r"(.)-(.)", SOUTH_EAST_ASIAN):
        for code in range(ord(block[0]), ord(block[1]) + 1):
            if unicodedata.category(chr(code)) in ("Mn", "Mc", "Me"):
                marks.append(chr(code))
    return "".join(marks)


_MARKS = re.compile(f"[{_combining_marks()}]")


def has_unspaced(text: str) -> bool:
    """Whether `text` holds any character of an unspaced script."""
    return not text.isascii() and _UNSPACED.search(text) is not None


def count_unspaced(text: str) -> int:
    """Tokens of `text` by the rules above (whitespace words elsewhere)."""
    count = 0
    for piece in _PIECE.finditer(text):
        sea = piece.group("sea")
        count += max(len(sea) - len(_MARKS.findall(sea)), 1) if sea else 1
    return count
