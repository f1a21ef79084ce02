"""LangChain: a document loader whose documents are structchunk chunks (and, for
small-to-big retrieval, their parents for a docstore)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..api import iter_chunks, iter_records, resolve_options
from ..options import ChunkOptions
from ..records import Parent, optional_extra
from . import FilePath, files_of, paths_of

with optional_extra("structchunk.integrations.langchain"):
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document


class StructChunkLoader(BaseLoader):
    """Load files as structure-aware chunks: `StructChunkLoader("manual.pdf",
    max_tokens=256).load()`. A directory stands for every file of a supported format
    under it, in the order `structchunk convert DIR` reads them.

    Each `Document` is one chunk (heading path first, within the budget), so no text
    splitter follows; its `id` is the chunk's stable id, so `vector_store.add_documents(
    docs, ids=[d.id for d in docs])` replaces a re-run's chunks instead of adding them
    again. Metadata is `Chunk.metadata(metadata_lists)`: flat by default, which every
    LangChain vector store accepts. Options are checked here, not at the first load.
    """

    def __init__(
        self,
        file_path: FilePath | Sequence[FilePath],
        options: ChunkOptions | None = None,
        *,
        metadata_lists: bool = False,
        **overrides: Any,
    ) -> None:
        self.file_paths = paths_of(file_path)
        self.options = resolve_options(options, **overrides)
        self.metadata_lists = metadata_lists

    def lazy_load(self) -> Iterator[Document]:
        """One document per chunk, file by file, streaming (directories are searched now)."""
        for path in files_of(self.file_paths, self.options.format):
            for chunk in iter_chunks(path, self.options):
                yield chunk.to_langchain(self.metadata_lists)

    def load_with_parents(self) -> tuple[list[Document], list[tuple[str, Document]]]:
        """Small-to-big: the chunks, each with its parent's id as `metadata["parent_id"]`,
        and the parents as `(id, Document)` pairs for a docstore (`docstore.mset(parents)`).
        Index the chunks in a vector store and give both to LangChain's
        `MultiVectorRetriever(vectorstore=..., docstore=..., id_key="parent_id")` (or a
        `ParentDocumentRetriever`, its subclass, the same way): a search matches the small
        chunks and returns their parents. Parents are on whatever the options say."""
        options = self.options.model_copy(update={"parents": True})
        children: list[Document] = []
        parents: list[tuple[str, Document]] = []
        for path in files_of(self.file_paths, options.format):
            for record in iter_records(path, options):
                document = record.to_langchain(self.metadata_lists)
                if isinstance(record, Parent):
                    parents.append((record.id, document))
                else:
                    children.append(document)
        return children, parents
