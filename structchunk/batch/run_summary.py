"""The audit printed after `convert`: files, chunk sizes against the budget, time."""

from __future__ import annotations

from dataclasses import dataclass, field

UNDETERMINED = "und"
"""How the summary counts chunks whose language was not determined (ISO 639-2)."""


@dataclass
class BudgetSummary:
    """Collects token counts as documents finish; `line()` renders the one-line audit."""

    max_tokens: int
    tokenizer: str
    counts: list[int] = field(default_factory=list)
    over_budget: int = 0
    prefixes_shortened: int = 0
    languages: dict[str, int] = field(default_factory=dict)

    def add_counts(
        self, tokens: list[int], shortened: int, languages: dict[str, int] | None = None
    ) -> None:
        """Counts of one document's chunks, how many had their prefix shortened, and how
        many were read in each language."""
        self.counts.extend(tokens)
        self.over_budget += sum(1 for n in tokens if n > self.max_tokens)
        self.prefixes_shortened += shortened
        for language, n in (languages or {}).items():
            self.languages[language] = self.languages.get(language, 0) + n

    def line(
        self,
        ok: int,
        failed: int,
        skipped: int = 0,
        seconds: float | None = None,
        pruned: int = 0,
        missing: int = 0,
        unsupported: int = 0,
        unknown: int = 0,
    ) -> str:
        """The audit; `missing` and `unsupported` count inputs named on the command line
        that do not exist or are not of a supported format, `unknown` the files of
        directories skipped as not of a supported format."""
        files = ok + failed + skipped
        parts = [f"{files} file{'s' if files != 1 else ''}: {ok} converted"]
        if unsupported:
            plural = "s" if unsupported != 1 else ""
            parts.insert(0, f"{unsupported} input{plural} not of a supported format")
        if missing:
            parts.insert(0, f"{missing} input{'s' if missing != 1 else ''} not found")
        if skipped:
            parts.append(f"{skipped} unchanged")
        if failed:
            parts.append(f"{failed} failed")
        if pruned:
            parts.append(f"{pruned} outputs of deleted inputs removed")
        if unknown:
            plural = "s" if unknown != 1 else ""
            parts.append(f"{unknown} file{plural} skipped: not a supported format")
        text = "structchunk: " + ", ".join(parts)
        text += f"; {len(self.counts)} chunk{'s' if len(self.counts) != 1 else ''}"
        if self.counts:
            ordered = sorted(self.counts)
            median = ordered[len(ordered) // 2]
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            text += (
                f", tokens/chunk min {ordered[0]} · median {median} · p95 {p95} · "
                f"max {ordered[-1]} (budget {self.max_tokens} {self.tokenizer})"
            )
        if self.languages:
            ranked = sorted(self.languages.items(), key=lambda item: (-item[1], item[0]))
            text += "; languages " + " · ".join(f"{code} {n}" for code, n in ranked)
        if self.over_budget:
            text += f"; {self.over_budget} OVER BUDGET"
        if self.prefixes_shortened:
            text += f"; {self.prefixes_shortened} heading prefixes shortened"
        if seconds is not None:
            text += f"; {seconds:.1f} s"
        return text
