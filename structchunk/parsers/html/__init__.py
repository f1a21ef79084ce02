"""HTML pages into the section tree: headings, paragraphs, lists, tables and code.

The stages, in order:

    encoding.py     bytes to text: BOM, `<meta charset>`, then detection
    tree.py         lxml (libxml2's HTML parser) builds the element tree
    boilerplate.py  navigation, scripts, banners and page header/footer dropped
    content.py      the main content chosen: `main`, a dominant `article`, or the densest block
    walker.py       one walk in document order reporting headings and blocks to the builder
                    (`dom.py`: element vocabulary and visible text; `tables.py`: data tables;
                    `groups.py`: a title split over elements read as one heading)
"""

from __future__ import annotations

from collections.abc import Iterator

from ...document import Document, ListBlock, Table
from ..builder import TreeBuilder
from ..settings import ParseSettings
from .boilerplate import text_weight
from .content import select_content
from .dom import child_named, inline_text
from .encoding import decode_for_parsing
from .tree import Element, first_named, parse_tree, top_level_bodies
from .walker import HtmlWalker


def page_title(roots: list[Element]) -> str:
    """The `<title>` in the page's head (an SVG's own `<title>` in the body is not it)."""
    head = first_named(roots, "head")
    title = child_named(head, "title") if head is not None else None
    return inline_text(title, ()) if title is not None else ""


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse HTML bytes into a `Document` (empty pages give an empty document)."""
    builder = TreeBuilder("html")
    text, utf8 = decode_for_parsing(data)
    if not text.strip():
        return builder.finish()
    roots = parse_tree(utf8)
    del utf8  # the page's bytes again, or a copy: only the tree needed them
    page_chars = 0
    for number, body in enumerate(top_level_bodies(roots)):
        content = select_content(body)
        page_chars += content.page_chars
        if number == 0 and not content.has_h1:
            builder.set_title(content.page_h1 or page_title(roots))
        elif number and not content.has_h1 and content.page_h1:
            builder.heading(1, content.page_h1)  # a joined page: its own title heads it
        HtmlWalker(builder, content.skip).walk(content.root)
    document = builder.finish(text)
    _warn_when_most_is_dropped(document, page_chars)
    return document


DEFAULT_DROPPED_SHARE_WARNING = 0.8
"""Warn when boilerplate removal leaves out more than this share of a page's text. A
page that is half navigation, comments and related links is normal (the 40 corpus
pages lose at most 73 %, and Readability's expected articles agree); four fifths gone
is not, and deserves a look."""

_WARN_MIN_CHARS = 2_000
"""Pages with less text than this are not worth a warning whatever is dropped."""


def _warn_when_most_is_dropped(document: Document, page_chars: int) -> None:
    if page_chars < _WARN_MIN_CHARS:
        return
    kept = sum(text_weight(part) for part in _texts(document))
    dropped = 1 - kept / page_chars
    if dropped > DEFAULT_DROPPED_SHARE_WARNING:
        document.warnings.append(
            f"{dropped:.0%} of the page's text was left out as boilerplate (outside the "
            "main content: related links, comments, sidebars); check the chunks if "
            "that text matters"
        )


def _texts(document: Document) -> Iterator[str]:
    """Every heading and block text of the document."""
    for section in document.sections():
        yield section.title
        for block in section.blocks:
            if isinstance(block, ListBlock):
                yield from (item.text for item in block.items)
            elif isinstance(block, Table):
                yield block.caption
                yield from (cell for row in block.header + block.rows for cell in row)
            else:
                yield block.text
