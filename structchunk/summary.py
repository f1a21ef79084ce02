"""The budget audit printed after `convert`: chunk sizes against the budget."""

from __future__ import annotations

from dataclasses import dataclass, field

from .prefix import SEPARATOR


@dataclass
class BudgetSummary:
    """Collects token counts while chunks stream by; `line()` renders the one-line audit."""

    max_tokens: int
    tokenizer: str
    counts: list[int] = field(default_factory=list)
    over_budget: int = 0
    prefixes_shortened: int = 0

    def add(self, n_tokens: int, heading_path: list[str], text: str) -> None:
        self.counts.append(n_tokens)
        if n_tokens > self.max_tokens:
            self.over_budget += 1
        if heading_path and not text.startswith(SEPARATOR.join(heading_path) + "\n"):
            self.prefixes_shortened += 1

    def line(self, documents: int, failed: int) -> str:
        docs = f"{documents} document{'s' if documents != 1 else ''}"
        if failed:
            docs += f" ({failed} failed)"
        if not self.counts:
            return f"structchunk: {docs}, 0 chunks"
        ordered = sorted(self.counts)
        median = ordered[len(ordered) // 2]
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        parts = [f"structchunk: {docs}, {len(ordered)} chunks; tokens/chunk "
                 f"min {ordered[0]} · median {median} · p95 {p95} · max {ordered[-1]} "
                 f"(budget {self.max_tokens} {self.tokenizer})"]
        if self.over_budget:
            parts.append(f"{self.over_budget} OVER BUDGET")
        if self.prefixes_shortened:
            parts.append(f"{self.prefixes_shortened} heading prefixes shortened")
        return "; ".join(parts)
