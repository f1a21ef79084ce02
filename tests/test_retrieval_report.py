"""benchmarks/retrieval_report.py: the pooled intervals and per-kind tables it prints.

The harness it scores with lives outside the project (../shared/bench, with the peers'
virtualenv); these tests feed its report functions per-question rows built by hand.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from conftest import load_benchmark


def _report() -> ModuleType:
    return load_benchmark("retrieval_report")


def rows(hits1: list[int], kind: str | list[str] = "plain") -> list[dict[str, Any]]:
    return [{"hit@1": float(h), "hit@5": 1.0, "split": 0.0, "kind": kind} for h in hits1]


def test_the_interval_holds_the_mean_and_narrows_with_more_questions() -> None:
    report = _report()
    rng = random.Random(1)
    values = [float(rng.random() < 0.7) for _ in range(400)]
    draws = [[rng.randrange(400) for _ in range(400)] for _ in range(500)]
    low, high = report.bootstrap(values, draws)
    assert low < sum(values) / 400 < high
    assert 0.05 < high - low < 0.12  # about ±2 standard errors of a 70 % rate over 400
    few = values[:40]
    few_draws = [[rng.randrange(40) for _ in range(40)] for _ in range(500)]
    few_low, few_high = report.bootstrap(few, few_draws)
    assert few_high - few_low > high - low


def test_a_paired_difference_of_identical_systems_is_exactly_zero() -> None:
    report = _report()
    values = [1.0, 0.0, 1.0, 1.0]
    draws = [[0, 1, 2, 3], [1, 1, 2, 0]]
    assert report.bootstrap(values, draws, values) == (0.0, 0.0)


def test_the_report_names_the_best_peer_per_metric_and_pools_the_structured_sets() -> None:
    report = _report()
    results = {
        "structchunk": {"awsdocs": rows([1, 1, 0, 1]), "chroma": rows([1, 0])},
        "peer_a": {"awsdocs": rows([1, 0, 0, 1]), "chroma": rows([1, 1])},
        "peer_b": {"awsdocs": rows([0, 0, 0, 1], ["table", "heading"]), "chroma": rows([0, 0])},
    }
    lines = report.report(results, ["awsdocs", "chroma"], "bm25", ["structchunk"])
    text = "\n".join(lines)
    assert "| awsdocs | structchunk | 75.0 | 100.0 | 0.0 | 50.0 peer_a | 100.0 peer_a |" in text
    assert "| chroma | structchunk | 50.0 | 100.0 | 0.0 | 100.0 peer_a |" in text
    assert "Pooled awsdocs (4 questions)" in text  # chroma is prose, not pooled
    assert (
        "| system | heading (n=0) | list (n=0) | table (n=0) | repeated (n=0) | plain (n=6) |"
        in text
    )
    assert "| peer_b | 25.0 / 100.0 | – | 25.0 / 100.0 | – | 0.0 / 100.0 |" in text
