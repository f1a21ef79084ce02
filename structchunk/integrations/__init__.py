"""Entry points for RAG frameworks, one module per framework, each an optional extra.

- `structchunk.integrations.langchain`: `StructChunkLoader`
  (`pip install 'structchunk-rag[langchain]'`)
- `structchunk.integrations.llamaindex`: `StructChunkReader`, `StructChunkNodeParser`,
  `chunks_to_nodes` (`pip install 'structchunk-rag[llamaindex]'`)
- `structchunk.integrations.haystack`: `StructChunkConverter`
  (`pip install 'structchunk-rag[haystack]'`)

Nothing is imported here, so `import structchunk.integrations` needs none of them; a
module whose framework is missing says which extra to install. One chunk on its own
converts with `Chunk.to_langchain()`, `.to_llamaindex()`, `.to_haystack()`,
`Chunk.metadata()` and, for stores that keep only a payload, `Chunk.payload()` (records.py).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

FilePath = str | os.PathLike[str]


def paths_of(file_path: FilePath | Sequence[FilePath]) -> list[FilePath]:
    """One path or several, as a list (a `str` is one path, not a sequence of letters)."""
    if isinstance(file_path, str | os.PathLike):
        return [file_path]
    return list(file_path)
