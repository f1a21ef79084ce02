"""Scale-out on Ray: a Dataset of files in, a Dataset of chunk records out.

    import ray, structchunk.ray as scr
    files = ray.data.read_binary_files("s3://bucket/docs/", include_paths=True)
    result = scr.chunk_dataset(files, max_tokens=256)
    result.chunks.write_parquet("s3://bucket/chunks/")
    result.errors.write_json("s3://bucket/chunk-errors/")

Each file is chunked by the same code and `ChunkOptions` as the CLI; a file that fails
becomes a row of `errors` (path, kind, message) instead of failing the job. Given the
last run's ids (`previous_ids`), a third Dataset, `changes`, is the plan for a vector
store (`changes.py`), and `ids` is this run's, for the next.
`run_batch_on_ray` is what `structchunk convert --engine ray` runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import ray

from ..api import iter_records_from_bytes, resolve_options
from ..errors import OptionsError, as_keyword
from ..options import ChunkOptions
from ..parsers import detect_format
from ..records import Chunk, Parent, is_parent_line
from .boundary import FileFailure, FileLimits, guarded
from .changes import ChangePlan
from .inputs import InputFile
from .parquet import arrow_row, chunk_arrow_schema, parent_arrow_schema
from .run import BatchConfig, BatchReport, Executor, Progress, run_batch
from .work import Outcome, Task, convert_task

CHUNK_SCHEMA = chunk_arrow_schema()
"""The JSONL record's fields as Arrow types, derived from `Chunk`."""
PARENT_SCHEMA = parent_arrow_schema()
"""A parent record's fields as Arrow types (the rows of `ChunkedDataset.parents`)."""

ERROR_SCHEMA = pa.schema([("path", pa.string()), ("kind", pa.string()), ("message", pa.string())])
CHANGE_SCHEMA = pa.schema([("op", pa.string()), ("id", pa.string()), ("source", pa.string())])
_OUTCOME_SCHEMA = pa.schema(
    [
        ("path", pa.string()),
        ("records", pa.list_(pa.string())),
        ("ids", pa.list_(pa.string())),
        ("kind", pa.string()),
        ("message", pa.string()),
    ]
)


@dataclass(frozen=True)
class ChunkedDataset:
    """The outputs of `chunk_dataset`: records, and one row per failed file; with
    `previous_ids`, the plan and this run's ids."""

    chunks: ray.data.Dataset
    errors: ray.data.Dataset
    changes: ray.data.Dataset | None = None
    """One row per chunk id (op, id, source), as `convert --changes` writes them."""
    ids: dict[str, list[str]] | None = None
    """Each file's chunk ids, in order (a failed file has none): the next run's
    `previous_ids`."""
    parents: ray.data.Dataset | None = None
    """With `parents` on: one row per parent record (`PARENT_SCHEMA`); `chunks` then has
    a `parent_id` column."""


def _chunk_file(path: str, data: bytes, options: ChunkOptions) -> dict[str, Any]:
    """One file's records as JSON strings, or its error (never raises)."""

    def chunks() -> list[Chunk | Parent]:
        fmt = options.format or detect_format(path)
        return list(iter_records_from_bytes(data, path, fmt, options))

    result = guarded(path, chunks, terms=as_keyword)  # a library entry: options as keywords
    if isinstance(result, FileFailure):
        failed = {"records": [], "ids": [], "kind": result.kind, "message": result.message}
        return {"path": path, **failed}
    records = [record.model_dump_json() for record in result]
    ids = [record.id for record in result if isinstance(record, Chunk)]
    return {"path": path, "records": records, "ids": ids, "kind": "", "message": ""}


class _ChunkFiles:
    """map_batches callable: a batch of files (`bytes`, `path`) to per-file outcomes."""

    def __init__(self, options: ChunkOptions) -> None:
        self.options = options

    def __call__(self, batch: pa.Table) -> pa.Table:
        rows = [
            _chunk_file(path, data, self.options)
            for path, data in zip(
                batch.column("path").to_pylist(), batch.column("bytes").to_pylist()
            )
        ]
        return pa.Table.from_pylist(rows, schema=_OUTCOME_SCHEMA)


class _Rows:
    """map_batches callable: outcomes to the rows of chunks (or of parents) in `schema`
    (a failed file has no records)."""

    def __init__(self, schema: pa.Schema, parents: bool) -> None:
        self.schema, self.parents = schema, parents

    def __call__(self, batch: pa.Table) -> pa.Table:
        rows = [
            arrow_row(json.loads(record))
            for records in batch.column("records").to_pylist()
            for record in records
            if is_parent_line(record) == self.parents
        ]
        return pa.Table.from_pylist(rows, schema=self.schema)


