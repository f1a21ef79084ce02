"""After step 7, parents (small-to-big): the packed chunks of a document grouped into
parent records, each holding a run of consecutive chunks.

The rule, top-down over each top-level section (a parent never spans two):

- a section (with its sub-sections) whose text fits the parent budget is one parent;
  the highest such section around a chunk wins, so parents do not nest and every chunk
  is in exactly one;
- a section that does not fit leaves each of its sub-sections to the same rule, and its
  own chunks are cut into windows: runs of consecutive chunks, as many as fit, cut
  where a chunk starts at a block boundary and repeats nothing of the chunk before
  (the last such place in the window), else where the next chunk would not fit.

A parent's text is the section's heading prefix (as its chunks have it) and the text of
its chunks in order: the first as written, each next one without what it repeats
(overlap, a lead-in), joined as in the source (a blank line between blocks, a space
between the sentences of a cut paragraph), with each sub-section's heading path
(relative to the parent's) on a line of its own. So every chunk's text without its
prefix lies in its parent's, and a one-chunk parent's text is the chunk's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..document import Provenance
from ..errors import BudgetError
from ..markup import HEADING_SEPARATOR
from ..tokenizers import Tokenizer, count_words
from .finish import PackedChunk
from .prefix import Head


@dataclass(slots=True)
class PackedParent:
    """A parent before it gets its id: its text and the chunks it holds."""

    heading_path: tuple[str, ...]
    text: str
    body: str
    n_tokens: int
    chunks: list[PackedChunk]
    block_types: list[str] = field(default_factory=list)
    prov: Provenance = field(default_factory=Provenance)


@dataclass(slots=True)
class _Entry:
    """The chunks of one packed section."""

    path: tuple[str, ...]
    chunks: list[PackedChunk]
    tokens: int | None = None
    """Tokens of its own text, once counted."""


HeadOf = Callable[[tuple[str, ...]], Head]
"""The head a section's chunks start with, by its path."""


class ParentRule:
    """Groups one document's packed chunks into parents within `limit` tokens."""

    def __init__(self, limit: int, tokenizer: Tokenizer, head_of: HeadOf, root_depth: int):
        self.limit = limit
        self.tokenizer = tokenizer
        self.head_of = head_of
        self.root_depth = root_depth
        """Titles in the root section's path (1 when the document has a title)."""
        self._heads: dict[tuple[str, ...], Head] = {}

    def _head(self, path: tuple[str, ...]) -> Head:
        """The head of a section's chunks (each path's found once)."""
        head = self._heads.get(path)
        if head is None:
            head = self._heads[path] = self.head_of(path)
        return head

    def parents(self, chunks: Iterable[PackedChunk]) -> Iterator[PackedParent]:
        """The parents of `chunks` (a document's, in order), each top-level section's
        given once it is complete."""
        for group in self._top_groups(_entries(chunks)):
            depth = min(len(group[0].path), self.root_depth + 1)
            yield from self._assign(group, depth)

    def _top_groups(self, entries: Iterable[_Entry]) -> Iterator[list[_Entry]]:
        """Entries by top-level section: the root's own text alone, then each top-level
        section with everything under it."""
        top = self.root_depth + 1
        group: list[_Entry] = []
        for entry in entries:
            if group and (len(entry.path) <= top or entry.path[:top] != group[0].path[:top]):
                yield group
                group = []
            group.append(entry)
        if group:
            yield group

    def _assign(self, run: list[_Entry], depth: int) -> Iterator[PackedParent]:
        """Parents of `run`: sections whose paths share their first `depth` titles."""
        path = run[0].path[:depth]
        whole = self._parent(path, run)
        if whole is not None:
            yield whole
            return
        for sub, own in _runs(run, depth):
            if own:
                yield from self._windows(sub[0])
            else:
                yield from self._assign(sub, depth + 1)

    def _parent(self, path: tuple[str, ...], run: Sequence[_Entry]) -> PackedParent | None:
        """The run as one parent under `path`, or None when it does not fit. A counter
        that adds up over whitespace (words, chars) counts each section's text once,
        whatever the depth; others count the joined text."""
        head = self._head(path)
        headings = [
            HEADING_SEPARATOR.join(entry.path[len(path) :]) if len(entry.path) > len(path) else ""
            for entry in run
        ]
        if self.tokenizer.additive:
            count = self.tokenizer.count
            estimate = head.tokens + sum(count(h) for h in headings)
            estimate += sum(self._tokens(entry) for entry in run)
            if estimate > self.limit:
                return None
        pieces = [
            heading + "\n\n" + _section_text(entry.chunks)
            if heading
            else _section_text(entry.chunks)
            for heading, entry in zip(headings, run)
        ]
        chunks = [chunk for entry in run for chunk in entry.chunks]
        return self._fitted(path, "\n\n".join(pieces), chunks)

    def _tokens(self, entry: _Entry) -> int:
        """Tokens of a section's own text (counted once)."""
        if entry.tokens is None:
            entry.tokens = self.tokenizer.count(_section_text(entry.chunks))
        return entry.tokens

    def _fitted(
        self, path: tuple[str, ...], body: str, chunks: list[PackedChunk]
    ) -> PackedParent | None:
        head = self._head(path)
        text = head.text + body
        words = count_words(text)
        if words > self.limit:  # every tokenizer counts a word at least once
            return None
        n_tokens = words if self.tokenizer.count is count_words else self.tokenizer.count(text)
        if n_tokens > self.limit:
            return None
        return _packed(path, text, body, n_tokens, chunks)

    def _windows(self, entry: _Entry) -> Iterator[PackedParent]:
        """A section's own chunks as runs that fit; one chunk always fits (its text)."""
        window: list[PackedChunk] = []
        tokens = 0
        for chunk in entry.chunks:
            if window:
                grown = self._grown(entry.path, window, tokens, chunk)
                if grown <= self.limit:
                    window.append(chunk)
                    tokens = grown
                    continue
                cut = _last_clean_start(window)
                if cut and not _clean(chunk):  # cut at the last block boundary instead
                    rest = [*window[cut:], chunk]
                    rest_tokens = self.tokenizer.count(self._text(entry.path, rest))
                    if rest_tokens <= self.limit:
                        yield self._window(entry.path, window[:cut])
                        window, tokens = rest, rest_tokens
                        continue
                yield self._window(entry.path, window)
            window, tokens = [chunk], chunk.n_tokens  # the chunk's text is the head and its body
        if window:
            yield self._window(entry.path, window)

    def _grown(
        self, path: tuple[str, ...], window: list[PackedChunk], tokens: int, chunk: PackedChunk
    ) -> int:
        """Tokens of the window with `chunk` added: for a counter that adds up, those of
        the window and of what the chunk adds (at least the joined count); else counted."""
        if self.tokenizer.additive:
            return tokens + self.tokenizer.count(chunk.joiner + _own(chunk))
        return self.tokenizer.count(self._text(path, [*window, chunk]))

    def _text(self, path: tuple[str, ...], chunks: Sequence[PackedChunk]) -> str:
        return self._head(path).text + _section_text(chunks)

    def _window(self, path: tuple[str, ...], chunks: list[PackedChunk]) -> PackedParent:
        """A window as a parent, counted on its final text."""
        body = _section_text(chunks)
        text = self._head(path).text + body
        n_tokens = self.tokenizer.count(text)
        if n_tokens > self.limit:  # the window's estimates guarantee this
            raise BudgetError(f"parent of {n_tokens} tokens exceeds parent_max_tokens {self.limit}")
        return _packed(path, text, body, n_tokens, chunks)


