"""Whether an XML part declares a DTD, read from its prolog only (what comes before the
root element), so the check costs a few kilobytes of any part, however large.

The prolog is parsed by libxml2 with entities, DTD loading and network off, so an
external subset or entity is never fetched; parsing stops at the root element's start.
A prolog that libxml2 refuses (an entity bomb in the root's attributes trips its
amplification limit) is judged from its bytes.
"""

from __future__ import annotations

import re
from typing import IO

from lxml import etree

PROLOG_PIECE = 16 << 10
"""Bytes fed to the parser at a time."""
DEFAULT_MAX_PROLOG = 1 << 20
"""Prolog bytes read before giving up looking for the root element (a real prolog is an
XML declaration and perhaps a comment: well under 1 KB)."""

_DOCTYPE = re.compile(rb"<\x00?!\x00?D\x00?O\x00?C\x00?T\x00?Y\x00?P\x00?E", re.IGNORECASE)
"""`<!DOCTYPE`, also in UTF-16 (a NUL byte beside each letter)."""


def declares_dtd(stream: IO[bytes]) -> bool:
    """True when the XML in `stream` declares a DTD (or its prolog, past
    `DEFAULT_MAX_PROLOG`, hides where the root element starts)."""
    parser = etree.XMLPullParser(
        events=("start",), resolve_entities=False, no_network=True, load_dtd=False
    )
    seen = b""
    while len(seen) < DEFAULT_MAX_PROLOG:
        piece = stream.read(PROLOG_PIECE)
        if not piece:
            return _DOCTYPE.search(seen) is not None
        seen += piece
        try:
            parser.feed(piece)
            for _, element in parser.read_events():
                info = element.getroottree().docinfo
                return bool(info.doctype) or info.internalDTD is not None
        except etree.XMLSyntaxError:  # not XML, or an entity bomb in the root's attributes
            return _DOCTYPE.search(seen) is not None
    return True
