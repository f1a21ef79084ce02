"""The book's table of contents: the EPUB 3 navigation document's `toc` nav, or the
EPUB 2 NCX, as a flat list of entries with their depth.

An entry is a label, a place (member and fragment) and a depth (1 = top level). In the
EPUB 3 nav a label without a link (a `span`) groups entries but names no place in the
book: it is no entry, and the entries under it count at its depth (a contents page that
lists authors between a section and its stories must not push the stories a level
down). Both readers walk with a counter, not recursion, so any nesting is linear.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import lxml.html
from lxml import etree

from ...errors import ParseError
from ..builder import collapse_whitespace
from ..html.encoding import decode_html
from ..packages import Package
from .opf import Book, local_name, parse_xml, resolve_href, text_of

log = logging.getLogger("structchunk")

_EPUB_TYPE = "epub:type"
_HTML_PARSER = lxml.html.HTMLParser(encoding="utf-8", no_network=True)


@dataclass(frozen=True, slots=True)
class NavEntry:
    label: str
    path: str
    fragment: str
    """The element id the entry points to; "" for the start of the member."""
    depth: int


def read_toc(package: Package, book: Book) -> list[NavEntry]:
    """The EPUB 3 toc when there is one with entries, else the NCX's; [] when neither can
    be read (the book is then chunked by its own headings)."""
    for path, reader in ((book.nav_path, nav_entries), (book.ncx_path, ncx_entries)):
        if not path:
            continue
        try:
            entries = reader(package.read(path), path)
        except ParseError as error:
            log.debug("navigation %s unreadable: %s", path, error)
            continue
        if entries:
            return entries
    return []


def nav_entries(data: bytes, path: str) -> list[NavEntry]:
    """Entries of the `nav` whose `epub:type` is `toc` (else the first `nav`)."""
    text = decode_html(data)
    if not text.strip():
        return []
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8"), parser=_HTML_PARSER)
    except (etree.ParserError, ValueError):
        return []
    navs = [el for el in root.iter("nav")]
    toc = next((nav for nav in navs if "toc" in (nav.get(_EPUB_TYPE) or "").split()), None)
    if toc is None and navs:
        toc = navs[0]
    return _list_entries(toc, path) if toc is not None else []


def _list_entries(nav: lxml.html.HtmlElement, path: str) -> list[NavEntry]:
    """Links in a nav's nested lists; depth counts the enclosing `li`s that hold a link."""
    entries: list[NavEntry] = []
    linked: list[bool] = []  # per open `li`: has it a link of its own?
    open_links = 0  # how many of them do
    for event, element in etree.iterwalk(nav, events=("start", "end")):
        name = element.tag if isinstance(element.tag, str) else ""
        if name == "li":
            if event == "start":
                linked.append(False)
            elif linked.pop():
                open_links -= 1
        elif name == "a" and event == "start" and element.get("href"):
            own = bool(linked) and linked[-1]
            place = resolve_href(path, element.get("href", ""))
            if place is not None:
                depth = open_links - (1 if own else 0) + 1
                entries.append(NavEntry(_label(element), place[0], place[1], depth))
            if linked and not own:
                linked[-1] = True
                open_links += 1
    return entries


def _label(link: lxml.html.HtmlElement) -> str:
    """A link's text, or its image's `alt` when it has no text."""
    text = collapse_whitespace("".join(link.itertext()))
    if text:
        return text
    alts = (img.get("alt", "") for img in link.iter("img"))
    return collapse_whitespace(" ".join(alts)) or collapse_whitespace(link.get("title", ""))


def ncx_entries(data: bytes, path: str) -> list[NavEntry]:
    """Entries of the NCX's `navMap`: one per `navPoint`, depth by nesting."""
    root = parse_xml(data, f"NCX ({path})")
    nav_map = next((el for el in root.iter() if local_name(el) == "navMap"), None)
    if nav_map is None:
        return []
    entries: list[NavEntry] = []
    depth = 0
    for event, element in etree.iterwalk(nav_map, events=("start", "end")):
        if local_name(element) != "navPoint":
            continue
        if event == "end":
            depth -= 1
            continue
        depth += 1
        label, src = "", ""
        for child in element:
            if local_name(child) == "navLabel" and not label:
                label = text_of(child)
            elif local_name(child) == "content" and not src:
                src = child.get("src", "")
        place = resolve_href(path, src) if src else None
        if place is not None:
            entries.append(NavEntry(label, place[0], place[1], depth))
    return entries
