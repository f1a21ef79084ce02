"""PDF speed and memory: the whole pipeline against bare pdfplumber, in the same run.

Three measurements (see docs/pdf.md for the numbers):

1. **Throughput.** For each PDF, bare pdfplumber (`extract_text()` on every page, each
   page closed) and the whole structchunk pipeline (parse + pack into chunks), timed in
   this process, alternating, median of `--runs`; reported as pages/s and as the ratio
   pipeline / bare (target ≤ 1.3).
2. **Peak RSS** of a fresh process running the pipeline on the largest PDF (by pages),
   next to a fresh process running bare pdfplumber on it (target < 400 MB for 200 pages).
3. **Parallel reading** of a 100+ page PDF with 1 and `--jobs` processes: wall time,
   speed-up (target ≥ 1.7× on 2 cores) and whether the chunks are byte-identical.

    python benchmarks/pdf_throughput.py [--corpus ../shared/corpus] [--runs 3] [--jobs 2]
        [--files a.pdf b.pdf] [--skip-rss] [--skip-jobs] [--json out.json]
        [--engine pdfium|pdfplumber]

The pipeline reads with the default engine (PDFium) unless `--engine` says otherwise;
benchmarks/pdf_engines.py sets the engines side by side.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pdfplumber

from structchunk.api import iter_chunks_from_bytes
from structchunk.options import DEFAULT_PDF_ENGINE, ChunkOptions, PdfEngine
from structchunk.packing import Packer
from structchunk.parsers import ParseSettings
from structchunk.parsers import pdf as pdf_parser
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILES = (
    "pdf/usgov/NARA2022.pdf",
    "pdf/usgov/DHS2020.pdf",
    "pdf/pdfplumber/federal-register-2020-17221.pdf",
    "pdf/awsdocs/WorkingWithItems.pdf",
    "pdf/fastapi/deployment-concepts.pdf",
    "pdf/rust-book/ch03-02-data-types.pdf",
    "pdf/untagged/readability-v8-blog.pdf",
    "pdf/pypdf-samples/multicolumn.pdf",
)
"""A spread of kinds: reports with bookmarks, a three-column register, tagged and untagged
browser prints, LaTeX (2.3 MB, 162 pages in all)."""
JOBS_FILE = "pdf/usgov/HHS2022.pdf"
"""The largest corpus PDF (160 pages): used for peak RSS and the parallel speed-up."""


def bare(data: bytes) -> int:
    """pdfplumber alone: every page's `extract_text()`, each page closed after use."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            page.extract_text()
            page.close()
        return len(pdf.pages)


ENGINE: dict[str, PdfEngine] = {"name": DEFAULT_PDF_ENGINE}
"""The engine the pipeline reads with (`--engine`)."""


def pipeline(data: bytes, source: str) -> list[str]:
    """The whole structchunk pipeline (parse, pack, records) as JSONL lines."""
    options = ChunkOptions(max_tokens=200, pdf_engine=ENGINE["name"])
    return [to_json_line(c) for c in iter_chunks_from_bytes(data, source, "pdf", options)]


def chunks_with_jobs(data: bytes, source: str, jobs: int) -> list[tuple[Any, ...]]:
    """Parse with `jobs` processes and pack: (text, heading path, pages) per chunk."""
    options = ChunkOptions(max_tokens=200, pdf_engine=ENGINE["name"])
    settings = ParseSettings(page_workers=jobs, pdf_engine=ENGINE["name"])
    document = pdf_parser.parse(data, source, settings)
    return [(p.text, p.heading_path, p.prov.pages) for p in Packer(options).pack(document)]


