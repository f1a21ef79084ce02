"""A page's text into elements: libxml2's HTML parser (through lxml) builds the tree.

The parser recovers broken markup as BeautifulSoup over lxml did (it is the same parser:
bs4 built its tree from lxml's events). Comments and processing instructions are left
out, so the text around one is one string, as a browser shows it. Two things the plain
parse cannot do are handled here:

- **depth**: libxml2 builds at most 2 048 nested elements and silently drops the rest of
  the page. Such a page is parsed again, by the same parser (same recovery), into
  `Node`s: plain Python elements with no depth limit;
- **several pages in one file**: each `<html>` after the first becomes a sibling of the
  root, so every top-level element is returned, in order.

The stages read an element only through `Element`'s few members, which `lxml.etree`
elements and `Node`s both have.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lxml import etree

from ...errors import ParseError

Element = Any
"""An `lxml.etree._Element`, or a `Node` for a page nested deeper than libxml2 builds.
What the stages use of it: `tag`, `text`, `tail`, `get(name)`, `items()`,
iterating over (and `reversed`, `len` of) its child elements, `getparent()`,
`getnext()`, `iterancestors()`, and `iter(name)`."""

_PARSER_OPTIONS: dict[str, object] = {
    "encoding": "utf-8",
    "remove_comments": True,
    "remove_pis": True,
    "huge_tree": True,  # text nodes over 10 MB, and 2 048 levels instead of 256
    "collect_ids": False,  # no hash table of `id`s: nothing looks elements up by id
    "default_doctype": False,
    "no_network": True,
}


def parse_tree(data: bytes) -> list[Element]:
    """The top-level elements of UTF-8 `data` (normally one `html`); [] for a page with
    no element at all."""
    parser = etree.HTMLParser(**_PARSER_OPTIONS)
    try:
        root = etree.fromstring(data, parser)
    except (etree.LxmlError, ValueError) as error:
        raise ParseError(f"cannot parse the HTML: {error}") from None
    last = parser.error_log.last_error
    if last is not None and last.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT:
        return _parse_nodes(data)
    if root is None:
        return []
    return [root, *(node for node in root.itersiblings() if isinstance(node.tag, str))]


def _parse_nodes(data: bytes) -> list[Element]:
    """The page as `Node`s, built from the parser's events by `_NodeBuilder`."""
    parser = etree.HTMLParser(target=_NodeBuilder(), **_PARSER_OPTIONS)
    try:
        document: Node = etree.fromstring(data, parser)
    except (etree.LxmlError, ValueError) as error:
        raise ParseError(f"cannot parse the HTML: {error}") from None
    for child in document.children:
        child.parent = None  # top-level, as an lxml root
    return document.children


class Node:
    """An element as lxml's, in plain Python: for pages nested too deep for libxml2."""

    __slots__ = ("attrib", "children", "index", "parent", "tag", "tail", "text")

    def __init__(self, tag: str, attrib: dict[str, str], parent: Node | None) -> None:
        self.tag = tag
        self.attrib = attrib
        self.parent = parent
        self.index = len(parent.children) if parent is not None else 0
        """Its place among its parent's children."""
        self.children: list[Node] = []
        self.text: str | None = None
        self.tail: str | None = None

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrib.get(name, default)

    def items(self) -> list[tuple[str, str]]:
        return list(self.attrib.items())

    def __iter__(self) -> Iterator[Node]:
        return iter(self.children)

    def __reversed__(self) -> Iterator[Node]:
        return reversed(self.children)

    def __len__(self) -> int:
        return len(self.children)

    def getparent(self) -> Node | None:
        return self.parent

    def getnext(self) -> Node | None:
        """The next sibling element (lxml's `getnext`)."""
        siblings = self.parent.children if self.parent is not None else ()
        return siblings[self.index + 1] if self.index + 1 < len(siblings) else None

    def iterancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def iter(self, tag: str | None = None) -> Iterator[Node]:
        """This node and its descendants in document order (those called `tag`)."""
        stack = [self]
        while stack:
            node = stack.pop()
            if tag is None or node.tag == tag:
                yield node
            stack.extend(reversed(node.children))


class _NodeBuilder:
    """An lxml parser target that builds `Node`s under a document node. Text arrives in
    pieces and is joined once, when the next element starts or ends."""

    def __init__(self) -> None:
        self.document = Node("", {}, None)
        self.open = [self.document]
        self.pending: list[str] = []

    def _place_text(self) -> None:
        if not self.pending:
            return
        text = "".join(self.pending)
        self.pending = []
        parent = self.open[-1]
        if parent.children:
            last = parent.children[-1]
            last.tail = (last.tail or "") + text
        else:
            parent.text = (parent.text or "") + text

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        self._place_text()
        parent = self.open[-1]
        node = Node(tag, dict(attrib), parent)
        parent.children.append(node)
        self.open.append(node)

    def end(self, tag: str) -> None:
        self._place_text()
        if len(self.open) > 1:
            self.open.pop()

    def data(self, text: str) -> None:
        self.pending.append(text)

    def close(self) -> Node:
        self._place_text()
        return self.document


def top_level_bodies(roots: list[Element]) -> list[Element]:
    """Every `body` in the page, in order (a file joining several pages has one per
    page); the top-level elements themselves when there is none."""
    bodies = [body for root in roots for body in root.iter("body")]
    return bodies or roots


def first_named(roots: list[Element], name: str) -> Element | None:
    """The first element called `name` in document order."""
    for root in roots:
        for element in root.iter(name):
            return element
    return None
