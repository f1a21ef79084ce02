"""Batch faults, each as a user meets them: the whole command (`python -m structchunk
convert`, a child process that can be killed) killed mid-run, writing to a full device,
run twice into one folder at once, or stopped by the memory ceiling. (A full disk under
`--out-dir`, which can only be staged inside the process, is in test_cli.py.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pdf_factory import Page, hexed_bomb_stream, pdf_bytes

from structchunk.batch.atomic import atomic_writer
from structchunk.batch.lock import LOCK_NAME, holding, remove_abandoned
from structchunk.batch.manifest import Entry, Manifest
from structchunk.errors import OutputError, OutputLockedError

ROOT = Path(__file__).resolve().parent.parent
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="kill -9, /proc, /dev/full")


def _inputs(folder: Path, files: int = 8) -> Path:
    """Markdown files of about half a second each, so a run can be stopped inside it."""
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(files):
        text = f"# Part {index}\n\n" + (f"Word{index} " * 40 + "end.\n\n") * 4000
        (folder / f"part-{index}.md").write_text(text)
    return folder


def _convert(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "structchunk", "convert", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def _status(*args: str, env: dict[str, str] | None = None) -> int:
    """Run the command to its end; its exit status."""
    run = _convert(*args, env=env)
    run.communicate()
    return run.returncode


def _wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the run never got there"
        time.sleep(0.02)


def _files(folder: Path) -> dict[str, bytes]:
    """The outputs under `folder` (its hidden state files aside)."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.name.startswith(".")
    }


def _partial(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.name.endswith(".tmp")]


# --- a: kill -9 in the middle, then a rerun ------------------------------------------


@linux_only
def test_a_batch_killed_mid_run_leaves_no_partial_file_and_a_rerun_converts_the_rest_once(
    tmp_path: Path,
) -> None:
    """Before: the files being converted at the kill stayed as `.NAME.XXXXXXXX.tmp`
    in the out-dir until a rerun removed them (for good if none came)."""
    source = _inputs(tmp_path / "in")
    clean, out = tmp_path / "clean", tmp_path / "out"
    assert _status(str(source), "--out-dir", str(clean), "-q") == 0
    run = _convert(str(source), "--out-dir", str(out), "-q", "--jobs", "2")
    manifest = out / ".structchunk-manifest.jsonl"
    _wait_for(lambda: manifest.is_file() and len(manifest.read_text().splitlines()) >= 2)
    run.send_signal(signal.SIGKILL)
    run.communicate()
    finished = len(manifest.read_text().splitlines())
    assert finished < 8, "the run ended before it was killed"
    assert _partial(out) == []
    assert len(_files(out)) == finished  # each output listed, none written unlisted
    rerun = _convert(str(source), "--out-dir", str(out))
    _, stderr = rerun.communicate()
    assert rerun.returncode == 0, stderr
    assert f"8 files: {8 - finished} converted, {finished} unchanged" in stderr
    assert _files(out) == _files(clean) and _partial(out) == []


@linux_only
def test_one_output_killed_mid_run_leaves_nothing_and_the_next_run_clears_its_parts(
    tmp_path: Path,
) -> None:
    """Before: `-o` left no file at the target, but the per-input parts of the killed
    run stayed in $TMPDIR for good (10 MB for the shared corpus killed at 8 s)."""
    source, scratch = _inputs(tmp_path / "in"), tmp_path / "tmp"
    scratch.mkdir()
    target = tmp_path / "one.jsonl"
    run = _convert(
        str(source), "-o", str(target), "-q", "--jobs", "2", env={"TMPDIR": str(scratch)}
    )
    _wait_for(lambda: len(list(scratch.rglob("part-*.md.jsonl"))) >= 2)
    run.send_signal(signal.SIGKILL)
    run.communicate()
    assert not target.exists() and _partial(tmp_path) == []
    assert _status(str(source), "-o", str(target), "-q", env={"TMPDIR": str(scratch)}) == 0
    assert list(scratch.iterdir()) == []
    clean = tmp_path / "clean.jsonl"
    assert _status(str(source), "-o", str(clean), "-q") == 0
    assert target.read_bytes() == clean.read_bytes()


@pytest.mark.skipif(not hasattr(os, "O_TMPFILE"), reason="Linux's unnamed files")
def test_an_output_being_written_has_no_name_until_it_is_complete(tmp_path: Path) -> None:
    """What makes `kill -9` leave nothing: nothing in the folder until the rename."""
    target = tmp_path / "a.jsonl"
    with atomic_writer(target) as handle:
        handle.write("{}\n" * 1000)
        handle.flush()
        assert list(tmp_path.iterdir()) == []
    assert [p.name for p in tmp_path.iterdir()] == ["a.jsonl"]
    assert target.read_text() == "{}\n" * 1000


