"""Where a chunk's words are in its source: character spans in the decoded source text.

A chunk body is rendered text (soft line breaks joined, markup dropped, tables drawn as
pipes, a split table's header repeated), so its offsets are found, not carried: the
body's words are aligned, in order, with the words of the source text, as the
document's chunks come out of the packer (walked in step, picking up again where the
next body words stand together, inside the source lines the chunk covers; a run of body words spelt
differently in the source — `` `g`reater `` read as `greater` — takes the source words
between the runs around it). Consecutive source words make
one span; the body skipping source words (a link target, a table's rows before a
repeated header, a tooltip's text) starts another. Each chunk is anchored
where its first words appear together: within its own source lines when the parser
knows them (Markdown, text), else from where the previous chunk began (overlap and a
split table's repeated header look back that far, never further).

Offsets count code points of the text `decoded_source` returns (BOM removed, newlines
as `\\n`): `source_text[start:end]`. HTML tags, comments, scripts and styles are never
matched; words compare without case, and an HTML word written with character references
(`caf&eacute;`) as the characters they stand for. A word the parser wrote (an
admonition's label, a figure's "Image:") has no match and leaves a gap.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from html import unescape
from itertools import accumulate, islice

from .document import Box, Document

_WORD = re.compile(r"[^\W_]+")
"""Letters and digits: `_emphasis_` and `snake_case` are words between underscores."""
_WORD_AND_GAP = re.compile(r"([^\W_]+)")
"""`_WORD` as a group: splitting on it gives gap, word, gap, word, …, gap."""
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});", re.IGNORECASE)
"""An HTML character reference (`&eacute;`, `&#233;`)."""
_MARKUP = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style)\b.*?(?:</\1\s*>|\Z)|<[^>]*>",
    re.IGNORECASE | re.DOTALL,
)
_RENDERING = re.compile(r"^[ \t]*(?:(?:`{3,}|~{3,})[^\n]*$|(?:[-*+]|\d+[.)])[ \t]+)", re.MULTILINE)
"""What the packer writes around a block, not the source: code fences (with their
language) and list markers (an HTML `<ol>` has no numbers in its text)."""
ANCHOR_WORDS = 4
"""Words that must follow one another in the source to anchor a chunk's start."""
MAX_ANCHOR_TRIES = 200
"""Occurrences of a chunk's first word tried before settling for the first one."""
WINDOW_SLACK = 100
"""Source words beyond one and a half times the body's that an anchored HTML or PDF
chunk is aligned within first."""
SEARCH_FACTOR = 20
SEARCH_SLACK = 5000
"""A chunk whose first words never stand together is looked for among this many source
words per body word, and this many more, from the search start (a page's navigation
and asides between its sections)."""

Span = tuple[int, int]


class Window:
    """Consecutive source words as compared, and where each stands in the source.

    Built by splitting on the word pattern (gap, word, gap, …, gap) and summing the
    pieces' lengths, all in C: the words are every other piece and word `k` spans
    `bounds[2k + 1]:bounds[2k + 2]`."""

    __slots__ = ("bounds", "words")

    def __init__(self, text: str, first: int, end: int) -> None:
        pieces = _WORD_AND_GAP.split(text[first:end])
        self.words: list[str] = pieces[1::2]
        self.bounds = list(accumulate(map(len, pieces), initial=first))

    def span(self, at: int, to: int) -> Span:
        """The characters of words `at` to `to - 1`."""
        return self.bounds[2 * at + 1], self.bounds[2 * to]


def body_words(body: str) -> list[str]:
    """The words of a chunk body that come from its source, fences and markers left out."""
    return _WORD.findall(_RENDERING.sub(" ", body))


def masked(text: str) -> tuple[str, list[Span]]:
    """The HTML with every tag, comment, script and style blanked, and each character
    reference read as its character followed by blanks (same length, so every offset
    holds), with the places of those references."""
    text = _MARKUP.sub(lambda match: " " * len(match.group()), text)
    references: list[Span] = []

    def read(match: re.Match[str]) -> str:
        written = match.group()
        character = unescape(written)
        if len(character) > len(written):  # never so for real references
            return written
        references.append(match.span())
        return character + " " * (len(written) - len(character))

    return _REFERENCE.sub(read, text), references


