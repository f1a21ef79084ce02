"""Characters to words, as pdfplumber's `extract_words` groups them; reading frames.

The PDFium engine reads characters (pdfium/text.py); this module turns them into the
same `Word` values the pdfplumber engine gets from `extract_words`, by the same rules:
consecutive characters of one style (direction, size, font, marked content) form a
group; a group's characters are clustered into lines by their top (within
`LINE_TOLERANCE` points), each line sorted left to right; a word ends at a space, at a
gap wider than `DEFAULT_WORD_GAP` font sizes, where a character starts left of the one
before, or where the line jumps. Text running up or down the page is turned into its own
reading frame first, grouped the same way, and turned back; where it runs across the
page's own reading direction (a line printed up the margin), its words are kept apart in
their own frame (`make_words`' second list), for the page stages to join into whole lines.
The reading frames (`frame`) and the word gap are the pdfplumber engine's too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from ..cleanup import font_name
from ..types import Word
from .base import Across, Box

DEFAULT_WORD_GAP = 0.15
"""A gap wider than this many font sizes between two glyphs separates words. pdfplumber's
fixed 3 points glues words of tightly set text (reports whose spaces are 2.5 points wide
read `U.S.DOToverseesandadministers`); glyphs within a word sit 0–0.1 em apart."""
LINE_TOLERANCE = 3.0
"""Points two characters' tops may differ by on one line (pdfplumber's `y_tolerance`)."""
DEFAULT_DUPLICATE_TOLERANCE = 1.0
"""Words repeated within this distance (points) are one word printed twice (fake bold)."""


class Style(NamedTuple):
    """What a run of characters shares; a change of style ends a word."""

    direction: str
    """`ltr`, or `ttb`/`btt` for text running down/up the page."""
    size: float
    font: str
    """Font name as the file gives it (subset prefix included)."""
    mcid: int | None
    tag: str | None


class Char(NamedTuple):
    """One character with its box in page coordinates (points from the top left)."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float


SPACE = Char(" ", 0.0, 0.0, 0.0, 0.0)
"""A space printed in the file: it ends a word wherever it stands."""


def orientation(runs: list[tuple[Style, list[Char]]]) -> str:
    """`ltr` for ordinary pages; `ttb`/`btt` when most characters run down/up the page."""
    counts: Counter[str] = Counter()
    for style, chars in runs:
        counts[style.direction] += len(chars)
    turned = {d: n for d, n in counts.items() if d != "ltr"}
    if sum(turned.values()) * 2 <= sum(counts.values()):
        return "ltr"
    return max(turned, key=lambda d: turned[d])


def frame(direction: str, width: float, height: float) -> Callable[[Box], Box]:
    """A map from page boxes to the reading frame of text running in `direction`."""
    if direction == "ttb":
        return lambda b: (b[1], width - b[2], b[3], width - b[0])
    if direction == "btt":
        return lambda b: (height - b[3], b[0], height - b[1], b[2])
    return lambda b: b


def unframe(direction: str, width: float, height: float) -> Callable[[Box], Box]:
    """The inverse of `frame`: reading-frame boxes back to page boxes."""
    if direction == "ttb":
        return lambda b: (width - b[3], b[0], width - b[1], b[2])
    if direction == "btt":
        return lambda b: (b[1], height - b[2], b[3], height - b[0])
    return lambda b: b


def _lines(chars: list[Char]) -> list[list[Char]]:
    """Characters clustered by top (a chain of tops each within `LINE_TOLERANCE` of the
    one before), top to bottom, each line sorted left to right."""
    tops = sorted({c.top for c in chars})
    if tops[-1] - tops[0] <= LINE_TOLERANCE:  # the usual case: one line
        return [sorted(chars, key=_left)]
    cluster: dict[float, int] = {}
    index, last = 0, tops[0]
    for top in tops:
        if top > last + LINE_TOLERANCE:
            index += 1
        cluster[top] = index
        last = top
    lines: list[list[Char]] = [[] for _ in range(index + 1)]
    for char in chars:
        lines[cluster[char.top]].append(char)
    return [sorted(line, key=_left) for line in lines if line]


