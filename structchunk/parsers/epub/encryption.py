"""DRM: a book whose chapters are encrypted is refused in one line; obfuscated fonts are not.

`META-INF/encryption.xml` lists every encrypted member with its algorithm. Publishers
obfuscate embedded fonts (IDPF and Adobe font mangling) so the font cannot be lifted from
the book; that is not DRM, and fonts are never read here. Any other algorithm on a
chapter is DRM (Adobe ADEPT, Apple FairPlay, Readium LCP, Kobo …): its text cannot be
read without the rights holder's keys.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from ...errors import EncryptedDocumentError, ParseError
from ..packages import Package
from .opf import Members, local_name, parse_xml, resolve_href

ENCRYPTION = "META-INF/encryption.xml"
FONT_OBFUSCATION = frozenset(
    {
        "http://www.idpf.org/2008/embedding",  # EPUB OCF font obfuscation
        "http://ns.adobe.com/pdf/enc#RC",  # Adobe font mangling
    }
)

_SCHEMES: tuple[tuple[str, str], ...] = (
    ("META-INF/rights.xml", "Adobe DRM"),
    ("META-INF/sinf.xml", "Apple FairPlay DRM"),
    ("META-INF/license.lcpl", "Readium LCP DRM"),
)
"""Members that name the DRM scheme, for the error message."""


def check_encryption(package: Package, members: Members, chapters: Iterable[str]) -> None:
    """Raise `EncryptedDocumentError` when any of `chapters` is encrypted (not merely a
    font obfuscated); an unreadable `encryption.xml` is ignored (a chapter that really
    is encrypted then fails to decode, and is reported as such)."""
    if ENCRYPTION not in members.names:
        return
    try:
        root = parse_xml(package.read(ENCRYPTION), "encryption list")
    except ParseError:
        return
    encrypted = _encrypted_members(root)
    hit = [path for path in chapters if path in encrypted]
    if not hit:
        return
    scheme = next((name for member, name in _SCHEMES if member in members.names), "DRM")
    raise EncryptedDocumentError(
        f"the e-book is protected by {scheme}: {len(hit)} of its chapters are encrypted "
        f"({encrypted[hit[0]]}); structchunk reads DRM-free books only, convert a DRM-free copy"
    )


def _encrypted_members(root: etree._Element) -> dict[str, str]:
    """Member name → algorithm, for every member encrypted other than by font obfuscation."""
    found: dict[str, str] = {}
    for data in (el for el in root.iter() if local_name(el) == "EncryptedData"):
        algorithm = next(
            (el.get("Algorithm", "") for el in data.iter() if local_name(el) == "EncryptionMethod"),
            "",
        )
        if algorithm in FONT_OBFUSCATION:
            continue
        for reference in (el for el in data.iter() if local_name(el) == "CipherReference"):
            resolved = resolve_href("", reference.get("URI", ""))
            if resolved and resolved[0]:
                found[resolved[0]] = algorithm or "unknown algorithm"
    return found
