"""A batch run: many inputs to one JSONL (in sorted input order) or one JSONL per input.

Idempotent and restartable: every finished file is written atomically and recorded in
the manifest; a rerun converts only inputs whose bytes or options changed, and a run
killed halfway finishes the rest. Failures are collected per file, never raised.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from .. import __version__
from ..api import parse_settings
from ..errors import DestinationError, InputError, OptionsError, OutputError
from ..ids import short_hash
from ..options import ChunkOptions
from ..parsers import FORMATS
from ..records import printable_path
from .atomic import atomic_binary_writer, atomic_writer, remove_leftovers
from .boundary import FileLimits
from .changes import ChangePlan
from .inputs import InputFile
from .lock import holding, remove_abandoned
from .manifest import Entry, Manifest, relative_to
from .memory import default_limit_mb
from .parquet import json_rows, parents_path, write_parquet_tables
from .pool import WorkerPool
from .run_summary import BudgetSummary
from .work import Outcome, Task, convert_task

MANIFEST_NAME = ".structchunk-manifest.jsonl"
SCRATCH_PREFIX = "structchunk-"
"""The temporary folder (in `$TMPDIR`) of the per-input parts of one `-o` file."""
AUTO_POOL_MIN_BYTES = 4_000_000
"""With --jobs not given, smaller runs stay in one process: starting workers (about a
second each, measured here) would cost more than they save."""
COPY_BUFFER = 1 << 20


@dataclass(frozen=True)
class BatchConfig:
    """Where output goes and how the run behaves (the CLI maps its flags onto this)."""

    out: str = "-"
    """One JSONL file, or `-` for stdout; ignored when `out_dir` is set."""
    out_dir: Path | None = None
    jobs: int | None = None
    """Worker processes; None: the number of cores, or none for a small run."""
    manifest: Path | None = None
    """The manifest journal; None disables incremental runs."""
    errors: Path | None = None
    prune: bool = False
    timeout: float | None = None
    """Seconds one file may take (`--timeout-per-file`); None for no limit."""
    output_format: str = "jsonl"
    """`jsonl` or `parquet`: of `out`, or of each file in `out_dir`."""
    max_memory_mb: float | None = None
    """Memory one file may take (`--max-memory-per-file`); 0 for no limit; None: the
    default ceiling, `memory.default_limit_mb` (2 GiB, less on a small machine)."""
    changes: Path | None = None
    """Where to write the run's plan (`--changes`, JSONL; see `changes.py`); needs a
    manifest, which holds the state of the last completed run."""

    def limits(self, workers: int) -> FileLimits:
        """What each of `workers` processes holds a file to. Any limit, the default
        memory ceiling included, sends even one file to a worker process (forked:
        milliseconds), the only place a file can be stopped for certain."""
        memory = self.max_memory_mb
        if memory is None:
            memory = default_limit_mb(workers)
        return FileLimits(timeout=self.timeout, max_memory_mb=memory or None)


@dataclass
class BatchReport:
    ok: int = 0
    failed: int = 0
    skipped: int = 0
    pruned: int = 0
    chunks: int = 0
    seconds: float = 0.0
    failures: list[Outcome] = field(default_factory=list)
    summary: BudgetSummary | None = None
    changes: ChangePlan | None = None
    """What a vector store must add, delete and keep since the last completed run (with
    a manifest; None without)."""


Progress = Callable[[Outcome | None, int], None]
"""Called with each outcome (None for a skipped file) and the input's size in bytes."""

Executor = Callable[[list[Task]], Iterator[Outcome]]
"""Runs tasks somewhere (this process, a worker pool, a Ray cluster); yields outcomes in
any order."""


def default_manifest(config: BatchConfig) -> Path | None:
    """`OUT_DIR/.structchunk-manifest.jsonl` for `--out-dir`; none for one `-o` file,
    whose incremental state (the manifest and a parts folder as large as the output) is
    opt-in with `--manifest PATH`."""
    if config.out_dir is not None:
        return config.out_dir / MANIFEST_NAME
    return None


def _target(folder: Path, rel: str, extension: str = ".jsonl") -> Path:
    target = folder / (rel + extension)
    if not target.resolve().is_relative_to(folder.resolve()):
        raise InputError(f"output {rel!r} would be written outside {folder}")
    return target


def _read_and_hash(item: InputFile, hash_files: bool) -> tuple[bytes | None, str, int]:
    """Stdin's bytes (files are read again by the worker), content hash and size.

    Files are only read here when their hash is needed (for the manifest); otherwise
    their size comes from the filesystem and the hash is empty.
    """
    if item.data is not None or item.path == "-":
        data = item.data if item.data is not None else sys.stdin.buffer.read()
        return data, hashlib.sha256(data).hexdigest(), len(data)
    if not hash_files:
        try:
            return None, "", os.stat(item.path).st_size
        except OSError:
            return None, "", 0  # the worker reports the error with its one-line message
    digest = hashlib.sha256()
    size = 0
    try:
        with open(item.path, "rb") as handle:
            for block in iter(lambda: handle.read(COPY_BUFFER), b""):
                digest.update(block)
                size += len(block)
    except OSError:
        return None, "", 0  # the worker reports the read error with its one-line message
    return None, digest.hexdigest(), size


