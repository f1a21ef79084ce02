"""Content recall and boilerplate precision of the HTML parser against human-judged articles.

For every page of `<corpus>/html/<set>/` that has an expected article in
`<corpus>/html-expected/<set>/<same name>.html` (Mozilla Readability's test pages), the
page is chunked by structchunk and compared, as bags of words, with the expected
article's visible text:

- recall    = share of the expected article's words found in our chunk bodies;
- precision = share of our chunk-body words that belong to the expected article.

Words are lowercased runs of letters and digits; Chinese and Japanese characters count
one word each (those scripts do not separate words by spaces). Bags are multisets: a
word the article has three times is found three times only if our chunks hold it three
times. A second pair of columns counts each section heading once as well (bodies leave
headings to the heading path). Usage:

    python benchmarks/html_extraction.py [--corpus ../shared/corpus] [--set readability]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers.html.dom import inline_text
from structchunk.parsers.html.encoding import decode_for_parsing
from structchunk.parsers.html.tree import parse_tree

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
OPTIONS = ChunkOptions(max_tokens=200, tokenizer="words")
"""The budget the shared retrieval bench uses; extraction does not depend on it."""


def words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower()))


def expected_words(path: Path) -> Counter[str]:
    """The visible text of an expected-article file, block edges as spaces."""
    _, utf8 = decode_for_parsing(path.read_bytes())
    return words(" ".join(inline_text(root, ()) for root in parse_tree(utf8)))


def chunk_words(path: Path) -> tuple[Counter[str], Counter[str]]:
    """Words of our chunk bodies, and of the bodies plus each section heading once."""
    bodies: Counter[str] = Counter()
    headings: Counter[str] = Counter()
    seen: set[tuple[str, ...]] = set()
    for chunk in iter_chunks_from_bytes(path.read_bytes(), str(path), "html", OPTIONS):
        bodies.update(words(chunk.body))
        path_ = tuple(chunk.heading_path)
        for depth in range(1, len(path_) + 1):
            if path_[:depth] not in seen:
                seen.add(path_[:depth])
                headings.update(words(path_[depth - 1]))
    return bodies, bodies + headings


def overlap(ours: Counter[str], expected: Counter[str]) -> tuple[float, float]:
    """(recall, precision) of two bags of words."""
    common = sum((ours & expected).values())
    recall = common / sum(expected.values()) if expected else 1.0
    precision = common / sum(ours.values()) if ours else (1.0 if not expected else 0.0)
    return recall, precision


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--set", default="readability")
    parser.add_argument(
        "--show-missing",
        metavar="PAGE",
        help="print the expected words we miss and the extra words we keep",
    )
    args = parser.parse_args(argv)
    pages = sorted((args.corpus / "html" / args.set).glob("*.html"))
    expected_dir = args.corpus / "html-expected" / args.set
    rows = []
    print(f"{'page':28} {'recall':>7} {'prec':>7} {'recall+h':>9} {'prec+h':>7} {'words':>7}")
    for page in pages:
        reference = expected_dir / page.name
        if not reference.exists():
            continue
        expected = expected_words(reference)
        bodies, with_headings = chunk_words(page)
        row = (*overlap(bodies, expected), *overlap(with_headings, expected))
        rows.append(row)
        print(
            f"{page.stem:28} {row[0]:7.3f} {row[1]:7.3f} {row[2]:9.3f} {row[3]:7.3f} "
            f"{sum(expected.values()):7d}"
        )
        if args.show_missing == page.stem:
            print("  missing:", (expected - bodies).most_common(60))
            print("  extra:  ", (bodies - expected).most_common(60))
    if not rows:
        print("no pages with expected articles found", file=sys.stderr)
        return 1
    means = [statistics.fmean(column) for column in zip(*rows)]
    print(
        f"{'MEAN (' + str(len(rows)) + ' pages)':28} {means[0]:7.3f} {means[1]:7.3f} "
        f"{means[2]:9.3f} {means[3]:7.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
