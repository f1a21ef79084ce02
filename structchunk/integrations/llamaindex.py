"""LlamaIndex: a reader and a node parser that produce structchunk chunks, and the
conversion of chunks to nodes linked PREVIOUS/NEXT within their document (and to
PARENT/CHILD with their parent records, for the auto-merging retriever)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import PurePath
from typing import Any

from ..api import chunk_text, iter_chunks, iter_chunks_from_bytes, resolve_options
from ..options import ChunkOptions
from ..parsers import EXTENSIONS, FORMATS
from ..records import Chunk, Parent, optional_extra
from . import FilePath, files_of

with optional_extra("structchunk.integrations.llamaindex"):
    from llama_index.core.bridge.pydantic import Field
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import (
        BaseNode,
        Document,
        MetadataMode,
        NodeRelationship,
        TextNode,
    )

NAME_KEYS = ("file_path", "file_name")
"""Metadata keys SimpleDirectoryReader (and most LlamaIndex readers) put the file name in."""


def chunks_to_nodes(chunks: Iterable[Chunk], lists: bool = False) -> list[TextNode]:
    """`Chunk.to_llamaindex()` for each chunk, in order, with PREVIOUS/NEXT relationships
    between chunks of the same document whose `chunk_index` follow each other, which
    LlamaIndex's PrevNextNodePostprocessor follows to widen a retrieved chunk."""
    listed = list(chunks)
    nodes = [chunk.to_llamaindex(lists) for chunk in listed]
    link_neighbours(listed, nodes)
    return nodes


def link_neighbours(chunks: Sequence[Chunk], nodes: Sequence[BaseNode]) -> None:
    """Set PREVIOUS/NEXT on `nodes[i]` (made from `chunks[i]`) from `(doc_id, chunk_index)`:
    only true neighbours are linked, so a missing chunk leaves a gap, not a wrong link."""
    position = {(chunk.doc_id, chunk.chunk_index): i for i, chunk in enumerate(chunks)}
    for i, chunk in enumerate(chunks):
        following = position.get((chunk.doc_id, chunk.chunk_index + 1))
        if following is not None:
            nodes[i].relationships[NodeRelationship.NEXT] = nodes[following].as_related_node_info()
            nodes[following].relationships[NodeRelationship.PREVIOUS] = nodes[
                i
            ].as_related_node_info()


def records_to_nodes(records: Iterable[Chunk | Parent], lists: bool = False) -> list[TextNode]:
    """Small-to-big: chunks and their parent records (`iter_records(..., parents=True)`)
    as `TextNode`s, each chunk PARENT-linked to its parent and each parent CHILD-linked to
    its chunks, chunks also PREVIOUS/NEXT. Put every node in the docstore and index the
    leaves (`llama_index.core.node_parser.get_leaf_nodes(nodes)`, the chunks): an
    `AutoMergingRetriever` then returns a parent in place of its retrieved chunks, as it
    does for `HierarchicalNodeParser`'s nodes. A chunk whose parent is not among
    `records` gets no PARENT link."""
    listed = list(records)
    chunks = [record for record in listed if isinstance(record, Chunk)]
    nodes = chunks_to_nodes(chunks, lists)
    by_id: dict[str, TextNode] = {node.id_: node for node in nodes}
    out: list[TextNode] = []
    for record in listed:
        if isinstance(record, Chunk):
            out.append(by_id[record.id])
            continue
        parent = record.to_llamaindex(lists)
        children = [by_id[i] for i in record.chunk_ids if i in by_id]
        parent.relationships[NodeRelationship.CHILD] = [
            child.as_related_node_info() for child in children
        ]
        for child in children:
            child.relationships[NodeRelationship.PARENT] = parent.as_related_node_info()
        out.append(parent)
    return out


