"""What parent records cost: end-to-end throughput with `--parents` beside without.

    python benchmarks/parents_throughput.py [--corpus ../shared/corpus] [--runs 5]

Both cases run in this process, interleaved round by round (timing.py), on the corpus
Markdown, HTML and text files: read bytes → parse → pack (→ parents) → JSONL lines to
memory, as `structchunk convert` does per file minus disk writes. The issue's bar: with
parents on, within 15 % of parents off.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from pathlib import Path

from timing import measure

from structchunk import ChunkOptions
from structchunk.api import iter_records_from_bytes
from structchunk.parsers import detect_format
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("markdown", "html", "text")


def corpus_files(corpus: Path, folder: str) -> list[tuple[str, str, bytes]]:
    files = sorted(p for p in (corpus / folder).rglob("*") if p.is_file())
    found = []
    for path in files:
        try:
            found.append((str(path), detect_format(path.name), path.read_bytes()))
        except Exception:  # not a supported extension (a licence file): not timed
            continue
    return found


def end_to_end(docs: list[tuple[str, str, bytes]], options: ChunkOptions) -> Callable[[], None]:
    def run() -> None:
        sink = io.StringIO()
        for source, fmt, data in docs:
            for record in iter_records_from_bytes(data, source, fmt, options):
                sink.write(to_json_line(record))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=256)
    args = parser.parse_args()
    print(f"median CPU seconds of {args.runs} runs, max_tokens={args.max_tokens}\n")
    print("| files | MB | parents off (s) | parents on (s) | on ÷ off |")
    print("|---|---:|---:|---:|---:|")
    for folder in FOLDERS:
        docs = corpus_files(args.corpus, folder)
        if not docs:
            sys.exit(f"no files under {args.corpus / folder}")
        off = ChunkOptions(max_tokens=args.max_tokens)
        on = off.model_copy(update={"parents": True})
        seconds = measure({"off": end_to_end(docs, off), "on": end_to_end(docs, on)}, args.runs)
        megabytes = sum(len(data) for _, _, data in docs) / 1e6
        print(
            f"| {folder} ({len(docs)}) | {megabytes:.2f} | {seconds['off']:.3f} | "
            f"{seconds['on']:.3f} | {seconds['on'] / seconds['off']:.3f} |"
        )


if __name__ == "__main__":
    main()
