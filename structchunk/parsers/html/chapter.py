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

from .boilerplate import DROP_TAGS, is_hidden
from .dom import heading_level, iter_tags
from .encoding import decode_for_parsing
from .groups import group_parts
from .tree import Element, parse_tree
from .walker import GROUP_TAGS, HtmlWalker, TreeSink

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
    text, utf8 = decode_for_parsing(data)
    if not text.strip():
        return
    head = text[:DEFAULT_DOCTYPE_CHARS]
    if "[" in head:
        text = _INTERNAL_SUBSET.sub(r"\1>", head, count=1) + text[DEFAULT_DOCTYPE_CHARS:]
        utf8 = text.encode("utf-8")
    roots = parse_tree(utf8)
    walker = _ChapterWalker(sink, chapter_skip(roots), targets)
    for root in roots:
        walker.walk(root)


def epub_types(tag: Element) -> list[str]:
    """The tokens of an element's `epub:type` attribute."""
    value = tag.get("epub:type")
    return value.split() if value is not None else []


def _never_content(tag: Element) -> bool:
    if tag.tag in CHAPTER_DROP_TAGS:
        return True
    items = tag.items()
    if not items:
        return False
    attrs = dict(items)
    if is_hidden(attrs):
        return True
    role = attrs.get("role")
    if role is not None and role.strip() in _DROPPED_ROLES:
        return True
    return not _DROPPED_TYPES.isdisjoint(attrs.get("epub:type", "").split())


def chapter_skip(roots: list[Element]) -> set[Element]:
    """The elements under the top-level `roots` that are never content (see the
    module)."""
    skip: set[Element] = set()

    def prune(tag: Element) -> bool:
        if _never_content(tag):
            skip.add(tag)
            return True
        return False

    for root in roots:
        for child in root:
            iter_tags(child, prune)
    return skip


def _is_noteref(tag: Element) -> bool:
    return tag.tag == "a" and ("noteref" in epub_types(tag) or tag.get("role") == "doc-noteref")


def _own_ids(tag: Element) -> list[str]:
    found = []
    for name in ("id", "name") if tag.tag == "a" else ("id",):
        value = tag.get(name)
        if value:
            found.append(value)
    return found


class _ChapterWalker(HtmlWalker):
    """The web page's walk, reporting targets and bracketing note references."""

    def __init__(self, sink: ChapterSink, skip: set[Element], targets: Collection[str]) -> None:
        super().__init__(sink, skip)
        self.sink = sink
        self.targets = targets
        self.notes: set[Element] = set()

    def enter(self, tag: Element) -> bool:
        if self.targets and not (self.lists or self.items):
            # Inside a list a section cannot start: the list is reported as one block
            # when it closes, so a target there is not reported.
            self._report_targets(tag)
        entered = super().enter(tag)
        if entered and _is_noteref(tag):
            self.pieces.append(" [")
            self.notes.add(tag)
        return entered

    def leave(self, tag: Element) -> None:
        if tag in self.notes:
            self.pieces.append("]")
        super().leave(tag)

    def _report_targets(self, tag: Element) -> None:
        found = [ident for ident in _own_ids(tag) if ident in self.targets]
        if heading_level(tag) is not None:
            found.extend(self._ids_inside_heading(tag))
        elif tag.tag in GROUP_TAGS:
            for part in group_parts(tag, self.skip):  # read as one heading, never entered
                found.extend(ident for ident in _own_ids(part) if ident in self.targets)
                found.extend(self._ids_inside_heading(part))
        if not found:
            return
        self.flush()  # the text before the target belongs to what came before it
        for ident in found:
            self.sink.target(ident)

    def _ids_inside_heading(self, heading: Element) -> list[str]:
        """Targets inside a heading's own title (`<h2><a id="ch1"/>Title</h2>`); the walk
        never enters a heading, and nested headings are walked, so reported, on their own."""
        found: list[str] = []
        stack = list(reversed(heading))
        while stack:
            node = stack.pop()
            if node in self.skip or heading_level(node) is not None:
                continue
            found.extend(ident for ident in _own_ids(node) if ident in self.targets)
            stack.extend(reversed(node))
        return found
