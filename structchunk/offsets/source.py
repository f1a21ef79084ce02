"""The source side of an alignment: the text as compared (HTML masked, lower-cased) and
its words, split a segment at a time as windows need them."""

from __future__ import annotations

import re
from bisect import bisect_left
from html import unescape
from itertools import accumulate

Span = tuple[int, int]

WORD = re.compile(r"[^\W_]+")
"""Letters and digits: `_emphasis_` and `snake_case` are words between underscores."""
_WORD_AND_GAP = re.compile(r"([^\W_]+)")
"""`WORD` as a group: splitting on it gives gap, word, gap, word, …, gap."""
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});", re.IGNORECASE)
"""An HTML character reference (`&eacute;`, `&#233;`)."""
_MARKUP = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style)\b.*?(?:</\1\s*>|\Z)|<[^>]*>",
    re.IGNORECASE | re.DOTALL,
)
_RENDERING = re.compile(r"^[ \t]*(?:(?:`{3,}|~{3,})[^\n]*$|(?:[-*+]|\d+[.)])[ \t]+)", re.MULTILINE)
"""What the packer writes around a block, not the source: code fences (with their
language) and list markers (an HTML `<ol>` has no numbers in its text)."""


def body_words(body: str) -> list[str]:
    """The words of a chunk body that come from its source, fences and markers left out."""
    return WORD.findall(_RENDERING.sub(" ", body))


def masked(text: str) -> tuple[str, list[Span]]:
    """The HTML with every tag, comment, script and style blanked, and each character
    reference read as its character followed by blanks (same length, so every offset
    holds), with the places of those references."""
    text = _MARKUP.sub(lambda match: " " * (match.end() - match.start()), text)
    references: list[Span] = []

    def read(match: re.Match[str]) -> str:
        written = match.group()
        character = unescape(written)
        if len(character) > len(written):  # never so for real references
            return written
        references.append(match.span())
        return character + " " * (len(written) - len(character))

    return _REFERENCE.sub(read, text), references


LOWER_STEP = 1 << 20
"""Characters lower-cased at a time: `str.lower` sets aside three times its input for
the longest case mappings, which on a long text of 4-byte characters (one emoji makes
the whole string so) was 130 MB for an 11 MB Markdown file."""


def lower_in_steps(text: str) -> str | None:
    """`text` lower-cased, or None when that would change its length (`İ`), so that
    offsets into the lower-cased text would not be offsets into the text."""
    parts = [text[at : at + LOWER_STEP].lower() for at in range(0, len(text), LOWER_STEP)]
    lowered = parts[0] if len(parts) == 1 else "".join(parts)
    return lowered if len(lowered) == len(text) else None


def only_markup_between(text: str, start: int, end: int) -> bool:
    return WORD.search(text, start, end) is None


def is_word_char(char: str) -> bool:
    return char.isalnum()


SEGMENT_CHARS = 1 << 16
"""Source characters split into words at a time. A window (a chunk's lines, or some
thousand words from where the previous chunk began) takes the words of the segments it
covers, so text that several windows cover is split once."""
KEPT_WORDS = 1 << 15
"""Words kept in split segments for later windows (about 4 MB; a window is at most some
thousand words): chunks come in document order, so the earliest segments are dropped
first, and a dropped one is split again if asked for. Counted in words, not segments, so
a page's blanked markup (few words a segment) stays split while dense prose does not
hold megabytes of small strings: 64 dense segments were 90 MB of an 11.5 MB Markdown
file's peak; the corpus aligns as fast with 32 768 words kept as with 131 072."""


class Window:
    """Consecutive source words as compared, and where each stands in the source."""

    __slots__ = ("ends", "starts", "words")

    def __init__(self, words: list[str], starts: list[int], ends: list[int]) -> None:
        self.words, self.starts, self.ends = words, starts, ends

    def span(self, at: int, to: int) -> Span:
        """The characters of words `at` to `to - 1`."""
        return self.starts[at], self.ends[to - 1]


_Segment = tuple[list[str], list[int], list[int]]


class SourceWords:
    """The words of a source text, as windows: `window(first, limit, stop)` gives what
    `WORD.finditer(text, first, stop)` would, up to `limit` words (a word cut by
    `first` or `stop` as its part inside), from segments split once each.

    A segment is split on the word pattern (gap, word, gap, …) in C and its words'
    places come from the running sum of the pieces' lengths, so no match object is
    made per word."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._segments: dict[int, _Segment] = {}
        self._held = 0
        """Words the kept segments hold."""

    def window(self, first: int, limit: int, stop: int) -> Window:
        text = self.text
        stop = min(stop, len(text))
        words: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        index = first // SEGMENT_CHARS
        while index and first < self._boundary(index):
            index -= 1  # `first` is inside a word an earlier segment holds
        while len(words) < limit and first < stop:
            seg_words, seg_starts, seg_ends = self._segment(index)
            low = bisect_left(seg_ends, first + 1)
            high = bisect_left(seg_starts, stop)
            if low < high:
                part_words = seg_words[low:high]
                part_starts = seg_starts[low:high]
                part_ends = seg_ends[low:high]
                if part_starts[0] < first:  # cut by `first`: its part from there
                    part_words[0] = text[first : part_ends[0]]
                    part_starts[0] = first
                if part_ends[-1] > stop:  # cut by `stop`: its part before
                    part_words[-1] = text[part_starts[-1] : stop]
                    part_ends[-1] = stop
                words += part_words
                starts += part_starts
                ends += part_ends
            index += 1
            if self._boundary(index) >= stop:
                break
        return Window(words[:limit], starts[:limit], ends[:limit])

    def _boundary(self, index: int) -> int:
        """Where segment `index` starts: on a multiple of `SEGMENT_CHARS`, moved past a
        word that stands across it."""
        text = self.text
        at = index * SEGMENT_CHARS
        if at <= 0 or at >= len(text):
            return max(0, min(at, len(text)))
        if WORD.match(text, at - 1) is not None:
            inside = WORD.match(text, at)
            if inside is not None:
                at = inside.end()
        return at

    def _segment(self, index: int) -> _Segment:
        found = self._segments.get(index)
        if found is None:
            start, end = self._boundary(index), self._boundary(index + 1)
            pieces = _WORD_AND_GAP.split(self.text[start:end])
            bounds = list(accumulate(map(len, pieces), initial=start))
            found = (pieces[1::2], bounds[1:-1:2], bounds[2::2])
            while self._segments and self._held + len(found[0]) > KEPT_WORDS:
                self._held -= len(self._segments.pop(min(self._segments))[0])
            self._segments[index] = found
            self._held += len(found[0])
        return found
