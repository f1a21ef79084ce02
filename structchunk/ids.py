"""Stable identifiers: document ids, chunk ids and option fingerprints, all from one hash."""

from __future__ import annotations

import hashlib


def short_hash(*parts: str | bytes, length: int = 32) -> str:
    """Hex sha256 (truncated) of the parts, each length-prefixed so joins are unambiguous."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:length]


def document_id(data: bytes) -> str:
    """The id of a document: the hash of its bytes, so a renamed file keeps it."""
    return short_hash(data)


def chunk_id(doc_id: str, chunk_index: int, text: str) -> str:
    """The id of a chunk: stable across runs, changed by any edit to its text."""
    return short_hash(doc_id, str(chunk_index), text)
