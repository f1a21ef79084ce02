"""Hostile text inputs for the gate (see hostile_cases.py): Markdown and plain text the
size of a large export, in the shapes the fuzzer's duplication makes of a page.

tests/fuzzing.py's duplication pastes a block cut from a page mid-word up to 100 times;
grown to megabytes, that is a file with no heading, its copies' text alike, a table's
last row running on into the next copy, or one paragraph as long as the file. Before
issue #39 a 9 MB such file took over a minute and up to 380 MB, as the chunks' offsets
were looked for in the first copy and the whole file was parsed at once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hostile_cases import HostileCase

MB = 1_000_000

_ROWS = [
    ("Detectors", "1"),
    ("Filters", "100"),
    ("Finding retention days", "90"),
    ("Addresses per trusted list", "2,000"),
    ("Member accounts", "5000"),
    *((f"Extra quota {n}", str(n)) for n in range(10)),
]
TABLE_BLOCK = (
    "ormerly called limits, for each service. Unless noted otherwise, each quota applies "
    "per region. You can ask for more of some quotas; others cannot be raised.\n\n"
    "Your account has the following quotas for the detector per region.\n\n"
    "| Resource | Default | Comments |\n| --- | --- | --- |\n"
    + "".join(
        f"| {name} | {value} | The largest number of {name.lower()} per account per region. |\n"
        for name, value in _ROWS
    )
    + "| Trusted lists | 1 | The largest number of trusted lists per account. | F"
)
"""Prose and a table longer than a chunk, cut mid-word at both ends: the last row runs
on into the next copy's first line, and the table's pieces repeat its header."""
LINES_BLOCK = (
    "lled `Option`, which\nexpresses that a value can be either something or nothing. "
    "Then, we will look at\nhow pattern matching in the `match` expression makes it easy "
    "to run different\ncode for different values. Finally, we will cover how the `if let`\n"
    "construct is another idiom.\n"
)
"""Wrapped lines without a blank line, pasted inside a code span (`Optio` + `lled`): the
copies' backticks pair across them, so chunks render words the source spells otherwise."""


def pasted(block: str, before: str, size: int) -> Callable[[Path], None]:
    """A builder writing `before` and then `block` pasted up to `size` bytes, a copy at
    a time: the gate's process holds no file-sized text, whose memory would count in
    the converting child's peak (a child's peak starts from its parent's)."""

    def build(path: Path) -> None:
        copies = size // len(block.encode("utf-8")) + 1
        with path.open("w", encoding="utf-8") as out:
            out.write(before)
            for _ in range(copies):
                out.write(block)

    return build


CASES: list[HostileCase] = [
    # 9.5 s and 130 MB here (before: 41 s, 529 MB, the whole file's tokens at once)
    HostileCase(
        "pasted-table-block-9mb.md",
        pasted(TABLE_BLOCK, "Introduction\n\n", 9 * MB),
        "converted",
        seconds=60,
        peak_mb=20 * 9,
    ),
    # 19 s and 170 MB here (before: 56 s, and 3.5 times slower a megabyte than at 1 MB)
    HostileCase(
        "pasted-lines-in-a-code-span-9mb.md",
        pasted(LINES_BLOCK, "# Enums\n\nNext, we explore a useful enum, called `Optio", 9 * MB),
        "converted",
        seconds=60,
        peak_mb=25 * 9,
    ),
    # 3.4 s and 131 MB here (before: 34 s)
    HostileCase(
        "pasted-table-block-9mb.txt",
        pasted(TABLE_BLOCK, "Introduction\n\n", 9 * MB),
        "converted",
        seconds=30,
        peak_mb=20 * 9,
    ),
    # 1.2 s and 57 MB here (before: 4.3 s, 90 MB)
    HostileCase(
        "pasted-table-block-1mb.md",
        pasted(TABLE_BLOCK, "Introduction\n\n", MB),
        "converted",
        seconds=10,
        peak_mb=80,
        slow=False,
    ),
]
