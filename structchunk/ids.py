"""Stable identifiers: document hashes, chunk ids and option fingerprints, all from one hash."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence


def short_hash(*parts: str | bytes, length: int = 32) -> str:
    """Hex sha256 (truncated) of the parts, each length-prefixed so joins are unambiguous."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:length]


def document_hash(data: bytes) -> str:
    """The hash of a document's bytes (`doc_hash`): whether the file changed, whatever
    its name."""
    return short_hash(data)


def chunk_id(
    doc_key: str,
    heading_path: Sequence[str],
    text: str,
    occurrence: int = 0,
    kind: str = "chunk",
) -> str:
    """The id of a chunk: what identifies it, not where it sits in the file.

    The document's key (its `source`, its path relative to a batch run's root, or a
    caller's `doc_key`), the chunk's heading path and text, and how many chunks with the
    same path and text came before it in the document. An edit elsewhere in the
    document leaves it unchanged; an edit to its text changes it. A parent record's id
    is made the same way under `kind="parent"`, so no parent shares a chunk's id."""
    path = json.dumps(list(heading_path), ensure_ascii=False)
    return short_hash(kind, doc_key, path, text, str(occurrence))


class ChunkIds:
    """The ids of one document's chunks (or parents), given in document order: numbers
    the repeats of a (heading path, text) pair so identical chunks get distinct ids."""

    def __init__(self, doc_key: str, kind: str = "chunk") -> None:
        self.doc_key = doc_key
        self.kind = kind
        self._seen: Counter[tuple[tuple[str, ...], str]] = Counter()

    def next(self, heading_path: Sequence[str], text: str) -> str:
        """The id of the document's next chunk."""
        key = (tuple(heading_path), text)
        occurrence = self._seen[key]
        self._seen[key] += 1
        return chunk_id(self.doc_key, heading_path, text, occurrence, self.kind)
