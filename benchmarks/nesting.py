"""Deep nesting: time and peak memory against a flat document of the same elements.

    python benchmarks/nesting.py [--levels 1000,10000,100000]

Each shape is written nested `N` levels deep and flat (the same `N` elements one after
another), and each file is converted by a fresh `structchunk convert` process. A ratio
nested/flat that stays level as `N` grows means tree building is linear in depth; one
that grows with `N` is the quadratic walk this benchmark exists to catch.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

Shape = tuple[str, str, Callable[[int], str], Callable[[int], str]]
"""(name, extension, the document measured at size n, its baseline at size n): here a
document nested n levels deep and a flat one of the same n elements."""

SHAPES: list[Shape] = [
    (
        "html unclosed headings",
        ".html",
        lambda n: "<body>" + "".join(f"<h{i % 6 + 1}>Heading {i}" for i in range(n)),
        lambda n: "<body>" + "".join(f"<h{i % 6 + 1}>Heading {i}</h{i % 6 + 1}>" for i in range(n)),
    ),
    (
        "html sections with headings",
        ".html",
        lambda n: (
            "<body>"
            + "".join(f"<section><h2>Part {i}</h2><p>text {i}</p>" for i in range(n))
            + "</section>" * n
        ),
        lambda n: (
            "<body>"
            + "".join(f"<section><h2>Part {i}</h2><p>text {i}</p></section>" for i in range(n))
        ),
    ),
    (
        "html lists",
        ".html",
        lambda n: "<body>" + "".join(f"<ul><li>item {i}" for i in range(n)) + "</li></ul>" * n,
        lambda n: "<body>" + "".join(f"<ul><li>item {i}</li></ul>" for i in range(n)),
    ),
    (
        "html divs",
        ".html",
        lambda n: "<body>" + "".join(f"<div>text {i}" for i in range(n)) + "</div>" * n,
        lambda n: "<body>" + "".join(f"<div>text {i}</div>" for i in range(n)),
    ),
    (
        "markdown block quotes",
        ".md",
        lambda n: ">" * n + " deep\n" + "".join(f"text {i}\n" for i in range(n)),
        lambda n: "> deep\n" + "".join(f"text {i}\n" for i in range(n)),
    ),
]


def convert(path: Path) -> tuple[float, float]:
    """Seconds and peak RSS (MB) of one `structchunk convert` of `path`."""
    command = [sys.executable, "-m", "structchunk", "convert", str(path)]
    command += ["-o", f"{path}.jsonl", "-q", "--no-manifest"]
    start = time.perf_counter()
    child = subprocess.Popen(command)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the maximum so far
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{path.name}: structchunk exited with {child.returncode}")
    return seconds, usage.ru_maxrss / 1024


def compare(shapes: list[Shape], sizes: list[int], size_name: str, a: str, b: str) -> None:
    """Print one Markdown table row per shape and size: each shape's `a` document of that
    size against its `b` document, each converted by a fresh process."""
    print(f"| shape | {size_name} | {a} s | {b} s | ratio | {a} peak MB |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name, suffix, build_a, build_b in shapes:
            for n in sizes:
                paths = []
                for kind, build in ((a, build_a), (b, build_b)):
                    path = Path(folder) / f"{kind}-{n}{suffix}"
                    path.write_text(build(n))
                    paths.append(path)
                (a_s, a_mb), (b_s, _) = convert(paths[0]), convert(paths[1])
                print(f"| {name} | {n:,} | {a_s:.2f} | {b_s:.2f} | {a_s / b_s:.2f} | {a_mb:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1000,10000,100000")
    args = parser.parse_args()
    compare(SHAPES, [int(n) for n in args.levels.split(",")], "levels", "nested", "flat")


if __name__ == "__main__":
    main()
