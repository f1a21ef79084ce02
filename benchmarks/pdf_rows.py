"""Row clustering on adversarial pages: time to group words into rows, against sorting
the same words (the floor any clustering pays), measured in the same run.

    python benchmarks/pdf_rows.py [--words 100000] [--runs 3]

Three pages of `--words` words each, built in memory (no PDF):

- `prose`: lines of ordinary words, 12 points apart;
- `one row`: every word on one row, each top jittered by up to a point (a huge table
  row, or a generator writing a page as one line);
- `isolated marks`: small words far apart beside one tall glyph, with a second row of
  small words set half a line lower — the case where each small word is tried against
  its neighbouring rows (`layout._reseat_small_words`).

A ratio far above the others means a stage went quadratic: the first version of the
small-word pass compared each isolated mark with every word of its row, and took 54 s
on 20 000 marks (5 700× sorting); looking up only the neighbours by left edge, 1.6 s
on 100 000 (21×), as for the other pages.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from structchunk.parsers.pdf.layout import _cluster
from structchunk.parsers.pdf.types import Word


def prose(count: int) -> list[Word]:
    per_line = 12
    return [
        Word(
            "word",
            72 + (i % per_line) * 38,
            72 + (i % per_line) * 38 + 30,
            (i // per_line) * 12.0,
            (i // per_line) * 12.0 + 10,
            10,
            "F",
        )
        for i in range(count)
    ]


def one_row(count: int) -> list[Word]:
    rng = random.Random(1)
    out = []
    for i in range(count):
        top = rng.random()
        out.append(Word("w", i * 8.0, i * 8.0 + 6, top, top + 10, 10, "F"))
    return out


def isolated_marks(count: int) -> list[Word]:
    rng = random.Random(2)
    words = [Word("T", 0, 30, 0, 40, 40, "F")]
    for i in range(count):
        top = 31 + rng.random()
        words.append(Word("b", 43 + i * 100.0, 48 + i * 100.0, top, top + 8, 8, "F"))
    return words


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.words} words per page, best of {args.runs}\n")
    print("| page | sort (s) | cluster (s) | cluster / sort |")
    print("|---|---:|---:|---:|")
    for name, build in [("prose", prose), ("one row", one_row), ("isolated marks", isolated_marks)]:
        words = build(args.words)
        floor = best_of(args.runs, lambda page=words: sorted(page, key=lambda w: (w.bottom, w.x0)))
        clustered = best_of(args.runs, lambda page=words: _cluster(list(page)))
        print(f"| {name} | {floor:.3f} | {clustered:.3f} | {clustered / floor:.0f}× |")


if __name__ == "__main__":
    main()
