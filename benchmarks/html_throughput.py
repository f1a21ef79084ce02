"""End-to-end throughput on the corpus HTML pages, beside two bare parses of them.

    python benchmarks/html_throughput.py [--corpus ../shared/corpus] [--runs 5]

Every row is measured in the same process and run, interleaved round by round, so the
ratios hold on a busy machine (CPU time of this process only). The two floors are bare
parses of the page bytes: `BeautifulSoup(data, "lxml")`, where any pipeline built on
BeautifulSoup starts (the yardstick of issue #18: structchunk end to end should be at
least twice as fast), and `lxml.html.document_fromstring(data)`, the parse structchunk
itself starts from. "end to end" = bytes → decode → parse → boilerplate and main content
→ walk → pack → records with offsets → JSONL lines (to memory), which is what
`structchunk convert` does per file minus disk writes. The stage rows are cumulative and
split our time up: decode; + the element tree; + boilerplate and main content; + the walk
into the section tree (the whole parser); + packing and records, without offsets.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from pathlib import Path

import lxml.html
from bs4 import BeautifulSoup
from timing import measure

from structchunk import ChunkOptions
from structchunk.api import chunks_of_document, iter_chunks_from_bytes, parse_document
from structchunk.parsers import ParseSettings
from structchunk.parsers import html as html_parser
from structchunk.parsers.html.content import select_content
from structchunk.parsers.html.encoding import decode_for_parsing
from structchunk.parsers.html.tree import parse_tree, top_level_bodies
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
BS4 = "floor: BeautifulSoup(data, 'lxml')"
LXML = "floor: lxml.html.document_fromstring(data)"
END_TO_END = "structchunk end to end (words)"
Pages = list[tuple[str, bytes]]


def corpus_pages(corpus: Path) -> Pages:
    files = sorted((corpus / "html").rglob("*.html"))
    if not files:
        sys.exit(f"no HTML files under {corpus / 'html'}")
    return [(str(p), p.read_bytes()) for p in files]


def bs4_parse(pages: Pages) -> Callable[[], None]:
    def run() -> None:
        for _, data in pages:
            BeautifulSoup(data, "lxml")

    return run


def lxml_parse(pages: Pages) -> Callable[[], None]:
    def run() -> None:
        for _, data in pages:
            lxml.html.document_fromstring(data)

    return run


def stages_to(pages: Pages, last: str) -> Callable[[], None]:
    """Our own stages, cumulatively, up to `last`."""
    settings = ParseSettings()

    def run() -> None:
        for source, data in pages:
            if last == "section tree":
                html_parser.parse(data, source, settings)
                continue
            _, utf8 = decode_for_parsing(data)
            if last == "decode":
                continue
            roots = parse_tree(utf8)
            if last == "content":
                for body in top_level_bodies(roots):
                    select_content(body)

    return run


def without_offsets(pages: Pages, options: ChunkOptions) -> Callable[[], None]:
    """Parse, pack and make records, but align no offsets (no source text to align)."""

    def run() -> None:
        sink = io.StringIO()
        for source, data in pages:
            document = parse_document(data, source, "html", options)
            document.source_text = ""
            for chunk in chunks_of_document(document, data, source, options):
                sink.write(to_json_line(chunk))

    return run


def end_to_end(pages: Pages, options: ChunkOptions) -> Callable[[], None]:
    def run() -> None:
        sink = io.StringIO()
        for source, data in pages:
            for chunk in iter_chunks_from_bytes(data, source, "html", options):
                sink.write(to_json_line(chunk))

    return run


def print_table(seconds: dict[str, float], megabytes: float) -> None:
    """Seconds, MB/s, and speed relative to each floor."""
    print("| case | seconds | MB/s | × BeautifulSoup parse | × lxml parse |")
    print("|---|---:|---:|---:|---:|")
    for name, value in seconds.items():
        print(
            f"| {name} | {value:.3f} | {megabytes / value:.2f} | "
            f"{seconds[BS4] / value:.2f} | {seconds[LXML] / value:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument(
        "--no-stages", action="store_true", help="time only the floors and end to end"
    )
    args = parser.parse_args()
    pages = corpus_pages(args.corpus)
    megabytes = sum(len(data) for _, data in pages) / 1e6
    options = ChunkOptions(max_tokens=args.max_tokens)
    cases = {BS4: bs4_parse(pages), LXML: lxml_parse(pages)}
    if not args.no_stages:
        for stage in ("decode", "tree", "content", "section tree"):
            cases[f"structchunk up to the {stage}"] = stages_to(pages, stage)
        cases["structchunk end to end without offsets"] = without_offsets(pages, options)
    cases[END_TO_END] = end_to_end(pages, options)
    seconds = measure(cases, args.runs)
    print(
        f"{len(pages)} HTML pages, {megabytes:.2f} MB, median of {args.runs} runs, "
        f"max_tokens={args.max_tokens}\n"
    )
    print_table(seconds, megabytes)


if __name__ == "__main__":
    main()
