"""A large sheet end to end: time and peak memory to parse, and to chunk, 100 000 rows.

    python benchmarks/xlsx_large.py [--rows 100000] [--columns 8] [--max-tokens 256]

The workbook is written with openpyxl's write-only mode (streamed, as a data export
would be): a header row, then rows of an id, a name, a date, an amount with cents, a
percentage, a category and two free-text columns. Each stage is measured in a fresh
Python process, so its peak resident memory (`ru_maxrss`) is its own: the baseline
(imports only), parsing to the section tree, and the full conversion to JSONL records.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_workbook(path: Path, rows: int, columns: int) -> None:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Orders")
    names = ["id", "customer", "date", "amount", "discount", "category", "note", "region"]
    sheet.append(names[:columns])
    percent = WriteOnlyCell(sheet, value=0)
    percent.number_format = "0%"
    start = dt.date(2020, 1, 1)
    for i in range(1, rows + 1):
        percent = WriteOnlyCell(sheet, value=(i % 20) / 100)
        percent.number_format = "0%"
        values: list[object] = [
            i,
            f"Customer {i % 997}",
            start + dt.timedelta(days=i % 1500),
            round(i * 1.37 % 5000, 2),
            percent,
            ["hardware", "software", "services", "training"][i % 4],
            f"order {i} shipped by courier",
            ["north", "south", "east", "west"][i % 4],
        ]
        sheet.append(values[:columns])
    book.save(path)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def cpu_s() -> float:
    """CPU seconds of this process: steadier than wall time on a shared machine."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(stage: str, path: str, max_tokens: int) -> None:
    """One stage in this process; prints its measurements as JSON."""
    from structchunk import ChunkOptions
    from structchunk.api import chunks_of_document, parse_document
    from structchunk.parsers import get_parser

    get_parser("xlsx")  # imports openpyxl, as the other stages do
    data = Path(path).read_bytes()
    options = ChunkOptions(max_tokens=max_tokens)
    start, cpu = time.perf_counter(), cpu_s()
    result: dict[str, object] = {"stage": stage}
    if stage in ("parse", "convert"):
        document = parse_document(data, path, "xlsx", options)
        result["parse_s"] = round(time.perf_counter() - start, 2)
        result["parse_cpu_s"] = round(cpu_s() - cpu, 2)
        result["parse_peak_mb"] = round(peak_mb(), 1)
        tables = [b for s in document.sections() for b in s.blocks]
        result["body_rows"] = sum(len(getattr(b, "rows", [])) for b in tables)
    if stage == "convert":
        chunks = 0
        with open(Path(path).with_suffix(".jsonl"), "w", encoding="utf-8") as out:
            for chunk in chunks_of_document(document, data, path, options):
                out.write(chunk.model_dump_json() + "\n")
                chunks += 1
        result["chunks"] = chunks
    result["total_s"] = round(time.perf_counter() - start, 2)
    result["total_cpu_s"] = round(cpu_s() - cpu, 2)
    result["peak_mb"] = round(peak_mb(), 1)
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--columns", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--child", nargs=2, metavar=("STAGE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.max_tokens)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "large.xlsx"
        start = time.perf_counter()
        write_workbook(path, args.rows, args.columns)
        size = path.stat().st_size
        print(
            f"wrote {args.rows:,} rows × {args.columns} columns: {size / 1e6:.1f} MB "
            f"in {time.perf_counter() - start:.1f} s"
        )
        for stage in ("baseline", "parse", "convert"):
            run = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    stage,
                    str(path),
                    "--max-tokens",
                    str(args.max_tokens),
                ],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            )
            print(run.stdout.strip())


if __name__ == "__main__":
    main()
