"""The source side of an alignment: the text searched (an HTML page's visible text) and
its words, split and lower-cased a segment at a time as windows need them."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from html import unescape
from itertools import accumulate, islice, repeat

Span = tuple[int, int]

IDEOGRAPHS = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\U00020000-\U0003ffff"  # CJK extensions B and later
)
"""Letters that are words on their own: Chinese and Japanese have no spaces, so a run of
them would be one "word" as long as a paragraph, and a chunk that starts inside a
paragraph would find no whole word to anchor on (as tokenizers/scripts.py counts them)."""
WORD = re.compile(f"[{IDEOGRAPHS}]|[^\\W_{IDEOGRAPHS}]+")
"""Letters and digits: `_emphasis_` and `snake_case` are words between underscores; each
ideograph or kana is one word."""
_WORD_AND_GAP = re.compile(f"([{IDEOGRAPHS}]|[^\\W_{IDEOGRAPHS}]+)")
"""`WORD` as a group: splitting on it gives gap, word, gap, word, …, gap."""
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});", re.IGNORECASE)
"""A character reference (`&eacute;`, `&#233;`): one character of the page's text."""
_RUNS_TO_ITS_END = (
    r"!--[^-]*(?:-(?!->)[^-]*)*(?:-->|\Z)"
    r"|script\b[^<]*(?:<(?!/script\s*>)[^<]*)*(?:</script\s*>|\Z)"
    r"|style\b[^<]*(?:<(?!/style\s*>)[^<]*)*(?:</style\s*>|\Z)"
)
"""A comment, a script, a style after its `<`: up to its end, or the end of the text.
Written as loops over what cannot end them (`[^<]*`), not as lazy `.*?`, which tried
the end at every character of a page's inline scripts: three times slower."""
_MARKS = re.compile(rf"(<(?:{_RUNS_TO_ITS_END}|[^>]*>)\s*|{_REFERENCE.pattern})", re.IGNORECASE)
"""What a page shows no words of (a comment, a script, a style, a tag, each with the
blanks after it), or shows as one character (a reference), as one group for `split`."""
_MARKS_WITHOUT_TAGS = re.compile(
    rf"(<(?:{_RUNS_TO_ITS_END})\s*|{_REFERENCE.pattern})", re.IGNORECASE
)
"""`_MARKS` without tags: for text with no `>` in it, where no tag can end."""
_BLANKS = re.compile(r"\s*")
_RENDERING = re.compile(r"^[ \t]*(?:(?:`{3,}|~{3,})[^\n]*$|(?:[-*+]|\d+[.)])[ \t]+)", re.MULTILINE)
"""What the packer writes around a block, not the source: code fences (with their
language) and list markers (an HTML `<ol>` has no numbers in its text)."""


def body_words(body: str) -> list[str]:
    """The words of a chunk body that come from its source, fences and markers left out."""
    return WORD.findall(_RENDERING.sub(" ", body))


def lowered_words(body: str) -> list[str]:
    """`body_words`, each lower-cased as the source's are (split as written, then
    lower-cased: `İ` lower-cases to two characters, the second not a letter)."""
    lowered = body.lower()
    if len(lowered) == len(body):
        return body_words(lowered)
    return [word.lower() for word in body_words(body)]


PAGE_STEP = 1 << 20
"""Page characters split into parts at a time (cut before a `<`)."""


def _split_from(page: str, at: int) -> tuple[int, list[str]]:
    """Where the next slice of the page from `at` ends, and its parts (text, mark, …).
    A slice is cut before a `<` and kept up to its last mark that is closed: what
    follows may be read otherwise with the rest of the page (a `<` whose `>` comes
    later, a comment or a script the cut stopped); a slice without one is made longer."""
    step = PAGE_STEP
    while True:
        end = page.find("<", at + step) if at + step < len(page) else -1
        end = len(page) if end == -1 else end
        parts = _split(page[at:end])
        if end == len(page):
            return end, parts
        for last in range(len(parts) - 2, 0, -2):
            if _is_closed(parts[last]):
                kept = parts[: last + 1]
                return at + sum(map(len, kept)), kept
        step *= 2


