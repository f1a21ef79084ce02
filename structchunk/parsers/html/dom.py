"""Shared HTML vocabulary: which elements are blocks or headings, and their visible text.

Elements are lxml's (see `tree.py`): an element's text before its first child is its
`text`, and the text after it, up to its next sibling, its `tail` — text of the parent,
so an element that is skipped still leaves its tail. Every walk here is iterative (an
explicit stack), so a page with 100 000 nested elements cannot reach Python's recursion
limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping

from .tree import Element

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


TEXTLESS_TAGS = frozenset({"script", "style", "template", "rt", "rp"})
"""Elements whose text is never page text: scripts and styles, inert templates, and ruby
annotations (the reading printed small over the characters it glosses, and its fallback
parentheses; the glossed characters stay). Their `tail` is text as usual."""


def heading_level(tag: Element) -> int | None:
    """1–6 for `h1`–`h6` and `role="heading"` elements, else None."""
    level = HEADING_TAGS.get(tag.tag)
    if level is not None or tag.get("role") != "heading":
        return level
    return _aria_level(tag.get("aria-level"))


def heading_level_of(name: str, attrs: Mapping[str, str]) -> int | None:
    """`heading_level` of an element called `name` with the attributes `attrs`."""
    level = HEADING_TAGS.get(name)
    if level is not None or attrs.get("role") != "heading":
        return level
    return _aria_level(attrs.get("aria-level"))


def _aria_level(value: str | None) -> int:
    try:
        return max(1, min(int((value or "").strip()), 6))
    except ValueError:
        return DEFAULT_ARIA_HEADING_LEVEL


def class_names(tag: Element) -> str:
    """The element's `class` attribute ("" without one)."""
    value = tag.get("class")
    return value if value is not None else ""


def _decorates(tag: Element) -> bool:
    """A link to the heading itself with no letter or digit (Sphinx's `¶`), or
    MediaWiki's `[edit]` span: it decorates the heading rather than names it."""
    if tag.tag == "a":
        href = tag.get("href")
        if (
            href is not None
            and href.startswith("#")
            and not _WORD_CHAR.search(inline_text(tag, ()))
        ):
            return True
    return EDIT_SECTION_CLASS in class_names(tag).split()


def heading_parts(heading: Element, skip: Container[Element]) -> tuple[str, list[Element]]:
    """A heading's own title, and the headings nested inside it, outermost first.

    Browsers end a heading where another begins; lxml nests an unclosed `<h1>A<h2>B` as
    h2 inside h1. The title leaves nested headings out (and decorations, see
    `_decorates`), and the walk never enters them, so 10 000 unclosed headings cost
    linear time, each read once.
    """
    left_out: set[Element] = set()
    nested: list[Element] = []
    stack = list(reversed(heading))
    while stack:
        node = stack.pop()
        if node in skip:
            continue
        if heading_level(node) is not None:
            nested.append(node)
            left_out.add(node)
        elif _decorates(node):
            left_out.add(node)
        else:
            stack.extend(reversed(node))
    return inline_text(heading, SkipEither(skip, left_out)), nested


class SkipEither:
    """Elements to skip: in either of two containers (no copy of a page-sized set)."""

    __slots__ = ("first", "second")

    def __init__(self, first: Container[Element], second: Container[Element]) -> None:
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


def inline_text(tag: Element, skip: Container[Element], separator: str = " ") -> str:
    """The visible text of `tag` on one line: block edges become `separator`."""
    pieces: list[str] = []
    stack: list[Element] = [tag]  # elements, and the strings still to add between them
    while stack:
        node = stack.pop()
        if type(node) is str:
            pieces.append(node)
            continue
        if node is not tag:
            tail = node.tail
            if tail:
                stack.append(tail)  # after everything inside the element
        if node in skip:
            continue
        name = node.tag
        if name == "br":
            pieces.append(" ")
            continue
        if name in TEXTLESS_TAGS:
            continue
        if name in BLOCK_TAGS and node is not tag:
            pieces.append(separator)
            stack.append(separator)
        stack.extend(reversed(node))
        text = node.text
        if text:
            pieces.append(text)
    return _WS.sub(" ", "".join(pieces)).strip()


_NEWLINE = object()
"""A block's end inside a `pre`, among the pieces `verbatim_text` still has to read."""


def verbatim_text(tag: Element, skip: Container[Element]) -> str:
    """Text of a `pre` as displayed: whitespace kept, `<br>` and block edges as newlines."""
    pieces: list[str] = []
    stack: list[object] = [tag]
    while stack:
        node = stack.pop()
        if node is _NEWLINE:
            if pieces and not pieces[-1].endswith("\n"):
                pieces.append("\n")
            continue
        if type(node) is str:
            pieces.append(node)
            continue
        element: Element = node
        if element is not tag:
            tail = element.tail
            if tail:
                stack.append(tail)
        if element in skip:
            continue
        name = element.tag
        if name == "br":
            pieces.append("\n")
            continue
        if name in TEXTLESS_TAGS:
            continue
        if name in BLOCK_TAGS and element is not tag:
            if pieces and not pieces[-1].endswith("\n"):
                pieces.append("\n")
            stack.append(_NEWLINE)
        stack.extend(reversed(element))
        text = element.text
        if text:
            pieces.append(text)
    text = "".join(pieces)
    if text.startswith("\n"):  # HTML drops one newline right after <pre>
        text = text[1:]
    return text.rstrip().replace("\r\n", "\n").replace("\r", "\n")


def child_named(tag: Element, name: str) -> Element | None:
    """The first child element called `name`."""
    for child in tag:
        if child.tag == name:
            return child
    return None


def has_descendant(tag: Element, name: str) -> bool:
    """Whether an element called `name` is anywhere below `tag` (stops at the first)."""
    return any(node is not tag for node in tag.iter(name))


def _shown_length(text: str | None) -> int:
    """Characters of a piece of text, a piece of only whitespace (indentation between
    tags) counting as the one space it shows at most."""
    if not text:
        return 0
    return len(text) if not text.isspace() else 1


def text_longer_than(tag: Element, limit: int) -> bool:
    """Whether the visible text below `tag` exceeds `limit` characters (stops once it
    does)."""
    total = 0
    stack = [tag]
    while stack:
        node = stack.pop()
        if node is not tag:
            total += _shown_length(node.tail)
        if node.tag not in TEXTLESS_TAGS:
            total += _shown_length(node.text)
            stack.extend(node)
        if total > limit:
            return True
    return False


def code_language(tag: Element) -> str:
    """`language-x` / `lang-x` class on a `pre` or its `code` child."""
    candidates = [tag]
    code = child_named(tag, "code")
    if code is not None:
        candidates.append(code)
    for node in candidates:
        match = _CODE_LANGUAGE.search(class_names(node))
        if match:
            return match.group(1).lower()
    return ""


def iter_tags(root: Element, prune: Callable[[Element], bool] | None = None) -> list[Element]:
    """All elements under `root` (itself included) in document order; subtrees whose
    root `prune` accepts are left out."""
    if prune is None:
        return list(root.iter())
    out: list[Element] = []
    stack = [root]
    while stack:
        tag = stack.pop()
        if prune(tag):
            continue
        out.append(tag)
        stack.extend(reversed(tag))
    return out
