"""Batch throughput: --jobs 1 vs --jobs 2 on the corpus, peak memory, and a no-change rerun.

    python benchmarks/batch.py [--corpus ../shared/corpus] [--formats markdown,html,text,pdf]

Each configuration runs in a fresh Python process (as a CLI run would), converting every
corpus file of the chosen formats to `--out-dir` in a temporary folder; the rerun repeats
the --jobs 2 run over the same output folder, so the manifest skips every file.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS = {"markdown": ".md", "html": ".html", "text": ".txt", "pdf": ".pdf"}


def child(args: argparse.Namespace) -> None:
    """One batch run in this process; prints its measurements as JSON."""
    from structchunk import ChunkOptions
    from structchunk.batch import BatchConfig, run_batch
    from structchunk.batch.inputs import expand_inputs
    from structchunk.batch.memory import peak_rss_mb

    items, _ = expand_inputs(args.inputs, None)
    out = Path(args.out_dir)
    worker_peak = 0.0

    def progress(outcome: object, size: int) -> None:
        nonlocal worker_peak
        worker_peak = max(worker_peak, getattr(outcome, "peak_rss_mb", 0.0))

    start = time.perf_counter()
    report = run_batch(
        items,
        ChunkOptions(max_tokens=256),
        BatchConfig(out_dir=out, jobs=args.jobs, manifest=out / ".manifest.jsonl"),
        progress=progress,
    )
    seconds = time.perf_counter() - start
    size = sum(Path(i.path).stat().st_size for i in items)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "files": len(items),
                "bytes": size,
                "ok": report.ok,
                "failed": report.failed,
                "skipped": report.skipped,
                "parent_rss_mb": peak_rss_mb(),
                "worker_rss_mb": worker_peak,
            }
        )
    )


def run_child(inputs: list[str], out_dir: Path, jobs: int) -> dict[str, float]:
    command = [
        sys.executable,
        __file__,
        "--child",
        "--jobs",
        str(jobs),
        "--out-dir",
        str(out_dir),
        *inputs,
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--formats", default="markdown,html,text,pdf")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--out-dir", help=argparse.SUPPRESS)
    parser.add_argument("inputs", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    inputs = [
        str(args.corpus / fmt) for fmt in args.formats.split(",") if (args.corpus / fmt).is_dir()
    ]
    if not inputs:
        sys.exit(f"no corpus folders for {args.formats} under {args.corpus}")
    with tempfile.TemporaryDirectory() as scratch:
        one = run_child(inputs, Path(scratch) / "one", 1)
        two = run_child(inputs, Path(scratch) / "two", 2)
        rerun = run_child(inputs, Path(scratch) / "two", 2)
    megabytes = one["bytes"] / 1e6
    print(
        f"{int(one['files'])} files ({args.formats}), {megabytes:.1f} MB; "
        f"{int(one['failed'])} failed (robust errors, counted as done)\n"
    )
    print("| run | seconds | files/s | MB/s | speed-up | parent peak RSS MB | worker peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, row in (("--jobs 1", one), ("--jobs 2", two), ("rerun, nothing changed", rerun)):
        print(
            f"| {name} | {row['seconds']:.2f} | {row['files'] / row['seconds']:.1f} | "
            f"{megabytes / row['seconds']:.2f} | {one['seconds'] / row['seconds']:.2f}× | "
            f"{row['parent_rss_mb']:.0f} | {row['worker_rss_mb']:.0f} |"
        )
    print(
        f"\nno-change rerun: {100 * rerun['seconds'] / two['seconds']:.1f} % of the full "
        f"--jobs 2 run ({int(rerun['skipped'])} files skipped)"
    )


if __name__ == "__main__":
    main()