def _split(text: str) -> list[str]:
    """`_MARKS.split(text)`, in time linear in the text. After the last `>` no tag can
    end, yet the regex would look for one from every `<` there to the end of the text:
    a page of `a < b` comparisons and no `>` took minutes a megabyte. So the text after
    it is split without the tag pattern — unless an open comment, script or style runs
    on into it, which one match takes to the end anyway."""
    last = text.rfind(">") + 1
    last = _BLANKS.match(text, last).end()  # type: ignore[union-attr]  # always matches
    if last == len(text):
        return _MARKS.split(text)
    head = _MARKS.split(text[:last])
    if len(head) > 1 and not head[-1] and not _is_closed(head[-2]):
        return _MARKS.split(text)
    tail = _MARKS_WITHOUT_TAGS.split(text[last:])
    head[-1] += tail[0]
    head += tail[1:]
    return head


_OPEN_ENDED = re.compile(r"<(?:(!--)|(script)\b|(style)\b)", re.IGNORECASE)
_CLOSING = {
    1: re.compile(r"-->\s*\Z"),
    2: re.compile(r"</script\s*>\s*\Z", re.IGNORECASE),
    3: re.compile(r"</style\s*>\s*\Z", re.IGNORECASE),
}


def _is_closed(mark: str) -> bool:
    """Whether a mark ends with a `>` where it would in the whole page: a tag always
    does; a comment, a script or a style when its end is in it (the slice's end stops
    one that goes on). Not a reference: a `<` before it may close after it (`<&amp;>`)."""
    if mark[0] == "&":
        return False
    opening = _OPEN_ENDED.match(mark)
    if opening is None:
        return True
    return _CLOSING[opening.lastindex or 0].search(mark, opening.end()) is not None


def _extend_running(starts: array[int], lengths: Iterable[int]) -> None:
    """Append to `starts` where each of the parts of `lengths` ends, from its last entry."""
    starts.extend(islice(accumulate(lengths, initial=starts[-1]), 1, None))


def _character(written: str) -> str:
    """The character a reference stands for (as written when it stands for none)."""
    character = unescape(written)
    return character if len(character) <= len(written) else written


class VisibleText:
    """An HTML page's text as the aligner reads it: every tag, comment, script and style,
    with the blanks after it, one blank, each character reference its character; and the
    way back from its offsets to the page's. On the corpus pages that is a tenth of the
    page (markup is seven characters in ten, indentation most of the rest), so the
    aligner splits, lower-cases and searches a tenth of what a page-long copy with the
    markup blanked held."""

    __slots__ = ("page_starts", "starts", "text")

    def __init__(self, page: str) -> None:
        self.starts = array("q", [0])
        """Where each part (a text or a mark) starts in `text`, and where `text` ends."""
        self.page_starts = array("q", [0])
        """Where each part starts in the page, and where the page ends."""
        pieces: list[str] = []
        at = 0
        while at < len(page):  # a slice at a time: the parts of a whole page were 2x it
            end, parts = _split_from(page, at)
            page_lengths = list(map(len, parts))
            characters = {ref: _character(ref) for ref in set(_REFERENCE.findall(page, at, end))}
            marks = parts[1::2]
            parts[1::2] = map(characters.get, marks, repeat(" ", len(marks)))  # no call a mark
            _extend_running(self.starts, map(len, parts))
            _extend_running(self.page_starts, page_lengths)
            pieces.append("".join(parts))
            at = end
        self.text = "".join(pieces)

    def page_span(self, start: int, end: int) -> Span:
        """The page's characters for `text[start:end]`: a word made of a character
        reference begins at its `&` and ends after its `;`."""
        starts, page_starts = self.starts, self.page_starts
        first = bisect_right(starts, start) - 1
        last = bisect_right(starts, end - 1) - 1
        if self._same_length(first):
            page_start = page_starts[first] + start - starts[first]
        else:
            page_start = page_starts[first]
        if self._same_length(last):
            page_end = page_starts[last] + end - starts[last]
        else:
            page_end = page_starts[last + 1]
        return page_start, page_end

    def _same_length(self, part: int) -> bool:
        """Whether part `part` is the page's characters one for one (text, or a mark
        written as it stands)."""
        return (
            self.starts[part + 1] - self.starts[part]
            == self.page_starts[part + 1] - self.page_starts[part]
        )


