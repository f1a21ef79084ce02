"""Chunk records as Arrow/Parquet, with the schema derived from `Chunk`.

Data pipelines store tables; `convert -o chunks.parquet` (or `--output-format parquet`)
writes the same records as the JSONL, one row per chunk, columns in the record's field
order and types from its annotations (a list field is null where the record has null; a
box, `[page, x0, top, x1, bottom]` in the JSONL, is a struct of those names, its page an
integer: an Arrow list holds one type).
pyarrow is optional: `pip install 'structchunk-rag[parquet]'`.
"""

from __future__ import annotations

import json
import os
import types
import typing
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import IO, TYPE_CHECKING, Any

from ..document import BOX_FIELDS
from ..errors import OptionsError, install_hint
from ..records import Chunk

if TYPE_CHECKING:
    import pyarrow as pa

ROWS_PER_GROUP = 10_000
"""Records per Parquet row group: large enough to compress well, small enough that a
writer holds a few MB, not a corpus."""
OUTPUT_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
"""Output file extensions and the record format each names."""


def require_pyarrow() -> Any:
    """pyarrow, or an OptionsError saying how to install it."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401 - the writer lives in a submodule
    except ImportError as error:
        raise OptionsError(
            f"Parquet output needs pyarrow: {install_hint('parquet')} ({error})"
        ) from None
    return pyarrow


def _arrow_type(pa: Any, annotation: Any) -> pa.DataType:
    """The Arrow type of a record field's annotation (`X | None` is a nullable X)."""
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return _arrow_type(pa, args[0])
    if typing.get_origin(annotation) is list:
        return pa.list_(_arrow_type(pa, args[0]))
    if typing.get_origin(annotation) is tuple and len(args) == len(BOX_FIELDS):
        # a box: a struct keeps its page an integer (an Arrow list holds one type)
        return pa.struct([(name, _arrow_type(pa, arg)) for name, arg in zip(BOX_FIELDS, args)])
    if annotation is str:
        return pa.string()
    if annotation is int:
        return pa.int64()
    if annotation is float:
        return pa.float64()
    raise TypeError(f"no Arrow type for record field annotation {annotation!r}")


@lru_cache(maxsize=1)
def chunk_arrow_schema() -> pa.Schema:
    """The record's fields as an Arrow schema, in the JSONL's field order."""
    pa = require_pyarrow()
    return pa.schema(
        [(name, _arrow_type(pa, field.annotation)) for name, field in Chunk.model_fields.items()]
    )


def save_parquet(chunks: Iterable[Chunk], path: str | os.PathLike[str]) -> int:
    """Write `chunks` to a Parquet file at `path` (atomically); returns the rows written.

    from structchunk.batch.parquet import save_parquet
    save_parquet(structchunk.iter_chunks("manual.pdf"), "manual.parquet")
    """
    from .atomic import atomic_binary_writer

    with atomic_binary_writer(path) as sink:
        return write_parquet((chunk.model_dump() for chunk in chunks), sink)


def json_rows(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of JSONL lines (the parts an `-o` file is assembled from), as rows."""
    return (json.loads(line) for line in lines if line.strip())


def arrow_row(record: dict[str, Any]) -> dict[str, Any]:
    """A record (a `Chunk`'s fields as a dict, or its JSONL line parsed) as a table row:
    each box a struct of `BOX_FIELDS`. `Chunk.model_validate` reads the row back."""
    boxes = record.get("boxes")
    if not boxes:
        return record
    return {**record, "boxes": [dict(zip(BOX_FIELDS, box)) for box in boxes]}


def write_parquet(records: Iterable[dict[str, Any]], sink: IO[bytes]) -> int:
    """Write records (a `Chunk`'s fields as a dict) to `sink` as Parquet, streaming row
    group by row group; returns the rows written."""
    pa = require_pyarrow()
    schema = chunk_arrow_schema()
    rows = 0
    with pa.parquet.ParquetWriter(sink, schema) as writer:
        batch: list[dict[str, Any]] = []
        for record in records:
            batch.append(arrow_row(record))
            if len(batch) >= ROWS_PER_GROUP:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                rows, batch = rows + len(batch), []
        if batch or not rows:  # an empty input still gets a file with the schema
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            rows += len(batch)
    return rows
