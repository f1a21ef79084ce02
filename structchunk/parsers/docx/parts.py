"""The parts of a Word package the reader needs, found through its relationships.

A DOCX names its main document in `_rels/.rels` and the main document names its styles,
numbering, notes, headers and footers in its own `.rels`; the usual paths
(`word/document.xml`) are only a convention, so they are the fallback, not the rule.
Relationship types are matched by their last segment, which the transitional and the
Strict vocabularies share.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import IO

from ...errors import ParseError
from ..packages import Package
from ..relationships import find_part, read_relationships, relationships_part
from .xml import (
    DC_NS,
    STREAM_ERRORS,
    Element,
    is_strict,
    parse_part,
    to_transitional,
)

MAIN_DOCUMENT_TYPE = "officeDocument"
CORE_PROPERTIES_TYPE = "core-properties"
PART_TYPES = ("styles", "numbering", "footnotes", "endnotes", "header", "footer")
"""Relationship types (last segment) of the main document's parts that are read."""

FALLBACK_MAIN = "word/document.xml"


@dataclass(slots=True)
class WordParts:
    """Where the parts are inside the zip (names), by role."""

    main: str
    core: str | None = None
    related: dict[str, list[str]] = field(default_factory=dict)
    """Relationship type (last segment) → part names, in the `.rels` order."""

    def first(self, kind: str) -> str | None:
        names = self.related.get(kind, [])
        return names[0] if names else None


def _relationships(package: Package, source: str) -> list[tuple[str, str]]:
    """(type's last segment, target part name) of `source`'s internal relationships."""
    name = find_part(package, relationships_part(source))
    if name is None:
        return []
    rels = read_relationships(parse_part(package.read(name), name), source)
    return [(rel.type, rel.target) for _, rel in rels]


def locate_parts(package: Package) -> WordParts:
    """The main document and its related parts; a one-line error when there is none."""
    top = _relationships(package, "")
    main_names = [target for kind, target in top if kind == MAIN_DOCUMENT_TYPE]
    main = next((n for n in (find_part(package, t) for t in main_names) if n), None)
    main = main or find_part(package, FALLBACK_MAIN)
    if main is None:
        raise ParseError("the Word package has no main document part (word/document.xml)")
    core_names = [target for kind, target in top if kind == CORE_PROPERTIES_TYPE]
    parts = WordParts(main=main, core=next((find_part(package, t) for t in core_names), None))
    for kind, target in _relationships(package, main):
        found = find_part(package, target)
        if kind in PART_TYPES and found is not None:
            parts.related.setdefault(kind, []).append(found)
    return parts


def read_xml(package: Package, name: str | None) -> Element | None:
    """A related part's root element (None when the document has no such part)."""
    if name is None:
        return None
    return parse_part(package.read(name), name)


def open_main(package: Package, name: str) -> IO[bytes]:
    """The main document as a stream, so the body is read a block at a time (a Strict
    document is read whole once, to map its namespaces)."""
    head = _head(package, name)
    if is_strict(head):
        return io.BytesIO(to_transitional(package.read(name)))
    try:
        return package.zip.open(name)
    except (*STREAM_ERRORS, ValueError, NotImplementedError) as error:
        raise ParseError(f"the package's part {name!r} is damaged ({error})") from None


def _head(package: Package, name: str) -> bytes:
    try:
        with package.zip.open(name) as member:
            return member.read(4096)
    except (*STREAM_ERRORS, ValueError, NotImplementedError) as error:
        raise ParseError(f"the package's part {name!r} is damaged ({error})") from None


def core_title(package: Package, name: str | None) -> str:
    """`dc:title` of the core properties ("" when absent)."""
    root = read_xml(package, name)
    if root is None:
        return ""
    title = root.find(f"{{{DC_NS}}}title")
    return "".join(title.itertext()) if title is not None else ""
