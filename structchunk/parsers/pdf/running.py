"""Running headers set elsewhere on a page than on the others: moved, or changed in place.

`furniture.py` knows a running header by its text repeating at one height. Two kinds of
page escape that, and are found here from the headers it found (a text running on
`needed` pages, with a letter in it), by their type and alignment:

- **Moved**: the header's own text, in its font, size and alignment, set lower or
  higher on a page that does not print it in its place: a filing prints its name over
  each statement (`Apple Inc.`, `NVIDIA CORPORATION AND SUBSIDIARIES`), lower where the
  part's and item's titles top the page, higher where a long statement pushes its title
  block up. Only within `DEFAULT_MOVED_BAND` of the edge the header keeps.
- **Changed**: another text in the header's place — the same height, font, size and
  alignment, with no line of the page between it and the page's edge — on a page that
  does not print the header, under another running header of the page (`PART I` over
  `Item 2` on most pages of a filing, over `Item 3, 4` on the one page holding both) or
  holding the page's number (a textbook's `7 1.2. METRISCHE RÄUME`, a section's title
  running over two or three pages only). Only a header set smaller than the body text,
  and never wider than `DEFAULT_SLOT_WIDTH` times it: a filing that sets its name over
  each statement in the type of its titles sets `SIGNATURE` there too, a title.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Protocol

from .types import Line, PageContent

DEFAULT_MOVED_BAND = 0.25
"""Share of the page height from its edge within which a running header may be moved
(a part's and an item's titles over it put Apple's `Apple Inc.` at 15 % of the page)."""
DEFAULT_SLOT_WIDTH = 2.0
"""How much wider than the running header a changed text in its place may be."""
DEFAULT_SIZE_TOLERANCE = 0.5
"""Points two sizes of one running header may differ by."""
DEFAULT_ALIGN_TOLERANCE = 6.0
"""Points the edge a running header is aligned on may move from page to page (as far as
its height may, in `furniture.py`)."""

PAGE_DIGITS = re.compile(r"(?<![\d.,])\d{1,5}(?![\d.,]?\d)")
"""A whole number of up to five digits (a journal paged through its volume reaches
`47698`), not part of a longer figure (`1,234`, `2.5`): a page's number in a line."""


class Placed(Protocol):
    """Where a running header was found (furniture's `Spot`)."""

    @property
    def page(self) -> int: ...
    @property
    def top(self) -> float: ...
    @property
    def x0(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def size(self) -> float: ...
    @property
    def font(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Header:
    """A running header as the pages print it: text key, type, edge, alignment, place."""

    key: str
    pages: frozenset[int]
    size: float
    font: str
    top_edge: bool
    """Set at the top of its pages (else at the bottom)."""
    anchors: tuple[tuple[int, float], ...]
    """The edges that stay put from page to page, as (0 left, 1 middle, 2 right, x)."""
    bucket: int
    """The height it is most often set at, in position-tolerance buckets."""
    width: float

    def styled(self, line: Line) -> bool:
        """Set in the header's type and aligned as it is."""
        return (
            abs(line.size - self.size) <= DEFAULT_SIZE_TOLERANCE
            and line.font == self.font
            and any(
                abs(_edges(line.x0, line.x1)[side] - x) <= DEFAULT_ALIGN_TOLERANCE
                for side, x in self.anchors
            )
        )


def _edges(x0: float, x1: float) -> tuple[float, float, float]:
    return x0, (x0 + x1) / 2, x1


def running_headers(
    spots: Mapping[str, Sequence[Placed]],
    running: Mapping[str, set[int]],
    heights: dict[int, float],
    needed: int,
    bucket: Callable[[float], int],
) -> list[Header]:
    """The running headers `furniture.py` found on `needed` pages or more, in one type
    each, with a letter in their text, as `Header`s."""
    out = []
    for key, pages in running.items():
        if len(pages) < needed or not any(ch.isalpha() for ch in key):
            continue
        placed = [spot for spot in spots[key] if spot.page in pages]
        fonts = Counter(spot.font for spot in placed)
        font, count = fonts.most_common(1)[0]
        if count < needed:
            continue
        placed = [spot for spot in placed if spot.font == font]
        anchors = tuple(
            (side, median(xs))
            for side in range(3)
            if max(xs := [_edges(s.x0, s.x1)[side] for s in placed]) - min(xs)
            <= DEFAULT_ALIGN_TOLERANCE
        )
        if not anchors:
            continue
        top_edge = sum(s.top < heights[s.page] / 2 for s in placed) * 2 > len(placed)
        buckets = Counter(bucket(s.top) for s in placed)
        out.append(
            Header(
                key,
                frozenset(pages),
                median(s.size for s in placed),
                font,
                top_edge,
                anchors,
                buckets.most_common(1)[0][0],
                max(s.x1 - s.x0 for s in placed),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Measures:
    """How `furniture.py` measures a line — its text's key (digits left out), its
    height's bucket, its margin band (a share of the page height), the body's size —
    and what it found: how far the page numbers run ahead of the pages, and the pages'
    edges (page, top) where it dropped a running header."""

    key: Callable[[Line], str]
    bucket: Callable[[float], int]
    margin: float
    body: float
    offsets: set[int]
    headed: set[tuple[int, bool]]


def moved_or_changed(
    pages: list[PageContent], headers: list[Header], measures: Measures
) -> list[Line]:
    """Take out, in place, the lines that are running headers moved or changed (see the
    module docstring); return them."""
    dropped: list[Line] = []
    if not headers:
        return dropped
    for page in pages:
        lines = page.lines()
        taken = {id(line) for line in lines if _header_here(line, page, lines, headers, measures)}
        if taken:
            dropped.extend(line for line in lines if id(line) in taken)
            page.items = [item for item in page.items if id(item) not in taken]
    return dropped


def _header_here(
    line: Line, page: PageContent, lines: list[Line], headers: list[Header], measures: Measures
) -> bool:
    text_key = measures.key(line)
    for header in headers:
        if page.number in header.pages or not header.styled(line):
            continue
        if text_key == header.key:
            if _near_edge(line, page.height, header.top_edge, DEFAULT_MOVED_BAND):
                return True
        elif (
            header.size < measures.body - DEFAULT_SIZE_TOLERANCE
            and abs(measures.bucket(line.top) - header.bucket) <= 1
            and any(ch.isalpha() for ch in text_key)
            and line.x1 - line.x0 <= DEFAULT_SLOT_WIDTH * header.width
            and _near_edge(line, page.height, header.top_edge, measures.margin)
            and _outermost(line, lines, header.top_edge)
            and (
                (page.number, header.top_edge) in measures.headed
                or _counting(line, page.number, measures.offsets)
            )
        ):
            return True
    return False


def _counting(line: Line, page: int, offsets: set[int]) -> bool:
    """A number in the line runs ahead of the page as the page numbers do."""
    return any(int(number) - page in offsets for number in PAGE_DIGITS.findall(line.printed()))


def _near_edge(line: Line, height: float, top_edge: bool, share: float) -> bool:
    return line.top < share * height if top_edge else line.bottom > (1 - share) * height


def _outermost(line: Line, lines: list[Line], top_edge: bool) -> bool:
    """No other line of the page between `line` and the page's edge."""
    if top_edge:
        return not any(other.bottom <= line.top + 1 for other in lines if other is not line)
    return not any(other.top >= line.bottom - 1 for other in lines if other is not line)
