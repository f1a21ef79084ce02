"""DOCX throughput beside python-docx's bare load, on the test corpus or given files.

    python benchmarks/docx_throughput.py [FILE.docx ...] [--runs 5]

Rows are measured in one process, interleaved round by round (CPU time of this process).
"python-docx load" is `docx.Document(stream)`, where a pipeline built on python-docx
starts (it parses every part, before any text is read); "section tree" is our parser
(zip checks, styles, numbering, notes, the streamed body); "end to end" adds packing
and JSONL lines (to memory). MB are those of the main document XML, unpacked: a DOCX
file's own size is mostly images and fonts, which neither reader decodes.
"""

from __future__ import annotations

import argparse
import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
from timing import measure, print_speed_table

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import StructChunkError
from structchunk.parsers import ParseSettings
from structchunk.parsers import docx as docx_parser
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
BARE = "python-docx load"

Files = list[tuple[str, bytes]]


def main_xml_megabytes(files: Files) -> float:
    total = 0
    for _, data in files:
        archive = zipfile.ZipFile(io.BytesIO(data))
        total += sum(i.file_size for i in archive.infolist() if i.filename.endswith("document.xml"))
    return total / 1e6


def readable(source: str, data: bytes, with_python_docx: bool) -> bool:
    """Whether both readers open the file (the corpus holds hostile files that must fail,
    and python-docx cannot open Strict documents)."""
    try:
        docx_parser.parse(data, source, ParseSettings())
        if with_python_docx:
            docx.Document(io.BytesIO(data))
    except (StructChunkError, ValueError, KeyError, zipfile.BadZipFile):
        return False
    return True


def bare_load(files: Files) -> Callable[[], None]:
    def run() -> None:
        for _, data in files:
            docx.Document(io.BytesIO(data))

    return run


def section_tree(files: Files) -> Callable[[], None]:
    settings = ParseSettings()

    def run() -> None:
        for source, data in files:
            docx_parser.parse(data, source, settings)

    return run


def end_to_end(files: Files, options: ChunkOptions) -> Callable[[], None]:
    def run() -> None:
        sink = io.StringIO()
        for source, data in files:
            for chunk in iter_chunks_from_bytes(data, source, "docx", options):
                sink.write(to_json_line(chunk))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--no-bare", action="store_true", help="skip python-docx (Strict files)")
    args = parser.parse_args()
    paths = args.files or sorted((ROOT / "tests" / "corpus" / "docx").rglob("*.docx"))
    files = [(str(p), p.read_bytes()) for p in paths]
    files = [(s, d) for s, d in files if readable(s, d, with_python_docx=not args.no_bare)]
    megabytes = main_xml_megabytes(files)
    cases = {} if args.no_bare else {BARE: bare_load(files)}
    cases["structchunk section tree"] = section_tree(files)
    cases["structchunk end to end (words)"] = end_to_end(
        files, ChunkOptions(max_tokens=args.max_tokens)
    )
    seconds = measure(cases, args.runs)
    print(
        f"{len(files)} DOCX files, {sum(len(d) for _, d in files) / 1e6:.2f} MB on disk, "
        f"{megabytes:.2f} MB of main document XML, median of {args.runs} runs\n"
    )
    print_speed_table(seconds, BARE if BARE in cases else next(iter(cases)), megabytes)


if __name__ == "__main__":
    main()
