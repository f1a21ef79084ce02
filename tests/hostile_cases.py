"""The hostile-input gate's cases: files built to hurt, each with the ceilings it must keep.

A case writes its input into a folder (generated in the test run: no large file is
committed) and says what `structchunk convert` must do with it under the default
options — convert, or fail in one line naming the file and, where it matters, the limit
— within `seconds` of wall time and `peak_mb` of peak resident memory (the largest of
the command's processes, its workers included). `tests/test_hostile_gate.py` runs every
case as a whole command, so a new engine or a new format that loses a bound fails there.

Each area keeps its cases in a module of its own (`hostile_pdf.py`, `hostile_html.py`,
`hostile_office.py`, `hostile_text.py`); this module gathers them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Outcome = Literal["converted", "error", "either"]


@dataclass(frozen=True)
class HostileCase:
    """One hostile input and what it may cost."""

    Builder = Callable[[Path], None]

    name: str
    """The test id, also the input's file name (so the error line must name it)."""
    build: Builder
    """Writes the input to the path given (its name is `name`)."""
    outcome: Outcome
    seconds: float = 60.0
    peak_mb: int = 1024
    says: tuple[str, ...] = ()
    """Phrases the one-line error (or a warning on stderr) must contain."""
    args: tuple[str, ...] = ()
    """Options beyond the defaults (kept few: the defaults are what is gated)."""
    never_in_output: tuple[str, ...] = ()
    """Text the records must not hold (what an external entity would have read)."""
    slow: bool = True
    """Only in the full suite (the quick subset takes the cheap cases)."""

    def command(self, path: Path, out: Path) -> list[str]:
        """The command the case is run by: its input converted to `out`."""
        convert = [sys.executable, "-m", "structchunk", "convert", str(path), "-o", str(out)]
        return [*convert, *self.args]


def all_cases() -> list[HostileCase]:
    """Every area's cases, in a stable order."""
    import hostile_html
    import hostile_office
    import hostile_pdf
    import hostile_text

    return [*hostile_pdf.CASES, *hostile_html.CASES, *hostile_office.CASES, *hostile_text.CASES]


@dataclass(frozen=True)
class Measured:
    """How one command ended: exit code, wall seconds, peak resident MB, stderr."""

    code: int
    seconds: float
    peak_mb: int
    stderr: str


_WAITER = """
import os, signal, subprocess, sys, threading
process = subprocess.Popen(sys.argv[3:], start_new_session=True)
timer = threading.Timer(float(sys.argv[2]), os.killpg, (process.pid, signal.SIGKILL))
if float(sys.argv[2]):
    timer.start()
_, status, usage = os.wait4(process.pid, 0)
timer.cancel()
with open(sys.argv[1], "w") as report:
    report.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""
"""Runs the command (killed after the seconds given, 0: never) and reports its exit code
and peak. Linux starts a process's peak at the peak of the process that spawned it, so
the command is spawned by this small fresh process, not by the test's (whose peak may
be hundreds of MB)."""


def run_measured(
    args: list[str], cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 0
) -> Measured:
    """Run a command, its output to nothing and its stderr kept; the peak is the
    kernel's count for it and every process it waited for (`wait4`). Past `timeout`
    seconds (0: none) it is killed, and its code is -9."""
    err_path, report = cwd / "stderr.txt", cwd / "measured.txt"
    waiter = [sys.executable, "-c", _WAITER, str(report), str(timeout), *args]
    with open(err_path, "wb") as err, open(os.devnull, "wb") as out:
        start = time.monotonic()
        subprocess.run(waiter, cwd=cwd, stdout=out, stderr=err, env=env, check=True)
        elapsed = time.monotonic() - start
    code, peak_kb = (int(field) for field in report.read_text().split())
    text = err_path.read_text("utf-8", "replace")
    return Measured(code, elapsed, peak_kb >> 10, text)
