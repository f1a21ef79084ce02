"""Small text helpers shared by parsers and the packer (whitespace, hashing)."""

from __future__ import annotations

import hashlib
import re

_WS = re.compile(r"\s+")


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace to one space, ends stripped — as a browser shows inline text."""
    return _WS.sub(" ", text).strip()


def short_hash(*parts: str | bytes, length: int = 32) -> str:
    """Hex sha256 (truncated) of the parts, each length-prefixed so joins are unambiguous."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:length]
