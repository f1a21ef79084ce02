"""Batch runs: per-input outputs, determinism across jobs, manifest reruns, failures."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from structchunk import ChunkOptions
from structchunk.batch import BatchConfig, run_batch
from structchunk.batch.inputs import expand_inputs, safe_relative
from structchunk.batch.pool import WorkerPool
from structchunk.batch.work import Outcome, Task

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CORPUS = Path(__file__).resolve().parent / "corpus"
OPTIONS = ChunkOptions(max_tokens=96)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small input tree with Markdown, text and one broken file."""
    root = tmp_path / "in"
    (root / "guide" / "deep").mkdir(parents=True)
    (root / "guide" / "api-keys.md").write_bytes((SAMPLES / "api-keys.md").read_bytes())
    (root / "guide" / "deep" / "types.md").write_bytes(
        (SAMPLES / "rust-data-types.md").read_bytes()
    )
    (root / "speech.txt").write_bytes(
        (CORPUS / "text" / "state-of-the-union-excerpt.txt").read_bytes()
    )
    (root / "zz-broken.md").write_bytes(bytes(range(256)) * 8)
    return root


def run(root: Path, **config: object) -> tuple[object, list[str]]:
    items, problems = expand_inputs([str(root)], None)
    assert not problems
    report = run_batch(items, OPTIONS, BatchConfig(**config))  # type: ignore[arg-type]
    return report, [i.key for i in items]


def test_inputs_are_sorted_and_relative_paths_cannot_escape() -> None:
    assert safe_relative("../../etc/passwd") == "etc/passwd"
    assert safe_relative("/abs/a/../b.md") == "abs/b.md"
    assert safe_relative("./x/./y.md") == "x/y.md"
    items, _ = expand_inputs(
        [str(SAMPLES / "rust-data-types.md"), str(SAMPLES / "api-keys.md")], None
    )
    assert [Path(i.path).name for i in items] == ["api-keys.md", "rust-data-types.md"]


