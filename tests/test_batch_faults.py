"""Batch faults, each as a user meets them: the whole command (`python -m structchunk
convert`, a child process that can be killed) run twice into one folder at once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from structchunk.batch.lock import LOCK_NAME, holding, remove_abandoned
from structchunk.errors import OutputLockedError

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


def test_a_folder_is_removed_as_abandoned_only_when_its_run_is_gone(tmp_path: Path) -> None:
    live, dead, starting = tmp_path / "sc-live", tmp_path / "sc-dead", tmp_path / "sc-new"
    starting.mkdir()
    with holding(dead, "dead"):
        pass
    with holding(live, "live"):
        assert remove_abandoned(tmp_path, "sc-") == 1
        assert live.is_dir() and starting.is_dir() and not dead.exists()


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
    lines = (out / ".structchunk-manifest.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["rel"] for line in lines) == [f"part-{i}.md" for i in range(8)]


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
