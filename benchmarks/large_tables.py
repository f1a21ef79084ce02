"""Long tables: time against prose of the same words, as the table grows.

    python benchmarks/large_tables.py [--rows 5000,20000,80000]

Each table (a Markdown pipe table, and the same rows in a `.txt` file, read as a table
since 2026-12-03) is converted beside a file of the same rows without the bars (a
paragraph of lines, in the same format), each by a fresh `structchunk convert` process
at the default budget. A split table repeats its header in every piece, and each
piece's offsets point at that header and at the piece's own rows. A ratio table/prose
that stays level as the rows grow means that stays linear; one that grows with them is
the walk from the table's top that each piece once made (a 20 000-row table took 11 s,
80 000 rows 75 s).
"""

from __future__ import annotations

import argparse

from nesting import Shape, compare


def _rows(n: int) -> list[str]:
    return [f"row {i} | {i * 3} | value {i % 7}" for i in range(n)]


def prose(n: int) -> str:
    """The same words without the bars: one paragraph of lines."""
    return "name amount kind\n" + "\n".join(row.replace(" |", "") for row in _rows(n)) + "\n"


SHAPES: list[Shape] = [
    (
        "markdown table",
        ".md",
        lambda n: (
            "| name | amount | kind |\n|---|---|---|\n"
            + "".join(f"| {row} |\n" for row in _rows(n))
        ),
        prose,
    ),
    ("text table", ".txt", lambda n: "name | amount | kind\n" + "\n".join(_rows(n)) + "\n", prose),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="5000,20000,80000")
    args = parser.parse_args()
    compare(SHAPES, [int(n) for n in args.rows.split(",")], "rows", "table", "prose")


if __name__ == "__main__":
    main()
