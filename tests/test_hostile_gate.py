"""The hostile-input gate: every case of hostile_cases.py, run as a whole command.

Each case is converted by `structchunk convert` in a fresh process with the default
options (a case may add a few), and must end as it says — converted, or one line on
stderr naming the file — within its wall-time and peak-memory ceilings. Peak memory is
the kernel's count for the command and every process it waited for (`wait4`), so a
worker or a page reader that took the memory is counted too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_cases import HostileCase, all_cases

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="wait4's peak memory")


def _params() -> list[object]:
    return [
        pytest.param(
            case, id=case.name, marks=[*case.marks, *([pytest.mark.slow] if case.slow else [])]
        )
        for case in all_cases()
    ]


_LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as report:
    report.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""
"""Runs the command and reports its exit code and peak. Linux starts a child's peak
from its parent's (at the exec, the memory the parent had held), so a command run from
this process would measure at least the test run's own peak — 412 MB for `python -c
pass` after the test process had held 400 MB. The launcher is a fresh, small process."""


def run_measured(args: list[str], cwd: Path) -> tuple[int, float, int, str]:
    """Run a command; its exit code, wall seconds, peak resident MB and stderr."""
    err_path, report = cwd / "stderr.txt", cwd / "measured.txt"
    with open(err_path, "wb") as err, open(os.devnull, "wb") as out:
        start = time.monotonic()
        launcher = [sys.executable, "-c", _LAUNCHER, str(report), *args]
        subprocess.run(launcher, cwd=cwd, stdout=out, stderr=err, check=False)
        elapsed = time.monotonic() - start
    code, peak_kb = map(int, report.read_text().split())
    return code, elapsed, peak_kb >> 10, err_path.read_text("utf-8", "replace")


@linux_only
@pytest.mark.parametrize("case", _params())
def test_a_hostile_file_keeps_its_bounds(case: HostileCase, tmp_path: Path) -> None:
    path = tmp_path / case.name
    case.build(path)
    out = tmp_path / "chunks.jsonl"
    command = [
        sys.executable,
        "-m",
        "structchunk",
        "convert",
        str(path),
        "-o",
        str(out),
        *case.args,
    ]
    code, seconds, peak_mb, stderr = run_measured(command, tmp_path)
    lines = [line for line in stderr.splitlines() if line.startswith("structchunk: ")]
    assert "Traceback" not in stderr, stderr[-2000:]
    assert seconds <= case.seconds, f"{seconds:.1f} s (ceiling {case.seconds} s)"
    assert peak_mb <= case.peak_mb, f"{peak_mb} MB peak (ceiling {case.peak_mb} MB)"
    errors = [line for line in lines if line.startswith("structchunk: error: ")]
    if case.outcome == "converted" or (case.outcome == "either" and code == 0):
        assert code == 0 and not errors, stderr[-2000:]
        with out.open(encoding="utf-8") as records:  # a line at a time: a 9 MB case's
            for record in records:  # records at once took more than its conversion
                assert json.loads(record)["source"] == str(path)
    else:
        assert code == 1, stderr[-2000:]
        assert len(errors) == 1 and case.name in errors[0], stderr[-2000:]
    said = " ".join(lines)
    for phrase in case.says:
        assert phrase in said, stderr[-2000:]
