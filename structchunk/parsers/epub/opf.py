"""The book's package document: `META-INF/container.xml` → the OPF → title, reading order
and where the navigation is.

Read with lxml directly. ebooklib would add a dependency licensed AGPL-3.0 (this
project is MIT) that loads every resource of the book eagerly; what a chunker needs
is three small XML files, a few dozen lines here. Every XML file of the book is parsed
without network access, DTD loading or entity expansion (no XXE, no entity bombs).
"""

from __future__ import annotations

import logging
import posixpath
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from lxml import etree

from ...errors import ParseError
from ..builder import collapse_whitespace
from ..packages import Package

log = logging.getLogger("structchunk")

CONTAINER = "META-INF/container.xml"
OPF_MEDIA_TYPE = "application/oebps-package+xml"
NCX_MEDIA_TYPE = "application/x-dtbncx+xml"
CHAPTER_MEDIA_TYPES = frozenset({"application/xhtml+xml", "text/html", "text/x-oeb1-document"})
"""Spine items read as chapters: XHTML (EPUB 3, EPUB 2), HTML and OEB 1 documents found
in EPUB 2 books. Others (images, SVG, foreign types) are read through their manifest
`fallback`, or skipped: they hold no text a reader sees as prose."""

_CHAPTER_SUFFIXES = (".xhtml", ".html", ".htm")
"""An item without a media type is read as a chapter when its name says it is one."""

_XML_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, recover=True, huge_tree=False
)


def parse_xml(data: bytes, what: str) -> etree._Element:
    """The root element of one of the book's XML files; a one-line `ParseError` naming
    `what` when it is not XML at all (recoverable damage is recovered)."""
    try:
        root = etree.fromstring(data, _XML_PARSER)
    except (etree.XMLSyntaxError, ValueError) as error:
        detail = getattr(error, "msg", None) or str(error)
        raise ParseError(f"the book's {what} is not XML ({detail})") from None
    if root is None:  # recovery kept nothing: say why (an entity bomb names libxml2's limit)
        last = _XML_PARSER.error_log.last_error
        detail = f" ({last.message})" if last is not None and last.message else ""
        raise ParseError(f"the book's {what} is not XML{detail}")
    return root


def local_name(element: etree._Element) -> str:
    """An element's name without its namespace or prefix ("" for comments and entities;
    a recovered file may keep an undeclared prefix in the name: `dc:title`)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2].rpartition(":")[2]


def children_named(element: etree._Element, name: str) -> list[etree._Element]:
    return [child for child in element if local_name(child) == name]


def text_of(element: etree._Element) -> str:
    return collapse_whitespace("".join(element.itertext(with_tail=False)))


def resolve_href(base: str, href: str) -> tuple[str, str] | None:
    """The package member and fragment `href`, found in the member `base`, points to;
    None for a link out of the book (`http:`, `mailto:` …).

    As in a browser (and the EPUB spec's URL parsing), `..` never climbs above the
    package root: `../../etc/passwd` from `EPUB/text/` is the member `etc/passwd`. Names
    are only ever looked up in the zip, so nothing outside the package can be read.
    """
    parts = urlsplit(href.strip())
    if parts.scheme or parts.netloc:
        return None
    path, fragment = unquote(parts.path), unquote(parts.fragment)
    if not path:
        return base, fragment
    joined = path if path.startswith("/") else f"{posixpath.dirname(base)}/{path}"
    segments: list[str] = []
    for segment in joined.split("/"):
        if segment == "..":
            if segments:
                segments.pop()
        elif segment not in ("", "."):
            segments.append(segment)
    return "/".join(segments), fragment


class Members:
    """The package's member names, found exactly or, failing that, ignoring case (books
    made on case-insensitive file systems link `Text/Chapter1.xhtml` to `text/chapter1.xhtml`)."""

    def __init__(self, names: list[str]) -> None:
        self.names = set(names)
        self._folded: dict[str, str] = {}
        for name in sorted(names):
            self._folded.setdefault(name.casefold(), name)

    def find(self, path: str) -> str | None:
        if path in self.names:
            return path
        return self._folded.get(path.casefold())


@dataclass(frozen=True, slots=True)
class ManifestItem:
    ident: str
    path: str
    """The member name, resolved against the OPF's folder."""
    media_type: str
    properties: frozenset[str]
    fallback: str


@dataclass(frozen=True, slots=True)
class SpineItem:
    path: str
    linear: bool
    """False for `linear="no"`: supplementary content outside the main reading order."""


@dataclass(slots=True)
class Book:
    """What the package document says about the book."""

    title: str
    spine: list[SpineItem]
    nav_path: str | None = None
    """The EPUB 3 navigation document (manifest `properties="nav"`)."""
    ncx_path: str | None = None
    """The EPUB 2 NCX (the spine's `toc`, or any manifest item of its media type)."""
    warnings: list[str] = field(default_factory=list)

    def reading_order(self) -> list[str]:
        """Linear items in spine order, then the `linear="no"` ones (notes, answers,
        pop-ups a reader reaches by links), also in spine order."""
        return [item.path for item in self.spine if item.linear] + [
            item.path for item in self.spine if not item.linear
        ]


