"""Retrieval per QA set, per question kind and pooled, under each retriever, with 95 %
bootstrap intervals — from the chunks a run of the shared harness kept.

    python ../shared/bench/run.py --corpus ../shared/corpus --retrievers bm25,dense \\
        --skip-throughput --skip-sbd --quick --workdir RUN --out RUN/r.json
    /path/to/peers-venv/bin/python benchmarks/retrieval_report.py RUN \\
        [--variant NAME=OTHER_RUN ...] [--retrievers bm25,dense] [--md report.md]

The harness prints each set's hit@k; this adds what a decision needs: the best peer per
metric (which differs between hit@1 and hit@5), per-kind figures, and the pooled
structured sets (awsdocs + written + pdf-rendered + pdf-real, each question once) with a
bootstrap interval over questions for structchunk, the best peer, and their paired
difference, so a one-question move reads as the noise it is. `--variant` adds the
structchunk chunks of another run (e.g. a candidate change run with `--systems
structchunk`) as an extra row, compared with the same peers and, question by question,
with the defaults.

It runs with the peers' virtualenv (the harness's BM25 and embedding model live there)
and reuses the harness's own scoring code, so its figures equal the harness's.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STRUCTURED = ("awsdocs", "written", "pdf-rendered", "pdf-real")
KINDS = ("heading", "list", "table", "repeated", "plain")
Rows = list[dict[str, Any]]


def load_harness(bench: Path) -> tuple[Any, Any, Any]:
    """The harness's modules (run, metrics, common), imported from its folder."""
    sys.path.insert(0, str(bench))
    import common  # type: ignore[import-not-found]
    import metrics  # type: ignore[import-not-found]
    import run  # type: ignore[import-not-found]

    return run, metrics, common


def scopes(run: Any, common: Any, corpus: Path) -> dict[str, dict[str, Any]]:
    """Questions and indexed documents per QA set, as the harness forms them."""
    docs = common.discover(corpus, ("markdown", "html", "pdf", "text"))
    qa, _ = common.load_qa(corpus)
    ids = run.qa_scope_ids(qa, docs)
    return run.qa_scopes(qa, ids, {d.id: d for d in docs})  # type: ignore[no-any-return]


def systems_in(workdir: Path) -> dict[str, Path]:
    """Chunk files of every system a harness run kept."""
    base = workdir / "a" if (workdir / "a").is_dir() else workdir / "work" / "a"
    return {
        p.parent.name: p
        for p in sorted(base.glob("*/chunks.jsonl"))
        if not p.parent.name.startswith("_")
    }


def bootstrap(
    values: Sequence[float], draws: list[list[int]], other: Sequence[float] | None = None
) -> tuple[float, float]:
    """95 % percentile interval of the mean of `values` (minus `other`, paired)."""
    diffs = values if other is None else [a - b for a, b in zip(values, other)]
    means = sorted(sum(diffs[i] for i in draw) / len(draw) for draw in draws)
    return means[int(0.025 * len(means))], means[int(0.975 * len(means)) - 1]


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def mean(rows: Rows, key: str) -> float:
    return sum(r[key] for r in rows) / len(rows) if rows else 0.0


def kind_rows(rows: Rows, kind: str) -> Rows:
    """Rows of questions of `kind` (a question may carry one kind or a list of them)."""
    return [r for r in rows if kind in _kinds(r.get("kind"))]


def _kinds(value: str | list[str] | None) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def report(
    results: dict[str, dict[str, Rows]], sets: Sequence[str], retriever: str, mine: Sequence[str]
) -> list[str]:
    """Markdown for one retriever: `results[system][set]` holds per-question rows."""
    peers = [s for s in results if s not in mine]
    out = [f"## {retriever}", ""]
    out += ["| set | system | hit@1 | hit@5 | split | best peer hit@1 | best peer hit@5 |"]
    out += ["|---|---|---:|---:|---:|---|---|"]
    for qset in sets:
        best1 = max(peers, key=lambda s: mean(results[s][qset], "hit@1"))
        best5 = max(peers, key=lambda s: mean(results[s][qset], "hit@5"))
        for system in mine:
            rows = results[system][qset]
            out.append(
                f"| {qset} | {system} | {pct(mean(rows, 'hit@1'))} | {pct(mean(rows, 'hit@5'))}"
                f" | {pct(mean(rows, 'split'))}"
                f" | {pct(mean(results[best1][qset], 'hit@1'))} {best1}"
                f" | {pct(mean(results[best5][qset], 'hit@5'))} {best5} |"
            )
    out += ["", "By question kind, all sets, hit@1 / hit@5:", ""]
    every = [r for qset in sets for r in results[mine[0]][qset]]
    header = " | ".join(f"{kind} (n={len(kind_rows(every, kind))})" for kind in KINDS)
    out += [f"| system | {header} |", "|---|" + "---:|" * len(KINDS)]
    for system in [*mine, *sorted(peers)]:
        rows = [r for qset in sets for r in results[system][qset]]
        cells = []
        for kind in KINDS:
            group = kind_rows(rows, kind)
            cells.append(
                f"{pct(mean(group, 'hit@1'))} / {pct(mean(group, 'hit@5'))}" if group else "–"
            )
        out.append(f"| {system} | " + " | ".join(cells) + " |")
    pooled_sets = [s for s in STRUCTURED if s in sets]
    if pooled_sets:
        out += pooled(results, pooled_sets, mine, peers)
    return out


