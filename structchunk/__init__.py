"""structchunk: structure-aware document chunking for retrieval-augmented generation.

Read a document's structure (Markdown, HTML, PDF, Word, PowerPoint, Excel, EPUB,
text) into one section tree, split it hierarchically (section → block → sentence →
word) and pack the pieces to a token budget. Every chunk starts with its heading path
and carries provenance.
"""

from __future__ import annotations

__version__ = "0.1.0"

import importlib as _importlib
import typing as _typing

from . import errors, progress

if _typing.TYPE_CHECKING:
    from .api import (
        chunk_file,
        chunk_text,
        decoded_source,
        iter_chunks,
        iter_chunks_from_bytes,
        iter_records,
        iter_records_from_bytes,
    )
    from .options import ChunkOptions
    from .records import Chunk, Parent
    from .sentences import split_sentences

_LAZY = {
    "Chunk": ".records",
    "ChunkOptions": ".options",
    "chunk_file": ".api",
    "chunk_text": ".api",
    "decoded_source": ".api",
    "iter_chunks": ".api",
    "iter_chunks_from_bytes": ".api",
    "iter_records": ".api",
    "iter_records_from_bytes": ".api",
    "Parent": ".records",
    "split_sentences": ".sentences",
}
"""Public names imported on first use, so `import structchunk` (and the command line's
start-up, `structchunk --version`) does not pay for pydantic, the parsers or NLTK."""

__all__ = [
    "Chunk",
    "ChunkOptions",
    "Parent",
    "__version__",
    "chunk_file",
    "chunk_text",
    "decoded_source",
    "errors",
    "iter_chunks",
    "iter_chunks_from_bytes",
    "iter_records",
    "iter_records_from_bytes",
    "progress",
    "split_sentences",
]


def __getattr__(name: str) -> _typing.Any:
    if name in _LAZY:
        value = getattr(_importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
