"""Per-document and total numbers: chunk counts, token spread, and how often each flag fires."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .flags import FLAGS, Flag

TOTAL = "TOTAL"
"""The `source` of the summary over every document."""


@dataclass(frozen=True, slots=True)
class TokenStats:
    """Token counts per chunk. Median and p95 are taken as `convert`'s audit line takes
    them (the element at n//2 and at int(0.95·n) of the sorted counts), so the numbers of
    the two commands agree."""

    min: int
    median: int
    p95: int
    max: int

    @classmethod
    def of(cls, counts: Sequence[int]) -> TokenStats | None:
        if not counts:
            return None
        ordered = sorted(counts)
        n = len(ordered)
        return cls(ordered[0], ordered[n // 2], ordered[min(n - 1, int(0.95 * n))], ordered[-1])

    def to_json(self) -> dict[str, int]:
        return {"min": self.min, "median": self.median, "p95": self.p95, "max": self.max}


@dataclass(slots=True)
class Summary:
    """The numbers of one document (or of all: `source == TOTAL`)."""

    source: str
    chunks: int
    tokens: TokenStats | None
    flags: dict[Flag, int] = field(default_factory=dict)
    """Chunks carrying each flag (every flag present, zero when it never fired)."""

    def share(self, flag: Flag) -> float:
        """The fraction of chunks with `flag` (0.0 for no chunks)."""
        return self.flags[flag] / self.chunks if self.chunks else 0.0

    @property
    def flagged(self) -> int:
        return sum(self.flags.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "chunks": self.chunks,
            "tokens": self.tokens.to_json() if self.tokens else None,
            "flags": {
                flag: {"count": self.flags[flag], "share": round(self.share(flag), 6)}
                for flag in FLAGS
            },
        }


def summarize(source: str, counts: Sequence[int], flags: Sequence[tuple[Flag, ...]]) -> Summary:
    """The summary of chunks given by their token counts and flags (same order)."""
    tally: dict[Flag, int] = dict.fromkeys(FLAGS, 0)
    for chunk_flags in flags:
        for flag in chunk_flags:
            tally[flag] += 1
    return Summary(source, len(counts), TokenStats.of(counts), tally)


def summarize_total(
    counts: Sequence[Sequence[int]], flags: Sequence[Sequence[tuple[Flag, ...]]]
) -> Summary:
    """One summary over several documents (percentiles over all their chunks)."""
    return summarize(TOTAL, [n for doc in counts for n in doc], [f for doc in flags for f in doc])
