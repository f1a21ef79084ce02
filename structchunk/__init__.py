"""structchunk: structure-aware document chunking for retrieval-augmented generation.

Read a document's structure (Markdown, HTML, PDF, text) into one section tree, split
it hierarchically (section → block → sentence → word) and pack the pieces to a token
budget. Every chunk starts with its heading path and carries provenance.
"""

from __future__ import annotations

__version__ = "0.1.0"

from . import errors, progress
from .api import chunk_file, chunk_text, decoded_source, iter_chunks, iter_chunks_from_bytes
from .options import ChunkOptions
from .records import Chunk
from .sentences import split_sentences

__all__ = [
    "Chunk",
    "ChunkOptions",
    "__version__",
    "chunk_file",
    "chunk_text",
    "decoded_source",
    "errors",
    "iter_chunks",
    "iter_chunks_from_bytes",
    "progress",
    "split_sentences",
]