def _as_document(node: TextNode, extra_info: dict[str, Any]) -> Document:
    """The node as a reader's `Document`, the caller's metadata under ours (ours wins a
    clash); like the node, the embedding sees only the text."""
    metadata = {**extra_info, **node.metadata}
    shown = set(node.metadata) - set(node.excluded_llm_metadata_keys)
    return Document(
        id_=node.id_,
        text=node.text,
        metadata=metadata,
        excluded_embed_metadata_keys=list(metadata),
        excluded_llm_metadata_keys=[key for key in metadata if key not in shown],
        relationships=dict(node.relationships),
    )


class StructChunkReader(BaseReader):
    """Read a file as structure-aware chunks: `StructChunkReader(max_tokens=256).load_data(
    file="manual.pdf")`, one `Document` per chunk, linked PREVIOUS/NEXT. A directory
    (`file="manuals/"`) stands for every file of a supported format under it, in the
    order `structchunk convert DIR` reads them.

    The documents are already chunks with stable ids: index them as they are, as nodes
    (`VectorStoreIndex(docs)`); `from_documents` would run the default splitter over
    them, cutting them again and giving them random ids. Also works as a
    `SimpleDirectoryReader` `file_extractor`; its file metadata is kept beside ours.
    """

    def __init__(
        self, options: ChunkOptions | None = None, *, metadata_lists: bool = False, **overrides: Any
    ) -> None:
        self.options = resolve_options(options, **overrides)
        self.metadata_lists = metadata_lists

    def lazy_load_data(
        self,
        file: FilePath,
        extra_info: dict[str, Any] | None = None,
        fs: Any = None,
        **load_kwargs: Any,
    ) -> Iterator[Document]:
        """The chunks of `file`, or of each file of a directory (read through the fsspec
        filesystem `fs` when given: one file), one file at a time: its chunks are
        collected to link them."""
        if fs is None:
            for path in files_of(file, self.options.format):
                yield from self._documents(list(iter_chunks(path, self.options)), extra_info)
            return
        with fs.open(str(file), "rb") as handle:
            data: bytes = handle.read()
        chunks = iter_chunks_from_bytes(data, str(file), self.options.format, self.options)
        yield from self._documents(list(chunks), extra_info)

    def _documents(
        self, chunks: list[Chunk], extra_info: dict[str, Any] | None
    ) -> Iterator[Document]:
        for node in chunks_to_nodes(chunks, self.metadata_lists):
            yield _as_document(node, extra_info or {})


class StructChunkNodeParser(NodeParser):
    """Chunk documents other readers loaded, by their structure:
    `StructChunkNodeParser(options=ChunkOptions(max_tokens=256))` in `transformations=`.

    A document's text is read as `options.format`, else by its file name's extension
    (Markdown, HTML, text), else as Markdown; node ids are the chunks' stable ids. For
    PDFs, prefer StructChunkReader: it reads the layout, not text another reader
    extracted.
    """

    options: ChunkOptions = Field(
        default_factory=ChunkOptions, description="How to chunk (structchunk ChunkOptions)."
    )

    @classmethod
    def class_name(cls) -> str:
        return "StructChunkNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        parsed: list[BaseNode] = []
        for node in nodes:
            source = _name_of(node)
            chunks = chunk_text(
                node.get_content(metadata_mode=MetadataMode.NONE),
                format=self.options.format or _format_of(source),
                options=self.options,
                source=source or "-",
            )
            children = chunks_to_nodes(chunks)
            for child in children:
                # the parent document is the source, so LlamaIndex merges its metadata in;
                # as ours, that metadata stays out of the embedding
                child.relationships[NodeRelationship.SOURCE] = node.as_related_node_info()
                child.excluded_embed_metadata_keys += [
                    key for key in node.metadata if key not in child.metadata
                ]
                child.excluded_llm_metadata_keys += node.excluded_llm_metadata_keys
            parsed.extend(children)
        return parsed


def _name_of(node: BaseNode) -> str | None:
    for key in NAME_KEYS:
        value = node.metadata.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _format_of(name: str | None) -> str:
    """The format a file name's extension says, when it is one read from text (a node's
    text is: a PDF's arrives already extracted)."""
    detected = EXTENSIONS.get(PurePath(name).suffix.lower()) if name else None
    return detected if detected is not None and FORMATS[detected].is_text else "markdown"
