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

from ..api import iter_chunks_from_bytes, read_input
from ..options import ChunkOptions
from ..packing.prefix import SEPARATOR
from ..records import to_json_line
from .atomic import atomic_binary_writer, atomic_writer
from .boundary import FileFailure, FileLimits, guarded
from .memory import peak_rss_mb
from .parquet import write_parquet


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


@dataclass(slots=True)
class Outcome:
    index: int
    rel: str
    path: str
    ok: bool
    chunks: int = 0
    tokens: list[int] = field(default_factory=list)
    shortened: int = 0
    kind: str = ""
    message: str = ""
    seconds: float = 0.0
    size: int = 0
    peak_rss_mb: float = 0.0
    """Peak resident memory of the process that converted it, so far."""


def convert_task(task: Task, options: ChunkOptions, limits: FileLimits) -> Outcome:
    """Convert one file; every failure becomes an `Outcome` with a kind and one line."""
    start = time.perf_counter()
    outcome = Outcome(task.index, task.rel, task.path, ok=False)
    failure = guarded(task.path, lambda: _write_records(task, options, outcome), limits)
    if isinstance(failure, FileFailure):
        outcome.kind, outcome.message = failure.kind, failure.message
        outcome.tokens, outcome.shortened = [], 0
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
    if task.target.endswith(".parquet"):  # a table is written whole: one document's rows
        lines = list(_record_lines(data, task, options, outcome))
        with atomic_binary_writer(Path(task.target)) as raw:
            write_parquet(lines, raw)
        return
    with atomic_writer(Path(task.target)) as handle:
        handle.writelines(_record_lines(data, task, options, outcome))


def _record_lines(
    data: bytes, task: Task, options: ChunkOptions, outcome: Outcome
) -> Iterator[str]:
    for chunk in iter_chunks_from_bytes(data, task.path, task.format, options):
        outcome.tokens.append(chunk.n_tokens)
        prefix = SEPARATOR.join(chunk.heading_path)
        if chunk.heading_path and not chunk.text.startswith(prefix + "\n"):
            outcome.shortened += 1
        yield to_json_line(chunk)
