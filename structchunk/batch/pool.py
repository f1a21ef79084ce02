"""A process pool that survives its workers: one file per worker at a time, and a worker
that dies (killed for memory, a crash in a C library) or hangs past the time limit costs
only the file it was working on.

`concurrent.futures` cannot say which file killed a worker, and breaks the whole pool
when one dies; here the parent always knows which worker holds which file.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from ..options import ChunkOptions
from .boundary import FileLimits
from .logs import configure_logging
from .work import Outcome, Task, convert_task

log = logging.getLogger("structchunk")

HARD_TIMEOUT_GRACE = 10.0
"""Seconds past `--timeout-per-file` before the parent kills a worker that did not stop
itself (stuck inside C code, where the worker's own alarm cannot interrupt it)."""


def _worker_main(
    conn: Connection, options: ChunkOptions, limits: FileLimits, log_level: int
) -> None:
    """Convert the tasks the parent sends, one at a time, until it sends None."""
    configure_logging(log_level)  # a spawned process starts with no logging set up
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


class WorkerPool:
    """`jobs` worker processes converting tasks; `run` yields outcomes as they finish."""

    def __init__(self, jobs: int, options: ChunkOptions, limits: FileLimits | None = None) -> None:
        self.jobs = jobs
        limits = limits or FileLimits()
        self.args = (options, limits, log.getEffectiveLevel())
        self.timeout = limits.timeout
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker_main, args=(child, *self.args), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def run(self, tasks: Iterable[Task]) -> Iterator[Outcome]:
        pending = deque(tasks)
        self._workers = [self._spawn() for _ in range(min(self.jobs, len(pending)))]
        try:
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
                    outcome: Outcome = worker.conn.recv()
                except (EOFError, OSError):  # it died mid-file: replace it below
                    pass
                else:
                    worker.task = None
                    yield outcome
                    continue
            if self._overdue(worker):
                yield self._replace(index, worker, overdue=True)
            elif worker.conn in ready or worker.process.sentinel in ready:
                yield self._replace(index, worker, overdue=False)

    def _wait_seconds(self, busy: list[_Worker]) -> float | None:
        if not self.timeout:
            return None
        limit = self.timeout + HARD_TIMEOUT_GRACE
        return max(0.05, min(limit - (time.monotonic() - w.started) for w in busy))

    def _overdue(self, worker: _Worker) -> bool:
        return bool(self.timeout) and (
            time.monotonic() - worker.started > (self.timeout or 0) + HARD_TIMEOUT_GRACE
        )

    def _replace(self, index: int, worker: _Worker, overdue: bool) -> Outcome:
        """Record the worker's file as failed, and put a fresh worker in its place."""
        if overdue:
            worker.process.kill()
            worker.process.join()
            outcome = self._lost(
                worker,
                f"timed out after {self.timeout or 0:g} s "
                "(--timeout-per-file); the worker was stopped",
                "timeout",
            )
        else:
            worker.process.join()
            code = worker.process.exitcode
            how = (
                f"killed by signal {-code}"
                if code is not None and code < 0
                else f"exited with code {code}"
            )
            outcome = self._lost(worker, f"the worker process {how} (out of memory?)")
        worker.conn.close()
        self._workers[index] = self._spawn()
        return outcome

    @staticmethod
    def _lost(worker: _Worker, message: str, kind: str = "worker_died") -> Outcome:
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
        for worker in self._workers:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.kill()
            worker.conn.close()
        self._workers = []
