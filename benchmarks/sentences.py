"""Sentence boundaries: exact-match pass rates on the SBD test sets, and characters/second.

    .venv/bin/python benchmarks/sentences.py [--corpus DIR] [--min-chars N] [--runs N]
                                             [--failures] [--json]

Scores like the shared bench (`../shared/bench/sbd.py`): a case passes when the list
of predicted sentences equals the expected list after collapsing whitespace (empty
pieces dropped). `sbd/golden_rules_en.jsonl` is the Golden Rules set (the target is
90 %); `sbd/pysbd_english_extra.jsonl` has PDF-style line breaks and pySBD's regression
cases. Speed is measured in the same run on the prose paragraphs of `text/chroma/*.txt`
(paragraphs of five or more words, as the shared bench takes them), cycled to at least
`--min-chars` characters, in CPU seconds of this process (so other jobs on a shared
machine do not count); the segmenters take turns in every run and the median run
counts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nltk
from nltk.tokenize.punkt import PunktSentenceTokenizer

from structchunk.errors import SentenceModelError
from structchunk.sentences import SentenceSegmenter, get_segmenter, model_params

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
GOLDEN = "sbd/golden_rules_en.jsonl"
EXTRA = "sbd/pysbd_english_extra.jsonl"
DEFAULT_MIN_CHARS = 3_000_000
"""Characters per timed run: about a second per segmenter, long enough to be stable."""
DEFAULT_RUNS = 5
MIN_PARAGRAPH_WORDS = 5
"""As in the shared bench's `prose_paragraphs`."""

Segment = Callable[[str], list[str]]
_NAIVE = re.compile(r"(?<=[.!?])\s+")


@dataclass
class Result:
    name: str
    note: str
    golden: int = 0
    extra: int = 0
    seconds: list[float] = field(default_factory=list)
    sentences: int = 0
    failures: list[dict[str, object]] = field(default_factory=list)


def segmenters() -> dict[str, tuple[Segment, str]]:
    """name -> (segment function, note). nltk:english joins only when it is installed."""
    found: dict[str, tuple[Segment, str]] = {
        "structchunk (bundled)": (
            get_segmenter("bundled").split,
            "bundled Punkt parameters + sentence_rules post-pass",
        ),
        "structchunk Punkt only": (
            SentenceSegmenter(model_params("bundled"), post_pass=False).split,
            "bundled Punkt parameters, no post-pass",
        ),
        "Punkt untrained": (PunktSentenceTokenizer().tokenize, "PunktSentenceTokenizer()"),
        "naive regex": (_NAIVE.split, r"re.split(r'(?<=[.!?])\s+', text)"),
    }
    with contextlib.suppress(SentenceModelError):
        found["nltk:english + post-pass"] = (
            get_segmenter("nltk:english").split,
            "NLTK's official punkt_tab English",
        )
    return found


