"""The file boundary: run one file's work and turn any failure into a kind and one line.

Every command that handles many files (convert, inspect, eval, the Ray adapter) runs
each file through `guarded`, so one bad file never stops a run and is always reported
the same way: a kind for the errors file (`encrypted`, `parse`, `timeout`, …) and a
message naming the file. This is the only broad `except` in structchunk's pipeline.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import (
    BudgetError,
    DestinationError,
    EncryptedDocumentError,
    InputError,
    NoTextError,
    OptionsError,
    OptionTerms,
    OutputError,
    ParseError,
    StructChunkError,
    UnsupportedFormatError,
)
from ..options import as_flag

log = logging.getLogger("structchunk")

T = TypeVar("T")

ERROR_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (EncryptedDocumentError, "encrypted"),
    (NoTextError, "no_text"),
    (ParseError, "parse"),
    (UnsupportedFormatError, "unsupported"),
    (InputError, "input"),
    (OptionsError, "options"),
    (BudgetError, "budget"),
    (OutputError, "output"),
    (MemoryError, "memory"),
)
"""Error kinds written to `--errors`, most specific first; anything else is `internal`."""


class FileTimeout(BaseException):
    """The file took longer than `--timeout-per-file`.

    A `BaseException`, as `KeyboardInterrupt` is, so the `except Exception` handlers of
    the parsing libraries (which retry, skip or log what fails inside a PDF) cannot
    swallow it and carry on past the limit.
    """


REARM_SECONDS = 1.0
"""After the limit, the alarm fires again this often, in case a bare `except:` caught it."""


@dataclass(frozen=True, slots=True)
class FileLimits:
    """What one file may cost before it is given up (per file, in every mode)."""

    timeout: float | None = None
    """Seconds; None for no limit."""
    max_memory_mb: float | None = None
    """Resident memory of the process converting it; None for no limit."""

    @property
    def need_worker(self) -> bool:
        """Only a separate process can be stopped for certain (C code ignores alarms)."""
        return bool(self.timeout or self.max_memory_mb)


@dataclass(frozen=True, slots=True)
class FileFailure:
    """Why one file produced nothing."""

    kind: str
    message: str
    """One line naming the file."""
    ends_run: bool = False
    """The output location is full or read-only: no other file could be written either."""


def error_kind(error: BaseException) -> str:
    if isinstance(error, FileTimeout):
        return "timeout"
    for cls, kind in ERROR_KINDS:
        if isinstance(error, cls):
            return kind
    return "internal"


def error_message(
    error: BaseException,
    path: str,
    limits: FileLimits | None = None,
    terms: OptionTerms = as_flag,
) -> str:
    """One line naming the file and saying what went wrong, an option it names said in
    `terms` (the command line's flags unless a library entry asks for keywords)."""
    if isinstance(error, StructChunkError):
        return error.with_source(path).in_terms(terms)
    if isinstance(error, FileTimeout):
        return f"{path}: {error}"
    if isinstance(error, MemoryError):
        if limits is not None and limits.max_memory_mb:
            return (
                f"{path}: needed more than {limits.max_memory_mb:g} MB of memory "
                "(--max-memory-per-file)"
            )
        return f"{path}: ran out of memory"
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
    signal.setitimer(signal.ITIMER_REAL, seconds, REARM_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def guarded(
    path: str,
    work: Callable[[], T],
    limits: FileLimits | None = None,
    terms: OptionTerms = as_flag,
) -> T | FileFailure:
    """`work()` for the file at `path`, or the failure it ended in (never raises for it).

    An internal error (a bug, not a bad file) logs its traceback at INFO, which `-v`
    shows.
    """
    try:
        with time_limit(limits.timeout if limits else None):
            return work()
    except (Exception, FileTimeout) as error:  # the file boundary: reported, never raised
        kind = error_kind(error)
        if kind == "internal":
            log.info("%s: internal error", path, exc_info=True)
        ends_run = isinstance(error, DestinationError)
        return FileFailure(kind, error_message(error, path, limits, terms), ends_run)
