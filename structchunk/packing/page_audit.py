"""The "nothing lost" audit of a paged reading, behind `strict`: every word a page's
reader saw (`Document.read`) is in a block or heading of that page (or the document
title, on the first page with text), or in the text it dropped on purpose there
(running headers, page numbers, contents entries, a table header printed again),
listed with its page.

Words are compared as multisets of tokens — runs of letters and digits, case folded and
NFKC-normalised (`ﬁ` is `fi`), Chinese and Japanese characters one by one — so reading
order, table layout and punctuation do not count; nothing else is allowed for: a lost
line, cell or column is a loss. Pages that a block runs across (a paragraph over a page
break, a table continued) are compared together. Two changes of spelling are no loss: a
word the reader joined from pieces it read apart (`infor-` / `mation`, a letter-spaced
`M e s s a g e`), and one read whole that the output splits (a ruled table's cell text
parted where the words were glued). The PDF reader fills `Document.read`; other formats
leave it empty and are not audited here (`audit.py` holds every format's packing).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ..document import Document, Figure, ListBlock, PageRead, Paragraph, Section, Table
from ..errors import BudgetError

_TOKEN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]|[^\W_\u3040-\u30ff\u4e00-\u9fff]+")
"""Runs of letters and digits; Chinese and Japanese characters one by one (no spaces)."""
MAX_SEGMENT_STEPS = 2_000
"""Tries spent on reading one token as pieces of others (a letter-spaced word of 20
letters needs about 20; the bound only keeps a hostile page from costing more)."""
MAX_JOINED = 64
"""Longest token looked for as a run of tokens read one after the other."""
SHOWN_WORDS = 12
"""Lost words named in the error."""


@dataclass(frozen=True, slots=True)
class Loss:
    """Words read off a page that reached no block, heading or dropped line."""

    page: int
    """The page the first lost word was read on."""
    words: tuple[str, ...]
    """The first lost words, as read, in the order read."""
    count: int
    """Tokens lost on the page and those compared with it."""

    def describe(self) -> str:
        shown = " ".join(self.words)
        more = "" if self.count <= len(self.words) else f" … ({self.count} words)"
        return f"text read on page {self.page} reached no chunk: {shown!r}{more}"


def tokens(text: str) -> list[str]:
    """The audit's words of `text` (see the module docstring)."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return _TOKEN.findall(text.casefold())


def lost_text(document: Document) -> list[Loss]:
    """What each page's reader saw and no block, heading or dropped line holds, page group
    by page group in page order; empty when nothing is lost (or nothing was read)."""
    if not document.read:
        return []
    read = {page.page: page for page in document.read}
    first = min((p for p in read if read[p].words), default=min(read))
    groups = _PageGroups(read)
    produced: dict[int, Counter[str]] = {}
    placed = list(_placed_texts(document.root, first))
    for pages, text in placed:
        pages = tuple(page for page in pages if page in read) or (first,)
        groups.join(pages)
        produced.setdefault(pages[0], Counter()).update(tokens(text))
    title = tokens(document.root.title)
    if title and _printed_in(title, [text for pages, text in placed if first in pages]):
        title = []  # a heading or line repeating the title
    losses = []
    for members in groups.groups():
        expected: Counter[str] = Counter()
        out: Counter[str] = Counter()
        for page in members:
            expected.update(tokens(read[page].words))
            out.update(produced.get(page, ()))
            out.update(t for text in read[page].dropped for t in tokens(text))
        if first in members:  # the title, printed on the first page once
            out.update(title)
        missing = expected - out
        if missing:
            order = [t for page in members for t in tokens(read[page].words)]
            missing = _unexplained(missing, out - expected, order)
        if missing:
            losses.append(_loss([read[page] for page in members], missing))
    return losses


def audit_reading(document: Document) -> None:
    """Raise `BudgetError` naming the page and the first lost words when a page's reader
    saw text that reached no block (`strict`)."""
    losses = lost_text(document)
    if losses:
        first = losses[0]
        others = f"; {len(losses) - 1} more page(s) lost text" if len(losses) > 1 else ""
        raise BudgetError(first.describe() + others)


def _printed_in(title: list[str], texts: list[str]) -> bool:
    """One of `texts` holds the title's tokens one after the other."""
    width = len(title)
    for text in texts:
        found = tokens(text)
        if any(found[i : i + width] == title for i in range(len(found) - width + 1)):
            return True
    return False


def _placed_texts(root: Section, first: int) -> Iterator[tuple[tuple[int, ...], str]]:
    """Every text of the tree with the pages it comes from: headings, paragraphs, list
    items, table rows (a table's caption and header with all its pages), code. (The
    document title is the caller's: it heads every chunk, and page 1 prints it once,
    as a heading or a paragraph too, or only as the title.)"""
    for section in root.walk():
        if section.title and section is not root:
            yield (section.prov.pages or (first,)), section.title
        for block in section.blocks:
            if isinstance(block, Paragraph):
                yield block.prov.pages, block.text
            elif isinstance(block, ListBlock):
                for item in block.items:
                    yield (item.prov.pages or block.prov.pages), f"{item.marker} {item.text}"
            elif isinstance(block, Figure):
                yield block.prov.pages, f"{block.caption} {block.text}"
            elif isinstance(block, Table):
                head = [block.caption, *(" ".join(row) for row in block.header)]
                yield block.prov.pages, " ".join(head)
                for index, row in enumerate(block.rows):
                    prov = block.row_provs[index] if index < len(block.row_provs) else block.prov
                    yield (prov.pages or block.prov.pages), " ".join(row)
            else:
                yield block.prov.pages, block.text


