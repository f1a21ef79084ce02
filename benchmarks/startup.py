"""Start-up of the command line: what a DAG pays each time it calls `structchunk` per file.

    python benchmarks/startup.py [--runs 7]

Whole processes, timed from outside (wall clock, median over `--runs` rounds after a
warm-up; the cases interleaved and their order rotated each round, so machine load falls
on every case alike). The baseline is the bare interpreter (`python -c pass`); the table
also gives each case's time above it. Targets (#18): `--version` ≤ 0.3 s, converting a
1 KB Markdown file ≤ 0.6 s. The last column lists the heavy libraries each case imports
(found with `-X importtime`), so a regression shows what came back.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("nltk", "bs4", "lxml", "pdfplumber", "pypdfium2", "tiktoken", "tokenizers", "ray")
"""Libraries a run that does not need them should not import."""
TARGETS = {"structchunk --version": 0.3, "convert 1 KB Markdown": 0.6}


def cases(folder: Path) -> dict[str, list[str]]:
    sample = (ROOT / "samples" / "api-keys.md").read_bytes()[:1024]
    small = folder / "small.md"
    small.write_bytes(sample[: sample.rfind(b"\n") + 1])
    python = sys.executable
    return {
        "python -c pass (baseline)": [python, "-c", "pass"],
        "import structchunk": [python, "-c", "import structchunk"],
        "structchunk --version": [python, "-m", "structchunk", "--version"],
        "convert 1 KB Markdown": [
            python,
            "-m",
            "structchunk",
            "convert",
            str(small),
            "-o",
            str(folder / "small.jsonl"),
        ],
    }


def wall_seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def heavy_imports(command: list[str]) -> list[str]:
    """The `HEAVY` top-level packages a command imports."""
    found = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ).stderr
    names = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in found.splitlines()}
    return [name for name in HEAVY if name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        commands = cases(Path(tmp))
        names = list(commands)
        for command in commands.values():  # warm-up: disk cache, bytecode
            wall_seconds(command)
        times: dict[str, list[float]] = {name: [] for name in names}
        for round_ in range(args.runs):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                times[name].append(wall_seconds(commands[name]))
        medians = {name: statistics.median(values) for name, values in times.items()}
        base = medians[names[0]]
        print(
            f"wall seconds, median of {args.runs} (python {sys.version.split()[0]}, "
            f"{os.cpu_count()} cores)\n"
        )
        print("| case | seconds | above bare python | target | heavy imports |")
        print("|---|---:|---:|---:|---|")
        for name in names:
            target = f"≤ {TARGETS[name]}" if name in TARGETS else ""
            heavy = ", ".join(heavy_imports(commands[name])) or "none"
            above = medians[name] - base
            print(f"| {name} | {medians[name]:.3f} | {above:+.3f} | {target} | {heavy} |")


if __name__ == "__main__":
    main()
