"""One large Markdown file: throughput and peak memory as it grows, beside a bare parse.

    python benchmarks/markdown_scale.py [--sizes 1,3,9,30] [--shapes sections,block,lines]

Each shape is generated at each size (MB) and converted by a fresh `structchunk convert`
process (default options: offsets on), and parsed by a fresh process running
markdown-it-py's bare CommonMark parse of the same file (the floor throughput.py uses).
Seconds are the child's CPU time (user + system, from `wait4`), so other load on a
shared machine does not count; "wall" is there for reference. MB/s that holds level as
the size grows means time linear in the size. "above idle × input" is the peak less
that of converting a 20 KB file of the same shape (the interpreter and the libraries),
over the input's size: level as the size grows, memory linear in it. The shapes:

- `sections`: what large documentation looks like — many `##` sections of paragraphs,
  a list, a small table and a code block;
- `block`: the fuzzer's duplication (tests/fuzzing.py) grown to size — a block cut from
  a page mid-sentence (prose, then a table whose last row runs into the next copy's
  prose) pasted over and over, no heading anywhere;
- `lines`: the same operator over wrapped prose lines without a blank line, pasted
  inside a code span so the copies' backticks pair across them (words the chunks
  render otherwise than the source spells them) — one paragraph the size of the file.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from argparse import SUPPRESS
from collections.abc import Callable
from pathlib import Path

_VOCABULARY = (
    "the key server client request token rotate region quota account limit value table "
    "section chunk budget policy access role bucket object version cache store index "
    "query stream event record batch worker file page line word retry timeout"
)
WORDS = _VOCABULARY.split()


def _sentence(rng: random.Random) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 22)))
    return text[0].upper() + text[1:] + "."


def _fill(target: int, piece: Callable[[int], str]) -> str:
    parts, size, number = [], 0, 0
    while size < target:
        part = piece(number)
        parts.append(part)
        size += len(part.encode("utf-8"))
        number += 1
    return "".join(parts)


def sections(target: int) -> str:
    rng = random.Random(1)

    def section(n: int) -> str:
        prose = "\n\n".join(" ".join(_sentence(rng) for _ in range(5)) for _ in range(3))
        items = "".join(f"- {_sentence(rng)}\n" for _ in range(4))
        rows = "".join(
            f"| {rng.choice(WORDS)} {n} | {n * 7 % 100} | {_sentence(rng)} |\n" for _ in range(4)
        )
        code = f"```python\nresult_{n} = compute({n}, retries=3)\nprint(result_{n})\n```\n"
        return (
            f"## Section {n}\n\n{prose}\n\n{items}\n| name | value | note |\n|---|---|---|\n"
            f"{rows}\n{code}\n"
        )

    return "# Large guide\n\n" + _fill(target, section)


BLOCK = (
    "ormerly called limits, for each service. Unless noted otherwise, each quota applies "
    "per region. You can ask for more of some quotas; others cannot be raised.\n\n"
    "To view the quotas, open the [quotas console](https://example.com/quotas). In the "
    "navigation pane, choose **Services** and select **Detector**.\n\n"
    "Your account has the following quotas for the detector per region.\n\n\n"
    "| Resource | Default | Comments |\n| --- | --- | --- |\n"
    + "".join(
        f"| {name} | {value} | The largest number of {name.lower()} per account per region. |\n"
        for name, value in (
            ("Detectors", 1),
            ("Filters", 100),
            ("Finding retention days", 90),
            ("Addresses per trusted list", "2,000"),
            ("Addresses per threat list", "250,000"),
            ("Member accounts", 5000),
            ("Threat lists", 6),
            *((f"Extra quota {n}", n) for n in range(8)),
        )
    )
    + "| Trusted lists | 1 | The largest number of trusted lists that can be uploaded and "
    "activated per account per region. You cannot ask for a quota increase. | F"
)
"""A block as the duplication operator cuts it: mid-word at both ends, so the table's
last row runs on into the next copy's first line; the table is longer than a chunk, so
its pieces repeat its header."""

LINES = (
    "lled `Option`, which\nexpresses that a value can be either something or nothing. "
    "Then, we will look at\nhow pattern matching in the `match` expression makes it easy "
    "to run different\ncode for different values of an enum. Finally, we will cover how "
    "the `if let`\nconstruct is another convenient and concise idiom available to handle "
    "enums in\nyour code.\n"
)


def pasted(block: str, before: str) -> Callable[[int], str]:
    def build(target: int) -> str:
        return before + _fill(target, lambda _: block)

    return build


SHAPES: dict[str, Callable[[int], str]] = {
    "sections": sections,
    "block": pasted(BLOCK, "Introduction\n\n"),
    # pasted inside a code span (`Optio|n`): the copies' backticks pair across them
    "lines": pasted(LINES, "# Enums\n\nNext, we explore a useful enum, called `Optio"),
}

IDLE_BYTES = 20_000
"""A small file of the shape: its peak is the process's, every stage loaded, not the
document's (subtracted for "above idle")."""

BARE_PARSE = (
    "import sys\nfrom markdown_it import MarkdownIt\n"
    "MarkdownIt('commonmark').parse(open(sys.argv[1], encoding='utf-8').read())\n"
)


def run(command: list[str]) -> tuple[float, float, float]:
    """CPU seconds, wall seconds and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"failed: {' '.join(command)}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def convert(path: Path) -> list[str]:
    """The command converting `path` with the default options."""
    command = [sys.executable, "-m", "structchunk", "convert", str(path)]
    return [*command, "-o", f"{path}.jsonl", "-q", "--no-manifest"]


def write(name: str, size: int, path: Path) -> None:
    """Write shape `name` of `size` bytes to `path` in a child process: a child's peak
    RSS starts from its parent's at the fork, so a parent that had held a 30 MB text
    would raise every later measurement to that."""
    run([sys.executable, __file__, "--write", name, str(size), str(path)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,3,9,30", help="comma list of MB")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--write", nargs=3, metavar=("SHAPE", "BYTES", "PATH"), help=SUPPRESS)
    args = parser.parse_args()
    if args.write:
        name, size, path = args.write
        Path(path).write_text(SHAPES[name](int(size)), encoding="utf-8")
        return
    print(
        "| shape | MB | CPU s | wall s | MB/s | peak MB | above idle × input "
        "| bare parse s | bare peak MB | × bare parse speed |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name in args.shapes.split(","):
            idle_path = Path(folder) / f"{name}-idle.md"
            write(name, IDLE_BYTES, idle_path)
            _, _, idle = run(convert(idle_path))
            for size in (float(mb) for mb in args.sizes.split(",")):
                path = Path(folder) / f"{name}-{size:g}.md"
                write(name, int(size * 1e6), path)
                mb = path.stat().st_size / 1e6
                cpu, wall, peak = run(convert(path))
                base_cpu, _, base_peak = run([sys.executable, "-c", BARE_PARSE, str(path)])
                speed = f"{mb / cpu:.2f} | {peak:.0f} | {(peak - idle) / mb:.1f}"
                floor = f"{base_cpu:.1f} | {base_peak:.0f} | {base_cpu / cpu:.2f}"
                print(
                    f"| {name} | {mb:.1f} | {cpu:.1f} | {wall:.1f} | {speed} | {floor} |",
                    flush=True,
                )
                path.unlink()
                Path(f"{path}.jsonl").unlink()


if __name__ == "__main__":
    main()
