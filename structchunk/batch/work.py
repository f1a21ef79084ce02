"""Converting one input file to its JSONL output: the unit of work of a batch run.

Runs in a pool worker or in the main process. The records are written to a temporary
file beside the target and renamed into place only when the whole document succeeded,
so an output is either complete or absent, never partial.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..api import iter_chunks_from_bytes, read_input
from ..errors import (
    BudgetError,
    EncryptedDocumentError,
    InputError,
    NoTextError,
    OptionsError,
    ParseError,
    StructChunkError,
    UnsupportedFormatError,
)
from ..options import ChunkOptions
from ..prefix import SEPARATOR
from ..records import atomic_writer, to_json_line

log = logging.getLogger("structchunk")

ERROR_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (EncryptedDocumentError, "encrypted"),
    (NoTextError, "no_text"),
    (ParseError, "parse"),
    (UnsupportedFormatError, "unsupported"),
    (InputError, "input"),
    (OptionsError, "options"),
    (BudgetError, "budget"),
    (MemoryError, "memory"),
)
"""Error kinds written to `--errors`, most specific first; anything else is `internal`."""


class FileTimeout(Exception):
    """The file took longer than `--timeout-per-file`."""


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


def error_kind(error: BaseException) -> str:
    if isinstance(error, FileTimeout):
        return "timeout"
    for cls, kind in ERROR_KINDS:
        if isinstance(error, cls):
            return kind
    return "internal"


def error_message(error: BaseException, path: str) -> str:
    """One line naming the file and saying what went wrong."""
    if isinstance(error, StructChunkError):
        return str(error.with_source(path))
    if isinstance(error, FileTimeout):
        return f"{path}: {error}"
    return (
        f"{path}: internal error: {type(error).__name__}: {error} "
        "(please report it; `-v --jobs 1` shows the traceback)"
    )


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise FileTimeout after `seconds` (main thread only: it uses SIGALRM)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise FileTimeout(f"timed out after {seconds:g} s (--timeout-per-file)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def convert_task(task: Task, options: ChunkOptions, strict: bool, timeout: float | None) -> Outcome:
    """Convert one file; every failure becomes an `Outcome` with a kind and one line."""
    start = time.perf_counter()
    outcome = Outcome(task.index, task.rel, task.path, ok=False)
    try:
        with time_limit(timeout):
            data = task.data if task.data is not None else read_input(task.path)
            outcome.size = len(data)
            target = Path(task.target)
            with atomic_writer(target) as handle:
                for chunk in iter_chunks_from_bytes(
                    data, task.path, task.format, options, strict=strict
                ):
                    handle.write(to_json_line(chunk))
                    outcome.tokens.append(chunk.n_tokens)
                    prefix = SEPARATOR.join(chunk.heading_path)
                    if chunk.heading_path and not chunk.text.startswith(prefix + "\n"):
                        outcome.shortened += 1
        outcome.ok = True
        outcome.chunks = len(outcome.tokens)
    except Exception as error:  # the file boundary: reported, never raised
        if error_kind(error) == "internal":
            log.info("%s: internal error", task.path, exc_info=True)
        outcome.kind = error_kind(error)
        outcome.message = error_message(error, task.path)
        outcome.tokens = []
    outcome.seconds = time.perf_counter() - start
    outcome.peak_rss_mb = peak_rss_mb()
    return outcome


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (Linux reports KiB, macOS bytes)."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024
