"""One iterative walk over the content in document order, reporting headings and blocks to
the `TreeBuilder` (or any `TreeSink`). Inline markup is text in flow; block elements end paragraphs;
whitespace is collapsed as a browser would; lists nest, and code and tables inside a
list item become part of the item's text.

An element's `text` is read once the element is entered, and its `tail` once it is left
(or skipped, or not entered): the tail is its parent's text, after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from ...document import Block, Code, ListBlock, ListItem, Paragraph
from ..builder import flatten_code, flatten_table
from .dom import (
    BLOCK_TAGS,
    LINE_BREAK,
    PREFORMATTED_TAGS,
    TEXTLESS_TAGS,
    code_language,
    collapse_pieces,
    heading_level,
    heading_parts,
    verbatim_text,
)
from .groups import group_level, group_parts, group_title, subtitle_after
from .tables import is_data_table, read_table
from .tree import Element

_LIST_TAGS = frozenset({"ul", "ol", "menu", "dir"})
GROUP_TAGS = frozenset({"hgroup", "header"})
"""Elements that may group a title's parts into one heading (`groups.py`)."""


DEFAULT_MAX_LIST_DEPTH = 32
"""Lists nested deeper than this are shown at this depth: indentation grows with depth,
and 20 000 nested lists must not become gigabytes of spaces. (Real documents stay
under ten levels.)"""


class TreeSink(Protocol):
    """What the walk reports to: a `TreeBuilder`, or a caller that records the headings and
    blocks first (the EPUB reader sets heading levels from the book's navigation)."""

    def heading(self, level: int, title: str) -> object: ...

    def add(self, block: Block) -> None: ...


@dataclass(slots=True)
class _List:
    """An open `ul`/`ol`/`dl`: its nesting depth and the number of its next item."""

    depth: int
    ordered: bool
    next_number: int
    definitions: bool = False


@dataclass(slots=True)
class _Item:
    """An open list item (or `dt`/`dd` group) collecting its text."""

    owner: _List
    marker: str
    tag: Element | None = None
    """The `li` that opened the item; None for a `dt`/`dd` group."""
    parts: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    in_definition: bool = False
    emitted: bool = False


