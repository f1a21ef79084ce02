"""Step 1, prefix: the heading path each chunk text starts with (`A > B > C`), shortened
when too long.

Only the prefix is ever shortened — `heading_path` keeps every title — and content is
never dropped to make room for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..markup import HEADING_SEPARATOR, PREFIX_JOINER

ELLIPSIS = "…"

DEFAULT_MAX_PREFIX_SHARE = 0.5
"""The prefix may use at most this share of the budget, so every chunk keeps at least
half of its room for content even under very deep or verbose headings."""

_TITLE_WORD_LIMITS = (12, 6, 3, 1)


def _cut_title(title: str, words: int) -> str:
    parts = title.split()
    return title if len(parts) <= words else " ".join(parts[:words]) + ELLIPSIS


def _candidates(path: Sequence[str]) -> Iterator[list[str]]:
    """Ever shorter renderings of the path, most informative first."""
    yield list(path)
    n = len(path)
    for keep in range(n - 2, 0, -1):  # elide middle levels, keep the root and the leaf(s)
        yield [path[0], ELLIPSIS, *path[n - keep :]]
    shortest = [path[0], ELLIPSIS, path[-1]] if n >= 3 else list(path)
    for words in _TITLE_WORD_LIMITS:
        yield [t if t == ELLIPSIS else _cut_title(t, words) for t in shortest]
    for words in _TITLE_WORD_LIMITS:
        yield [_cut_title(path[-1], words)]


def heading_prefix(
    path: Sequence[str], prefix_limit: int, count: Callable[[str], int]
) -> tuple[str, bool]:
    """The longest informative prefix for `path` with `count(prefix) <= prefix_limit`.

    Returns the prefix ('' when even one cut title does not fit) and whether it was
    shortened.
    """
    if not path:
        return "", False
    for index, parts in enumerate(_candidates(path)):
        text = HEADING_SEPARATOR.join(parts)
        if count(text) <= prefix_limit:
            return text, index > 0
    leaf = path[-1]
    low, high = 0, len(leaf)  # last resort: the leaf cut by characters
    while low < high:
        mid = (low + high + 1) // 2
        if count(leaf[:mid] + ELLIPSIS) <= prefix_limit:
            low = mid
        else:
            high = mid - 1
    return (leaf[:low] + ELLIPSIS if low else ""), True


@dataclass(frozen=True, slots=True)
class Head:
    """What every chunk of one section starts with, fixed before its content is packed."""

    prefix: str
    """The heading path as printed: '' when prefixes are off or not even a cut title fits."""
    text: str
    """The prefix and the blank line after it ('' without a prefix)."""
    tokens: int
    """Tokens of `text`: the room no chunk of the section can use for content."""
    shortened: bool
    """Whether the prefix shows less than the full heading path."""


def section_head(
    path: Sequence[str], enabled: bool, limit: int, count: Callable[[str], int]
) -> Head:
    """The head of a section's chunks: the longest prefix within its share of `limit`,
    the chunks' limit (`Room.limit`)."""
    if not enabled:
        return Head("", "", count(""), False)
    prefix_limit = int(limit * DEFAULT_MAX_PREFIX_SHARE)
    prefix, shortened = heading_prefix(path, prefix_limit, count)
    text = prefix + PREFIX_JOINER if prefix else ""
    return Head(prefix, text, count(text), shortened)