def only_markup_between(text: str, start: int, end: int) -> bool:
    return WORD.search(text, start, end) is None


_IDEOGRAPH = re.compile(f"[{IDEOGRAPHS}]")


def is_ideograph(word: str) -> bool:
    """Whether `word` is one ideograph or kana (a word on its own)."""
    return len(word) == 1 and _IDEOGRAPH.match(word) is not None


def is_word_char(char: str) -> bool:
    """Whether `char` would continue a word it touches (an ideograph is a word alone)."""
    return char.isalnum() and _IDEOGRAPH.match(char) is None


SEGMENT_CHARS = 1 << 16
"""Source characters split into words at a time. A window (a chunk's lines, or some
thousand words from where the previous chunk began) takes the words of the segments it
covers, so text that several windows cover is split once."""
KEPT_WORDS = 1 << 15
"""Words kept in split segments for later windows (about 4 MB; a window is at most some
thousand words): chunks come in document order, so the earliest segments are dropped
first, and a dropped one is split again if asked for. Counted in words, not segments, so
sparse text (few words a segment) stays split while dense prose does not
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

    def then(self, other: Window) -> Window:
        """This window's words followed by `other`'s (a split table's header, printed
        once above the table, then the rows of the chunk's own lines)."""
        return Window(self.words + other.words, self.starts + other.starts, self.ends + other.ends)


_Segment = tuple[list[str], list[int], list[int]]


class SourceWords:
    """The words of a source text, lower-cased, as windows: `window(first, limit, stop)`
    gives what `WORD.finditer(text, first, stop)` would, up to `limit` words (a word cut
    by `first` or `stop` as its part inside), from segments split once each. Each
    segment is lower-cased as it is split, so no lower-cased copy of the whole text is
    held (for a text Python holds at 4 bytes a character, 3.8 times its UTF-8 size).

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
            high = min(bisect_left(seg_starts, stop), low + limit - len(words))
            if low < high:  # no more than the window still takes: not the segment's rest
                part_words = seg_words[low:high]
                part_starts = seg_starts[low:high]
                part_ends = seg_ends[low:high]
                if part_starts[0] < first:  # cut by `first`: its part from there
                    part_words[0] = text[first : part_ends[0]].lower()
                    part_starts[0] = first
                if part_ends[-1] > stop:  # cut by `stop`: its part before
                    part_words[-1] = text[part_starts[-1] : stop].lower()
                    part_ends[-1] = stop
                words += part_words
                starts += part_starts
                ends += part_ends
            index += 1
            if self._boundary(index) >= stop:
                break
        return Window(words, starts, ends)

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
            written = self.text[start:end]
            lowered = written.lower()
            if len(lowered) == len(written):
                pieces = _WORD_AND_GAP.split(lowered)
                words = pieces[1::2]
            else:  # `İ` lower-cases longer: places from the words as written
                pieces = _WORD_AND_GAP.split(written)
                words = [word.lower() for word in pieces[1::2]]
            bounds = list(accumulate(map(len, pieces), initial=start))
            found = (words, bounds[1:-1:2], bounds[2::2])
            while self._segments and self._held + len(found[0]) > KEPT_WORDS:
                self._held -= len(self._segments.pop(min(self._segments))[0])
            self._segments[index] = found
            self._held += len(found[0])
        return found
