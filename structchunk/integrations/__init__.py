"""Entry points for RAG frameworks, one module per framework, each an optional extra.

- `structchunk.integrations.langchain`: `StructChunkLoader` (`load_with_parents()` for
  small-to-big) (`pip install 'structchunk-rag[langchain]'`)
- `structchunk.integrations.llamaindex`: `StructChunkReader`, `StructChunkNodeParser`,
  `chunks_to_nodes`, `records_to_nodes` (PARENT/CHILD with parent records)
  (`pip install 'structchunk-rag[llamaindex]'`)
- `structchunk.integrations.haystack`: `StructChunkConverter`
  (`pip install 'structchunk-rag[haystack]'`)
- `structchunk.integrations.chroma`, `.qdrant`: `sync(...)`, which follows a batch run's
  plan (`convert --changes`) in a collection: embeds and upserts the adds, deletes the
  deletes (the shared part in `sync.py`)

Nothing is imported here, so `import structchunk.integrations` needs none of them; a
module whose framework is missing says which extra to install. One chunk on its own
converts with `Chunk.to_langchain()`, `.to_llamaindex()`, `.to_haystack()`,
`Chunk.metadata()` and, for stores that keep only a payload, `Chunk.payload()` (records.py).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..batch.inputs import expand_inputs

FilePath = str | os.PathLike[str]


def paths_of(file_path: FilePath | Sequence[FilePath]) -> list[FilePath]:
    """One path or several, as a list (a `str` is one path, not a sequence of letters)."""
    if isinstance(file_path, str | os.PathLike):
        return [file_path]
    return list(file_path)


def files_of(file_path: FilePath | Sequence[FilePath], format: str | None) -> list[FilePath]:
    """The files a loader reads: each path as given, a directory replaced by the files of a
    supported format under it, at any depth, found and ordered as `structchunk convert DIR`
    finds them (with `format`, as the CLI's `--format`). A directory with none of them is
    its one-line `InputError`, as on the command line."""
    files: list[FilePath] = []
    for path in paths_of(file_path):
        if not os.path.isdir(path):
            files.append(path)
            continue
        found, problems = expand_inputs([os.fspath(path)], format)
        if problems:
            raise problems[0]
        files.extend(item.path for item in found)
    return files
