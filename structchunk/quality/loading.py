"""The inputs of inspect and eval: documents chunked on the fly, or chunk JSONL files.

A file that cannot be read or chunked becomes one message naming it; the others are
still used (the same rule as `convert`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from ..api import parse_document, read_input, records_of_document
from ..batch.boundary import FileFailure, error_message, guarded
from ..batch.inputs import InputFile, expand_inputs
from ..errors import StructChunkError
from ..options import ChunkOptions, as_flag
from ..parsers import format_spec
from ..records import Chunk
from ..tokenizers import get_tokenizer
from .views import DocumentChunks, read_chunk_file, view_of_chunk

JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
"""Inputs with these extensions hold chunks already (ours or another tool's; `.json`: one
JSON array, as Unstructured writes its elements)."""


def is_chunk_file(path: str) -> bool:
    return path.lower().endswith(JSONL_SUFFIXES)


@dataclass(slots=True)
class Loaded:
    """What could be loaded, and one line per input that could not."""

    documents: list[DocumentChunks] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def expand_documents(
    inputs: Sequence[str], format_override: str | None
) -> tuple[list[InputFile], list[str]]:
    """Document inputs (files, directories, `-`) to files; raises StructChunkError for a
    usage mistake (stdin without a format)."""
    items, problems = expand_inputs(list(inputs), format_override)
    return items, [problem.in_terms(as_flag) for problem in problems]


def read_bytes(item: InputFile) -> bytes:
    if item.data is not None:  # stdin, read when the inputs were expanded
        return item.data
    return sys.stdin.buffer.read() if item.path == "-" else read_input(item.path)


def chunk_document(item: InputFile, data: bytes, options: ChunkOptions) -> DocumentChunks:
    """Our chunks of one document, as views, with what the report draws them over: the
    decoded source of a text format, or for a PDF the boxes of what the parser dropped
    as furniture."""
    document = parse_document(data, item.path, item.format, options)
    views, parents = [], {}
    for record in records_of_document(document, data, item.path, options):
        if isinstance(record, Chunk):
            views.append(view_of_chunk(record))
        else:
            parents[record.id] = (record.text, record.n_tokens)
    source_text = (document.source_text or None) if format_spec(item.format).is_text else None
    dropped = tuple(document.dropped_boxes)
    return DocumentChunks(item.path, views, source_text, dropped, parents)


def _chunk_input(item: InputFile, options: ChunkOptions) -> DocumentChunks:
    return chunk_document(item, read_bytes(item), options)


def load_inputs(inputs: Sequence[str], options: ChunkOptions) -> Loaded:
    """Every input in the order given: `.jsonl` files read as chunks, the rest chunked
    with `options` (directories searched as `convert` searches them)."""
    loaded = Loaded()
    tokenizer = get_tokenizer(options.tokenizer)
    for raw in inputs:
        if raw != "-" and is_chunk_file(raw):
            try:
                loaded.documents.extend(read_chunk_file(raw, tokenizer.count, tokenizer.name))
            except StructChunkError as error:
                loaded.failures.append(error_message(error, raw))
            continue
        items, problems = expand_documents([raw], options.format)
        loaded.failures.extend(problems)
        for item in items:
            result = guarded(item.path, partial(_chunk_input, item, options))
            if isinstance(result, FileFailure):
                loaded.failures.append(result.message)
            else:
                loaded.documents.append(result)
    return loaded
