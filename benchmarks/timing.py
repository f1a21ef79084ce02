"""Shared by the benchmark scripts: interleaved, rotated timing of cases in one process."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure(cases: dict[str, Callable[[], None]], runs: int) -> dict[str, float]:
    """Median CPU seconds per case: a warm-up round first, then `runs` rounds with the
    cases interleaved and their order rotated, so load on a shared machine and cache
    warmth fall on every case alike. CPU time of this process: other processes' load
    does not count against either side of a ratio."""
    for fn in cases.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in cases}
    names = list(cases)
    for round_ in range(runs):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for name in order:
            start = time.process_time()
            cases[name]()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def print_speed_table(seconds: dict[str, float], baseline: str, megabytes: float) -> None:
    """Markdown table: seconds, MB/s and speed relative to the `baseline` case."""
    base = seconds[baseline]
    print("| case | seconds | MB/s | × bare parse speed |")
    print("|---|---:|---:|---:|")
    for name, value in seconds.items():
        print(f"| {name} | {value:.3f} | {megabytes / value:.2f} | {base / value:.2f} |")
