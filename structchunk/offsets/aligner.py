"""The aligner: each chunk of a document, in order, anchored where its first words
stand together, its search bounded by its lines or pages, and the runs of the walk made
character spans (for a PDF, the boxes of the lines they touch)."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache

from ..document import Box
from .source import (
    WORD,
    SourceWords,
    Span,
    VisibleText,
    Window,
    is_ideograph,
    is_word_char,
    lowered_words,
    only_markup_between,
)
from .walk import SURE_RUN, Walk

Stretch = tuple[int, int, int]
"""`(first, limit, stop)`: up to `limit` source words from character `first` to `stop`."""

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


class Aligner:
    """Offsets (or a PDF's boxes) of one document's chunks, given in document order."""

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
        self.visible = VisibleText(source_text) if html else None
        """HTML: the page's visible text, which is what is searched."""
        self.text = self.visible.text if self.visible is not None else source_text
        """What is searched, without case (a parser's `Tip` for an admonition's `tip`)."""
        self.words = SourceWords(self.text)
        """The text's words, for the windows each chunk is aligned within."""
        self.line_starts: array[int] | None = None
        """Markdown, text: where each line starts (machine integers: a 36-byte int
        object per line was 8 MB of an 11 MB Markdown file's peak)."""
        if not html and not self.boxes:
            self.line_starts = array("q", [0])
            self.line_starts.extend(m.end() for m in re.finditer("\n", source_text))
        self.start = 0
        """Where the previous chunk began: no later chunk starts before it."""
        self._far: dict[int, tuple[int, int]] = {}
        """Per look-back start, a place `(end, count)`: `count` words lie between."""
        self._absent: dict[str, tuple[int, int]] = {}
        """Per word, a stretch of the text `(start, end)` where it starts nowhere as a
        whole word: a later search from inside it resumes at its end. A page whose every
        paragraph opens `<b>Ro</b>tate` was searched whole for each, and a split table's
        header, printed once above thousands of rows, from the table's top by each of
        its pieces."""

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
        starts = self.line_starts
        if lines is None or starts is None or not 1 <= lines[0] <= len(starts):
            return None
        stop = starts[lines[1]] if lines[1] < len(starts) else len(self.text)
        return starts[lines[0] - 1], stop

    def _page_range(self, pages: tuple[int, ...]) -> Span | None:
        """The characters of the lines printed on `pages`, first to last."""
        if not pages or min(pages) not in self.pages or max(pages) not in self.pages:
            return None
        return self.pages[min(pages)][0], self.pages[max(pages)][1]

    def spans(self, body: str, bounds: Span | None = None) -> list[Span]:
        """The body's spans; `bounds`, the characters its lines or pages cover when the
        parser knows them, bound the search."""
        words = lowered_words(body)
        if not words:
            return []
        begin, stop = bounds if bounds is not None else (self.start, len(self.text))
        first = self._anchor(words, max(begin, self.start), stop)
        search = SEARCH_FACTOR * len(words) + SEARCH_SLACK
        if bounds is not None:  # the chunk's own lines bound it; a split table's header
            window, runs = self._align(words, self._own_tries(words, first, begin, stop))
        else:  # near its first words, else among the words from the previous chunk on
            near = [] if first is None else [((first, len(words) * 3 // 2 + WINDOW_SLACK, stop),)]
            window, runs = self._align(words, [*near, ((self.start, search, stop),)])
        spans: list[Span] = []
        for at, to in runs:
            start, end = window.span(at, to)
            if spans and only_markup_between(self.text, spans[-1][1], start):
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((start, end))
        if spans:  # never back: a look-back reads before a chunk's lines, not before this
            begun = spans[0][0] if first is None else min(spans[0][0], first)
            self.start = max(self.start, begun)
        if self.visible is not None:
            spans = [self.visible.page_span(start, end) for start, end in spans]
        return spans

    def _own_tries(
        self, words: list[str], first: int | None, begin: int, stop: int
    ) -> Iterator[tuple[Stretch, ...]]:
        """The windows a chunk whose lines are known (`begin:stop`) is aligned within:
        from its first words, from its lines (or the previous chunk's start, when its
        lines began before it: pieces of one long block), then looking back. What a chunk
        takes from before its lines is what it repeats — a split table's header printed
        above it, an overlap — so a look-back reads no more words there than the chunk
        has, and then the chunk's own lines (or the rest of the block from the previous
        chunk's start). A look-back of the whole search length read past the header into
        rows and paragraphs of earlier copies of repeated text (a fuzzed file of one
        block pasted thousands of times), placed the chunk there and held every later
        chunk's search at that copy. Every window is bounded in words: one long line
        holds every chunk of a one-line document."""
        search = SEARCH_FACTOR * len(words) + SEARCH_SLACK
        own, back = max(begin, self.start), min(begin, self.start)
        if first is not None and first < begin:  # the header, then the own lines
            yield (first, len(words), begin), (begin, search, stop)
        if first is not None:
            yield ((first, search, stop),)
        yield ((own, search, stop),)
        if back < own:  # as far into its lines as a window of `search` words from `back`
            before = self._words_between(back, own, search)
            if before < search:
                yield (back, len(words), own), (own, search - before, stop)
            if self.boxes:  # a PDF's lines are placed in print order, not reading order:
                yield ((back, search, stop),)  # a chunk's words may lie before its lines

    def _words_between(self, start: int, end: int, most: int) -> int:
        """How many words `text[start:end]` holds, counted up to `most`. A place known
        to lie `most` words or more past `start` is remembered, so the pieces of a long
        block (all starting at its top) do not count its words again each time."""
        known = self._far.get(start)
        if known is not None and known[0] <= end and known[1] >= most:
            return known[1]
        count = len(self.words.window(start, most, end).words)
        if count >= most:
            self._far[start] = (end, count)
        return count

    def _align(
        self, words: list[str], tries: Iterable[tuple[Stretch, ...]]
    ) -> tuple[Window, list[tuple[int, int]]]:
        """The first window of `tries` that holds the most body words, and the ranges of
        it the body's words come from. A try is one or more stretches `(first, limit,
        stop)`, up to `limit` words from `first` to `stop` each, read one after another:
        two for a split table's header printed once above the table, then the rows on
        the chunk's own lines, without walking the rows of every piece before them (which
        made a table's thousandth piece cost a thousand times its first). `tries` are
        made as they are asked for: most chunks are found whole in the first."""
        best: tuple[Window, Walk] | None = None
        tried: set[tuple[Stretch, ...]] = set()
        for stretches in tries:
            if stretches in tried:
                continue
            tried.add(stretches)
            window = self.words.window(*stretches[0])
            for stretch in stretches[1:]:
                window = window.then(self.words.window(*stretch))
            walk = Walk(words, window.words)
            if best is None or walk.matched > best[1].matched:
                best = (window, walk)
            if walk.matched == len(words):
                break
        assert best is not None
        return best[0], best[1].found

    def _anchor(self, words: list[str], begin: int, stop: int) -> int | None:
        """Where the chunk starts: the first place in `begin:stop` where its first words
        stand together, else the nearest such place before it, from the previous
        chunk's start on (a split table's header, printed once above its rows); None
        when they never do (inline markup inside them, or text the parser wrote). Its
        first `SURE_RUN` words are tried before its first `ANCHOR_WORDS`, so two
        paragraphs opening alike ("When you're compiling in debug mode", "… in release
        mode") are told apart."""
        for head in dict.fromkeys((tuple(words[:SURE_RUN]), tuple(words[:ANCHOR_WORDS]))):
            found = self._following(head, begin, stop, last=False)
            if found is None and self.start < begin:
                found = self._following(head, self.start, begin, last=True)
            if found is not None:
                return found
        return None

    def _following(self, head: tuple[str, ...], start: int, stop: int, last: bool) -> int | None:
        """The first place in `start:stop` where the words of `head` stand together, or
        with `last` the last such place (of the first `MAX_ANCHOR_TRIES` occurrences of
        its first word): looking back from a chunk's lines, the nearest. A split table's
        header printed above each of many tables alike (a block pasted over and over)
        is its own table's, not the first table's after the previous chunk began."""
        found = None
        candidate = self._find(head[0], start, stop)
        for _ in range(MAX_ANCHOR_TRIES):
            if candidate is None:
                break
            if self._follows(candidate, head):
                if not last:
                    return candidate
                found = candidate
            candidate = self._find(head[0], candidate + 1, stop)
        return found

    def _follows(self, at: int, words: tuple[str, ...]) -> bool:
        position = at
        for word in words:
            match = WORD.search(self.text, position)
            if match is None or match.group().lower() != word:
                return False
            position = match.end()
        return True

    def _find(self, word: str, start: int, stop: int) -> int | None:
        """The next occurrence of `word` (lower-cased) as a whole word in
        `text[start:stop]`, in any case: a literal pattern without case is searched about
        as fast as `str.find`, and needs no lower-cased copy of the text."""
        text = self.text
        searched_from = start
        known = self._absent.get(word)
        if known is not None and known[0] <= start <= known[1]:
            searched_from, start = known[0], known[1]
        pattern = _without_case(word)
        reach = min(len(text), stop + len(word))  # a word starting before `stop` may end after
        found = pattern.search(text, start, reach) if start < stop else None
        alone = is_ideograph(word)  # a word whatever touches it
        while found is not None and found.start() < stop:
            position, end = found.span()
            before = not alone and position > 0 and is_word_char(text[position - 1])
            after = not alone and end < len(text) and is_word_char(text[end])
            if not before and not after:
                self._note_absent(word, searched_from, position)
                return position
            found = pattern.search(text, position + 1, reach)
        self._note_absent(word, searched_from, max(start, stop))
        return None

    def _note_absent(self, word: str, start: int, end: int) -> None:
        """Remember that `word` starts nowhere in `text[start:end]`, joined to what is
        known already when the two stretches meet."""
        known = self._absent.get(word)
        if known is not None and start <= known[1] and known[0] <= end:
            start, end = min(start, known[0]), max(end, known[1])
        elif known is not None and known[1] > end:
            return  # searches move forward: the later stretch is the one worth keeping
        if end > start:
            self._absent[word] = (start, end)


@lru_cache(maxsize=1024)
def _without_case(word: str) -> re.Pattern[str]:
    return re.compile(re.escape(word), re.IGNORECASE)


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
