"""WordprocessingML names and safe XML reading: one parser setup, one-line errors.

Parts are parsed without entity expansion, DTD loading or network access; a package
whose parts declare a DTD at all was refused when it was opened (`packages.py`), so no
entity, expanding or external, reaches the text. Parsing stays within
libxml2's default limits (elements nested at most 256 deep, text nodes under 10 MB): a
table nested thousands deep is refused with one line instead of exhausting the stack.
ISO 29500 *Strict* documents use other namespace URIs for the same vocabulary; they are
mapped onto the transitional ones before parsing, so the readers know one vocabulary.
"""

from __future__ import annotations

import functools
import zipfile
import zlib
from collections.abc import Iterator
from typing import IO, TypeAlias

from lxml import etree

from ...errors import ParseError

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
DC_NS = "http://purl.org/dc/elements/1.1/"

STRICT_NAMESPACES: tuple[tuple[bytes, bytes], ...] = (
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main", W_NS.encode()),
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships", R_NS.encode()),
    (b"http://purl.oclc.org/ooxml/officeDocument/math", M_NS.encode()),
)
"""Strict namespace URIs and their transitional equivalents (ISO/IEC 29500-1, annex A)."""

_STRICT_MARK = b"http://purl.oclc.org/ooxml/"
_SNIFF_BYTES = 4096
"""The root element and its namespace declarations come first in every part."""

Element: TypeAlias = etree._Element


@functools.cache
def w(name: str) -> str:
    """The Clark name of a WordprocessingML element or attribute: `w("p")`."""
    return f"{{{W_NS}}}{name}"


def attr(element: Element | None, name: str) -> str | None:
    """A `w:` attribute's value, or None (also when the element is missing)."""
    if element is None:
        return None
    value = element.get(w(name))
    return str(value) if value is not None else None


def child(element: Element | None, name: str) -> Element | None:
    """The first `w:` child named `name`, or None."""
    if element is None:
        return None
    for found in element.iterchildren(w(name)):  # C-level, unlike `find`'s path parsing
        return found
    return None


def val(element: Element | None, name: str) -> str | None:
    """The `w:val` of the `w:` child named `name` (`<w:pStyle w:val="Heading1"/>`)."""
    return attr(child(element, name), "val")


def is_on(element: Element | None) -> bool:
    """An OOXML on/off property: present and not `false`/`0`/`off`."""
    if element is None:
        return False
    return attr(element, "val") not in ("0", "false", "off")


_SAFE_PARSING: dict[str, bool] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
}
"""What every part is read with: no entities, DTDs or network, libxml2's depth limit."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(**_SAFE_PARSING)


def is_strict(head: bytes) -> bool:
    return _STRICT_MARK in head[:_SNIFF_BYTES]


def to_transitional(data: bytes) -> bytes:
    """A Strict part's bytes with its namespaces renamed to the transitional ones."""
    for strict, transitional in STRICT_NAMESPACES:
        data = data.replace(strict, transitional)
    return data


def parse_part(data: bytes, name: str) -> Element:
    """The root element of a package part, or a one-line `ParseError`."""
    if is_strict(data):
        data = to_transitional(data)
    try:
        root: Element = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as error:
        raise ParseError(xml_problem(name, error)) from None
    return root


def xml_problem(name: str, error: Exception) -> str:
    """The one-line message for a part that is not well-formed (or nests too deep)."""
    message = str(error).splitlines()[0] if str(error) else type(error).__name__
    if "Excessive depth" in message:
        return (
            f"the document part {name!r} nests its elements more than 256 deep (tables "
            "or content controls nested thousands deep?); refused"
        )
    return f"the document part {name!r} is not well-formed XML ({message})"


STREAM_ERRORS = (etree.XMLSyntaxError, zipfile.BadZipFile, EOFError, OSError, zlib.error)
"""What reading a part as a stream may raise: bad XML, or a damaged or truncated zip."""


def iter_children(stream: IO[bytes], name: str, parent_tag: str) -> Iterator[Element]:
    """The children of the first `parent_tag` element of a part, one at a time, each
    complete; the ones already yielded are freed, so memory stays that of one child
    (a 400-page body is read in the memory of its largest table)."""
    events = etree.iterparse(stream, events=("end",), **_SAFE_PARSING)
    try:
        for _, element in events:
            parent = element.getparent()
            if parent is None or parent.tag != parent_tag:
                continue
            yield element
            element.clear(keep_tail=True)
            while element.getprevious() is not None:
                del parent[0]
    except STREAM_ERRORS as error:
        if isinstance(error, etree.XMLSyntaxError):
            raise ParseError(xml_problem(name, error)) from None
        raise ParseError(f"the package's part {name!r} is damaged ({error})") from None
