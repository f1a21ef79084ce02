"""Heading levels from numbering first, then prominence: how a reader nests headings.

Each heading is numbered in a scheme — a keyword (`Part I`, `Item 2.`, `Note 5 –`), a
dotted number (`1.2.3`, `Strategy 1.1.1`), a Roman numeral or a letter — or it is not
numbered and known by its style. Headings are read in order against a stack of the
open ones:

- a heading of a scheme or style already open is a sibling of that one;
- a keyword heading closes the open ones of its rank and below (`Part` > `Chapter` >
  `Item`/`Section`/`Article` > `Note`), a dotted one those of its depth and deeper;
  an outermost keyword (`Part`, `Appendix`, `Exhibit`) closes every open heading, so a
  styled heading before `PART I` (a filing's cautionary note) does not hold it; so does
  a heading marked `outermost` (the back matter: `SIGNATURES` and each document
  appended after it, see `typography.back_matter`);
- any heading closes unnumbered ones less prominent than itself (size, then upright,
  capitals, bold, centred), and an unnumbered heading clearly larger than an open
  numbered one closes that too;
- otherwise it opens a level below the current one.

So `PART I` > `Item 2.` > `Note 5 – Debt` > bold `Commercial Paper` > italic `Term Debt`
nest even when every one of them is bold at body size, and a typeface larger for
`ITEM` than for `PART` does not turn them round.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KEYWORD_RANKS = {
    "part": 0,
    "book": 0,
    "volume": 0,
    "appendix": 0,
    "annex": 0,
    "schedule": 0,
    "exhibit": 0,
    "chapter": 1,
    "article": 2,
    "section": 2,
    "item": 2,
    "note": 3,
}
"""Keywords that number headings, outermost first."""

DEFAULT_LARGER = 1.05
"""An unnumbered heading this much larger than an open numbered one closes it (an
exhibit's title after the last Item)."""

_KEYWORD = re.compile(
    r"^(" + "|".join(KEYWORD_RANKS) + r")\s+(\d+(?:\.\d+)*[A-Za-z]?|[IVXLC]+|[A-Z])\b", re.I
)
_DOTTED = re.compile(r"^(?:[A-Z][A-Za-z]+\s+)?(\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.)(?=\s|$)")
_ROMAN = re.compile(r"^[IVXLC]{1,5}\.\s")
_LETTER = re.compile(r"^[A-Z]\.\s")

Scheme = tuple[str, str, int]
"""(family, name, rank): ("kw", "item", 2), ("dotted", "", depth), ("roman", "", 0)."""


def numbering(text: str) -> Scheme | None:
    """The numbering scheme a heading's text starts with, if any."""
    match = _KEYWORD.match(text)
    if match:
        number = match.group(2)
        if "." in number.rstrip("."):
            return ("dotted", "", number.rstrip(".").count(".") + 1)
        keyword = match.group(1).lower()
        return ("kw", keyword, KEYWORD_RANKS[keyword])
    match = _DOTTED.match(text)
    if match:
        return ("dotted", "", match.group(1).rstrip(".").count(".") + 1)
    if _ROMAN.match(text):
        return ("roman", "", 0)
    if _LETTER.match(text):
        return ("letter", "", 0)
    return None


@dataclass(frozen=True, slots=True)
class HeadingStyle:
    """What the stack compares: the scheme, or the style of an unnumbered heading."""

    scheme: Scheme | None
    size: float
    prominence: tuple[float, bool, bool, bool, bool]
    """(size, upright, capitals, bold, centred): larger tuples stand out more."""
    outermost: bool = False
    """Opens a part of the document of its own whatever its style (see `assign_levels`)."""

    @property
    def key(self) -> object:
        return ("scheme", self.scheme) if self.scheme else ("style", self.prominence)


def _closes(new: HeadingStyle, open_: HeadingStyle) -> bool:
    """Whether `new` ends the open heading `open_` instead of going under it."""
    if new.scheme and open_.scheme:
        if new.scheme[0] != open_.scheme[0]:
            return False
        return open_.scheme[2] >= new.scheme[2]
    if open_.scheme:  # unnumbered after numbered: only a clearly larger one closes it
        return new.size > open_.size * DEFAULT_LARGER
    if new.scheme:
        return open_.prominence <= new.prominence
    return open_.prominence < new.prominence


def assign_levels(styles: list[HeadingStyle]) -> list[int]:
    """The level (1 = outermost) of each heading, in document order."""
    stack: list[HeadingStyle] = []
    levels = []
    for style in styles:
        same = next((i for i, s in enumerate(stack) if s.key == style.key), None)
        if style.outermost or (style.scheme and style.scheme[0] == "kw" and style.scheme[2] == 0):
            stack.clear()  # `PART II`, `Appendix A`, `Exhibit 31.1`: always outermost
        elif same is not None:
            del stack[same:]
        else:
            while stack and _closes(style, stack[-1]):
                stack.pop()
        stack.append(style)
        levels.append(len(stack))
    return levels