def _entries(chunks: Iterable[PackedChunk]) -> Iterator[_Entry]:
    """Chunks grouped by the section they were packed from."""
    entry: _Entry | None = None
    for chunk in chunks:
        if entry is None or chunk.opens_section:
            if entry is not None:
                yield entry
            entry = _Entry(chunk.heading_path, [])
        entry.chunks.append(chunk)
    if entry is not None:
        yield entry


def _runs(run: list[_Entry], depth: int) -> Iterator[tuple[list[_Entry], bool]]:
    """`run` cut one level deeper: each entry of the section at `depth` itself alone
    (True: its own text), and each sub-section with everything under it (False). A
    second entry with a sub-section's path (a sibling of the same title) starts anew."""
    sub: list[_Entry] = []
    for entry in run:
        if len(entry.path) == depth:
            if sub:
                yield sub, False
                sub = []
            yield [entry], True
            continue
        key = entry.path[: depth + 1]
        if sub and (sub[0].path[: depth + 1] != key or len(entry.path) == depth + 1):
            yield sub, False
            sub = []
        sub.append(entry)
    if sub:
        yield sub, False


def _clean(chunk: PackedChunk) -> bool:
    """Whether a window may start at `chunk`: at a block boundary, repeating nothing."""
    return chunk.at_block and chunk.own is None


def _last_clean_start(window: list[PackedChunk]) -> int:
    """The last place after the first chunk where a window may be cut; 0 if none."""
    for index in range(len(window) - 1, 0, -1):
        if _clean(window[index]):
            return index
    return 0


def _own(chunk: PackedChunk) -> str:
    """A chunk's text without what it repeats of the chunk before."""
    return chunk.own if chunk.own is not None else chunk.body


def _section_text(chunks: Sequence[PackedChunk]) -> str:
    """Consecutive chunks of one section as one text: the first as written, each next
    without what it repeats, joined as in the source."""
    parts = [chunks[0].body]
    for chunk in chunks[1:]:
        parts.append(chunk.joiner)
        parts.append(_own(chunk))
    return "".join(parts)


def _packed(
    path: tuple[str, ...], text: str, body: str, n_tokens: int, chunks: list[PackedChunk]
) -> PackedParent:
    kinds: list[str] = []
    prov = chunks[0].prov
    for chunk in chunks:
        kinds.extend(kind for kind in chunk.block_types if kind not in kinds)
        prov = prov.merged(chunk.prov)
    return PackedParent(path, text, body, n_tokens, list(chunks), kinds, prov)