def _ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def load_cases(path: Path) -> list[dict[str, object]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def score(
    segment: Segment,
    cases: list[dict[str, object]],
    failures: list[dict[str, object]] | None = None,
) -> int:
    """How many cases come out exactly right (whitespace collapsed, empty pieces dropped)."""
    passed = 0
    for case in cases:
        text = str(case["text"])
        try:
            got = [_ws(s) for s in segment(text) if _ws(s)]
        except Exception as error:  # a crash is a failed case, as in the shared bench
            got = [f"<error {type(error).__name__}>"]
        expected = [_ws(str(s)) for s in case["sentences"] if _ws(str(s))]  # type: ignore[attr-defined]
        if got == expected:
            passed += 1
        elif failures is not None:
            failures.append(
                {
                    "id": case.get("id"),
                    "rule": case.get("rule"),
                    "text": text,
                    "expected": expected,
                    "got": got,
                }
            )
    return passed


def prose(corpus: Path, min_chars: int) -> tuple[list[str], int, int]:
    """Paragraphs of the chroma texts cycled to `min_chars`; also the distinct count/size."""
    paragraphs = [
        p.strip()
        for path in sorted((corpus / "text" / "chroma").glob("*.txt"))
        for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        if len(p.split()) >= MIN_PARAGRAPH_WORDS
    ]
    distinct = sum(map(len, paragraphs))
    timed: list[str] = []
    total = 0
    while paragraphs and total < min_chars:
        timed.extend(paragraphs)
        total += distinct
    return timed, len(paragraphs), distinct


def time_all(
    results: dict[str, Result], functions: dict[str, Segment], paragraphs: list[str], runs: int
) -> None:
    """Each run times every segmenter once, in a rotating order."""
    names = list(functions)
    for name in names:  # warm-up: caches, lazy regex compilation
        for paragraph in paragraphs[:20]:
            functions[name](paragraph)
    for run in range(runs):
        for name in names[run % len(names) :] + names[: run % len(names)]:
            segment = functions[name]
            count = 0
            start = time.process_time()
            for paragraph in paragraphs:
                count += len(segment(paragraph))
            results[name].seconds.append(time.process_time() - start)
            results[name].sentences = count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(os.environ.get("STRUCTCHUNK_CORPUS", DEFAULT_CORPUS))
    )
    parser.add_argument("--min-chars", type=int, default=DEFAULT_MIN_CHARS)
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    parser.add_argument(
        "--failures", action="store_true", help="also list the cases the bundled model gets wrong"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if not (args.corpus / GOLDEN).is_file():
        print(
            f"error: no {GOLDEN} under {args.corpus} (set --corpus or STRUCTCHUNK_CORPUS)",
            file=sys.stderr,
        )
        return 2
    golden = load_cases(args.corpus / GOLDEN)
    extra = load_cases(args.corpus / EXTRA) if (args.corpus / EXTRA).is_file() else []
    paragraphs, distinct_count, distinct_chars = prose(args.corpus, args.min_chars)
    found = segmenters()
    results = {name: Result(name, note) for name, (_, note) in found.items()}
    functions = {name: segment for name, (segment, _) in found.items()}
    first = next(iter(results))
    for name, result in results.items():
        failures = result.failures if name == first else None
        result.golden = score(functions[name], golden, failures)
        result.extra = score(functions[name], extra, failures)
    time_all(results, functions, paragraphs, args.runs)
    chars = sum(map(len, paragraphs))
    seconds = {name: statistics.median(r.seconds) for name, r in results.items()}
    speed = {name: chars / seconds[name] for name in results}
    header: dict[str, int | str] = {
        "golden_cases": len(golden),
        "extra_cases": len(extra),
        "prose_chars": chars,
        "prose_paragraphs": len(paragraphs),
        "distinct_paragraphs": distinct_count,
        "distinct_chars": distinct_chars,
        "runs": args.runs,
        "nltk": nltk.__version__,
    }
    if args.json:
        rows = {
            name: {
                "note": r.note,
                "golden_pass": r.golden,
                "extra_pass": r.extra,
                "golden_rate": r.golden / len(golden),
                "chars_per_s": speed[name],
                "sentences_per_s": r.sentences / seconds[name],
            }
            for name, r in results.items()
        }
        print(json.dumps({**header, "segmenters": rows}, indent=2))
    else:
        print_table(header, results, seconds)
    if args.failures:
        print(f"\nCases {first} gets wrong:")
        for failure in results[first].failures:
            print(json.dumps(failure, ensure_ascii=False))
    return 0


def print_table(
    header: dict[str, int | str], results: dict[str, Result], seconds: dict[str, float]
) -> None:
    golden, extra, chars = header["golden_cases"], header["extra_cases"], header["prose_chars"]
    print(f"Golden Rules: {golden} cases ({GOLDEN}); extra: {extra} cases ({EXTRA}).")
    print(
        f"Speed: {chars:,} characters in {header['prose_paragraphs']:,} paragraphs "
        f"({header['distinct_paragraphs']:,} distinct paragraphs of text/chroma/*.txt, "
        f"{header['distinct_chars']:,} characters, cycled); CPU time, median of "
        f"{header['runs']} interleaved runs; nltk {header['nltk']}.\n"
    )
    print("| segmenter | golden rules | extra | chars/s | sentences/s | vs untrained Punkt |")
    print("|---|---:|---:|---:|---:|---:|")
    baseline = seconds["Punkt untrained"]
    for name, r in results.items():
        rate = 100 * r.golden / int(golden)
        print(
            f"| {name} | {r.golden}/{golden} ({rate:.1f} %) | {r.extra}/{extra} | "
            f"{int(chars) / seconds[name] / 1e6:.2f} M | "
            f"{r.sentences / seconds[name] / 1e3:.0f} k | {baseline / seconds[name]:.2f}× |"
        )


if __name__ == "__main__":
    sys.exit(main())
