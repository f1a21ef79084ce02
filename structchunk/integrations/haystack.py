"""Haystack: a converter component whose documents are structchunk chunks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path, PurePath
from typing import Any

from ..api import iter_chunks, iter_chunks_from_bytes, resolve_options
from ..options import ChunkOptions
from ..parsers import EXTENSIONS, detect_format, format_of_media_type
from ..records import Chunk, optional_extra

with optional_extra("structchunk.integrations.haystack"):
    from haystack import Document, component, default_from_dict, default_to_dict
    from haystack.dataclasses import ByteStream


@component
class StructChunkConverter:
    """Files or ByteStreams in, one `Document` per structure-aware chunk out, so no
    DocumentSplitter follows: `StructChunkConverter(max_tokens=256)` before a
    DocumentWriter. Ids are the chunks' stable ids (a writer with
    `DuplicatePolicy.OVERWRITE` replaces a re-run's chunks); `meta` is the flat
    `Chunk.metadata()` over the source's and the caller's metadata.

    A file that cannot be read raises its one-line StructChunkError instead of being
    skipped with a warning, so nothing goes missing from an index unnoticed.
    """

    def __init__(
        self, options: ChunkOptions | None = None, *, metadata_lists: bool = False, **overrides: Any
    ) -> None:
        self.options = resolve_options(options, **overrides)
        self.metadata_lists = metadata_lists

    @component.output_types(documents=list[Document])
    def run(
        self,
        sources: list[str | Path | ByteStream],
        meta: dict[str, Any] | list[dict[str, Any]] | None = None,
    ) -> dict[str, list[Document]]:
        """Chunk each source; `meta` is one dict for all sources or one per source."""
        metas = _per_source(meta, len(sources))
        documents: list[Document] = []
        for source, extra in zip(sources, metas):
            chunks: Iterable[Chunk]
            if isinstance(source, ByteStream):
                chunks = self._chunks_of_stream(source)
                extra = {**source.meta, **extra}
            else:
                chunks = iter_chunks(source, self.options)
            for chunk in chunks:
                document = chunk.to_haystack(self.metadata_lists)
                documents.append(replace(document, meta={**extra, **document.meta}))
        return {"documents": documents}

    def _chunks_of_stream(self, stream: ByteStream) -> list[Chunk]:
        name = stream.meta.get("file_path") or stream.meta.get("file_name")
        source = str(name) if name else "-"
        format = (
            self.options.format
            or EXTENSIONS.get(PurePath(source).suffix.lower())
            or format_of_media_type(stream.mime_type or "")
            or detect_format(source)  # nothing tells: its one-line error
        )
        return list(iter_chunks_from_bytes(stream.data, source, format, self.options))

    def to_dict(self) -> dict[str, Any]:
        """For pipeline YAML: the options that differ from the defaults, but never the PDF
        password (a secret does not belong in a pipeline file)."""
        fields = self.options.model_dump(exclude_defaults=True, exclude={"pdf_password"})
        return default_to_dict(self, metadata_lists=self.metadata_lists, **fields)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StructChunkConverter:
        return default_from_dict(cls, data)


def _per_source(
    meta: dict[str, Any] | list[dict[str, Any]] | None, count: int
) -> list[dict[str, Any]]:
    """Haystack's convention: one dict for every source, or a list with one per source."""
    if meta is None:
        return [{} for _ in range(count)]
    if isinstance(meta, dict):
        return [dict(meta) for _ in range(count)]
    if len(meta) != count:
        raise ValueError(f"meta has {len(meta)} entries for {count} sources: give one per source")
    return list(meta)