class BatchRun:
    """One run over a fixed list of inputs; `execute()` does the work."""

    def __init__(
        self,
        items: list[InputFile],
        options: ChunkOptions,
        config: BatchConfig,
        progress: Progress | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.items = items
        self.executor = executor
        self.options = options
        self.config = config
        self.progress = progress or (lambda outcome, size: None)
        # options and structchunk's version: a new release converts everything again
        self.fingerprint = short_hash(
            options.fingerprint(),
            __version__,
            *([self._extension] if self._extension != ".jsonl" else []),
            length=16,
        )
        manifest_path = config.manifest
        if config.changes is not None and manifest_path is None:
            raise OptionsError(
                "a plan of changes needs a manifest (the last run's state): "
                "give --out-dir, or -o with --manifest PATH"
            )
        self.manifest = Manifest(manifest_path) if manifest_path is not None else None
        self._scratch: Path | None = None
        self._hashes: dict[str, str] = {}
        self._sizes: dict[str, int] = {}
        self.folder = self._output_folder()
        self.report = BatchReport(summary=BudgetSummary(options.max_tokens, options.tokenizer_name))

    @property
    def _extension(self) -> str:
        """Of each input's output: Parquet only for `--out-dir` (an `-o` file is
        assembled from JSONL parts)."""
        parquet = self.config.output_format == "parquet" and self.config.out_dir is not None
        return ".parquet" if parquet else ".jsonl"

    def _output_folder(self) -> Path:
        """Where per-input JSONL files go: the out dir, or a parts folder for one OUT."""
        if self.config.out_dir is not None:
            return self.config.out_dir
        if self.manifest is not None:
            return Path(str(self.manifest.path).removesuffix(".manifest.jsonl") + ".parts")
        remove_abandoned(Path(tempfile.gettempdir()), SCRATCH_PREFIX)  # of killed runs
        self._scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX))
        return self._scratch

    def execute(self) -> BatchReport:
        start = time.perf_counter()
        try:
            with holding(self.folder, self._label):
                self._execute()
        finally:
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
        self.report.seconds = time.perf_counter() - start
        return self.report

    @property
    def _label(self) -> str:
        """What the user asked to write, for messages."""
        return str(self.config.out_dir or self.config.out)

    def _execute(self) -> None:
        self._remove_leftovers()
        try:
            # the last completed run's ids, read before this run replaces any output
            before = self.manifest.state(self.manifest.committed) if self.manifest else {}
            tasks = list(self._plan())
            by_index = {task.index: task for task in tasks}
            with contextlib.closing(self._run(tasks)) as outcomes:  # stops workers at once
                for outcome in outcomes:
                    self._finish(outcome, by_index[outcome.index])
            self._prune()
            if self.config.out_dir is None and (self.items or self.config.out == "-"):
                self._assemble()  # nothing read: nothing written
            if self.config.errors is not None:
                self._write_errors()
            if self.manifest is not None:
                self._write_changes(before, self.manifest)
        except BaseException:
            if self.manifest is not None:  # the journal holds what finished, and the
                with contextlib.suppress(OutputError):  # last completed run's state
                    self.manifest.close()
            self._remove_leftovers()  # what the stopped workers were writing
            raise

    def _write_changes(self, before: dict[str, tuple[str, ...]], manifest: Manifest) -> None:
        """The plan from the last completed run to this one, then the commit that makes
        this run the last completed one: a run killed before the commit leaves the plan's
        start where it was, so the next plan still covers everything since then."""
        self.report.changes = ChangePlan(before, manifest.state(manifest.entries))
        if self.config.changes is not None:
            self.report.changes.write(self.config.changes)
        manifest.commit()

    def _remove_leftovers(self) -> None:
        """Temporary files of a run killed mid-write: in the output tree, beside `-o`."""
        if self._scratch is None:
            remove_leftovers(self.folder, recursive=True)
        if self.config.out_dir is None and self.config.out != "-":
            out = Path(self.config.out)
            remove_leftovers(out.parent, name=out.name)  # OUT itself and .OUT.manifest

    def _plan(self) -> Iterator[Task]:
        """Tasks for inputs that need converting; unchanged ones are skipped."""
        for index, item in enumerate(self.items):
            target = _target(self.folder, item.key, self._extension)
            data, sha, size = _read_and_hash(item, hash_files=self.manifest is not None)
            self._hashes[item.key] = sha
            self._sizes[item.key] = size
            if (
                self.manifest is not None
                and sha
                and self.manifest.is_current(item.key, sha, self.fingerprint)
            ):
                self.report.skipped += 1
                self.progress(None, target.stat().st_size)
                continue
            yield Task(index, item.path, item.format, item.key, str(target), data)

    def _jobs(self, tasks: list[Task]) -> int:
        if self.config.jobs is not None:
            return min(self.config.jobs, len(tasks))
        size = sum(self._sizes.get(task.rel, 0) for task in tasks)
        if size < AUTO_POOL_MIN_BYTES:
            return 1
        return min(os.cpu_count() or 1, len(tasks))

    def _run(self, tasks: list[Task]) -> Generator[Outcome, None, None]:
        if self.executor is not None:
            yield from self.executor(tasks)
            return
        jobs = self._jobs(tasks)
        options = self.options
        if jobs <= 1 and len(tasks) == 1:  # one document gets the cores (a PDF's pages)
            cores = self.config.jobs or os.cpu_count() or 1
            options = self.options.model_copy(update={"page_workers": cores})
        limits = self.config.limits(max(1, jobs))
        if jobs <= 1 and not limits.need_worker and not self._native(tasks):
            for task in tasks:
                yield convert_task(task, options, limits)
            return
        pool = WorkerPool(max(1, jobs), options, limits)
        yield from pool.run(tasks)

    def _native(self, tasks: list[Task]) -> bool:
        """Whether a task is read by C code that a damaged file could crash (PDFium): then
        even a single file is converted in a worker (forked: milliseconds), so a crash
        costs that file one line (`worker_died`), not the run its other files' output,
        and the worker's memory limit bounds what PDFium inflates."""
        settings = parse_settings(self.options)
        specs = (FORMATS.get(task.format) for task in tasks)
        return any(spec is not None and spec.reads_natively(settings) for spec in specs)

    def _finish(self, outcome: Outcome, task: Task) -> None:
        if outcome.ends_run:  # a full disk: every other file would fail the same way
            raise DestinationError(f"{outcome.message}; the run stopped, finished files kept")
        self.progress(outcome, outcome.size)
        target = Path(task.target)
        if not outcome.ok:
            self.report.failed += 1
            self.report.failures.append(outcome)
            _remove_output(target)  # a stale output from an earlier run must go
            if self.manifest is not None:
                self.manifest.forget(task.rel)
            return
        self.report.ok += 1
        self.report.chunks += outcome.chunks
        assert self.report.summary is not None
        self.report.summary.add_counts(outcome.tokens, outcome.shortened, outcome.languages)
        if self.manifest is not None:
            output = relative_to(target, self.manifest.path.parent)
            self.manifest.record(
                Entry(
                    task.rel,
                    self._hashes.get(task.rel, ""),
                    self.fingerprint,
                    output,
                    outcome.chunks,
                    tuple(outcome.ids),
                )
            )

    def _prune(self) -> None:
        """With --prune, remove outputs of inputs that are gone; for one `-o` file
        always: parts of inputs not in this run are never part of it again."""
        if self.manifest is None or not (self.config.prune or self.config.out_dir is None):
            return
        current = {item.key for item in self.items}
        for rel in sorted(set(self.manifest.entries) - current):
            _remove_output(self.manifest.output_path(self.manifest.entries[rel]))
            self.manifest.forget(rel)
            self.report.pruned += self.config.prune  # an -o file's stale parts are no news

    def _assemble(self) -> None:
        """Concatenate the inputs' parts into OUT, in sorted input order (atomically)."""
        parts = [_target(self.folder, item.key) for item in self.items]
        if self.config.out == "-":
            self._copy_parts(parts, sys.stdout.buffer)
            sys.stdout.buffer.flush()
            return
        if self.config.output_format == "parquet":
            write_parquet_tables(json_rows(_lines(parts)), self.config.out, self.options.parents)
            return
        with atomic_binary_writer(self.config.out) as handle:
            self._copy_parts(parts, handle)

    @staticmethod
    def _copy_parts(parts: list[Path], sink: IO[bytes]) -> None:
        for part in parts:
            if part.is_file():
                with open(part, "rb") as source:
                    shutil.copyfileobj(source, sink, COPY_BUFFER)

    def _write_errors(self) -> None:
        import json

        assert self.config.errors is not None
        with atomic_writer(self.config.errors) as handle:
            for failure in sorted(self.report.failures, key=lambda o: o.index):
                handle.write(
                    json.dumps(
                        {
                            "path": printable_path(failure.path),
                            "kind": failure.kind,
                            "message": printable_path(failure.message),
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )


def _remove_output(target: Path) -> None:
    """An input's output, and a Parquet output's table of parents beside it."""
    target.unlink(missing_ok=True)
    if target.suffix == ".parquet":
        Path(parents_path(target)).unlink(missing_ok=True)


def _lines(parts: list[Path]) -> Iterator[str]:
    for part in parts:
        if part.is_file():
            with open(part, encoding="utf-8") as handle:
                yield from handle


def run_batch(
    items: list[InputFile],
    options: ChunkOptions,
    config: BatchConfig,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> BatchReport:
    """Convert `items` as `config` says (on `executor`, default: local); see `BatchRun`.

    Each file's chunk ids are keyed on its path relative to the run's root (`InputFile.rel`),
    so they do not change when the checkout moves; `options.doc_key` overrides it for a
    run of one input."""
    if options.doc_key is not None and len(items) > 1:
        raise OptionsError(
            f"doc_key names one document, but {len(items)} inputs were given; leave it out "
            "to key each file's chunk ids on its path relative to the run's root"
        )
    return BatchRun(items, options, config, progress, executor).execute()