class HtmlWalker:
    """One pass over the kept part of the page, reporting to the builder."""

    def __init__(self, builder: TreeSink, skip: set[Element]) -> None:
        self.builder = builder
        self.skip = skip
        self.pieces: list[str] = []
        self.lists: list[_List] = []
        self.items: list[_Item] = []
        self.list_block: ListBlock | None = None
        self.quote_depth = 0
        self.nested: list[Element] | None = None
        """Set by `enter` when a tag's walk covers only these elements, not its contents."""
        self.grouped: set[Element] = set()
        """Elements already read as part of a heading group's title (`groups.py`)."""
        self._enter: dict[str, Callable[[Element], bool]] = {
            "br": self._br,
            "hr": self._hr,
            "ul": self._open_list,
            "ol": self._open_list,
            "menu": self._open_list,
            "dir": self._open_list,
            "li": self._open_item,
            "dl": self._open_list,
            "dt": self._open_term,
            "dd": self._open_definition,
            "table": self._table,
            "blockquote": self._blockquote,
        }

    # -- the walk ------------------------------------------------------------------

    def walk(self, root: Element) -> None:
        """Visit `root` and its subtree in document order with an explicit stack of
        (element, its children still to visit, whether their tails are text here)."""
        stack: list[tuple[Element, Iterator[Element], bool]] = []
        if self.enter(root):
            stack.append(self._inside(root))
        while stack:
            tag, children, tails = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                self.leave(tag)
                if stack and stack[-1][2]:
                    self._tail(tag)
            elif child not in self.skip and child not in self.grouped and self.enter(child):
                stack.append(self._inside(child))
            elif tails:
                self._tail(child)
        self.flush()

    def _inside(self, tag: Element) -> tuple[Element, Iterator[Element], bool]:
        """What to walk inside `tag` once `enter` said to: its text and children, or
        only the headings nested in it when it is a heading (its text, theirs and their
        tails are the heading's title)."""
        if self.nested:
            nested, self.nested = self.nested, None
            return tag, iter(nested), False
        text = tag.text
        if text:
            self.pieces.append(text)
        return tag, iter(tag), True

    def _tail(self, tag: Element) -> None:
        """The text after `tag`, which its parent holds."""
        tail = tag.tail
        if tail:
            self.pieces.append(tail)

    def enter(self, tag: Element) -> bool:
        """Handle an opening tag; True to walk its children."""
        name = tag.tag
        handler = self._enter.get(name)
        if handler is not None:
            return handler(tag)
        if name in GROUP_TAGS:
            parts = group_parts(tag, self.skip)
            if parts:
                self.flush()
                self.grouped.update(parts)
                self.report_heading(group_level(parts), group_title(parts, self.skip))
                return True
        level = heading_level(tag)
        if level is not None:
            self.nested = self.heading(tag, level)
            return bool(self.nested)
        if name in PREFORMATTED_TAGS:
            self.flush()
            self.add_code(verbatim_text(tag, self.skip), code_language(tag))
            return False
        if name in BLOCK_TAGS:
            self.flush()
        elif name in TEXTLESS_TAGS:
            return False
        return len(tag) > 0 or bool(tag.text)

    def leave(self, tag: Element) -> None:
        name = tag.tag
        if name in _LIST_TAGS or name == "dl":
            self.close_list()
        elif name == "li":
            self.flush()
            if self.items and self.items[-1].tag is tag:
                self.emit_item(self.items.pop())
        elif name == "blockquote":
            self.flush()
            self.quote_depth -= 1
        elif name in BLOCK_TAGS:
            self.flush()

    # -- sinks ---------------------------------------------------------------------

    def flush(self) -> None:
        """Turn the collected inline text into paragraphs (or list-item text)."""
        if not self.pieces:
            return
        paragraphs = collapse_pieces(self.pieces)
        self.pieces = []
        for text in paragraphs:
            self.add_text(text)

    def add_text(self, text: str) -> None:
        if not self.items:
            if self.lists:
                self.add_loose_item(text)
            else:
                self.builder.add(Paragraph(text))
        elif self.items[-1].owner.definitions and not self.items[-1].in_definition:
            self.items[-1].terms.append(text)
        else:
            self.items[-1].parts.append(text)

    def add_code(self, text: str, language: str) -> None:
        if not text.strip():
            return
        if self.items:
            self.items[-1].parts.append(flatten_code(text, language))
        elif self.lists:
            self.add_loose_item(flatten_code(text, language))
        else:
            self.builder.add(Code(text, language))

    def add_loose_item(self, text: str) -> None:
        """Text inside a list but outside its items (invalid, but browsers show it)."""
        if self.list_block is not None:
            self.list_block.items.append(ListItem(text, "-", self.lists[-1].depth))

    def heading(self, tag: Element, level: int) -> list[Element]:
        """Report the heading (with the subtitle that follows it, if any); returns the
        headings nested in it, to be walked next."""
        self.flush()
        title, nested = heading_parts(tag, self.skip)
        subtitle = subtitle_after(tag, self.skip) if not nested else None
        if subtitle is not None:
            self.grouped.add(subtitle)
            title = group_title([tag, subtitle], self.skip)
        self.report_heading(level, title)
        return nested

    def report_heading(self, level: int, title: str) -> None:
        """A heading, or text where a section cannot start (in a list or a quote)."""
        if title and (self.items or self.lists or self.quote_depth):
            self.add_text(title)
        elif title:
            self.builder.heading(level, title)

    # -- element handlers (return True to walk the children) -------------------------

    def _br(self, tag: Element) -> bool:
        self.pieces.append(LINE_BREAK)
        return False

    def _hr(self, tag: Element) -> bool:
        self.flush()
        return False

    def _blockquote(self, tag: Element) -> bool:
        self.flush()
        self.quote_depth += 1
        return True

    def _table(self, tag: Element) -> bool:
        self.flush()
        if not is_data_table(tag, self.skip):
            return True
        table = read_table(tag, self.skip)
        if table is None:
            return False
        if self.items or self.lists:
            self.add_text(flatten_table(table))
        else:
            self.builder.add(table)
        return False

    def _open_list(self, tag: Element) -> bool:
        self.flush()
        if self.items:
            self.emit_item(self.items[-1])
        elif not self.lists:
            self.list_block = ListBlock([])
        name = tag.tag
        ordered = name == "ol"
        start = _int_attribute(tag, "start", 1) if ordered else 0
        depth = min(len(self.lists), DEFAULT_MAX_LIST_DEPTH)
        self.lists.append(_List(depth, ordered, start, name == "dl"))
        return True

    def close_list(self) -> None:
        self.flush()
        if not self.lists:
            return
        closing = self.lists.pop()
        if closing.definitions and self.items and self.items[-1].owner is closing:
            self.emit_item(self.items.pop())
        if not self.lists and self.list_block is not None:
            if self.list_block.items:
                self.builder.add(self.list_block)
            self.list_block = None

    def _open_item(self, tag: Element) -> bool:
        self.flush()
        if not self.lists or self.lists[-1].definitions:
            return True  # a stray `li`: its text becomes paragraphs
        state = self.lists[-1]
        if state.ordered:
            state.next_number = _int_attribute(tag, "value", state.next_number)
            marker = f"{state.next_number}."
            state.next_number += 1
        else:
            marker = "-"
        self.items.append(_Item(state, marker, tag))
        return True

    def _open_term(self, tag: Element) -> bool:
        self.flush()
        if not self.lists or not self.lists[-1].definitions:
            return True
        current = self.items[-1] if self.items else None
        if current is not None and current.owner is self.lists[-1]:
            if not current.in_definition:
                return True  # several terms for one definition
            self.emit_item(self.items.pop())
        self.items.append(_Item(self.lists[-1], "-"))
        return True

    def _open_definition(self, tag: Element) -> bool:
        self.flush()
        if not self.lists or not self.lists[-1].definitions:
            return True
        current = self.items[-1] if self.items else None
        if current is None or current.owner is not self.lists[-1]:
            current = _Item(self.lists[-1], "-")
            self.items.append(current)
        current.in_definition = True
        return True

    def emit_item(self, item: _Item) -> None:
        """Add the item's collected text to the list as one flattened `ListItem`."""
        text = "\n\n".join(item.parts)
        if item.terms:
            term = ", ".join(item.terms)
            text = f"{term}: {text}" if text else term
        item.parts, item.terms = [], []
        if not text or self.list_block is None:
            return
        marker = item.marker if not item.emitted else " " * len(item.marker)
        self.list_block.items.append(ListItem(text, marker, item.owner.depth))
        item.emitted = True


def _int_attribute(tag: Element, name: str, default: int) -> int:
    raw = tag.get(name)
    try:
        return int(raw.strip()) if raw is not None else default
    except ValueError:
        return default
