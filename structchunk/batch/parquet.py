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
from ..records import NO_OCR, Chunk, Parent

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
    if annotation is str or typing.get_origin(annotation) is typing.Literal:
        return pa.string()
    if annotation is bool:
        return pa.bool_()
    if annotation is int:
        return pa.int64()
    if annotation is float:
        return pa.float64()
    raise TypeError(f"no Arrow type for record field annotation {annotation!r}")


@lru_cache(maxsize=2)
def chunk_arrow_schema(parents: bool = False) -> pa.Schema:
    """The record's fields as an Arrow schema, in the JSONL's field order; `parent_id`
    only with parents, so a table without them is as it was before they existed."""
    pa = require_pyarrow()
    fields = Chunk.model_fields.items()
    return pa.schema(
        [
            (name, _arrow_type(pa, field.annotation))
            for name, field in fields
            if parents or name != "parent_id"
        ]
    )


@lru_cache(maxsize=1)
def parent_arrow_schema() -> pa.Schema:
    """A parent record's fields as an Arrow schema (the table beside the chunks')."""
    pa = require_pyarrow()
    return pa.schema(
        [(name, _arrow_type(pa, field.annotation)) for name, field in Parent.model_fields.items()]
    )


PARENTS_SUFFIX = ".parents.parquet"
"""A Parquet output's parent records go to a second table beside it: `chunks.parquet`'s
to `chunks.parents.parquet` (a table has one schema; a parent is not a chunk)."""


def parents_path(path: str | os.PathLike[str]) -> str:
    """Where the parents of the Parquet file at `path` go."""
    return os.fspath(path).removesuffix(".parquet") + PARENTS_SUFFIX


def save_parquet(
    records: Iterable[Chunk | Parent], path: str | os.PathLike[str], parents: bool = False
) -> int:
    """Write chunks to a Parquet file at `path` (atomically); returns the rows written.
    With `parents` (records from `iter_records(..., parents=True)`), the chunks keep their
    `parent_id` and the parent records go to `parents_path(path)`.

    from structchunk.batch.parquet import save_parquet
    save_parquet(structchunk.iter_chunks("manual.pdf"), "manual.parquet")
    """
    return write_parquet_tables((record.model_dump() for record in records), path, parents)


def json_rows(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of JSONL lines (the parts an `-o` file is assembled from), as rows."""
    return (json.loads(line) for line in lines if line.strip())


def arrow_row(record: dict[str, Any]) -> dict[str, Any]:
    """A record (a `Chunk`'s fields as a dict, or its JSONL line parsed) as a table row:
    each box a struct of `BOX_FIELDS`, and a chunk's OCR fields, which its JSONL line
    leaves out when no page was read by OCR, null. `Chunk.model_validate` reads the row
    back."""
    if "record" not in record and not record.keys() >= NO_OCR:
        record = {**record, **{name: record.get(name) for name in NO_OCR}}
    boxes = record.get("boxes")
    if not boxes:
        return record
    return {**record, "boxes": [dict(zip(BOX_FIELDS, box)) for box in boxes]}


class TableWriter:
    """Rows into one Parquet table, a row group at a time."""

    def __init__(self, sink: IO[bytes], schema: pa.Schema) -> None:
        self.pa = require_pyarrow()
        self.schema = schema
        self.writer = self.pa.parquet.ParquetWriter(sink, schema)
        self.batch: list[dict[str, Any]] = []
        self.rows = 0

    def add(self, record: dict[str, Any]) -> None:
        self.batch.append(arrow_row(record))
        if len(self.batch) >= ROWS_PER_GROUP:
            self._flush()

    def _flush(self) -> None:
        self.writer.write_table(self.pa.Table.from_pylist(self.batch, schema=self.schema))
        self.rows, self.batch = self.rows + len(self.batch), []

    def close(self) -> int:
        """Finish the table (an empty one still has the schema); the rows written."""
        if self.batch or not self.rows:
            self._flush()
        self.writer.close()
        return self.rows


def write_parquet(
    records: Iterable[dict[str, Any]], sink: IO[bytes], schema: pa.Schema | None = None
) -> int:
    """Write records (a `Chunk`'s fields as a dict) to `sink` as Parquet, streaming row
    group by row group; returns the rows written. `schema` defaults to the chunks'."""
    table = TableWriter(sink, schema if schema is not None else chunk_arrow_schema())
    for record in records:
        table.add(record)
    return table.close()


def write_parquet_tables(
    records: Iterable[dict[str, Any]], path: str | os.PathLike[str], parents: bool
) -> int:
    """Write records (chunks, and with `parents` their parent records) as Parquet at
    `path` (atomically), the parents to the table at `parents_path(path)`; returns the
    chunk rows written."""
    from .atomic import atomic_binary_writer

    if not parents:
        with atomic_binary_writer(path) as sink:
            return write_parquet(records, sink)
    schemas = chunk_arrow_schema(parents=True), parent_arrow_schema()
    with (
        atomic_binary_writer(path) as sink,
        atomic_binary_writer(parents_path(path)) as parent_sink,
    ):
        chunks = TableWriter(sink, schemas[0])
        found = TableWriter(parent_sink, schemas[1])
        for record in records:
            (found if record.get("record") == "parent" else chunks).add(record)
        found.close()
        return chunks.close()
