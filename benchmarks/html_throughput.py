"""End-to-end throughput on the corpus HTML pages, beside BeautifulSoup's bare lxml parse.

    python benchmarks/html_throughput.py [--corpus ../shared/corpus] [--runs 5]

Every row is measured in the same process and run, interleaved round by round, so the
ratios hold on a busy machine (CPU time of this process only). "bare parse" is
`BeautifulSoup(data, "lxml")` on the page bytes, which is where any HTML pipeline built
on BeautifulSoup starts; "end to end" = bytes → decode → parse → boilerplate and main
content → walk → pack → JSONL lines (to memory), which is what `structchunk convert`
does per file minus disk writes. The stage rows split our time up.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from pathlib import Path

from bs4 import BeautifulSoup
from timing import measure, print_speed_table

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers import ParseSettings
from structchunk.parsers import html as html_parser
from structchunk.parsers.html.content import select_content
from structchunk.parsers.html.encoding import decode_html
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
BARE = "BeautifulSoup(data, 'lxml') bare parse"


def corpus_pages(corpus: Path) -> list[tuple[str, bytes]]:
    files = sorted((corpus / "html").rglob("*.html"))
    if not files:
        sys.exit(f"no HTML files under {corpus / 'html'}")
    return [(str(p), p.read_bytes()) for p in files]


def bare_parse(pages: list[tuple[str, bytes]]) -> Callable[[], None]:
    def run() -> None:
        for _, data in pages:
            BeautifulSoup(data, "lxml")

    return run


def stages_to(pages: list[tuple[str, bytes]], last: str) -> Callable[[], None]:
    """Our own stages, cumulatively, up to `last`: decode, soup, content, document (the
    whole parser: the section tree, before packing)."""
    settings = ParseSettings()

    def run() -> None:
        for source, data in pages:
            if last == "document":
                html_parser.parse(data, source, settings)
                continue
            text = decode_html(data)
            if last == "decode":
                continue
            soup = BeautifulSoup(text, "lxml")
            if last == "content":
                select_content(soup)

    return run


def end_to_end(pages: list[tuple[str, bytes]], options: ChunkOptions) -> Callable[[], None]:
    def run() -> None:
        sink = io.StringIO()
        for source, data in pages:
            for chunk in iter_chunks_from_bytes(data, source, "html", options):
                sink.write(to_json_line(chunk))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument(
        "--stages",
        action="store_true",
        help="also time our stages cumulatively (decode, soup, content, parse)",
    )
    args = parser.parse_args()
    pages = corpus_pages(args.corpus)
    megabytes = sum(len(data) for _, data in pages) / 1e6
    options = ChunkOptions(max_tokens=args.max_tokens)
    cases = {BARE: bare_parse(pages)}
    if args.stages:
        for stage in ("decode", "soup", "content", "document"):
            cases[f"structchunk up to {stage}"] = stages_to(pages, stage)
    cases["structchunk end to end (words)"] = end_to_end(pages, options)
    seconds = measure(cases, args.runs)
    print(
        f"{len(pages)} HTML pages, {megabytes:.2f} MB, median of {args.runs} runs, "
        f"max_tokens={args.max_tokens}\n"
    )
    print_speed_table(seconds, BARE, megabytes)


if __name__ == "__main__":
    main()
