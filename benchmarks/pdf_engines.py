"""The two PDF engines side by side: floors, structchunk under each, peak memory.

Four measurements per file, interleaved in one process (each round times all four on
each file in turn, so a busy machine slows them alike; the median round counts), as
pages per second of CPU time on one core:

- `pdfium chars`: the floor of the PDFium engine — every page's characters through
  pypdfium2 with their box, font size, font name and weight (`FPDFText_*` per character);
- `plumber chars`: the floor of the pdfplumber engine — every page's `page.chars`;
- `structchunk pdfium` / `structchunk pdfplumber`: the whole pipeline (parse, pack, JSONL
  records) with `ChunkOptions(pdf_engine=…)`, one process.

Then the peak RSS of a fresh process converting the largest corpus PDF under each engine.

    python benchmarks/pdf_engines.py [--corpus ../shared/corpus ($STRUCTCHUNK_CORPUS)] [--runs 3]
        [--files a.pdf b.pdf] [--skip-rss] [--json out.json]
"""

from __future__ import annotations

import argparse
import ctypes
import io
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pypdfium2.raw as pdfium_c
from pdf_throughput import DEFAULT_FILES as THROUGHPUT_FILES

from structchunk.api import iter_chunks_from_bytes
from structchunk.options import ChunkOptions
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILES = (*THROUGHPUT_FILES, "pdf/sec-10q/2023-Q1-AAPL.pdf")
"""benchmarks/pdf_throughput.py's spread (agency reports, a three-column register, tagged
and untagged browser prints, LaTeX) and a tagged filing full of financial tables."""
RSS_FILE = "pdf/sec-10q/2023-Q1-MSFT.pdf"
"""The largest corpus PDF by size (7.6 MB, 72 tagged pages)."""
MEASURES = ("pdfium chars", "plumber chars", "structchunk pdfium", "structchunk pdfplumber")


def pdfium_chars(data: bytes) -> int:
    """Every character of every page with its box, font size, name and weight."""
    document = pypdfium2.PdfDocument(data)
    rect = pdfium_c.FS_RECTF()
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            for char in range(textpage.count_chars()):
                pdfium_c.FPDFText_GetUnicode(textpage, char)
                pdfium_c.FPDFText_GetLooseCharBox(textpage, char, rect)
                pdfium_c.FPDFText_GetFontSize(textpage, char)
                pdfium_c.FPDFText_GetFontInfo(textpage, char, name, 256, flags)
                pdfium_c.FPDFText_GetFontWeight(textpage, char)
            textpage.close()
            page.close()
        return len(document)
    finally:
        document.close()


def plumber_chars(data: bytes) -> int:
    """Every page's `chars`, each page closed after use."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            _ = page.chars
            page.close()
        return len(pdf.pages)


def pipeline(data: bytes, source: str, engine: str) -> int:
    """The whole structchunk pipeline (parse, pack, records); the number of records."""
    options = ChunkOptions(max_tokens=200, pdf_engine=engine)  # type: ignore[arg-type]
    chunks = iter_chunks_from_bytes(data, source, "pdf", options)
    return len([to_json_line(chunk) for chunk in chunks])


def _measures(data: bytes, source: str) -> dict[str, Callable[[], object]]:
    return {
        "pdfium chars": lambda: pdfium_chars(data),
        "plumber chars": lambda: plumber_chars(data),
        "structchunk pdfium": lambda: pipeline(data, source, "pdfium"),
        "structchunk pdfplumber": lambda: pipeline(data, source, "pdfplumber"),
    }


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def throughput(corpus: Path, files: list[str], runs: int) -> dict[str, Any]:
    """CPU seconds per measure and file, the median of `runs` interleaved rounds."""
    inputs = []
    for name in files:
        data = (corpus / name).read_bytes()
        pages = pdfium_chars(data)
        for fn in _measures(data, name).values():  # warm-up: imports, font caches
            fn()
        inputs.append((name, pages, _measures(data, name)))
    seconds: dict[str, dict[str, list[float]]] = {name: {m: [] for m in MEASURES} for name in files}
    for round_ in range(runs):
        for name, _, measures in inputs:
            order = MEASURES[round_ % 4 :] + MEASURES[: round_ % 4]
            for measure in order:
                seconds[name][measure].append(_cpu(measures[measure]))
        print(f"  round {round_ + 1}/{runs} done", file=sys.stderr)
    return {
        "pages": {name: pages for name, pages, _ in inputs},
        "seconds": {
            name: {m: statistics.median(times) for m, times in by_measure.items()}
            for name, by_measure in seconds.items()
        },
    }


_RSS_CHILD = """
import resource, sys
from pathlib import Path
sys.path.insert(0, {bench!r})
import pdf_engines
pdf_engines.pipeline(Path({path!r}).read_bytes(), {path!r}, {engine!r})
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss(path: Path, engine: str) -> float:
    """Peak RSS (MB) of a fresh Python process converting the file with `engine`."""
    code = _RSS_CHILD.format(bench=str(Path(__file__).parent), path=str(path), engine=engine)
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def table(result: dict[str, Any]) -> str:
    pages, seconds = result["pages"], result["seconds"]
    head = " | ".join(f"{m} pages/s" for m in MEASURES)
    rows = [
        f"| file | pages | {head} | pdfium / pdfplumber | pdfium / its floor |",
        "|---|---:|" + "---:|" * (len(MEASURES) + 2),
    ]

    def row(label: str, count: int, by_measure: dict[str, float]) -> str:
        rates = " | ".join(f"{count / by_measure[m]:.1f}" for m in MEASURES)
        speedup = by_measure["structchunk pdfplumber"] / by_measure["structchunk pdfium"]
        floor = by_measure["pdfium chars"] / by_measure["structchunk pdfium"]
        return f"| {label} | {count} | {rates} | {speedup:.2f}× | {floor:.2f} |"

    for name, by_measure in seconds.items():
        rows.append(row(name, pages[name], by_measure))
    total = {m: sum(s[m] for s in seconds.values()) for m in MEASURES}
    rows.append(row("**all**", sum(pages.values()), total))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--corpus",
        type=Path,
        default=Path(os.environ.get("STRUCTCHUNK_CORPUS") or ROOT.parent / "shared" / "corpus"),
    )
    parser.add_argument("--files", nargs="*", default=list(DEFAULT_FILES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-rss", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    result = throughput(args.corpus, args.files, args.runs)
    print(table(result))
    if not args.skip_rss:
        big = args.corpus / RSS_FILE
        result["rss"] = {engine: peak_rss(big, engine) for engine in ("pdfium", "pdfplumber")}
        print(
            f"\nPeak RSS converting {RSS_FILE}: pdfium {result['rss']['pdfium']:.0f} MB, "
            f"pdfplumber {result['rss']['pdfplumber']:.0f} MB"
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
