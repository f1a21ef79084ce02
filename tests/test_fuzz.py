"""The mutation-fuzz gate: every mutant ends converted, or with a one-line typed error.

Mutants of real and generated documents (tests/fuzzing.py) go through ONE `convert`
run, as a batch user runs it. A case fails when it crashes, times out, runs out of
memory, hangs, is lost (neither output nor error), gets an untyped error, or writes a
record over the budget; a rerun of a sample must be byte-identical.

Three sizes: a tests/corpus-only gate in the day-to-day subset, a shared-corpus gate
marked `slow`, and a large run that only `pytest -m fuzz` selects (cases from
$STRUCTCHUNK_FUZZ_CASES, `START:STOP`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import NO_CORPUS_REASON, SHARED_CORPUS
from fuzzing import Mutant, PoolName, case_number, make_mutants, seed_pool

from structchunk.batch.boundary import ERROR_KINDS
from structchunk.tokenizers import count_words

LOCAL_CASES = range(0, 100)
"""About 10 s on the 2-core CI machine: cheap enough for every `pytest -m "not slow"`."""
SHARED_CASES = range(1000, 1300)
"""35-65 s there (the lower figure on an idle machine)."""
FUZZ_CASES = os.environ.get("STRUCTCHUNK_FUZZ_CASES", "100000:103000")
MAX_TOKENS = 128
TIMEOUT_PER_FILE = 20
MEMORY_LIMIT_MB = 1024
OCR_DPI = 100
JOBS = 2
RERUN_PER_SUFFIX = 2
"""Converted mutants per file suffix converted again, for the determinism check."""
RERUN_MAX_BYTES = 100_000
"""Only mutants up to this size are rerun, to keep the check cheap."""
VIOLATIONS = frozenset({"internal", "timeout", "memory", "worker_died"})
"""Error kinds that mean a crash or a broken time/memory budget, never a fine outcome."""
TYPED_KINDS = frozenset(kind for _, kind in ERROR_KINDS) - VIOLATIONS
REPRO_DIR = "/tmp/fuzz-repro"
RUN_SECONDS = 120.0
RUN_SECONDS_PER_FILE = 2.0
"""A whole run taking longer than RUN_SECONDS + this per file is killed as a hang (the
pool already kills a worker stuck on one file; this catches a stuck parent)."""


@functools.cache
def limit_flags() -> tuple[str, ...]:
    """The per-file limits to pass `convert`."""
    flags: tuple[str, ...] = ("--timeout-per-file", str(TIMEOUT_PER_FILE))
    flags += ("--max-memory-per-file", str(MEMORY_LIMIT_MB))
    # scans are still read by OCR where Tesseract is installed, at a resolution that keeps
    # a three-page scan's mutants inside the time limit on a busy 2-core machine
    flags += ("--ocr-dpi", str(OCR_DPI))
    return flags


@dataclass(frozen=True)
class Run:
    """One `convert` over a folder of mutants, and what it left behind."""

    folder: Path
    out: Path
    errors: Path
    returncode: int
    """Negative: killed by that signal (by the gate's deadline, when `seconds` is past it)."""
    stderr: str
    peak_rss_mb: float
    """The largest resident set of the CLI or any of its workers."""
    seconds: float

    def error_records(self) -> list[dict[str, str]]:
        if not self.errors.is_file():
            return []
        lines = self.errors.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def convert(folder: Path, names: Sequence[str], tag: str, jobs: int = JOBS) -> Run:
    """`structchunk convert` over `names` in `folder`, as a user runs it, with limits.

    Waits with `os.wait4` for the peak memory of the CLI and its (reaped) workers, and
    kills the CLI and its workers if the run outlives any plausible budget.
    """
    out, errors, log = (
        folder / f"{tag}-out",
        folder / f"{tag}-errors.jsonl",
        folder / f"{tag}.stderr",
    )
    args = [sys.executable, "-m", "structchunk", "convert", *names, "--out-dir", str(out)]
    args += ["--errors", str(errors), "--jobs", str(jobs), "--max-tokens", str(MAX_TOKENS)]
    args += limit_flags()
    deadline = RUN_SECONDS + RUN_SECONDS_PER_FILE * len(names)
    start = time.perf_counter()
    with open(log, "w+b") as err_file:
        process = subprocess.Popen(args, cwd=folder, stdout=subprocess.DEVNULL, stderr=err_file)
        killer = threading.Timer(deadline, _kill_tree, (process.pid,))
        killer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except BaseException:  # interrupted (Ctrl-C): leave no conversion running
            _kill_tree(process.pid)
            raise
        finally:
            killer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        text = err_file.read().decode("utf-8", "replace")
    seconds = time.perf_counter() - start
    return Run(folder, out, errors, process.returncode, text, usage.ru_maxrss / 1024, seconds)


def _kill_tree(pid: int) -> None:
    """Kill a hung CLI and every process under it (it may have ended just now)."""
    for victim in [pid, *_descendants(pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(victim, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """Processes under `pid`, from /proc: the workers sit in process groups of their own,
    and must be found before the CLI dies and they are handed to init."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def run_problems(run: Run, expect_failures: bool) -> list[str]:
    """What is wrong with the run as a whole (not with one file)."""
    problems = []
    if run.returncode < 0:
        problems.append(
            f"the run was killed by signal {-run.returncode} after {run.seconds:.0f} s "
            f"(the gate kills it after {RUN_SECONDS:g} s + {RUN_SECONDS_PER_FILE:g} s a file)"
        )
    elif run.returncode not in (0, 1) or (run.returncode == 1) != expect_failures:
        problems.append(f"exit code {run.returncode} (0: all converted, 1: some failed)")
    if "Traceback (most recent call last)" in run.stderr:
        start = run.stderr.index("Traceback")
        problems.append("a traceback on stderr:\n" + run.stderr[start : start + 3000])
    if run.peak_rss_mb > MEMORY_LIMIT_MB:
        problems.append(f"a process peaked at {run.peak_rss_mb:.0f} MB (> {MEMORY_LIMIT_MB})")
    return problems


def output_problems(path: Path, name: str) -> list[str]:
    """Budget and shape problems of one output JSONL."""
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(f"line {number} is not JSON ({error})")
            continue
        if not isinstance(record, dict):
            problems.append(f"line {number} is not a JSON object")
            continue
        words = count_words(record.get("text", ""))
        if record.get("n_tokens", MAX_TOKENS + 1) > MAX_TOKENS or words > MAX_TOKENS:
            problems.append(
                f"line {number}: n_tokens {record.get('n_tokens')}, {words} words "
                f"(budget {MAX_TOKENS})"
            )
        if record.get("source") != name:
            problems.append(f"line {number}: source {record.get('source')!r}")
    return problems


def case_problems(run: Run, names: Sequence[str]) -> dict[str, list[str]]:
    """Each mutant's problems: lost, reported twice, a bad error, or a bad output."""
    by_path: dict[str, list[dict[str, str]]] = {}
    for record in run.error_records():
        by_path.setdefault(record.get("path", ""), []).append(record)
    found: dict[str, list[str]] = {}
    for name in names:
        problems = []
        output = run.out / f"{name}.jsonl"
        errors = by_path.pop(name, [])
        if output.is_file() and errors:
            problems.append("has both an output and an error record")
        elif not output.is_file() and not errors:
            problems.append("lost: neither an output nor an error record")
        if len(errors) > 1:
            problems.append(f"{len(errors)} error records")
        for error in errors:
            kind, message = error.get("kind", ""), error.get("message", "")
            if kind in VIOLATIONS or kind not in TYPED_KINDS:
                problems.append(f"kind {kind!r}: {message}")
            elif len(message.splitlines()) != 1 or name not in message:
                problems.append(f"message is not one line naming the file: {message!r}")
        if output.is_file():
            problems += output_problems(output, name)
        if problems:
            found[name] = problems
    for path, records in by_path.items():
        found[path] = [f"an error record for an unknown input: {records}"]
    return found


def determinism_problems(run: Run, names: Sequence[str]) -> dict[str, list[str]]:
    """A sample converted again in one process: the same bytes, the same errors."""
    converted = [
        n
        for n in names
        if (run.out / f"{n}.jsonl").is_file() and (run.folder / n).stat().st_size <= RERUN_MAX_BYTES
    ]
    failed = sorted({r["path"]: r for r in run.error_records()}.items())[:RERUN_PER_SUFFIX]
    sample = []
    for suffix in sorted({Path(n).suffix for n in converted}):
        sample += [n for n in converted if n.endswith(suffix)][:RERUN_PER_SUFFIX]
    sample += [path for path, _ in failed]
    if not sample:
        return {}
    again = convert(run.folder, sample, "rerun", jobs=1)
    first = {r["path"]: (r["kind"], r["message"]) for r in run.error_records()}
    second = {r["path"]: (r["kind"], r["message"]) for r in again.error_records()}
    found: dict[str, list[str]] = {}
    for name in sample:
        before, after = run.out / f"{name}.jsonl", again.out / f"{name}.jsonl"
        same_output = before.is_file() == after.is_file() and (
            not before.is_file() or before.read_bytes() == after.read_bytes()
        )
        if not same_output or first.get(name) != second.get(name):
            found[name] = ["not deterministic: a rerun (--jobs 1) wrote different output"]
    return found


def gate(tmp_path: Path, pool: PoolName, cases: range) -> None:
    """Write the pool's mutants for `cases`, convert them in one run, check every case."""
    mutants: list[Mutant] = make_mutants(cases, seed_pool(pool))
    for mutant in mutants:
        (tmp_path / mutant.name).write_bytes(mutant.data)
    names = [m.name for m in mutants]
    run = convert(tmp_path, names, "fuzz")
    found = case_problems(run, names)
    expect_failures = bool(run.error_records())
    problems = run_problems(run, expect_failures)
    if not found and not problems:
        found = determinism_problems(run, names)
    if not found and not problems:
        return
    lines = [f"fuzz gate, pool {pool!r}, cases {cases.start}..{cases.stop - 1}:", *problems]
    lines.append(f"{len(found)} of {len(names)} mutants failed:")
    for name, messages in sorted(found.items()):
        lines += [f"  {name}: {message}" for message in messages]
    failing = sorted({case_number(name) for name in found if name[:1].isdigit()})
    lines += [
        "file names are CASE-OPERATORS-SEED; reproduce with:",
        f"  python tests/fuzzing.py --pool {pool} --out {REPRO_DIR} {' '.join(map(str, failing))}",
        f"  cd {REPRO_DIR} && python -m structchunk -v convert <file> --jobs 1 "
        f"--max-tokens {MAX_TOKENS} {' '.join(limit_flags())} -o out.jsonl",
    ]
    pytest.fail("\n".join(lines), pytrace=False)


def test_fuzz_local_corpus(tmp_path: Path) -> None:
    gate(tmp_path, "local", LOCAL_CASES)


@pytest.mark.slow
def test_fuzz_shared_corpus(tmp_path: Path) -> None:
    if SHARED_CORPUS is None:
        pytest.skip(NO_CORPUS_REASON)
    gate(tmp_path, "shared", SHARED_CASES)


@pytest.mark.slow
@pytest.mark.fuzz
def test_fuzz_large(tmp_path: Path) -> None:
    """The opt-in run (`pytest -m fuzz`): every small corpus file as a seed."""
    start, stop = (int(part) for part in FUZZ_CASES.split(":"))
    gate(tmp_path, "all", range(start, stop))
