"""Sentence boundaries in nine languages: exact-match pass rates per language.

    python benchmarks/sentences_languages.py [--failures LANG]

Cases: tests/multilingual/sbd/<lang>.jsonl — pySBD's per-language golden rules (MIT,
tests/lang/test_<language>.py, extracted with `ast`) and the cases marked
`"set": "structchunk"`, written for this project (Portuguese has no pySBD set). Scored as
benchmarks/sentences.py scores: a case passes when the predicted sentences equal the
expected ones after collapsing whitespace. Columns: the bundled English model (what every
language got before), pySBD (when installed: `pip install pysbd`), sentencex alone, and
structchunk's segmenter for the language (sentencex, then the post-pass).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from pathlib import Path

from structchunk.sentences import SentenceSegmenter, get_segmenter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sentences import load_cases, score  # noqa: E402 - the script beside this one

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "multilingual" / "sbd"
LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ru", "zh", "ja")
Segment = Callable[[str], list[str]]


def segmenters(language: str) -> dict[str, Segment | None]:
    found: dict[str, Segment | None] = {
        "bundled (English)": get_segmenter().split,
        "pySBD": None,
        "sentencex": SentenceSegmenter(language=language, post_pass=False).split,
        "structchunk": get_segmenter("bundled", language).split,
    }
    with contextlib.suppress(ImportError, ValueError):
        import pysbd

        found["pySBD"] = pysbd.Segmenter(language=language, clean=False).segment
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", metavar="LANG", help="list structchunk's failures")
    args = parser.parse_args()
    names = list(segmenters("de"))
    print("| language | cases | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    totals = dict.fromkeys(names, 0)
    for language in LANGUAGES:
        cases = load_cases(CASES / f"{language}.jsonl")
        cells = [language, str(len(cases))]
        for name, segment in segmenters(language).items():
            if segment is None:
                cells.append("–")
                continue
            passed = score(segment, cases)
            totals[name] += passed
            cells.append(f"{passed} ({100 * passed / len(cases):.0f} %)")
        print("| " + " | ".join(cells) + " |")
    print("| total | | " + " | ".join(str(totals[n]) for n in names) + " |")
    if args.failures:
        failures: list[dict[str, object]] = []
        cases = load_cases(CASES / f"{args.failures}.jsonl")
        score(get_segmenter("bundled", args.failures).split, cases, failures)
        for failure in failures:
            print(f"\nexpected {failure['expected']}\ngot      {failure['got']}")


if __name__ == "__main__":
    main()
