"""One chapter of a book, walked into the caller's tree: HTML read as for a web page,
without what only suits web pages.

The EPUB reader (`parsers/epub`) calls `walk_chapter` once per content document, in
reading order, so a whole book becomes one section tree. Compared with `parse()` for a
web page:

- the whole body is kept: a chapter has no navigation bars, sidebars or comment threads,
  so no main content is chosen, and `aside` stays (EPUB 3 footnotes are asides);
- no title is taken from `<title>` or an `h1` (the book's metadata and navigation name
  the book and its chapters);
- what is never content is still dropped: scripts, styles, media, form controls, hidden
  elements, `nav` (a contents list), anything marked as a contents list
  (`epub:type="toc"`, `role="doc-toc"`) and page-break markers (`epub:type="pagebreak"`,
  `role="doc-pagebreak"`: the printed edition's page numbers);
- the places the caller asks about are reported: when the walk reaches an element whose
  `id` (or an `a`'s `name`) is in `targets`, `sink.target(id)` is called before anything
  inside it is reported, and before the heading that holds it;
- a note reference (`epub:type="noteref"`, `role="doc-noteref"`) is written ` [1]`, so a
  footnote number does not fuse with the word before it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Protocol

from bs4 import Tag

from . import make_soup
from .boilerplate import DROP_TAGS, is_hidden
from .dom import heading_level, iter_tags
from .encoding import decode_html
from .walker import HtmlWalker, TreeSink

CHAPTER_DROP_TAGS = DROP_TAGS - {"aside"}
"""The web page's never-content tags, except `aside`: in a book it holds footnotes and
sidebars, not page furniture."""

DEFAULT_DOCTYPE_CHARS = 4096
"""How far into a chapter a doctype's internal subset is looked for (real ones declare a
few entities in a few hundred characters)."""
_INTERNAL_SUBSET = re.compile(r"(<!DOCTYPE[^\[>]*)\[.*?\]\s*>", re.DOTALL | re.IGNORECASE)
"""An XHTML doctype's internal subset (`<!DOCTYPE html [<!ENTITY …>]>`): the HTML parser
ends the doctype at the first `>`, leaving `]>` as text. Its entities are not expanded."""

_DROPPED_TYPES = frozenset({"pagebreak", "toc"})
_DROPPED_ROLES = frozenset({"doc-pagebreak", "doc-toc"})


class ChapterSink(TreeSink, Protocol):
    """A `TreeSink` that is also told where the navigation's targets are."""

    def target(self, fragment: str) -> None: ...


def walk_chapter(data: bytes, sink: ChapterSink, targets: Collection[str] = ()) -> None:
    """Report the headings and blocks of one (X)HTML chapter to `sink`, and the `targets`
    (element ids) the walk passes. Decoding is the web page's (BOM, `<meta charset>`, XML
    declaration, detection); binary data raises a one-line `ParseError`."""
    text = decode_html(data)
    if not text.strip():
        return
    head = text[:DEFAULT_DOCTYPE_CHARS]
    if "[" in head:
        text = _INTERNAL_SUBSET.sub(r"\1>", head, count=1) + text[DEFAULT_DOCTYPE_CHARS:]
    soup = make_soup(text)
    _ChapterWalker(sink, chapter_skip(soup), targets).walk(soup)


def epub_types(tag: Tag) -> list[str]:
    """The tokens of an element's `epub:type` attribute."""
    value = tag.get("epub:type")
    return value.split() if isinstance(value, str) else []


def _never_content(tag: Tag) -> bool:
    if tag.name in CHAPTER_DROP_TAGS or is_hidden(tag):
        return True
    if not tag.attrs:
        return False
    role = tag.get("role")
    if isinstance(role, str) and role.strip() in _DROPPED_ROLES:
        return True
    return not _DROPPED_TYPES.isdisjoint(epub_types(tag))


def chapter_skip(root: Tag) -> set[int]:
    """`id()`s of the elements under `root` that are never content (see the module)."""
    skip: set[int] = set()

    def prune(tag: Tag) -> bool:
        if tag is not root and _never_content(tag):
            skip.add(id(tag))
            return True
        return False

    iter_tags(root, prune)
    return skip


def _is_noteref(tag: Tag) -> bool:
    return tag.name == "a" and ("noteref" in epub_types(tag) or tag.get("role") == "doc-noteref")


def _own_ids(tag: Tag) -> list[str]:
    found = []
    for name in ("id", "name") if tag.name == "a" else ("id",):
        value = tag.get(name)
        if isinstance(value, str) and value:
            found.append(value)
    return found


class _ChapterWalker(HtmlWalker):
    """The web page's walk, reporting targets and bracketing note references."""

    def __init__(self, sink: ChapterSink, skip: set[int], targets: Collection[str]) -> None:
        super().__init__(sink, skip)
        self.sink = sink
        self.targets = targets
        self.notes: set[int] = set()

    def enter(self, tag: Tag) -> bool:
        if self.targets and not (self.lists or self.items):
            # Inside a list a section cannot start: the list is reported as one block
            # when it closes, so a target there is not reported.
            self._report_targets(tag)
        entered = super().enter(tag)
        if entered and _is_noteref(tag):
            self.pieces.append(" [")
            self.notes.add(id(tag))
        return entered

    def leave(self, tag: Tag) -> None:
        if id(tag) in self.notes:
            self.pieces.append("]")
        super().leave(tag)

    def _report_targets(self, tag: Tag) -> None:
        found = [ident for ident in _own_ids(tag) if ident in self.targets]
        if heading_level(tag) is not None:
            found.extend(self._ids_inside_heading(tag))
        if not found:
            return
        self.flush()  # the text before the target belongs to what came before it
        for ident in found:
            self.sink.target(ident)

    def _ids_inside_heading(self, heading: Tag) -> list[str]:
        """Targets inside a heading's own title (`<h2><a id="ch1"/>Title</h2>`); the walk
        never enters a heading, and nested headings are walked, so reported, on their own."""
        found: list[str] = []
        stack = [child for child in reversed(heading.contents) if isinstance(child, Tag)]
        while stack:
            node = stack.pop()
            if id(node) in self.skip or heading_level(node) is not None:
                continue
            found.extend(ident for ident in _own_ids(node) if ident in self.targets)
            stack.extend(child for child in reversed(node.contents) if isinstance(child, Tag))
        return found
