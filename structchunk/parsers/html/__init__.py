"""HTML pages into the section tree: headings, paragraphs, lists, tables and code.

The stages, in order:

    encoding.py     bytes to text: BOM, `<meta charset>`, then detection
    (lxml)          BeautifulSoup over lxml builds the tree
    boilerplate.py  navigation, scripts, banners and page header/footer dropped
    content.py      the main content chosen: `main`, a dominant `article`, or the densest block
    walker.py       one walk in document order reporting headings and blocks to the builder
                    (`dom.py`: element vocabulary and visible text; `tables.py`: data tables)
"""

from __future__ import annotations

import warnings

from bs4 import (
    BeautifulSoup,
    MarkupResemblesLocatorWarning,
    Tag,
    XMLParsedAsHTMLWarning,
)

from ...document import Document
from .. import ParseSettings
from ..builder import TreeBuilder
from .content import select_content
from .dom import (
    child_named,
    inline_text,
)
from .encoding import decode_html
from .walker import HtmlWalker


def page_title(soup: BeautifulSoup) -> str:
    """The `<title>` in the page's head (an SVG's own `<title>` in the body is not it)."""
    head = soup.head
    title = child_named(head, "title") if isinstance(head, Tag) else None
    return inline_text(title, ()) if title is not None else ""


def make_soup(text: str) -> BeautifulSoup:
    """The lxml-built soup. bs4's warnings address its caller's choices, which are ours
    here: XHTML is read with the lenient HTML parser on purpose, and a page whose text
    looks like a URL or a file name is still a page."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        return BeautifulSoup(text, "lxml")


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse HTML bytes into a `Document` (empty pages give an empty document)."""
    builder = TreeBuilder("html")
    text = decode_html(data)
    if not text.strip():
        return builder.finish()
    soup = make_soup(text)
    content = select_content(soup)
    if not content.has_h1:
        builder.set_title(content.page_h1 or page_title(soup))
    HtmlWalker(builder, content.skip).walk(content.root)
    return builder.finish()
