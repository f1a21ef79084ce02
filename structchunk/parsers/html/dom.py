"""Shared HTML vocabulary: which elements are blocks or headings, and their visible text.

Every walk here is iterative (an explicit stack over `Tag.contents`), so a page with
100 000 nested elements cannot reach Python's recursion limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from typing import TypeGuard

from bs4.element import NavigableString, Tag

BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "listing",
        "main",
        "menu",
        "nav",
        "ol",
        "optgroup",
        "option",
        "p",
        "plaintext",
        "pre",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
        "xmp",
    }
)
"""Elements a browser displays as blocks (list items and table parts included): their
edges end a paragraph. Everything else — links, `em`, `code`, `span`, unknown custom
elements — is inline and flows into the surrounding text."""

HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
EDIT_SECTION_CLASS = "mw-editsection"
"""MediaWiki's `[edit]` link beside every section heading."""
PREFORMATTED_TAGS = frozenset({"pre", "listing", "xmp", "plaintext"})
DEFAULT_ARIA_HEADING_LEVEL = 2
"""WAI-ARIA: an element with `role="heading"` and no `aria-level` is a level-2 heading."""

LINE_BREAK = "\x00"
"""Stands for `<br>` among collected text pieces (NUL never survives decoding)."""

_WS = re.compile(r"\s+")
_BLANK_LINES = re.compile(r"\n{2,}")
_WORD_CHAR = re.compile(r"[^\W_]")
_CODE_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]+)")


def is_text(node: object) -> TypeGuard[NavigableString]:
    """Visible character data: not a comment, CDATA, doctype or processing instruction."""
    return type(node) is NavigableString


def heading_level(tag: Tag) -> int | None:
    """1–6 for `h1`–`h6` and `role="heading"` elements, else None."""
    level = HEADING_TAGS.get(tag.name)
    if level is not None:
        return level
    if tag.get("role") != "heading":
        return None
    raw = tag.get("aria-level")
    value = raw if isinstance(raw, str) else ""
    try:
        return max(1, min(int(value.strip()), 6))
    except ValueError:
        return DEFAULT_ARIA_HEADING_LEVEL


def _decorates(tag: Tag) -> bool:
    """A link to the heading itself with no letter or digit (Sphinx's `¶`), or
    MediaWiki's `[edit]` span: it decorates the heading rather than names it."""
    if tag.name == "a":
        href = tag.get("href")
        if isinstance(href, str) and href.startswith("#") and not _WORD_CHAR.search(tag.get_text()):
            return True
    classes = tag.get("class")
    return isinstance(classes, list) and EDIT_SECTION_CLASS in classes


def heading_parts(heading: Tag, skip: Container[int]) -> tuple[str, list[Tag]]:
    """A heading's own title, and the headings nested inside it, outermost first.

    Browsers end a heading where another begins; lxml nests an unclosed `<h1>A<h2>B` as
    h2 inside h1. The title leaves nested headings out (and decorations, see
    `_decorates`), and the walk never enters them, so 10 000 unclosed headings cost
    linear time, each read once.
    """
    left_out: set[int] = set()
    nested: list[Tag] = []
    stack = list(reversed(heading.contents))
    while stack:
        node = stack.pop()
        if not isinstance(node, Tag) or id(node) in skip:
            continue
        if heading_level(node) is not None:
            nested.append(node)
            left_out.add(id(node))
        elif _decorates(node):
            left_out.add(id(node))
        else:
            stack.extend(reversed(node.contents))
    return inline_text(heading, SkipEither(skip, left_out)), nested


class SkipEither:
    """Ids to skip: in either of two containers (no copy of a page-sized set)."""

    __slots__ = ("first", "second")

    def __init__(self, first: Container[int], second: Container[int]) -> None:
        self.first, self.second = first, second

    def __contains__(self, key: object) -> bool:
        return key in self.first or key in self.second


