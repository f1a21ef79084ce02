"""Converting one input file to its JSONL output: the unit of work of a batch run.

Runs in a pool worker or in the main process. The records are written to a temporary
file beside the target and renamed into place only when the whole document succeeded,
so an output is either complete or absent, never partial.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..api import iter_records_from_bytes, read_input
from ..options import ChunkOptions
from ..records import Chunk, Parent, printable_path, to_json_line
from .atomic import atomic_writer
from .boundary import FileFailure, FileLimits, guarded
from .memory import peak_rss_mb
from .parquet import write_parquet_tables
from .run_summary import UNDETERMINED


@dataclass(frozen=True, slots=True)
class Task:
    index: int
    path: str
    format: str
    rel: str
    target: str
    """The JSONL file to write."""
    data: bytes | None = None
    """The input's bytes when they cannot be read by path (stdin)."""

    @property
    def doc_key(self) -> str:
        """What its chunk ids are keyed on: `rel`, the path relative to the run's root,
        so they stay when the checkout moves; stdin's source (`-` or `--source-name`), as
        in a library call. Shown as valid Unicode, as `source` is."""
        return printable_path(self.path if self.data is not None else self.rel)


@dataclass(slots=True)
class Outcome:
    index: int
    rel: str
    path: str
    ok: bool
    chunks: int = 0
    tokens: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    """Of its chunks, in order: the batch run's plan compares them with the last run's."""
    shortened: int = 0
    languages: dict[str, int] = field(default_factory=dict)
    """Its chunks per language (`und` for undetermined)."""
    kind: str = ""
    message: str = ""
    seconds: float = 0.0
    size: int = 0
    peak_rss_mb: float = 0.0
    """Peak resident memory of the process that converted it, so far."""
    ends_run: bool = False
    """Its output could not be written because the destination is full or read-only."""


def convert_task(task: Task, options: ChunkOptions, limits: FileLimits) -> Outcome:
    """Convert one file; every failure becomes an `Outcome` with a kind and one line."""
    start = time.perf_counter()
    outcome = Outcome(task.index, task.rel, task.path, ok=False)
    failure = guarded(task.path, lambda: _write_records(task, options, outcome), limits)
    if isinstance(failure, FileFailure):
        outcome.kind, outcome.message = failure.kind, failure.message
        outcome.ends_run = failure.ends_run
        outcome.tokens, outcome.ids, outcome.shortened = [], [], 0
        outcome.languages = {}
    else:
        outcome.ok = True
        outcome.chunks = len(outcome.tokens)
    outcome.seconds = time.perf_counter() - start
    outcome.peak_rss_mb = peak_rss_mb()
    return outcome


def _write_records(task: Task, options: ChunkOptions, outcome: Outcome) -> None:
    """The file's records into its target, atomically; counts noted on `outcome`."""
    data = task.data if task.data is not None else read_input(task.path)
    outcome.size = len(data)
    if options.doc_key is None:
        options = options.model_copy(update={"doc_key": task.doc_key})
    records = iter_records_from_bytes(data, task.path, task.format, options)
    records = _counted(records, outcome)
    if task.target.endswith(".parquet"):
        rows = (record.model_dump() for record in records)
        write_parquet_tables(rows, task.target, options.parents)
        return
    with atomic_writer(Path(task.target)) as handle:
        handle.writelines(to_json_line(record) for record in records)


def _counted(records: Iterator[Chunk | Parent], outcome: Outcome) -> Iterator[Chunk | Parent]:
    """`records`, noting on `outcome` each chunk's tokens, id, language and whether its
    prefix was cut (parent records pass uncounted)."""
    for record in records:
        if isinstance(record, Chunk):
            outcome.tokens.append(record.n_tokens)
            outcome.ids.append(record.id)
            if record.prefix_shortened:
                outcome.shortened += 1
            language = record.language or UNDETERMINED
            outcome.languages[language] = outcome.languages.get(language, 0) + 1
        yield record
