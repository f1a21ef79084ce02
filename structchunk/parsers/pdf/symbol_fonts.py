"""Symbol and dingbat fonts read without a Unicode map: their glyphs, not their codes.

A PDF that embeds Symbol, Wingdings, Webdings or Zapf Dingbats without a `ToUnicode`
table hands the reader the font's byte codes, which read as Latin text: a Word document's
Wingdings bullets come out as `h`, `¢`, `y` or `Ê` before each item, and Symbol's `β` as
`b` (`11 b-hydroxylase`). The Symbol font has one standard encoding, so its letters and
common signs are mapped back; dingbat glyphs (bullets, arrows, check marks) have no
letters' meaning, so each becomes `•`, which the list stage reads as a bullet where it
starts a line and search ignores inside one. Fonts with a Unicode map read right already
(their glyphs come as `•`, `×` or private-use codes) and are left alone.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .types import Word

_DINGBAT_FONT = re.compile(r"^(?:wingdings|webdings|(?:itc)?zapfdingbats|dingbats)", re.I)
_SYMBOL_FONT = re.compile(r"^symbol(?:mt)?(?:$|[-,])", re.I)
"""`Symbol`, `SymbolMT`, `Symbol-Regular`, `Symbol,Bold` — not `SegoeUISymbol`, a Unicode font."""
_LATIN = re.compile(r"[\x21-\x9f\xa1-\xff]")
"""Codes a font without a Unicode map is read as (spaces aside)."""

_SYMBOL = str.maketrans(
    {
        **dict(
            zip(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖαβχδεφγηιϕκλμνοπθρστυϖωξψζ",
                strict=True,
            )
        ),
        '"': "∀",
        "$": "∃",
        "'": "∋",
        "@": "≅",
        "^": "⊥",
        "~": "∼",
        "\xa2": "′",
        "\xa3": "≤",
        "\xa5": "∞",
        "\xac": "←",
        "\xad": "↑",
        "\xae": "→",
        "\xaf": "↓",
        "\xb0": "°",
        "\xb1": "±",
        "\xb2": "″",
        "\xb3": "≥",
        "\xb4": "×",
        "\xb5": "∝",
        "\xb6": "∂",
        "\xb7": "•",
        "\xb8": "÷",
        "\xb9": "≠",
        "\xba": "≡",
        "\xbb": "≈",
        "\xbc": "…",
        "\xc6": "∅",
        "\xc7": "∩",
        "\xc8": "∪",
        "\xce": "∈",
        "\xd1": "∇",
        "\xd5": "∏",
        "\xd6": "√",
        "\xd8": "¬",
        "\xd9": "∧",
        "\xda": "∨",
        "\xdb": "⇔",
        "\xde": "⇒",
        "\xe5": "∑",
        "\xf2": "∫",
    }
)
"""Symbol's standard encoding: its letters are Greek; the signs text uses most."""


def glyph_text(word: Word) -> Word:
    """The word as its font draws it, where the font is a symbol font read without a map."""
    if _DINGBAT_FONT.match(word.font):
        text = _LATIN.sub("•", word.text)
    elif _SYMBOL_FONT.match(word.font):
        text = word.text.translate(_SYMBOL)
    else:
        return word
    return word if text == word.text else replace(word, text=text)
