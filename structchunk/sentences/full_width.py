"""Sentence ends in Chinese and Japanese: full-width stops, which need no space after them.

Punkt only looks at `.`, `?` and `!` followed by whitespace; Chinese and Japanese end a
sentence with `。`, `！` or `？` and start the next one at once. `full_width_stops` adds
a cut after each such stop (and the closing brackets or quotes after it), except where a
Japanese quotation goes on: `「明日行きます。」と言った。` is one sentence, since the
hiragana particle after the closing bracket continues it.
"""

from __future__ import annotations

import re
from collections.abc import Collection

FULL_WIDTH_STOPS = "。！？｡"
CJK_CLOSERS = "」』）】〉》〕”’"
_STOP = re.compile(f"[{FULL_WIDTH_STOPS}]+[{CJK_CLOSERS}]*")
_NON_SPACE = re.compile(r"\S")
_HIRAGANA = re.compile("[\u3041-\u309f]")
_ENDS = re.compile(f"[{FULL_WIDTH_STOPS}][{CJK_CLOSERS}]*$")

CJK_QUOTES = (
    ("「", re.compile("「[^「」]{1,300}」")),
    ("『", re.compile("『[^『』]{1,300}』")),
    ("《", re.compile("《[^《》]{1,300}》")),
)
"""Japanese quotation brackets and Chinese title marks (`《摔跤吧！爸爸》`), as the
post-pass's `_ENCLOSURES` take them: no cut inside one."""


def full_width_stops(text: str, cuts: list[int], starters: Collection[str]) -> list[int]:
    """`cuts` and a cut after each full-width stop that ends a sentence."""
    if text.isascii():
        return cuts
    added = []
    for stop in _STOP.finditer(text):
        after = _NON_SPACE.search(text, stop.end())
        if after is None:
            continue
        quoted = stop.group()[-1] in CJK_CLOSERS
        if quoted and after.start() == stop.end() and _HIRAGANA.match(text, after.start()):
            continue
        added.append(after.start())
    if not added:
        return cuts
    return sorted(set(cuts).union(added))


def ends_sentence(text: str) -> bool:
    """Whether `text` ends with a full-width stop (and closers): a boundary right after
    it needs no whitespace."""
    return _ENDS.search(text[-16:]) is not None