def test_an_unnamed_file_that_cannot_be_linked_is_copied_to_a_named_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sandbox may refuse the link through /proc; the output is still written whole."""
    import errno

    import structchunk.batch.atomic as atomic

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(atomic.os, "link", refuse)
    target = tmp_path / "a.jsonl"
    target.write_text("old\n")
    with atomic_writer(target) as handle:
        handle.write("new\n" * 300_000)
    assert target.read_text() == "new\n" * 300_000
    assert [p.name for p in tmp_path.iterdir()] == ["a.jsonl"]
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_folder_is_removed_as_abandoned_only_when_its_run_is_gone(tmp_path: Path) -> None:
    live, dead, starting = tmp_path / "sc-live", tmp_path / "sc-dead", tmp_path / "sc-new"
    starting.mkdir()
    with holding(dead, "dead"):
        pass
    with holding(live, "live"):
        assert remove_abandoned(tmp_path, "sc-") == 1
        assert live.is_dir() and starting.is_dir() and not dead.exists()


# --- b: a destination that takes nothing more -----------------------------------------


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="needs /dev/full")
def test_a_full_device_ends_the_run_in_one_line_with_exit_2() -> None:
    """Before: `-o /dev/full` was refused for its missing extension; as root, writing
    it as a file would have renamed a regular file over the device."""
    run = _convert("samples/api-keys.md", "-o", "/dev/full")
    _, stderr = run.communicate()
    assert run.returncode == 2
    assert stderr.splitlines() == [
        "structchunk: error: cannot write /dev/full: No space left on device"
    ]
    assert Path("/dev/full").is_char_device()
    assert _status("samples/api-keys.md", "-o", "/dev/null", "-q") == 0
    assert Path("/dev/null").is_char_device()


def test_a_manifest_that_cannot_be_written_is_an_output_error_naming_it(tmp_path: Path) -> None:
    """Before: a raw OSError from the journal, shown as a traceback."""
    (tmp_path / "blocked").write_text("a file where the manifest's folder should be")
    manifest = Manifest(tmp_path / "blocked" / "manifest.jsonl")
    with pytest.raises(OutputError, match=r"cannot write .*blocked/manifest\.jsonl"):
        manifest.record(Entry("a.md", "0" * 64, "options", "a.md.jsonl", 1))


# --- c: two runs into one out-dir ----------------------------------------------------


@linux_only
def test_a_second_run_into_the_same_out_dir_fails_at_once_naming_the_first(
    tmp_path: Path,
) -> None:
    """Before: both ran; the second removed the first's temporary files, and the first
    failed those files with `internal error: FileNotFoundError`."""
    source, out = _inputs(tmp_path / "in"), tmp_path / "out"
    first = _convert(str(source), "--out-dir", str(out), "-q", "--jobs", "2")
    _wait_for(lambda: f"pid {first.pid} " in _text(out / LOCK_NAME))
    start = time.monotonic()
    second = _convert(str(source), "--out-dir", str(out), "-q")
    _, stderr = second.communicate()
    assert second.returncode == 2 and time.monotonic() - start < 10
    (line,) = stderr.splitlines()
    assert line.startswith(f"structchunk: error: {out}: another structchunk run is writing")
    assert f"pid {first.pid} " in line
    _, first_stderr = first.communicate()
    assert first.returncode == 0, first_stderr
    clean = tmp_path / "clean"
    assert _status(str(source), "--out-dir", str(clean), "-q") == 0
    assert _files(out) == _files(clean)
    manifest = (out / ".structchunk-manifest.jsonl").read_text()
    lines = [json.loads(line) for line in manifest.splitlines()]
    assert lines[-1] == {"v": 2, "commit": True}  # the first run completed
    assert sorted(line["rel"] for line in lines[:-1]) == [f"part-{i}.md" for i in range(8)]


def _text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def test_the_lock_names_its_holder_and_is_free_again_after_the_run(tmp_path: Path) -> None:
    pattern = rf"^OUT: .*\(pid {os.getpid()} on "
    with holding(tmp_path, "OUT"), pytest.raises(OutputLockedError, match=pattern):  # noqa: SIM117
        with holding(tmp_path, "OUT"):
            pass
    with holding(tmp_path, "OUT"):
        pass


# --- d: the memory ceiling, through the whole command ----------------------------------


def _bomb_pdf(path: Path, megabytes: int) -> None:
    """A small PDF whose first page's stream inflates to `megabytes` behind a filter the
    stream bounds do not decode."""
    pages = [Page(written=hexed_bomb_stream(megabytes)), Page().text(72, 700, "Fine.")]
    path.write_bytes(pdf_bytes(pages))


@linux_only
def test_a_worker_stopped_by_the_memory_ceiling_costs_its_file_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "in"
    source.mkdir()
    _bomb_pdf(source / "bomb.pdf", 400)
    for name in ("a.md", "z.md"):
        (source / name).write_text(f"# {name}\n\nFine text.\n")
    out, errors = tmp_path / "out", tmp_path / "errors.jsonl"
    run = _convert(
        *(str(source), "--out-dir", str(out), "--errors", str(errors), "--jobs", "1"),
        *("--max-memory-per-file", "300M"),
    )
    _, stderr = run.communicate()
    assert run.returncode == 1
    (failure,) = [json.loads(line) for line in errors.read_text().splitlines()]
    assert failure["kind"] in ("memory", "worker_died") and failure["path"].endswith("bomb.pdf")
    assert "more than 300 MB" in failure["message"] and "--max-memory-per-file" in stderr
    assert "Traceback" not in stderr and "bomb.pdf" in stderr
    assert sorted(_files(out)) == ["a.md.jsonl", "z.md.jsonl"]
