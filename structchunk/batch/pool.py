"""A process pool that survives its workers: one file per worker at a time, and a worker
that dies (a crash in a C library), hangs past the time limit or grows past the memory
limit costs only the file it was working on.

`concurrent.futures` cannot say which file killed a worker, and breaks the whole pool
when one dies; here the parent always knows which worker holds which file. Each worker
leads its own process group, so stopping it also stops the page readers it started for
a large PDF.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from ..errors import WorkerStartError
from ..options import ChunkOptions
from ..processes import die_with_parent, start_context
from ..progress import listening_with_ocr, report
from .boundary import FileLimits
from .logs import configure_logging
from .memory import cap_address_space, process_tree_mb
from .work import Outcome, Task, convert_task

log = logging.getLogger("structchunk")

HARD_TIMEOUT_GRACE = 2.0
"""Seconds past `--timeout-per-file` before the parent kills a worker that did not stop
itself (stuck inside C code, where the worker's own alarm cannot interrupt it)."""
START_SECONDS = 120.0
"""How long a new worker may take to report that it is ready (a spawned one imports
structchunk and the parsers first: about a second here)."""
MEMORY_SAMPLE_SECONDS = 0.2
"""How often the parent reads each busy worker's memory when there is a memory limit."""


@dataclass(frozen=True, slots=True)
class _Ready:
    """A new worker's first message: it started and can take work."""


@dataclass(frozen=True, slots=True)
class _Pages:
    """A page-progress report from inside a worker's document."""

    done: int
    total: int
    ocr: int


def _worker_main(
    conn: Connection, options: ChunkOptions, limits: FileLimits, log_level: int, parent: int
) -> None:
    """Convert the tasks the parent sends, one at a time, until it sends None."""
    die_with_parent(parent)
    with contextlib.suppress(OSError):
        os.setpgrp()  # its page readers join this group, so one kill stops them all
    configure_logging(log_level, replace=True)
    if limits.max_memory_mb:
        cap_address_space(limits.max_memory_mb)

    def forward(done: int, total: int, ocr: int) -> None:
        # to the parent: a forked worker must not draw on its copy of the parent's bars
        conn.send(_Pages(done, total, ocr))

    conn.send(_Ready())
    with listening_with_ocr(forward):
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            if task is None:
                return
            conn.send(convert_task(task, options, limits))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: Task | None = None
    started: float = 0.0
    pages: tuple[int, int, int] = (0, 0, 0)
    """Pages done, in all and read by OCR of the document it is reading (for the
    progress bar)."""


class WorkerPool:
    """`jobs` worker processes converting tasks; `run` yields outcomes as they finish.

    The page progress of the documents being read, summed over the workers, is passed
    on to this process's `structchunk.progress` listener, so a batch of long PDFs shows
    its pages, not only its files.
    """

    def __init__(self, jobs: int, options: ChunkOptions, limits: FileLimits | None = None) -> None:
        self.jobs = jobs
        self.limits = limits or FileLimits()
        self.args = (options, self.limits, log.getEffectiveLevel())
        self._workers: list[_Worker] = []

    def _spawn(self) -> _Worker:
        context = start_context()
        parent, child = context.Pipe()
        # not a daemon: a daemon may not start the page readers of a large PDF; close()
        # and the kill paths below stop workers instead
        process = context.Process(
            target=_worker_main, args=(child, *self.args, os.getpid()), daemon=False
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    @staticmethod
    def _ready(worker: _Worker) -> _Worker:
        """`worker` once it has said it is ready; WorkerStartError if it died first."""
        if not worker.conn.poll(START_SECONDS) or not isinstance(_receive(worker.conn), _Ready):
            _stop(worker)
            raise WorkerStartError(_START_FAILED)
        return worker

    def run(self, tasks: Iterable[Task]) -> Iterator[Outcome]:
        pending = deque(tasks)
        self._workers = [self._spawn() for _ in range(min(self.jobs, len(pending)))]
        try:
            self._workers = [self._ready(worker) for worker in self._workers]
            while pending or any(w.task is not None for w in self._workers):
                for worker in self._workers:
                    if worker.task is None and pending:
                        worker.task, worker.started = pending.popleft(), time.monotonic()
                        with contextlib.suppress(OSError):  # a dead worker shows up below
                            worker.conn.send(worker.task)
                yield from self._collect()
        finally:
            self.close()

    def _collect(self) -> Iterator[Outcome]:
        busy = [w for w in self._workers if w.task is not None]
        ready = wait(
            [w.conn for w in busy] + [w.process.sentinel for w in busy],
            timeout=self._wait_seconds(busy),
        )
        for index, worker in enumerate(list(self._workers)):
            if worker.task is None:
                continue
            if worker.conn in ready:
                try:
                    message: Outcome | _Pages = worker.conn.recv()
                except (EOFError, OSError):  # it died mid-file: replace it below
                    pass
                else:
                    if isinstance(message, _Pages):
                        worker.pages = (message.done, message.total, message.ocr)
                        self._report_pages()
                        continue
                    worker.task, worker.pages = None, (0, 0, 0)
                    if message.kind == "memory":  # its heap may stay bloated: start afresh
                        self._retire(index, worker)
                    yield message
                    continue
            failure = self._over_limit(worker)
            if failure is not None:
                yield self._replace(index, worker, *failure)
            elif worker.conn in ready or worker.process.sentinel in ready:
                yield self._replace(index, worker, self._death(worker), "worker_died")

    def _report_pages(self) -> None:
        busy = [w.pages for w in self._workers if w.task is not None and w.pages[1]]
        report(*(sum(counts) for counts in zip(*busy, strict=True)) if busy else (0, 0, 0))

    def _wait_seconds(self, busy: list[_Worker]) -> float | None:
        waits = []
        if self.limits.timeout:
            limit = self.limits.timeout + HARD_TIMEOUT_GRACE
            waits += [limit - (time.monotonic() - w.started) for w in busy]
        if self.limits.max_memory_mb:
            waits.append(MEMORY_SAMPLE_SECONDS)
        return max(0.05, min(waits)) if waits else None

    def _over_limit(self, worker: _Worker) -> tuple[str, str] | None:
        """(message, kind) when `worker` went past the time or memory limit, else None."""
        timeout, max_mb = self.limits.timeout, self.limits.max_memory_mb
        if timeout and time.monotonic() - worker.started > timeout + HARD_TIMEOUT_GRACE:
            return (
                f"timed out after {timeout:g} s (--timeout-per-file); the worker was stopped",
                "timeout",
            )
        used = process_tree_mb(worker.process.pid or 0) if max_mb else None
        if max_mb and (used or 0) > max_mb:
            return (
                f"used more than {max_mb:g} MB of memory (--max-memory-per-file); "
                "the worker was stopped",
                "memory",
            )
        return None

    def _death(self, worker: _Worker) -> str:
        """Why a worker ended without a word: a C library (PDFium) whose allocation the
        worker's address-space cap refused aborts the process, so the limit is named."""
        worker.process.join()
        code = worker.process.exitcode
        how = (
            f"killed by signal {-code}"
            if code is not None and code < 0
            else f"exited with code {code}"
        )
        if self.limits.max_memory_mb:  # C code (PDFium) aborts when the cap refuses it
            return (
                f"the worker process {how} (out of memory? it may use no more than "
                f"{self.limits.max_memory_mb:g} MB: --max-memory-per-file)"
            )
        return f"the worker process {how} (out of memory?)"

    def _replace(self, index: int, worker: _Worker, message: str, kind: str) -> Outcome:
        """Record the worker's file as failed, and put a fresh worker in its place."""
        outcome = self._lost(worker, message, kind)
        self._retire(index, worker)
        return outcome

    def _retire(self, index: int, worker: _Worker) -> None:
        _stop(worker)
        self._workers[index] = self._ready(self._spawn())

    @staticmethod
    def _lost(worker: _Worker, message: str, kind: str) -> Outcome:
        task = worker.task
        assert task is not None
        log.debug("%s: %s", task.path, message)
        return Outcome(
            task.index,
            task.rel,
            task.path,
            ok=False,
            kind=kind,
            message=f"{task.path}: {message}",
            seconds=time.monotonic() - worker.started,
        )

    def close(self) -> None:
        for worker in self._workers:
            with contextlib.suppress(OSError):  # already gone
                worker.conn.send(None)
        deadline = time.monotonic() + 2
        for worker in self._workers:
            worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
            _stop(worker)
        self._workers = []


_START_FAILED = (
    "structchunk's worker processes could not start. Where they are started by "
    "re-importing your script (the 'spawn' method: macOS, Windows, or a process that "
    'runs threads), the code that starts a batch must be under `if __name__ == "__main__":`'
)


def _receive(conn: Connection) -> object:
    try:
        return conn.recv()
    except (EOFError, OSError):  # it died while starting
        return None


def _stop(worker: _Worker) -> None:
    """Kill the worker and the page readers it started; reap it."""
    pid = worker.process.pid
    if pid:  # an unreaped worker keeps its pid, so the group id cannot be someone else's
        with contextlib.suppress(OSError):  # gone, or it had not made its group yet
            os.killpg(pid, signal.SIGKILL)
    if worker.process.is_alive():
        worker.process.kill()
    worker.process.join()
    worker.conn.close()