class _PageGroups:
    """Pages joined by the blocks that run across them (union-find)."""

    def __init__(self, read: dict[int, PageRead]) -> None:
        self.parent = {page: page for page in read}

    def find(self, page: int) -> int:
        while self.parent[page] != page:
            self.parent[page] = self.parent[self.parent[page]]
            page = self.parent[page]
        return page

    def join(self, pages: tuple[int, ...]) -> None:
        root = self.find(pages[0])
        for page in pages[1:]:
            other = self.find(page)
            if other != root:
                self.parent[max(root, other)] = min(root, other)
                root = min(root, other)

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = {}
        for page in sorted(self.parent):
            out.setdefault(self.find(page), []).append(page)
        return list(out.values())


def _unexplained(missing: Counter[str], surplus: Counter[str], order: list[str]) -> Counter[str]:
    """The `missing` tokens that are no change of spelling: neither pieces of a token only
    the output has (joined) nor a token the output has in pieces (split). A page of
    short glued pieces (formulas, figure labels) has many ways to make one token of
    others, and a wrong choice leaves pieces unexplained that another token needed; so
    two orders are tried — pieces by the multiset alone, and pieces read one after the
    other (`order`) first — and the first that explains everything, or the one that
    leaves least, is taken. Each is an explanation of its own, token for token."""
    first = Counter(missing)
    _explain(first, Counter(surplus))
    if not first:
        return first
    second = Counter(missing)
    rest = Counter(surplus)
    _join_runs(second, rest, order)
    _explain(second, rest)
    return second if sum(second.values()) < sum(first.values()) else first


def _explain(missing: Counter[str], surplus: Counter[str]) -> None:
    """Take the joined and split tokens out of `missing` (see `_unexplained`)."""
    for token in sorted(surplus, key=lambda t: (-len(t), t)):
        for _ in range(surplus[token]):
            pieces = _segment(token, missing)
            if pieces is None:
                break
            missing.subtract(pieces)
            surplus[token] -= 1
    for token in sorted(missing, key=lambda t: (-len(t), t)):
        for _ in range(max(missing[token], 0)):
            pieces = _segment(token, surplus)
            if pieces is None:
                break
            surplus.subtract(pieces)
            missing[token] -= 1
    for token in [t for t, n in missing.items() if n <= 0]:
        del missing[token]


def _join_runs(missing: Counter[str], surplus: Counter[str], order: list[str]) -> None:
    """Surplus tokens that are a run of missing tokens read one after the other."""
    for start in range(len(order)):
        if missing[order[start]] <= 0:
            continue
        joined, end = order[start], start + 1
        while end < len(order) and len(joined) < MAX_JOINED and missing[order[end]] > 0:
            joined += order[end]
            end += 1
            if surplus[joined] > 0 and _available(missing, order[start:end]):
                surplus[joined] -= 1
                missing.subtract(order[start:end])
                break


def _available(pool: Counter[str], pieces: list[str]) -> bool:
    return all(pool[piece] >= count for piece, count in Counter(pieces).items())


def _segment(token: str, pool: Counter[str]) -> list[str] | None:
    """`token` as two or more tokens of `pool` (each used at most as often as it is
    there), longest pieces first; None when it is not."""
    used: Counter[str] = Counter()
    steps = 0

    def split(start: int) -> list[str] | None:
        nonlocal steps
        if start == len(token):
            return []
        for end in range(len(token), start, -1):
            steps += 1
            if steps > MAX_SEGMENT_STEPS:
                return None
            piece = token[start:end]
            if (start, end) == (0, len(token)) or pool[piece] - used[piece] <= 0:
                continue
            used[piece] += 1
            rest = split(end)
            if rest is not None:
                return [piece, *rest]
            used[piece] -= 1
        return None

    return split(0)


def _loss(pages: list[PageRead], missing: Counter[str]) -> Loss:
    """The lost words of a page group, named as read and in the order read. A token read
    twice and kept once does not say which of the two was lost: words in the longest
    runs of lost tokens are named first (a lost cell or line is such a run)."""
    words = [(page.page, word, tokens(word)) for page in pages for word in page.words.split()]
    left = Counter(missing)
    flagged = [bool(toks) and all(left[t] > 0 for t in toks) for _, _, toks in words]
    runs: list[tuple[int, int]] = []
    for index, flag in enumerate(flagged):
        if flag and index and flagged[index - 1]:
            runs[-1] = (runs[-1][0], index + 1)
        elif flag:
            runs.append((index, index + 1))
    lost = [False] * len(words)
    for start, end in sorted(runs, key=lambda run: (run[0] - run[1], run[0])):
        for index in range(start, end):
            need = Counter(words[index][2])
            if all(left[t] >= n for t, n in need.items()):
                left.subtract(need)
                lost[index] = True
    for index, (_, _, toks) in enumerate(words):
        if not lost[index] and any(left[t] > 0 for t in toks):
            left.subtract([t for t in toks if left[t] > 0])
            lost[index] = True
    named = [(page, word) for (page, word, _), gone in zip(words, lost) if gone]
    page = named[0][0] if named else pages[0].page
    return Loss(page, tuple(word for _, word in named[:SHOWN_WORDS]), sum(missing.values()))