def pooled(
    results: dict[str, dict[str, Rows]], sets: Sequence[str], mine: Sequence[str], peers: list[str]
) -> list[str]:
    """Pooled structured sets: hit@1/hit@5 with bootstrap intervals and paired differences."""

    def rows_of(system: str) -> Rows:
        return [r for qset in sets for r in results[system][qset]]

    n = len(rows_of(mine[0]))
    rng = random.Random(13)
    draws = [[rng.randrange(n) for _ in range(n)] for _ in range(2000)]
    out = ["", f"Pooled {' + '.join(sets)} ({n} questions), 95 % bootstrap intervals:", ""]
    out += ["| system | hit@1 | hit@5 | hit@1 − best peer | hit@5 − best peer | hit@1 − defaults |"]
    out += ["|---|---|---|---|---|---|"]
    best = {key: max(peers, key=lambda s: mean(rows_of(s), key)) for key in ("hit@1", "hit@5")}
    for system in [*mine, *sorted(set(best.values()))]:
        rows = rows_of(system)
        cells = []
        for key in ("hit@1", "hit@5"):
            values = [r[key] for r in rows]
            low, high = bootstrap(values, draws)
            cells.append(f"{pct(mean(rows, key))} [{pct(low)}, {pct(high)}]")
        for key in ("hit@1", "hit@5"):
            if system in peers:
                cells.append(f"({best[key]})" if system == best[key] else "")
                continue
            values = [r[key] for r in rows]
            other = [r[key] for r in rows_of(best[key])]
            low, high = bootstrap(values, draws, other)
            diff = mean(rows, key) - mean(rows_of(best[key]), key)
            cells.append(f"{100 * diff:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]")
        cells.append(_paired(rows, rows_of(mine[0]), draws) if system in mine[1:] else "")
        out.append(f"| {system} | " + " | ".join(cells) + " |")
    return out


def _paired(rows: Rows, baseline: Rows, draws: list[list[int]]) -> str:
    """hit@1 difference from `baseline`, question by question, with its interval."""
    values = [r["hit@1"] for r in rows]
    other = [r["hit@1"] for r in baseline]
    low, high = bootstrap(values, draws, other)
    diff = mean(rows, "hit@1") - mean(baseline, "hit@1")
    return f"{100 * diff:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workdir", type=Path, help="a harness run's --workdir (peers' chunks)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=WORKDIR")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--bench", type=Path, default=ROOT.parent / "shared" / "bench")
    parser.add_argument("--retrievers", default="bm25,dense")
    parser.add_argument("--sets", help="comma list of QA sets (default: all with chunks)")
    parser.add_argument("--md", type=Path, help="also write the report here")
    args = parser.parse_args()

    run, metrics, common = load_harness(args.bench.resolve())
    files = systems_in(args.workdir)
    mine = ["structchunk"]
    for spec in args.variant:
        name, _, path = spec.partition("=")
        files[name] = systems_in(Path(path))["structchunk"]
        mine.append(name)
    chunks = {system: run.load_chunks(path) for system, path in files.items()}
    qa = scopes(run, common, args.corpus.resolve())
    wanted = args.sets.split(",") if args.sets else sorted(qa)
    sets = [s for s in wanted if any(chunks["structchunk"].get(d) for d in qa[s]["docs"])]
    lines: list[str] = []
    for retriever in args.retrievers.split(","):
        results: dict[str, dict[str, Rows]] = {system: {} for system in chunks}
        for qset in sets:
            scope = qa[qset]
            for system, by_doc in chunks.items():
                _, rows = metrics.retrieval_eval(
                    scope["questions"], by_doc, scope["docs"], retriever
                )
                results[system][qset] = rows
        lines += [*report(results, sets, retriever, mine), ""]
    text = "\n".join(lines)
    print(text)
    if args.md:
        args.md.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
