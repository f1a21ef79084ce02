"""Plain-text tables for the terminal: inspect summaries, compare mode, flagged chunks."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..markup import HEADING_SEPARATOR
from .flags import FLAGS
from .inspection import FlaggedChunk, Inspection
from .retrieval import EvalResult
from .summary import Summary


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell: the first left-aligned, the others right."""
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def count_share(count: int, total: int) -> str:
    """`3 (4.2%)`; a bare `0` when the flag never fired, so real problems stand out."""
    if not count:
        return "0"
    return f"{count} ({100 * count / total:.1f}%)" if total else str(count)


def _stats_cells(summary: Summary) -> list[str]:
    t = summary.tokens
    stats = [t.min, t.median, t.p95, t.max] if t else ["–"] * 4
    return [str(summary.chunks), *map(str, stats)]


def _display_names(sources: Sequence[str]) -> tuple[str, list[str]]:
    """Sources relative to their common folder (shown once above the table)."""
    if len(sources) < 2 or "-" in sources:
        return "", list(sources)
    try:
        root = os.path.commonpath(sources)
    except ValueError:  # absolute and relative paths mixed
        return "", list(sources)
    if not root or root in sources:
        return "", list(sources)
    return root, [os.path.relpath(s, root) for s in sources]


def inspect_table(inspection: Inspection) -> str:
    """Per document and in total: chunks, token spread and each flag's count and share."""
    root, names = _display_names([d.source for d in inspection.documents])
    headers = ["document", "chunks", "min", "median", "p95", "max", *FLAGS]
    rows = []
    summaries = [d.summary for d in inspection.documents]
    for name, summary in zip(names, summaries):
        rows.append(
            [
                name,
                *_stats_cells(summary),
                *(count_share(summary.flags[f], summary.chunks) for f in FLAGS),
            ]
        )
    total = inspection.total
    documents = f"{len(summaries)} document" + ("" if len(summaries) == 1 else "s")
    rows.append(
        [
            f"TOTAL ({documents})",
            *_stats_cells(total),
            *(count_share(total.flags[f], total.chunks) for f in FLAGS),
        ]
    )
    rules = inspection.rules
    head = (
        f"{inspection.label}: budget {rules.budget} {inspection.tokenizer}, "
        f"TOO_SMALL under {rules.min_words} words"
        + (f" or {rules.min_tokens} tokens" if rules.min_tokens else "")
    )
    if root:
        head += f"; documents under {root}"
    return head + "\n" + text_table(headers, rows)


def compare_table(ours: Inspection, other: Inspection) -> str:
    """The two totals side by side, one metric per row."""
    a, b = ours.total, other.total
    rows = [
        ["documents", str(len(ours.documents)), str(len(other.documents))],
        ["chunks", str(a.chunks), str(b.chunks)],
    ]
    for name in ("min", "median", "p95", "max"):
        rows.append(
            [
                f"tokens {name}",
                str(getattr(a.tokens, name)) if a.tokens else "–",
                str(getattr(b.tokens, name)) if b.tokens else "–",
            ]
        )
    for flag in FLAGS:
        rows.append(
            [flag, count_share(a.flags[flag], a.chunks), count_share(b.flags[flag], b.chunks)]
        )
    head = f"compare: budget {ours.rules.budget} {ours.tokenizer}"
    return head + "\n" + text_table(["", ours.label, other.label], rows)


def _provenance(item: FlaggedChunk) -> str:
    chunk = item.chunk
    if chunk.lines:
        return f"lines {chunk.lines[0]}–{chunk.lines[1]}"
    if chunk.pages:
        return "pages " + ",".join(map(str, chunk.pages))
    return ""


def flagged_listing(items: Sequence[FlaggedChunk]) -> str:
    """Flagged chunks as a person reading them wants them: where, why, start and end."""
    blocks = []
    for item in items:
        chunk = item.chunk
        where = ", ".join(
            p for p in (f"#{chunk.index}", _provenance(item), f"{chunk.n_tokens} tokens") if p
        )
        lines = [f"{chunk.source} {where} [{' '.join(item.flags)}]"]
        if chunk.heading_path:
            lines.append("  heading: " + HEADING_SEPARATOR.join(chunk.heading_path))
        end = item.end()
        label = "  start: " if end else "  text:  "
        lines.append(label + item.start().replace("\n", "⏎ "))
        if end:
            lines.append("  end:   " + end.replace("\n", "⏎ "))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def eval_table(results: Sequence[EvalResult], ks: Sequence[int]) -> str:
    """One row per run: hit@k and coverage@k and the split rate in %, then chunk counts;
    a retriever column when any run ranks by embeddings; with context budgets, the
    answers inside each budget's context, of chunks (`ctx@N`), of their parents
    (`parent@N`) and of chunks merged into parents (`merged@N`)."""
    with_retriever = any(result.retriever != "bm25" for result in results)
    budgets = list(results[0].context) if results else []
    headers = [
        "run",
        *(["retriever"] if with_retriever else []),
        *(f"hit@{k}" for k in ks),
        *(f"cov@{k}" for k in ks),
        "split",
        *(f"ctx@{n}" for n in budgets),
        *(f"parent@{n}" for n in budgets),
        *(f"merged@{n}" for n in budgets),
        "chunks",
        "mean words",
    ]
    rows = []
    for result in results:
        mean_words = "–" if result.mean_words is None else f"{result.mean_words:.0f}"
        rows.append(
            [
                result.label,
                *([result.retriever] if with_retriever else []),
                *(_percent(result.hit[k]) for k in ks),
                *(_percent(result.coverage[k]) for k in ks),
                _percent(result.answer_split_rate),
                *(_percent(result.context[n]) for n in budgets),
                *(_percent(result.parent_context[n]) for n in budgets),
                *(_percent(result.merged_context[n]) for n in budgets),
                str(result.chunks),
                mean_words,
            ]
        )
    return text_table(headers, rows)