def _errors(batch: pa.Table) -> pa.Table:
    """Outcomes to error rows (only failed files)."""
    rows = [row for row in batch.select(["path", "kind", "message"]).to_pylist() if row["kind"]]
    return pa.Table.from_pylist(rows, schema=ERROR_SCHEMA)


def chunk_dataset(
    files: ray.data.Dataset,
    options: ChunkOptions | None = None,
    *,
    previous_ids: Mapping[str, Sequence[str]] | None = None,
    **overrides: Any,
) -> ChunkedDataset:
    """Chunk a Dataset of files as made by `ray.data.read_binary_files(…, include_paths=True)`.

    Returns `chunks` (one row per chunk, the JSONL record's fields) and `errors` (path,
    kind, message); with `parents=True`, also `parents` (one row per parent record).
    The per-file work runs once; every output reads its materialised
    result. With `previous_ids` (the last run's `ids`; `{}` the first time) it also
    returns `changes`, the plan from that run to this one (files are keyed by their path
    in `files`; a file of the last run that is not here now has its ids deleted), and
    `ids`, collected on the driver (one id per chunk).
    """
    opts = resolve_options(options, **overrides)
    if opts.doc_key is not None:
        raise OptionsError("doc_key names one document; a Dataset's files are keyed on their paths")
    outcomes = files.map_batches(
        _ChunkFiles(opts), batch_format="pyarrow", batch_size=8
    ).materialize()
    schema = chunk_arrow_schema(parents=True) if opts.parents else CHUNK_SCHEMA
    chunks = outcomes.map_batches(_Rows(schema, parents=False), batch_format="pyarrow")
    errors = outcomes.map_batches(_errors, batch_format="pyarrow")
    parents = None
    if opts.parents:
        parents = outcomes.map_batches(_Rows(PARENT_SCHEMA, True), batch_format="pyarrow")
    if previous_ids is None:
        return ChunkedDataset(chunks, errors, parents=parents)
    ids: dict[str, list[str]] = {}
    for row in outcomes.select_columns(["path", "ids", "kind"]).iter_rows():
        if not row["kind"]:  # a failed file has no chunks now: the plan deletes its ids
            ids[row["path"]] = list(row["ids"])
    rows = [{"op": c.op, "id": c.id, "source": c.source} for c in ChangePlan(previous_ids, ids)]
    changes = ray.data.from_arrow(pa.Table.from_pylist(rows, schema=CHANGE_SCHEMA))
    return ChunkedDataset(chunks, errors, changes, ids, parents)


def _ray_executor(options: ChunkOptions, config: BatchConfig) -> Executor:
    """Run each task as a Ray task; a crashed worker costs only its file."""
    remote = ray.remote(max_retries=0)(convert_task)

    def execute(tasks: list[Task]) -> Iterator[Outcome]:
        options_ref = ray.put(options)
        # the time limit only: a Ray task shares its worker process with other tasks, so
        # it cannot be capped or stopped alone (Ray's memory monitor guards the node)
        limits = FileLimits(timeout=config.timeout)
        running = {remote.remote(task, options_ref, limits): task for task in tasks}
        while running:
            done, _ = ray.wait(list(running), num_returns=1)
            task = running.pop(done[0])
            try:
                yield ray.get(done[0])
            except Exception as error:  # the worker died or Ray lost the task
                yield Outcome(
                    task.index,
                    task.rel,
                    task.path,
                    ok=False,
                    kind="worker_died",
                    message=f"{task.path}: the Ray task failed: {type(error).__name__}",
                )

    return execute


def run_batch_on_ray(
    items: list[InputFile],
    options: ChunkOptions,
    config: BatchConfig,
    address: str | None = None,
    progress: Progress | None = None,
) -> BatchReport:
    """`convert --engine ray`: the local batch run, with files converted as Ray tasks.

    Workers read inputs and write outputs by path, so they need the filesystem the
    command sees (one machine, or a shared mount); for object stores use `chunk_dataset`.
    """
    if config.max_memory_mb:
        raise OptionsError(
            "a per-file memory limit is not supported on Ray; "
            "Ray's own memory monitor stops tasks that exhaust a node"
        )
    if not ray.is_initialized():
        ray.init(
            address=address, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
    return run_batch(items, options, config, progress, _ray_executor(options, config))