class Aligner:
    """Offsets (or a PDF's boxes) of one document's chunks, given in document order."""

    @classmethod
    def of(cls, document: Document) -> Aligner:
        return cls(document.source_text, document.format == "html", document.source_boxes)

    def __init__(
        self, source_text: str, html: bool = False, boxes: list[tuple[int, Box]] | None = None
    ) -> None:
        self.boxes = boxes or []
        """PDF: where each line starts in `source_text`, and its box."""
        self.pages: dict[int, Span] = {}
        """PDF: the characters of each page's lines."""
        for at, (start, box) in enumerate(self.boxes):
            end = self.boxes[at + 1][0] if at + 1 < len(self.boxes) else len(source_text)
            first = self.pages.get(box[0], (start, end))[0]
            self.pages[box[0]] = (first, end)
        text, self.references = masked(source_text) if html else (source_text, [])
        lowered = _lower_in_steps(text)
        self.text = lowered if lowered is not None else text
        """Searched lower-cased (a parser's `Tip` for an admonition's `tip`) when that
        keeps every offset."""
        self.folded = lowered is not None
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source_text)]
        self.start = 0
        """Where the previous chunk began: no later chunk starts before it."""

    def place(
        self, body: str, lines: tuple[int, int] | None, pages: tuple[int, ...] = ()
    ) -> tuple[list[Span], list[Box]]:
        """The chunk's offsets, or for a PDF its boxes (and no offsets: the text they
        would index is the reader's, not the file's). The chunk's `lines` (Markdown,
        text) or `pages` (PDF) bound where its words are looked for."""
        if not self.boxes:
            return self.spans(body, self._line_range(lines)), []
        return [], boxes_of(self.spans(body, self._page_range(pages)), self.boxes)

    def _line_range(self, lines: tuple[int, int] | None) -> Span | None:
        """The characters of source lines `lines` (1-based, inclusive)."""
        if lines is None or not 1 <= lines[0] <= len(self.line_starts):
            return None
        stop = self.line_starts[lines[1]] if lines[1] < len(self.line_starts) else len(self.text)
        return self.line_starts[lines[0] - 1], stop

    def _page_range(self, pages: tuple[int, ...]) -> Span | None:
        """The characters of the lines printed on `pages`, first to last."""
        if not pages or min(pages) not in self.pages or max(pages) not in self.pages:
            return None
        return self.pages[min(pages)][0], self.pages[max(pages)][1]

    def spans(self, body: str, bounds: Span | None = None) -> list[Span]:
        """The body's spans; `bounds`, the characters its lines or pages cover when the
        parser knows them, bound the search."""
        words = body_words(body.lower() if self.folded else body)
        if not words:
            return []
        begin, stop = bounds if bounds is not None else (self.start, len(self.text))
        first = self._anchor(words, max(begin, self.start), stop)
        search = SEARCH_FACTOR * len(words) + SEARCH_SLACK
        if bounds is not None:  # the chunk's own lines bound it; a split table's header
            anchored = [] if first is None else [first]
            starts = [*anchored, max(begin, self.start), min(begin, self.start)]
            # bounded too: one long line holds every chunk of a one-line document
            window, runs = self._align(words, [(at, search, stop) for at in starts])
        else:  # near its first words, else among the words from the previous chunk on
            near = [] if first is None else [(first, len(words) * 3 // 2 + WINDOW_SLACK, stop)]
            window, runs = self._align(words, [*near, (self.start, search, stop)])
        spans: list[Span] = []
        for at, to in runs:
            start, end = window.span(at, to)
            if spans and _only_markup_between(self.text, spans[-1][1], start):
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
        if spans:
            self.start = min(spans[0][0], first if first is not None else spans[0][0])
        if self.references:
            spans = [self._whole_references(span) for span in spans]
        return spans

    def _align(
        self, words: list[str], tries: list[tuple[int, int, int]]
    ) -> tuple[Window, list[tuple[int, int]]]:
        """The first window `(first, limit, stop)` of `tries` that holds the most body
        words, and the ranges of it the body's words come from."""
        best: tuple[Window, _Walk] | None = None
        for first, limit, stop in dict.fromkeys(tries):
            window = self._window(first, limit, stop)
            walk = _Walk(words, window.words)
            if best is None or walk.matched > best[1].matched:
                best = (window, walk)
            if walk.matched == len(words):
                break
        assert best is not None
        return best[0], best[1].found

    def _window(self, first: int, limit: int, stop: int) -> Window:
        """Up to `limit` source words from `first`, none past `stop`."""
        end = stop
        if limit < (stop - first) // 2:  # room for more words than `limit`: find the last
            last = list(islice(_WORD.finditer(self.text, first, stop), limit - 1, limit))
            end = last[0].end() if last else stop
        return Window(self.text, first, end)

    def _whole_references(self, span: Span) -> Span:
        """`span` widened to the end of a character reference its last word ends in."""
        start, end = span
        at = bisect_right(self.references, (end, len(self.text))) - 1
        if at >= 0 and self.references[at][0] < end < self.references[at][1]:
            end = self.references[at][1]
        return start, end

    def _anchor(self, words: list[str], begin: int, stop: int) -> int | None:
        """Where the chunk starts: the first place in `begin:stop` where its first words
        stand together, else such a place from the previous chunk's start (a split
        table's header, printed once above its rows); None when they never do (inline
        markup inside them, or text the parser wrote). Its first `SURE_RUN` words are
        tried before its first `ANCHOR_WORDS`, so two paragraphs opening alike ("When
        you're compiling in debug mode", "… in release mode") are told apart."""
        for head in dict.fromkeys((tuple(words[:SURE_RUN]), tuple(words[:ANCHOR_WORDS]))):
            for start in dict.fromkeys((begin, min(begin, self.start))):
                candidate = self._find(head[0], start, stop)
                for _ in range(MAX_ANCHOR_TRIES):
                    if candidate is None:
                        break
                    if self._follows(candidate, head):
                        return candidate
                    candidate = self._find(head[0], candidate + 1, stop)
        return None

    def _follows(self, at: int, words: tuple[str, ...]) -> bool:
        position = at
        for word in words:
            match = _WORD.search(self.text, position)
            if match is None or match.group() != word:
                return False
            position = match.end()
        return True

    def _find(self, word: str, start: int, stop: int) -> int | None:
        """The next occurrence of `word` as a whole word in `text[start:stop]`."""
        text = self.text
        position = text.find(word, start, stop)
        while position != -1:
            end = position + len(word)
            before = position > 0 and _is_word_char(text[position - 1])
            after = end < len(text) and _is_word_char(text[end])
            if not before and not after:
                return position
            position = text.find(word, position + 1, stop)
        return None


RESUME_WORDS = 3
"""Body words that must stand together for the walk to pick up far ahead in the source."""
NEAR = 16
"""Source words within which fewer agreeing words will do (`[Overview](#overview)` list
items: a word or two, then a link target's words)."""
SURE_RUN = 8
"""Words compared to tell places apart (`does to the key` ends every row of a table; the
row's first words say which)."""
MAX_SKIP = 24
MAX_PLACES = 24
"""Body words, and places of each in the source, tried where the walk picks up."""


class _Walk:
    """Body words aligned with source words in order, in bounded time. Words that follow
    one another in both are walked in step; where they part, the walk picks up at the
    longest agreeing run among the next few body words and their next few places (the
    nearest of equally long ones), and the gap it jumped is aligned the same way, so a
    repeated table header before its rows is found as well as the rows. Unlike a general
    diff, a repetitive or hostile page costs time linear in the chunk."""

    def __init__(self, words: list[str], source: list[str]) -> None:
        self.words, self.source = words, source
        self._places: dict[str, tuple[list[int], int]] = {}
        self.matched = 0
        """Body words found in the source (not counting words spelt otherwise)."""
        self.found: list[tuple[int, int]] = []
        """The ranges of `source` the body's words come from, in order."""
        self._align(0, len(words), 0, len(source), False, self.found)

    def _align(
        self, i: int, i_end: int, j: int, j_end: int, closed: bool, found: list[tuple[int, int]]
    ) -> None:
        """Align `words[i:i_end]` with `source[j:j_end]` into `found`; `closed` when both
        ends are known to agree (a gap between two runs), so any agreeing word counts."""
        words, source = self.words, self.source
        while i < i_end and j < j_end:
            run_from = j
            while i < i_end and j < j_end and words[i] == source[j]:
                i, j = i + 1, j + 1
            if j > run_from:
                found.append((run_from, j))
                self.matched += j - run_from
            if i >= i_end or j >= j_end:
                return
            place = self._resume(i, i_end, j, j_end, closed)
            if place is None and closed:  # the gap's end agrees: what is left is between
                place = (i_end, j_end)
            elif place is None:
                i += MAX_SKIP  # words only the body has (a label the parser wrote)
                continue
            next_i, next_j = place
            if next_i > i and next_j > j:
                before = len(found)
                if place != (i_end, j_end):
                    self._align(i, next_i, j, next_j, True, found)
                if len(found) == before and found and next_j - j <= 4 * (next_i - i) + 4:
                    found.append((j, next_j))  # the same words spelt otherwise (`g`reater)
            i, j = next_i, next_j

    def places(self, word: str, j: int, j_end: int) -> list[int]:
        """Where `word` stands in the source from `j`, up to `MAX_PLACES` places before
        `j_end` (and possibly more after). Found with `list.index`, in C, and kept with
        how far the source was searched for it, so each word's search goes over the
        source once per walk however often it is asked (most chunks walk in step to
        their end and never ask)."""
        found, searched = self._places.get(word, ([], 0))
        first = bisect_left(found, j)
        while len(found) - first < MAX_PLACES and searched < j_end:
            try:
                at = self.source.index(word, searched, j_end)
            except ValueError:
                searched = j_end
                break
            found.append(at)
            searched = at + 1
            if at < j:
                first += 1
        self._places[word] = (found, searched)
        return found[first : first + MAX_PLACES]

    def _resume(
        self, i: int, i_end: int, j: int, j_end: int, closed: bool
    ) -> tuple[int, int] | None:
        """The `(body, source)` place the walk picks up at, or None."""
        best: tuple[int, int] | None = None
        best_key = (0, 0, 0)  # (-run, body words skipped, source words skipped)
        for at_body in range(i, min(i + MAX_SKIP, i_end)):
            longest = min(SURE_RUN, i_end - at_body)
            if best is not None and -best_key[0] >= longest:
                break  # no later body word can agree longer: the best stands
            need = 1 if closed else min(RESUME_WORDS, i_end - at_body)
            for at in self.places(self.words[at_body], j, j_end):
                if at >= j_end:
                    break
                run = self._run(at_body, i_end, at, j_end)
                key = (-run, at_body - i, at - j)
                if (run >= need or at - j <= NEAR) and (best is None or key < best_key):
                    best, best_key = (at_body, at), key
                    if run == longest:
                        break  # later places are further: none beats this one here
        return best

    def _run(self, i: int, i_end: int, j: int, j_end: int) -> int:
        """How many words agree from `words[i]` and `source[j]` on (up to `SURE_RUN`)."""
        run = 0
        while run < SURE_RUN and i + run < i_end and j + run < j_end:
            if self.words[i + run] != self.source[j + run]:
                break
            run += 1
        return run


LOWER_STEP = 1 << 20
"""Characters lower-cased at a time: `str.lower` sets aside three times its input for
the longest case mappings, which on a long text of 4-byte characters (one emoji makes
the whole string so) was 130 MB for an 11 MB Markdown file."""


def _lower_in_steps(text: str) -> str | None:
    """`text` lower-cased, or None when that would change its length (`İ`), so that
    offsets into the lower-cased text would not be offsets into the text."""
    parts = [text[at : at + LOWER_STEP].lower() for at in range(0, len(text), LOWER_STEP)]
    lowered = parts[0] if len(parts) == 1 else "".join(parts)
    return lowered if len(lowered) == len(text) else None


def _only_markup_between(text: str, start: int, end: int) -> bool:
    return _WORD.search(text, start, end) is None


def _is_word_char(char: str) -> bool:
    return char.isalnum()


def boxes_of(spans: list[Span], placed: list[tuple[int, Box]]) -> list[Box]:
    """The boxes of the PDF lines `spans` touch, in order, each once: `placed` holds
    where each line starts in the text the spans index, and its box."""
    starts = [start for start, _ in placed]
    found: dict[Box, None] = {}
    for start, end in spans:
        first = max(bisect_right(starts, start) - 1, 0)
        last = bisect_left(starts, end)
        for _, box in placed[first:last]:
            found[box] = None
    return list(found)
