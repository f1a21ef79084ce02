"""Sentence boundaries in languages other than English: sentencex's rules.

The bundled Punkt parameters are English. For other languages the segmenter takes its
candidate boundaries from sentencex (Wikimedia, MIT, rules and abbreviation lists for
~300 languages, compiled, offline) and then runs the same post-pass; docs/sentences.md
has the measurement behind the choice.
"""

from __future__ import annotations

import re
from collections.abc import Collection

ENGLISH = "en"
SENTENCEX_MODEL = "sentencex"


def sentencex_cuts(language: str, text: str) -> list[int]:
    """Where sentencex starts each sentence of `text` after the first (character offsets),
    each moved onto the first non-space character, as the post-pass takes cuts."""
    from sentencex import get_sentence_boundaries

    first = _NON_SPACE.search(text)
    if first is None:
        return []
    cuts = set()
    for boundary in get_sentence_boundaries(language, text):
        found = _NON_SPACE.search(text, boundary["start_index"])
        if found is not None and found.start() > first.start():
            cuts.add(found.start())
    return sorted(cuts)


TITLES = frozenset(
    (
        "m", "mm", "mme", "mlle", "sr", "sra", "srta", "sres", "dra", "dhr", "mevr", "hr",
        "sig", "sigg", "dott", "ing", "v",
    )
)  # fmt: skip
"""Abbreviations that stand before a name in French, Spanish, Portuguese, Italian, Dutch
and German (`M. Dupont`, `Dra. Costa`, `Dhr. Jansen`, `V. Exa.`); the English ones are
in rules.TITLES. sentencex cuts after some of them."""

MONTHS = frozenset(
    (
        "jan", "feb", "febr", "mär", "märz", "apr", "mai", "jun", "jul", "aug", "sep", "sept",
        "okt", "nov", "dez", "januar", "februar", "april", "juni", "juli", "august",
        "september", "oktober", "november", "dezember",
    )
)  # fmt: skip
"""German month names and abbreviations: `am 3. Okt. 2023` has an ordinal, not a stop."""

_NON_SPACE = re.compile(r"\S")
_SHORT_LOWER = re.compile(r"(?<!\w)[^\W\d_]{1,4}\.$")
_ORDINAL = re.compile(r"(?<![\d.])\d{1,2}\.$")


def european_abbreviations(text: str, cuts: list[int], starters: Collection[str]) -> list[int]:
    """No cut after a period where the next word shows the sentence goes on: before a
    lower-case word (`etc. para`, `o.a. hoofdstuk`), after a short lower-case
    abbreviation before a number (`pág. 12`, `гл. 3`), after a title (`M. Dupont`), and
    between a day and its month (`3. Okt.`)."""
    out = []
    for cut in cuts:
        before = text[max(0, cut - 40) : cut].rstrip()
        if before.endswith(".") and _continues(before, text[cut:]):
            continue
        out.append(cut)
    return out


def _continues(before: str, after: str) -> bool:
    word = before.rsplit(None, 1)[-1]
    bare = word.rstrip(".").lstrip("(\"'“‘«").lower()
    nxt = after.split(None, 1)[0] if after.strip() else ""
    if not nxt:
        return False
    if nxt[0].islower():
        return True
    if bare in TITLES and nxt[0].isupper():
        return True
    if nxt[0].isdigit() and _SHORT_LOWER.search(word) and word[0].islower():
        return True
    return bool(_ORDINAL.search(word)) and nxt.rstrip(".").lower() in MONTHS
