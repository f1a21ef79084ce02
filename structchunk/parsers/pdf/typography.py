"""Headings from typography alone: larger or distinctly bold short standalone lines.

The body style is the most common font size (by characters). A line is a heading
candidate when it is short, in one style, not code and not a list item, and either
clearly larger than the body text, or bold in another font family than the body at
about body size (a sans-serif run-in heading over serif text) — a bold run of the body
font is emphasis (`Note`, `Topics`), not a heading. Candidate styles are ranked by size
(then weight) into levels 1–6; consecutive candidate lines of one style are one heading.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .cleanup import BULLET_GLYPHS, font_family
from .types import Line, PageContent

DEFAULT_HEADING_SIZE_RATIO = 1.12
"""Font size, relative to the body size, from which a short standalone line is a heading
(browsers' h4 is 1.0, h3 1.17, h2 1.5 of the body; LaTeX's \\subsection is 1.2)."""
DEFAULT_BOLD_MIN_RATIO = 0.75
"""A bold line in another font family counts down to this size ratio (browsers' h5 and
h6 are 0.83 and 0.67 of the body size)."""
DEFAULT_HEADING_MAX_WORDS = 24
"""Longest heading, in words, after joining its lines."""
DEFAULT_MAIN_SHARE = 0.7
"""A bold body-size heading is mostly in its bold font (code spans aside)."""
DEFAULT_INLINE_USES = 3
"""A bold style used inside this many body lines is emphasis, not a heading style."""
DEFAULT_MAX_STYLE_SHARE = 0.2
"""A style holding more than this share of the text is a body style, not a heading one."""
DEFAULT_MERGE_GAP = 0.8
"""Lines of one heading are at most this many font sizes apart (gap between boxes)."""
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+\S")
_ENDS_LIKE_SENTENCE = re.compile(r"[.,;]$")
_SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*\.?)\s+\S")

Style = tuple[float, bool]


def _style(line: Line) -> Style:
    return (round(line.size * 2) / 2, line.bold)


def body_style(lines: list[Line]) -> tuple[float, str]:
    """(size, family) of the most common text (by characters), code excluded."""
    sizes: Counter[float] = Counter()
    families: Counter[tuple[float, str]] = Counter()
    for line in lines:
        if not line.mono:
            size = round(line.size * 2) / 2
            sizes[size] += line.chars
            families[(size, font_family(line.font))] += line.chars
    if not sizes:
        return 10.0, ""
    size = sizes.most_common(1)[0][0]
    family = max((f for s, f in families if s == size), key=lambda f: families[(size, f)])
    return size, family


def _looks_like_heading(line: Line) -> bool:
    text = line.printed()
    words = text.split()
    if line.mono or not line.uniform or line.synthetic or not words:
        return False
    if line.marker in BULLET_GLYPHS or not any(ch.isalpha() for ch in text):
        return False
    if len(words) > DEFAULT_HEADING_MAX_WORDS:
        return False
    return not _ENDS_LIKE_SENTENCE.search(text) or bool(_NUMBERED.match(text))


@dataclass(frozen=True)
class _Body:
    """What body text looks like in this document."""

    size: float
    family: str
    inline: Counter[tuple[str, float]]
    share: Counter[Style]
    total: int


def _body(lines: list[Line]) -> _Body:
    size, family = body_style(lines)
    inline: Counter[tuple[str, float]] = Counter()
    share: Counter[Style] = Counter()
    for line in lines:
        inline.update(set(line.inline_styles))
        share[_style(line)] += line.chars
    return _Body(size, family, inline, share, sum(line.chars for line in lines) or 1)


def _prominent(line: Line, body: _Body) -> bool:
    """Larger than body text, or bold in another family at about body size."""
    if not _looks_like_heading(line):
        return False
    if body.share[_style(line)] > DEFAULT_MAX_STYLE_SHARE * body.total:
        return False
    if line.size >= body.size * DEFAULT_HEADING_SIZE_RATIO:
        return True
    return (
        line.bold
        and line.size >= body.size * DEFAULT_BOLD_MIN_RATIO
        and line.main_share >= DEFAULT_MAIN_SHARE
        and font_family(line.font) != body.family
        and body.inline[(line.font, round(line.size, 1))] < DEFAULT_INLINE_USES
    )


def heading_styles(lines: list[Line]) -> dict[Style, int]:
    """Candidate heading styles → level (1 = most prominent)."""
    body = _body(lines)
    styles = {_style(line) for line in lines if _prominent(line, body)}
    ranked = sorted(styles, key=lambda s: (-s[0], not s[1]))
    return {style: min(rank + 1, 6) for rank, style in enumerate(ranked)}


def merge_lines(lines: list[Line]) -> Line:
    """A heading printed over several lines, as one line."""
    first = lines[0]
    for other in lines[1:]:
        first.text = f"{first.text} {other.printed()}"
        first.x0, first.x1 = min(first.x0, other.x0), max(first.x1, other.x1)
        first.bottom = max(first.bottom, other.bottom)
        first.chars += other.chars
    return first


def merge_runs(pages: list[PageContent], same: Callable[[Line, Line], bool]) -> None:
    """Merge consecutive heading lines of one page for which `same(previous, line)` holds."""
    for page in pages:
        items: list[Line | object] = []
        run: list[Line] = []
        for item in page.items:
            if isinstance(item, Line) and item.heading and run and same(run[-1], item):
                run.append(item)
                continue
            if run:
                items.append(merge_lines(run))
                run = []
            if isinstance(item, Line) and item.heading:
                run.append(item)
            else:
                items.append(item)
        if run:
            items.append(merge_lines(run))
        page.items = items  # type: ignore[assignment]


def _same_heading(a: Line, b: Line) -> bool:
    return (
        a.heading == b.heading
        and a.region == b.region
        and a.page == b.page
        and b.top - a.bottom <= DEFAULT_MERGE_GAP * max(a.size, 1.0)
    )


def _refine_by_numbering(headings: list[Line]) -> None:
    """`2` and `2.3` in one style are two levels: numbering depth splits a style."""
    depths: dict[int, list[tuple[Line, int]]] = {}
    for line in headings:
        match = _SECTION_NUMBER.match(line.printed())
        if match:
            depth = match.group(1).rstrip(".").count(".") + 1
            depths.setdefault(line.heading, []).append((line, depth))
    for numbered in depths.values():
        shallowest = min(depth for _, depth in numbered)
        for line, depth in numbered:
            line.heading = min(6, line.heading + depth - shallowest)


def typography_headings(pages: list[PageContent]) -> None:
    """Mark heading lines by typography and join wrapped headings."""
    lines = [line for page in pages for line in page.lines()]
    body = _body(lines)
    levels = heading_styles(lines)
    for line in lines:
        if _prominent(line, body):
            line.heading = levels[_style(line)]
    _refine_by_numbering([line for line in lines if line.heading])
    merge_runs(pages, _same_heading)
    for page in pages:
        for line in page.lines():
            if line.heading and len(line.text.split()) > DEFAULT_HEADING_MAX_WORDS:
                line.heading = 0
