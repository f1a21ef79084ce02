"""The chunk record (pydantic), its JSONL line and the JSON Schema."""

from __future__ import annotations

import os
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field


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


def chunk_schema() -> dict[str, object]:
    """The JSON Schema of a record (what `structchunk schema` prints)."""
    return Chunk.model_json_schema()


def printable_path(path: str) -> str:
    """`path` as valid Unicode: bytes of a file name that are not UTF-8 (which Python
    carries as lone surrogates) are shown as `\\xNN`, so records and error files can be
    written, and the same name always reads the same."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return path


def to_json_line(chunk: Chunk) -> str:
    """One record as a JSONL line: fields in schema order, compact, non-ASCII kept as is."""
    return chunk.model_dump_json() + "\n"


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[Chunk]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield Chunk.model_validate_json(line)