def _left(char: Char) -> float:
    return char.x0


def _split(line: list[Char], size: float, out: list[tuple[str, Box]]) -> None:
    """A line's characters cut into words where a gap, a step back or a jump is; each
    word's text and box added to `out`."""
    gap = DEFAULT_WORD_GAP * size
    first = line[0]
    text = [first.text]
    x0, top, x1, bottom = first.x0, first.top, first.x1, first.bottom
    last = first
    for char in line[1:]:
        if (
            char.x0 < last.x0
            or char.x0 > last.x1 + gap
            or abs(char.top - last.top) > LINE_TOLERANCE
        ):
            out.append(("".join(text), (x0, top, x1, bottom)))
            text = [char.text]
            x0, top, x1, bottom = char.x0, char.top, char.x1, char.bottom
        else:
            text.append(char.text)
            top = min(top, char.top)
            x1 = max(x1, char.x1)
            bottom = max(bottom, char.bottom)
        last = char
    out.append(("".join(text), (x0, top, x1, bottom)))


def _group_words(style: Style, chars: list[Char]) -> list[tuple[str, Box]]:
    """The words of one style group, in its reading frame: (text, box)."""
    out: list[tuple[str, Box]] = []
    piece: list[Char] = []
    for char in [*chars, SPACE]:  # spaces end words before any clustering, as pdfplumber's do
        if char is not SPACE:
            piece.append(char)
        elif piece:
            for line in _lines(piece):
                _split(line, style.size, out)
            piece = []
    return out


def _framed(chars: list[Char], to_frame: Callable[[Box], Box]) -> list[Char]:
    out = []
    for char in chars:
        if char is SPACE:
            out.append(char)
            continue
        x0, top, x1, bottom = to_frame((char.x0, char.top, char.x1, char.bottom))
        out.append(Char(char.text, x0, x1, top, bottom))
    return out


def make_words(
    runs: list[tuple[Style, list[Char]]], page_orientation: str, width: float, height: float
) -> tuple[list[Word], list[Across]]:
    """The words of a page's character runs, boxes in the page's reading frame
    (`page_orientation`), a word printed twice over itself kept once; and apart, the
    words running across the page's direction, one group per direction, each in its own
    frame (see `Across`)."""
    to_page = frame(page_orientation, width, height)
    words: list[Word] = []
    across: dict[str, list[Word]] = {}
    seen: set[tuple[str, int, int]] = set()
    for style, chars in _merged(runs):
        direction = style.direction
        own = direction != "ltr"
        chars = _framed(chars, frame(direction, width, height)) if own else chars
        back = unframe(direction, width, height)
        for text, box in _group_words(style, chars):
            x0, top, x1, bottom = to_page(back(box) if own else box)
            key = (
                text,
                round(x0 / DEFAULT_DUPLICATE_TOLERANCE),
                round(top / DEFAULT_DUPLICATE_TOLERANCE),
            )
            if key in seen:
                continue
            seen.add(key)
            if direction != page_orientation:
                x0, top, x1, bottom = box  # kept in its own frame (see `Across`)
            word = Word(text, x0, x1, top, bottom, style.size, font_name(style.font), style.mcid,
                        style.tag)  # fmt: skip
            if direction == page_orientation:
                words.append(word)
            else:
                across.setdefault(direction, []).append(word)
    return words, [
        Across(framed, _compose(unframe(direction, width, height), to_page))
        for direction, framed in across.items()
    ]


def _compose(first: Callable[[Box], Box], then: Callable[[Box], Box]) -> Callable[[Box], Box]:
    return lambda box: then(first(box))


def _merged(runs: list[tuple[Style, list[Char]]]) -> list[tuple[Style, list[Char]]]:
    """Consecutive runs of one style joined into one group (pdfplumber groups by style)."""
    out: list[tuple[Style, list[Char]]] = []
    for style, chars in runs:
        if out and out[-1][0] == style:
            out[-1][1].extend(chars)
        else:
            out.append((style, list(chars)))
    return out