def collapse_pieces(pieces: list[str]) -> list[str]:
    """Browser-like whitespace collapsing of inline text; one string per paragraph.

    Runs of whitespace become one space, `<br>` a line break, and two or more `<br>` in
    a row (the old way of separating paragraphs) a paragraph break.
    """
    text = _WS.sub(" ", "".join(pieces))
    if LINE_BREAK not in text:
        text = text.strip()
        return [text] if text else []
    lines = [line.strip() for line in text.split(LINE_BREAK)]
    joined = _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip("\n")
    return [part for part in joined.split("\n\n") if part]


def inline_text(tag: Tag, skip: Container[int], separator: str = " ") -> str:
    """The visible text of `tag` on one line: block edges become `separator`."""
    pieces: list[str] = []
    stack: list[object] = [tag]
    while stack:
        node = stack.pop()
        if isinstance(node, Tag):
            if id(node) in skip:
                continue
            if node.name == "br":
                pieces.append(" ")
                continue
            block = node.name in BLOCK_TAGS and node is not tag
            if block:
                pieces.append(separator)
                stack.append(separator)
            stack.extend(reversed(node.contents))
        elif isinstance(node, str) and (is_text(node) or node == separator):
            pieces.append(node)
    return _WS.sub(" ", "".join(pieces)).strip()


def verbatim_text(tag: Tag, skip: Container[int]) -> str:
    """Text of a `pre` as displayed: whitespace kept, `<br>` and block edges as newlines."""
    pieces: list[str] = []
    stack: list[object] = [tag]
    newline = object()

    def at_line_start() -> bool:
        return not pieces or pieces[-1].endswith("\n")

    while stack:
        node = stack.pop()
        if node is newline:
            if not at_line_start():
                pieces.append("\n")
        elif isinstance(node, Tag):
            if id(node) in skip:
                continue
            if node.name == "br":
                pieces.append("\n")
                continue
            if node.name in BLOCK_TAGS and node is not tag:
                if not at_line_start():
                    pieces.append("\n")
                stack.append(newline)
            stack.extend(reversed(node.contents))
        elif is_text(node):
            pieces.append(str(node))
    text = "".join(pieces)
    if text.startswith("\n"):  # HTML drops one newline right after <pre>
        text = text[1:]
    return text.rstrip().replace("\r\n", "\n").replace("\r", "\n")


def child_named(tag: Tag, name: str) -> Tag | None:
    """The first child element called `name` (bs4's `find` would scan the whole subtree
    first, which is quadratic on nested tables)."""
    for child in tag.children:
        if isinstance(child, Tag) and child.name == name:
            return child
    return None


def has_descendant(tag: Tag, name: str) -> bool:
    """Whether an element called `name` is anywhere below `tag` (stops at the first)."""
    stack = [child for child in tag.children if isinstance(child, Tag)]
    while stack:
        node = stack.pop()
        if node.name == name:
            return True
        stack.extend(child for child in node.children if isinstance(child, Tag))
    return False


def text_longer_than(tag: Tag, limit: int) -> bool:
    """Whether the text below `tag` exceeds `limit` characters (stops once it does)."""
    total = 0
    stack: list[object] = [tag]
    while stack:
        node = stack.pop()
        if isinstance(node, Tag):
            stack.extend(node.contents)
        elif is_text(node):
            total += len(str(node))
            if total > limit:
                return True
    return False


def code_language(tag: Tag) -> str:
    """`language-x` / `lang-x` class on a `pre` or its `code` child."""
    candidates = [tag]
    code = child_named(tag, "code")
    if code is not None:
        candidates.append(code)
    for node in candidates:
        classes = node.get("class")
        if classes:
            text = " ".join(classes) if isinstance(classes, list) else str(classes)
            match = _CODE_LANGUAGE.search(text)
            if match:
                return match.group(1).lower()
    return ""


def iter_tags(root: Tag, prune: Callable[[Tag], bool] | None = None) -> list[Tag]:
    """All tags under `root` (itself included) in document order; subtrees whose root
    `prune` accepts are left out."""
    out: list[Tag] = []
    stack = [root]
    while stack:
        tag = stack.pop()
        if prune is not None and prune(tag):
            continue
        out.append(tag)
        stack.extend(child for child in reversed(tag.contents) if isinstance(child, Tag))
    return out