def find_opf(package: Package, members: Members, warnings: list[str]) -> str:
    """The package document's member name: the first rootfile in `container.xml` (the
    default rendition), or, when the container is missing, broken or names none that
    exists, the first `.opf` in the zip (with a warning)."""
    problem = "META-INF/container.xml is missing"
    if CONTAINER in members.names:
        try:
            found = _rootfile(parse_xml(package.read(CONTAINER), "container"), members)
        except ParseError as error:
            found, problem = None, f"META-INF/container.xml is broken ({error.message})"
        else:
            problem = "META-INF/container.xml names no package document that exists"
        if found:
            return found
    candidates = sorted(name for name in members.names if name.lower().endswith(".opf"))
    if not candidates:
        raise ParseError(
            f"the e-book has no package document: {problem} and the zip holds no .opf file"
        )
    warnings.append(f"{problem}; read {candidates[0]}")
    return candidates[0]


def _rootfile(container: etree._Element, members: Members) -> str | None:
    rootfiles = [el for el in container.iter() if local_name(el) == "rootfile"]
    rootfiles.sort(key=lambda el: el.get("media-type", OPF_MEDIA_TYPE) != OPF_MEDIA_TYPE)
    for rootfile in rootfiles:
        resolved = resolve_href("", rootfile.get("full-path", ""))
        found = members.find(resolved[0]) if resolved and resolved[0] else None
        if found:
            return found
    return None


def read_book(package: Package, members: Members) -> Book:
    """Title, spine and navigation from the package document; one line if it is broken."""
    warnings: list[str] = []
    opf_path = find_opf(package, members, warnings)
    root = parse_xml(package.read(opf_path), f"package document ({opf_path})")
    if local_name(root) != "package":
        raise ParseError(f"the book's package document ({opf_path}) has no <package> root")
    sections = {local_name(child): child for child in root if local_name(child)}
    manifest = _manifest(sections.get("manifest"), opf_path)
    book = Book(title=_title(sections.get("metadata")), spine=[], warnings=warnings)
    spine = sections.get("spine")
    if spine is None:
        raise ParseError(f"the book's package document ({opf_path}) has no spine")
    book.spine = _spine(spine, manifest, members, book.warnings)
    book.nav_path = _present(
        members, next((i.path for i in manifest.values() if "nav" in i.properties), None)
    )
    ncx = manifest.get(spine.get("toc", ""))
    if ncx is None:
        ncx = next((i for i in manifest.values() if i.media_type == NCX_MEDIA_TYPE), None)
    book.ncx_path = _present(members, ncx.path if ncx else None)
    return book


def _present(members: Members, path: str | None) -> str | None:
    return members.find(path) if path else None


def _manifest(manifest: etree._Element | None, opf_path: str) -> dict[str, ManifestItem]:
    items: dict[str, ManifestItem] = {}
    for element in children_named(manifest, "item") if manifest is not None else []:
        ident, href = element.get("id", ""), element.get("href", "")
        resolved = resolve_href(opf_path, href) if href else None
        if not ident or resolved is None or resolved[0] == opf_path or ident in items:
            continue  # no id, a link out of the book or to the OPF itself, a repeated id
        items[ident] = ManifestItem(
            ident=ident,
            path=resolved[0],
            media_type=element.get("media-type", "").strip().lower(),
            properties=frozenset(element.get("properties", "").split()),
            fallback=element.get("fallback", ""),
        )
    return items


def _title(metadata: etree._Element | None) -> str:
    """`dc:title` — the one refined as `title-type` `main` when there are several."""
    if metadata is None:
        return ""
    titles = [el for el in metadata.iter() if local_name(el) == "title"]
    main = {
        (el.get("refines") or "").lstrip("#")
        for el in metadata.iter()
        if local_name(el) == "meta" and el.get("property") == "title-type" and text_of(el) == "main"
    }
    chosen = [el for el in titles if el.get("id") in main] or titles
    for element in chosen:
        text = text_of(element)
        if text:
            return text
    return ""


def _spine(
    spine: etree._Element,
    manifest: dict[str, ManifestItem],
    members: Members,
    warnings: list[str],
) -> list[SpineItem]:
    items: list[SpineItem] = []
    seen: set[str] = set()
    problems: Counter[str] = Counter()
    for itemref in children_named(spine, "itemref"):
        item = _readable(manifest, itemref.get("idref", ""))
        if item is None:
            problems["not a readable chapter (missing from the manifest, or not XHTML)"] += 1
            continue
        path = members.find(item.path)
        if path is None:
            warnings.append(f"spine item {item.path!r} is not in the package; skipped")
        elif path in seen:
            problems["listed twice (read once)"] += 1
        else:
            seen.add(path)
            linear = itemref.get("linear", "yes").strip().lower() != "no"
            items.append(SpineItem(path, linear))
    for problem, count in sorted(problems.items()):
        log.debug("%d spine item(s) %s", count, problem)
    return items


def _readable(manifest: dict[str, ManifestItem], ident: str) -> ManifestItem | None:
    """The manifest item `ident`, or the first (X)HTML item of its fallback chain."""
    seen: set[str] = set()
    item = manifest.get(ident)
    while item is not None and item.ident not in seen:
        if item.media_type in CHAPTER_MEDIA_TYPES or (
            not item.media_type and item.path.lower().endswith(_CHAPTER_SUFFIXES)
        ):
            return item
        seen.add(item.ident)
        item = manifest.get(item.fallback)
    return None
