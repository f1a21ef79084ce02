"""Heading levels for the whole book: the chapters' own, unless the table of contents
nests deeper than they do.

Books mark chapter titles in every way: `h1` for parts and `h2` for chapters; `h1` for
everything (one file per part and per chapter, each starting at the top level); `h2`
for chapter titles and nothing above them; no heading at all, the title living only in
the contents. The table of contents (`anchors.py` ties its entries to the headings) is
the one outline every book has, so it decides where the headings cannot:

**The chapters' own levels are kept when they already nest the way the contents do**:
taking, for each contents depth, the level most of its headings have, deeper entries
have strictly deeper headings, and an entry without a heading of its own (its label
made a heading) fits between the levels of its neighbours and above the headings that
follow it in its text. So a flat contents (every entry at one depth) keeps the
headings' own nesting: parts in `h1` stay above chapters in `h2`.

**Otherwise the contents' depths are the levels**: a heading that is an entry's gets the
entry's depth; a label made a heading gets its entry's depth, and the headings that
follow it count from one below it; every other heading keeps its distance from the last
entry's heading before it (an `h2` after an `h1` chapter title lands one below the
chapter, wherever the contents put the chapter). Headings before the first entry keep
their own levels.
"""

from __future__ import annotations

from collections import Counter

from .anchors import Item, Title

MAX_LEVEL = 6


def heading_levels(items: list[Item]) -> list[int]:
    """The level of every `Title` in `items`, in order."""
    titles = [item for item in items if isinstance(item, Title)]
    kept = own_levels(titles)
    return kept if kept is not None else contents_levels(titles)


def depth_levels(titles: list[Title]) -> dict[int, int]:
    """For each contents depth, the level most of its own headings have (the lower on a tie)."""
    counts: dict[int, Counter[int]] = {}
    for title in titles:
        if title.depth is not None and not title.from_label:
            counts.setdefault(title.depth, Counter())[title.level] += 1
    return {
        depth: min(levels, key=lambda level: (-levels[level], level))
        for depth, levels in counts.items()
    }


def own_levels(titles: list[Title]) -> list[int] | None:
    """The chapters' own levels, with a level for every label made a heading; None when
    the headings do not nest the way the contents do."""
    by_depth = depth_levels(titles)
    depths = sorted(by_depth)
    if any(by_depth[a] >= by_depth[b] for a, b in zip(depths, depths[1:])):
        return None
    label_levels: dict[int, int] = {}
    for depth in {t.depth for t in titles if t.from_label and t.depth is not None}:
        level = _level_between(by_depth, depth)
        if level is None:
            return None
        label_levels[depth] = level
    levels = [
        label_levels[title.depth] if title.from_label and title.depth else title.level
        for title in titles
    ]
    return levels if _labels_head_their_text(titles, levels) else None


def _labels_head_their_text(titles: list[Title], levels: list[int]) -> bool:
    """Whether every heading that follows a label, up to the next entry's heading, is
    deeper than the label (a chapter named only by the contents, with `h2` sections,
    needs the label above `h2`)."""
    label_level: int | None = None
    for title, level in zip(titles, levels):
        if title.depth is not None:
            label_level = level if title.from_label else None
        elif label_level is not None and level <= label_level:
            return False
    return True


def _level_between(by_depth: dict[int, int], depth: int) -> int | None:
    """A level for a label at `depth` that is deeper than the headings of shallower
    entries and shallower than those of deeper ones; None if there is no room."""
    if depth in by_depth:
        return by_depth[depth]
    above = [d for d in by_depth if d < depth]
    below = [d for d in by_depth if d > depth]
    level = by_depth[max(above)] + depth - max(above) if above else depth
    limit = by_depth[min(below)] if below else MAX_LEVEL + 1
    return level if level < limit else None


def contents_levels(titles: list[Title]) -> list[int]:
    """Levels from the contents' depths (see the module)."""
    levels: list[int] = []
    anchor: tuple[int, int] | None = None  # (level given, own level) of the last entry's heading
    for title in titles:
        if title.depth is not None:
            level = min(title.depth, MAX_LEVEL)
            anchor = (level, title.level)
        elif anchor is not None:
            level = anchor[0] + title.level - anchor[1]
        else:
            level = title.level
        levels.append(max(1, min(level, MAX_LEVEL)))
    return levels
