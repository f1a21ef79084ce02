"""Heading groups: a title in several elements read as one heading.

Carefully made books and pages split a title over elements: a chapter's number in the
heading and its name in a paragraph beside it, a book's title and its subtitle.

    <hgroup><h2>I</h2><p epub:type="title">A Letter with a Postscript</p></hgroup>
    <header><h1>Frankenstein</h1><p role="doc-subtitle">The Modern Prometheus</p></header>
    <h1>Frankenstein</h1><p role="doc-subtitle">The Modern Prometheus</p>

A reader sees one title, and a contents page names it in full ("I: A Letter with a
Postscript"), so each of these is one heading, its parts joined by ": " (a part that
already ends in a colon or a stop is followed by a space only), at the level of the
highest heading among them:

- an `hgroup`: its headings and paragraphs (HTML's heading group: one heading and the
  paragraphs that go with it);
- a `header` that opens with headings and elements marked as titles
  (`epub:type="title"`/`"subtitle"`, `role="doc-subtitle"`), at least one of each:
  those children (an epigraph or a byline after them is walked as usual);
- a heading followed at once by an element marked as a subtitle.

A group whose heading holds another heading (an unclosed `<h1>` of a broken page) is
left to the usual walk.
"""

from __future__ import annotations

from collections.abc import Container

from .dom import heading_level, heading_parts, inline_text
from .tree import Element

TITLE_TYPES = frozenset({"title", "subtitle"})
"""`epub:type` values of an element that holds (part of) a title."""
SUBTITLE_ROLE = "doc-subtitle"
"""The DPUB-ARIA role of a subtitle."""
_GROUP_PART_TAGS = frozenset({"p", "div", "span"})
"""What else than a heading an `hgroup` holds as part of its title (HTML allows `p`;
older books used `div` and `span`)."""
_JOINED_AFTER = (":", ".", ";", "!", "?", "—", "–", "-")
"""A part ending in one of these is followed by a space, not ": "."""


def marked_title(tag: Element) -> bool:
    """Marked as (part of) a title: `epub:type` title/subtitle, or `role="doc-subtitle"`."""
    kinds = tag.get("epub:type")
    if kinds is not None and not TITLE_TYPES.isdisjoint(kinds.split()):
        return True
    return (tag.get("role") or "").strip() == SUBTITLE_ROLE


def group_parts(tag: Element, skip: Container[Element]) -> list[Element]:
    """The parts of the heading group `tag` is, in order; [] when it is none."""
    name = tag.tag
    if name == "hgroup":
        parts = [
            child
            for child in tag
            if child not in skip
            and (heading_level(child) is not None or child.tag in _GROUP_PART_TAGS)
        ]
    elif name == "header":
        parts = []
        for child in tag:  # the leading run: what comes before the title stays before it
            if child in skip:
                continue
            if heading_level(child) is None and not marked_title(child):
                break
            parts.append(child)
        if all(heading_level(part) is not None for part in parts):
            return []
    else:
        return []
    headings = [part for part in parts if heading_level(part) is not None]
    if len(parts) < 2 or not headings or any(heading_parts(h, skip)[1] for h in headings):
        return []
    return parts


def group_level(parts: list[Element]) -> int:
    """The level of a group's highest heading."""
    return min(level for part in parts if (level := heading_level(part)) is not None)


def subtitle_after(heading: Element, skip: Container[Element]) -> Element | None:
    """The subtitle that follows `heading` at once (no text between), if any."""
    if (heading.tail or "").strip():
        return None
    following = heading.getnext()  # comments are not in the tree (`tree.py`)
    if following is None or following in skip or heading_level(following) is not None:
        return None
    return following if marked_title(following) else None


def group_title(parts: list[Element], skip: Container[Element]) -> str:
    """The parts' texts joined into one title (see the module)."""
    title = ""
    for part in parts:
        text = heading_parts(part, skip)[0] if heading_level(part) else inline_text(part, skip)
        if not text:
            continue
        if not title:
            title = text
        elif title.endswith(_JOINED_AFTER):
            title = f"{title} {text}"
        else:
            title = f"{title}: {text}"
    return title
