"""The chunk record (pydantic), its stable ids, JSONL writing and the JSON Schema."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ConfigDict, Field

from .text import short_hash


class Chunk(BaseModel):
    """One retrieval-ready chunk: a JSONL line. Field meanings never change."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="Stable id: hash of (doc_id, chunk_index, text).")
    doc_id: str = Field(description="Hash of the source bytes.")
    source: str = Field(description="The input path as given, or `-` for stdin.")
    format: str = Field(description="markdown, html, pdf or text.")
    chunk_index: int = Field(ge=0, description="0-based position within the document.")
    heading_path: list[str] = Field(
        description="Titles from the document root to the "
        "chunk's section, complete even when the prefix is "
        "shortened."
    )
    text: str = Field(
        description="Embedding-ready text: the heading path (`A > B > C`) on "
        "the first line, a blank line, then the body."
    )
    body: str = Field(description="The chunk content without the prefix.")
    n_tokens: int = Field(ge=0, description="Tokens in `text` under `tokenizer`.")
    tokenizer: str = Field(description="words, chars, tiktoken:<encoding>, hf:<name>, …")
    block_types: list[str] = Field(
        description="Kinds of blocks inside: paragraph, list, table, code."
    )
    pages: list[int] | None = Field(None, description="PDF pages (1-based) the text comes from.")
    lines: list[int] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="Source line range [first, last], 1-based (Markdown, text).",
    )
    table_rows: list[int] | None = Field(
        None,
        min_length=3,
        max_length=3,
        description="For a piece of a split table: first and "
        "last body row (1-based) and the table's row count.",
    )


@lru_cache(maxsize=1)
def _umask() -> int:
    """The process umask (read once: reading it means setting it, which races threads)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def document_id(data: bytes) -> str:
    return short_hash(data)


def chunk_id(doc_id: str, chunk_index: int, text: str) -> str:
    return short_hash(doc_id, str(chunk_index), text)


def chunk_schema() -> dict[str, object]:
    """The JSON Schema of a record (what `structchunk schema` prints)."""
    return Chunk.model_json_schema()


def to_json_line(chunk: Chunk) -> str:
    """One record as a JSONL line: fields in schema order, compact, non-ASCII kept as is."""
    return chunk.model_dump_json() + "\n"


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[Chunk]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield Chunk.model_validate_json(line)


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """A UTF-8 text handle whose content replaces `path` only if the block completes."""
    with atomic_binary_writer(path) as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
        try:
            yield handle
            handle.flush()
        finally:
            handle.detach()  # the binary writer closes the file, after fsync


@contextmanager
def atomic_binary_writer(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary handle whose content replaces `path` only if the block completes.

    Writes to a temporary file in the same directory and renames it over `path`, so
    readers never see a half-written JSONL, even after a crash.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get the usual mode
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