def test_out_dir_mirrors_the_input_tree_and_reports_failures(tree: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    errors = tmp_path / "errors.jsonl"
    report, keys = run(tree, out_dir=out, errors=errors, manifest=out / ".manifest.jsonl")
    assert keys == ["guide/api-keys.md", "guide/deep/types.md", "speech.txt", "zz-broken.md"]
    assert (out / "guide" / "deep" / "types.md.jsonl").is_file()
    assert not (out / "zz-broken.md.jsonl").exists()  # absent, never partial
    assert (report.ok, report.failed) == (3, 1)  # type: ignore[attr-defined]
    (error,) = [json.loads(line) for line in errors.read_text().splitlines()]
    assert error["kind"] == "parse" and error["path"].endswith("zz-broken.md")
    assert "binary data" in error["message"]


def test_one_output_is_identical_with_one_or_two_jobs(tree: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run(tree, out=str(one), jobs=1)
    run(tree, out=str(two), jobs=2)
    assert one.read_bytes() == two.read_bytes()
    sources = [json.loads(line)["source"] for line in one.read_text().splitlines()]
    assert sources == sorted(sources, key=lambda s: Path(s).relative_to(tree).parts)


def test_rerun_skips_unchanged_redoes_changed_and_prunes_only_when_asked(
    tree: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    manifest = out / ".manifest.jsonl"
    first, _ = run(tree, out_dir=out, manifest=manifest)
    again, _ = run(tree, out_dir=out, manifest=manifest)
    assert (again.ok, again.skipped) == (0, 3)  # type: ignore[attr-defined]
    (tree / "guide" / "api-keys.md").write_text("# Changed\n\nNew text.\n")
    (tree / "speech.txt").unlink()
    changed, _ = run(tree, out_dir=out, manifest=manifest)
    assert (changed.ok, changed.skipped) == (1, 1)  # type: ignore[attr-defined]
    assert "New text." in (out / "guide" / "api-keys.md.jsonl").read_text()
    assert (out / "speech.txt.jsonl").exists()  # kept without --prune
    pruned, _ = run(tree, out_dir=out, manifest=manifest, prune=True)
    assert pruned.pruned == 1 and not (out / "speech.txt.jsonl").exists()  # type: ignore
    other_options = run_batch(
        expand_inputs([str(tree)], None)[0],
        ChunkOptions(max_tokens=50),
        BatchConfig(out_dir=out, manifest=manifest),
    )
    assert other_options.skipped == 0  # new options: everything is redone


def test_a_run_killed_halfway_finishes_on_restart_with_identical_output(
    tree: Path, tmp_path: Path
) -> None:
    reference = tmp_path / "reference.jsonl"
    run(tree, out=str(reference), manifest=None)
    target = tmp_path / "out.jsonl"
    items, _ = expand_inputs([str(tree)], None)
    config = BatchConfig(out=str(target), manifest=tmp_path / "out.jsonl.manifest.jsonl")
    seen = []

    def crash_after_two(outcome: Outcome | None, size: int) -> None:
        seen.append(outcome)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(items, OPTIONS, config, progress=crash_after_two)
    assert not target.exists()  # the combined output is only ever written whole
    report = run_batch(items, OPTIONS, config)
    assert report.skipped >= 1
    assert target.read_bytes() == reference.read_bytes()


def test_timeout_per_file(tmp_path: Path) -> None:
    slow = tmp_path / "slow.md"
    slow.write_text("# Big\n\n" + ("Word " * 40 + "end.\n\n") * 20000)
    items, _ = expand_inputs([str(slow)], None)
    report = run_batch(items, OPTIONS, BatchConfig(out=str(tmp_path / "o.jsonl"), timeout=0.2))
    (failure,) = report.failures
    assert failure.kind == "timeout" and "timed out after 0.2 s" in failure.message


def test_a_worker_killed_mid_file_costs_only_that_file(tmp_path: Path) -> None:
    slow = tmp_path / "slow.md"
    slow.write_text("# Big\n\n" + ("Word " * 40 + "end.\n\n") * 60000)
    tasks = [
        Task(0, str(slow), "markdown", "slow.md", str(tmp_path / "slow.jsonl")),
        Task(
            1, str(SAMPLES / "api-keys.md"), "markdown", "api-keys.md", str(tmp_path / "api.jsonl")
        ),
    ]
    pool = WorkerPool(1, OPTIONS)

    def kill_the_worker() -> None:
        while not pool._workers or pool._workers[0].task is None:
            time.sleep(0.01)
        time.sleep(0.3)  # well inside the slow file, which takes seconds
        os.kill(pool._workers[0].process.pid or 0, signal.SIGKILL)

    threading.Thread(target=kill_the_worker, daemon=True).start()
    outcomes = sorted(pool.run(tasks), key=lambda o: o.index)
    assert outcomes[0].kind == "worker_died" and "signal 9" in outcomes[0].message
    assert outcomes[1].ok and (tmp_path / "api.jsonl").is_file()
    assert not (tmp_path / "slow.jsonl").exists()


def test_the_default_manifest_is_in_the_out_dir_and_opt_in_for_one_file(tmp_path: Path) -> None:
    from structchunk.batch import default_manifest

    assert default_manifest(BatchConfig(out=str(tmp_path / "c.jsonl"))) is None
    assert (
        default_manifest(BatchConfig(out_dir=tmp_path / "o"))
        == tmp_path / "o" / ".structchunk-manifest.jsonl"
    )
    assert default_manifest(BatchConfig(out="-")) is None


def test_an_internal_error_is_one_line_and_its_traceback_is_logged(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """The file runs in a (forked) worker, as every file under the default memory
    ceiling does, so the traceback is that worker's log line on stderr."""
    import logging

    import structchunk.batch.work as work

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("parser bug")

    monkeypatch.setattr(work, "iter_records_from_bytes", broken)
    items, _ = expand_inputs([str(SAMPLES / "api-keys.md")], None)
    with caplog.at_level(logging.INFO, logger="structchunk"):
        report = run_batch(items, OPTIONS, BatchConfig(out=str(tmp_path / "o.jsonl"), jobs=1))
    (failure,) = report.failures
    assert failure.kind == "internal" and "\n" not in failure.message
    assert "RuntimeError: parser bug" in failure.message and "-v --jobs 1" in failure.message
    logged = capfd.readouterr().err
    assert "Traceback" in logged and "RuntimeError: parser bug" in logged, "-v must show it"


def test_temporary_files_of_a_killed_run_are_removed_by_the_next(tmp_path: Path) -> None:
    """Before: a run killed mid-write left `.NAME.XXXXXXXX.tmp` files for good."""
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.md").write_text("# A\n\nText.\n")
    out_dir, out = tmp_path / "out", tmp_path / "all.jsonl"
    (out_dir / "sub").mkdir(parents=True)
    leftovers = [
        out_dir / "sub" / ".a.md.jsonl.k3j4h5g6.tmp",
        out_dir / ".structchunk-manifest.jsonl.a1b2c3d4.tmp",
        tmp_path / ".all.jsonl.zz11yy22.tmp",
        tmp_path / ".all.jsonl.manifest.jsonl.q1w2e3r4.tmp",
    ]
    kept = [tmp_path / ".other.jsonl.abcdefgh.tmp", out_dir / "notes.tmp"]
    for path in leftovers + kept:
        path.write_text("half")
    items, _ = expand_inputs([str(source)], None)
    run_batch(items, ChunkOptions(), BatchConfig(out_dir=out_dir, jobs=1))
    run_batch(items, ChunkOptions(), BatchConfig(out=str(out), jobs=1))
    assert [p for p in leftovers if p.exists()] == []
    assert all(p.exists() for p in kept)


def test_the_time_limit_fires_through_handlers_that_swallow_exceptions() -> None:
    """Before: the alarm raised an ordinary exception, once; a parser's `except
    Exception` (ours skips a bad PDF page that way) absorbed it and the file ran on past
    --timeout-per-file."""
    from structchunk.batch.boundary import FileFailure, FileLimits, guarded

    def stubborn() -> str:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:  # noqa: SIM105 - written as a library's retry loop is
                time.sleep(0.02)
            except Exception:  # noqa: BLE001
                pass
            try:  # noqa: SIM105 - a bare except catches it once; the alarm fires again
                time.sleep(0.02)
            except:  # noqa: E722
                pass
        return "ran to the end"

    start = time.monotonic()
    outcome = guarded("slow.pdf", stubborn, FileLimits(timeout=0.3))
    assert isinstance(outcome, FileFailure) and outcome.kind == "timeout"
    assert time.monotonic() - start < 5


UNGUARDED_SCRIPT = """
import sys, threading, time
if sys.argv[1] == "threads":  # a threaded host: workers must be spawned, not forked
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
from structchunk import ChunkOptions
from structchunk.batch import BatchConfig, run_batch
from structchunk.batch.inputs import expand_inputs
items, _ = expand_inputs([sys.argv[2]], None)
report = run_batch(items, ChunkOptions(), BatchConfig(out=sys.argv[3], jobs=2))
print("converted", report.ok, "failed", report.failed)
"""


@pytest.mark.parametrize("host", ["plain", "threads"])
def test_a_script_without_a_main_guard_works_or_fails_at_once_saying_why(
    host: str, tmp_path: Path
) -> None:
    """Before: every file of the batch failed ("out of memory?") after minutes of spawn
    tracebacks. Now a plain script works (workers are forked on Linux) and one whose
    workers must be spawned gets one error naming the fix."""
    import subprocess
    import sys

    script = tmp_path / "script.py"
    script.write_text(UNGUARDED_SCRIPT)
    result = subprocess.run(
        [sys.executable, str(script), host, str(SAMPLES), str(tmp_path / "o.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if host == "plain" and sys.platform == "linux":
        assert result.returncode == 0 and "failed 0" in result.stdout, result.stderr
    else:
        assert result.returncode == 1
        assert 'must be under `if __name__ == "__main__":`' in result.stderr
        assert "WorkerStartError" in result.stderr.strip().splitlines()[-1]
