"""The hostile-input gate's cases as a table: exit, seconds and peak memory of each.

    python benchmarks/hostile.py [--before OLD_TREE] [-k SUBSTRING] [--timeout 3]

Every case of tests/hostile_cases.py (bombs, huge pages, hostile packages, huge text
files) is built and converted by a fresh `structchunk convert` process with the default
options, as the gate runs it; the table shows how each ended and what it cost beside
its ceilings. `--before` runs the same files with the package found in another checkout
(an older commit, `git worktree add`) in the same run, for a before/after table.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hostile_cases import HostileCase, Measured, all_cases, run_measured  # noqa: E402


def _measure(case: HostileCase, path: Path, tree: Path | None, timeout: float) -> Measured:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    command = case.command(path, path.parent / "chunks.jsonl")
    return run_measured(command, path.parent, env, timeout)


def _cell(measured: Measured) -> str:
    code = "killed" if measured.code == -9 else str(measured.code)
    return f"{code} | {measured.seconds:.1f} | {measured.peak_mb:,}"


def _said(measured: Measured, name: str) -> str:
    lines = [line for line in measured.stderr.splitlines() if line.startswith("structchunk: ")]
    said = next((line for line in lines if ": 1 file: " not in line), "")
    return said.replace(name + ": ", "").removeprefix("structchunk: ")[:110]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older checkout to measure beside")
    parser.add_argument("-k", default="", help="only the cases whose name holds this")
    parser.add_argument(
        "--timeout", type=float, default=3.0, help="kill a run after this many times its ceiling"
    )
    args = parser.parse_args()
    cases = [case for case in all_cases() if args.k in case.name]
    head = "| case | ceiling s / MB |"
    head += " before: exit | s | peak MB |" if args.before else ""
    print(head + " exit | s | peak MB | what it said |")
    print("|---|---:|" + ("---:|---:|---:|" if args.before else "") + "---:|---:|---:|---|")
    for case in cases:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / case.name
            case.build(path)
            limit = args.timeout * case.seconds
            before = _measure(case, path, args.before, limit) if args.before else None
            after = _measure(case, path, ROOT, limit)
        row = f"| {case.name} | {case.seconds:g} / {case.peak_mb:,} |"
        row += f" {_cell(before)} |" if before else ""
        print(f"{row} {_cell(after)} | {_said(after, str(path))} |", flush=True)


if __name__ == "__main__":
    main()