def _timed(fn: Any, *args: Any) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def throughput(corpus: Path, files: list[str], runs: int) -> list[dict[str, Any]]:
    rows = []
    for name in files:
        path = corpus / name
        data = path.read_bytes()
        pages = bare(data)  # warm-up (imports, font caches)
        pipeline(data, str(path))
        times_bare, times_pipe = [], []
        for _ in range(runs):
            times_bare.append(_timed(bare, data))
            times_pipe.append(_timed(pipeline, data, str(path)))
        b, p = statistics.median(times_bare), statistics.median(times_pipe)
        rows.append(
            {
                "file": name,
                "pages": pages,
                "bare_s": b,
                "pipeline_s": p,
                "bare_pages_s": pages / b,
                "pipeline_pages_s": pages / p,
                "ratio": p / b,
            }
        )
        print(
            f"  {name}: {pages} pages, bare {b:.2f}s, pipeline {p:.2f}s, ratio {p / b:.2f}",
            file=sys.stderr,
        )
    return rows


_RSS_CHILD = """
import resource, sys
from pathlib import Path
sys.path.insert(0, {bench!r})
import pdf_throughput as t
t.ENGINE["name"] = {engine!r}
data = Path({path!r}).read_bytes()
t.{fn}(data{extra})
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss(path: Path, fn: str) -> float:
    """Peak RSS (MB) of a fresh Python process running `fn` on the file."""
    extra = f", {str(path)!r}" if fn == "pipeline" else ""
    code = _RSS_CHILD.format(
        bench=str(Path(__file__).parent), path=str(path), fn=fn, extra=extra, engine=ENGINE["name"]
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def parallel(path: Path, jobs: int) -> dict[str, Any]:
    data = path.read_bytes()
    start = time.perf_counter()
    one = chunks_with_jobs(data, str(path), 1)
    single = time.perf_counter() - start
    start = time.perf_counter()
    many = chunks_with_jobs(data, str(path), jobs)
    multi = time.perf_counter() - start
    return {
        "file": path.name,
        "jobs": jobs,
        "one_s": single,
        "many_s": multi,
        "speedup": single / multi,
        "identical": many == one,
        "chunks": len(one),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--files", nargs="*", default=list(DEFAULT_FILES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-rss", action="store_true")
    parser.add_argument("--skip-jobs", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--engine", choices=["pdfium", "pdfplumber"], default=DEFAULT_PDF_ENGINE)
    args = parser.parse_args()
    ENGINE["name"] = args.engine
    logging.disable(logging.WARNING)
    result: dict[str, Any] = {"throughput": throughput(args.corpus, args.files, args.runs)}
    rows = result["throughput"]
    pages = sum(r["pages"] for r in rows)
    bare_s, pipe_s = sum(r["bare_s"] for r in rows), sum(r["pipeline_s"] for r in rows)
    print("| file | pages | bare pages/s | pipeline pages/s | pipeline / bare |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['file']} | {r['pages']} | {r['bare_pages_s']:.1f} | "
            f"{r['pipeline_pages_s']:.1f} | {r['ratio']:.2f} |"
        )
    print(
        f"| **all** | {pages} | {pages / bare_s:.1f} | {pages / pipe_s:.1f} | "
        f"{pipe_s / bare_s:.2f} |"
    )
    big = args.corpus / JOBS_FILE
    if not args.skip_rss:
        result["rss"] = {
            "file": JOBS_FILE,
            "pipeline_mb": peak_rss(big, "pipeline"),
            "bare_mb": peak_rss(big, "bare"),
        }
        print(
            f"\nPeak RSS on {JOBS_FILE}: pipeline {result['rss']['pipeline_mb']:.0f} MB, "
            f"bare pdfplumber {result['rss']['bare_mb']:.0f} MB"
        )
    if not args.skip_jobs:
        result["jobs"] = parallel(big, args.jobs)
        j = result["jobs"]
        print(
            f"\nParallel on {JOBS_FILE}: 1 process {j['one_s']:.1f}s, {j['jobs']} processes "
            f"{j['many_s']:.1f}s, speed-up {j['speedup']:.2f}x, identical: {j['identical']}"
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
