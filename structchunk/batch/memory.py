"""How much memory a conversion uses, and the per-file limit (`--max-memory-per-file`).

The limit is held two ways on worker processes: the parent samples each worker's
resident memory (with the page readers it started) and stops a worker that goes over,
and the worker caps its own address space a limit above where it started, so an
allocation that would leap past the limit between two samples (a decompression bomb, a
page-wide array) fails at once with `MemoryError`. Sampling reads `/proc` (Linux); on
other systems only the address-space cap holds.
"""

from __future__ import annotations

import os
import re
import resource
import sys
from pathlib import Path

DEFAULT_MAX_MEMORY_MB = 2048.0
"""With no `--max-memory-per-file`, what one file may use: the largest peak of the shared
corpus, one process per file, is a small fraction of it (docs/running-at-scale.md), so
only a pathological file (a bomb, a runaway parser) reaches it, and it is stopped there
instead of growing until the kernel's OOM killer picks some process of the machine."""
DEFAULT_RAM_SHARE = 0.8
"""The default is lowered where the workers of a pool would otherwise be allowed more than
this share of RAM together (a small machine with many cores): then each gets an equal
part of it."""
MIN_LIMIT_MB = 64.0
"""Below this, not even the parsers' own code fits."""
ADDRESS_SPACE_SLACK = 1.25
"""The address-space cap is this many limits above the start: mapped-but-unused space
(thread stacks, allocator arenas) counts there, so a cap at the limit itself would stop
files whose resident memory stays under it."""
_UNITS = {"": 1.0, "K": 1 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0 * 1024}
_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)


def parse_size_mb(text: str) -> float:
    """`"1500"`, `"1500M"`, `"2G"`, `"2GiB"` → MB (MiB, as `free -m` counts); `"0"`/`"none"` → 0.

    Raises ValueError with the reason, for the CLI to show.
    """
    text = text.strip()
    if text.lower() in ("0", "none", "off"):
        return 0.0
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a size; write e.g. 1500, 1500M or 2G")
    value = float(match.group(1)) * _UNITS[match.group(2).upper()]
    if value < MIN_LIMIT_MB:
        raise ValueError(f"{text!r} is under the smallest limit, {MIN_LIMIT_MB:g} MB")
    return value


def total_memory_mb() -> float | None:
    """Physical memory, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    except (ValueError, OSError, AttributeError):
        return None


def default_limit_mb(workers: int) -> float:
    """`DEFAULT_MAX_MEMORY_MB`, or less where `workers` processes would together pass
    `DEFAULT_RAM_SHARE` of RAM: a fixed figure says what a file may cost on every
    machine; the share keeps a pool from exhausting a small one."""
    total = total_memory_mb()
    if total is None:
        return DEFAULT_MAX_MEMORY_MB
    share = max(MIN_LIMIT_MB, total * DEFAULT_RAM_SHARE / max(1, workers))
    return min(DEFAULT_MAX_MEMORY_MB, share)


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def _resident_mb(pid: int) -> float:
    """Proportional set size (shared pages split among their users, so the page readers
    forked from a worker are not charged the worker's pages again); RSS where the kernel
    has no `smaps_rollup`."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def process_tree_mb(pid: int) -> float | None:
    """Resident memory of `pid` and all its descendants; None where `/proc` is missing."""
    if not Path("/proc/self/statm").exists():
        return None
    total, todo, seen = 0.0, [pid], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        total += _resident_mb(current)
        todo += _children(current)
    return total


def cap_address_space(limit_mb: float) -> None:
    """Let this process map at most `ADDRESS_SPACE_SLACK` × `limit_mb` more than it has
    mapped now: resident memory can only grow by what is mapped, so no allocation can
    leap far past the limit between two samples of the parent's watchdog."""
    try:
        mapped = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return  # no /proc: without knowing the baseline, a cap could break start-up
    cap = mapped + int(limit_mb * ADDRESS_SPACE_SLACK * (1 << 20))
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
