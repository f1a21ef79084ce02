"""Peak memory of one large document, beside the same text as many files.

    python benchmarks/memory.py [--corpus ../shared/corpus] [--copies 1,5] [--html-mb 50]

Each row is one `structchunk convert` process (the CLI as users run it), its peak RSS
from the operating system (`ru_maxrss` of the finished child) and its wall time. The
inputs are made here: the corpus Markdown joined into one file (`copies` times over),
the largest of those with its non-ASCII characters left out (how wide Python holds the
text decides much of the peak), the same text as the corpus's many files, and an HTML
page of repeated paragraphs of `--html-mb` MB (as tests/test_html.py builds it).
"above idle" subtracts the peak of converting a small file of the same format that
loads every stage (the interpreter and the libraries: a paragraph over the budget, so
the sentence splitter loads too), and "× input" divides that by the input size: what
the document itself costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def convert(inputs: list[Path], out: Path) -> tuple[float, float]:
    """Peak RSS (MB) and wall seconds of one `structchunk convert` of `inputs`."""
    command = [sys.executable, "-m", "structchunk", "convert", *map(str, inputs)]
    command += ["-o", str(out), "-q", "--jobs", "1"]
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"convert failed: {' '.join(command)}")
    return usage.ru_maxrss / 1024, seconds


def corpus_markdown(corpus: Path) -> list[Path]:
    files = sorted((corpus / "markdown").rglob("*.md"))
    if not files:
        sys.exit(f"no Markdown files under {corpus / 'markdown'}")
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--copies", default="1,5", help="comma list: corpus copies in one file")
    parser.add_argument("--html-mb", type=int, default=50, help="0 leaves the HTML row out")
    args = parser.parse_args()
    files = corpus_markdown(args.corpus)
    joined = "\n\n".join(path.read_text(encoding="utf-8") for path in files) + "\n\n"
    rows: list[tuple[str, float, float, float, float]] = []
    long_paragraph = "Plenty of ordinary words in a sentence. " * 80
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        idle_markdown = folder / "idle.md"
        idle_markdown.write_text(f"# Idle\n\n{long_paragraph}\n")
        idle, _ = convert([idle_markdown], folder / "idle.jsonl")
        idle_html_page = folder / "idle.html"
        idle_html_page.write_text(f"<title>Idle</title><p>{long_paragraph}</p>")
        idle_html, _ = convert([idle_html_page], folder / "idle-html.jsonl")
        many_mb = sum(path.stat().st_size for path in files) / 1e6
        peak, seconds = convert(files, folder / "many.jsonl")
        rows.append((f"corpus Markdown as {len(files)} files", many_mb, peak, idle, seconds))
        for copies in (int(c) for c in args.copies.split(",")):
            big = folder / f"joined-{copies}.md"
            big.write_text(joined * copies, encoding="utf-8")
            size = big.stat().st_size / 1e6
            peak, seconds = convert([big], folder / f"joined-{copies}.jsonl")
            rows.append((f"corpus Markdown ×{copies} as one file", size, peak, idle, seconds))
            big.unlink()
        # The same text without its 4 518 non-ASCII characters: one emoji makes Python hold
        # every character of a string in 4 bytes, curly quotes in 2; ASCII takes 1.
        copies = max(int(c) for c in args.copies.split(","))
        plain = folder / "joined-ascii.md"
        plain.write_text(joined.encode("ascii", "ignore").decode("ascii") * copies)
        size = plain.stat().st_size / 1e6
        peak, seconds = convert([plain], folder / "joined-ascii.jsonl")
        rows.append((f"the same ×{copies}, ASCII only", size, peak, idle, seconds))
        if args.html_mb:
            paragraph = (
                "<div><p>" + "Plenty of ordinary words in a sentence. " * 20 + "</p></div>\n"
            )
            count = args.html_mb * 1_000_000 // len(paragraph) + 1
            page = folder / "huge.html"
            page.write_text("<title>Huge</title>" + paragraph * count)
            size = page.stat().st_size / 1e6
            peak, seconds = convert([page], folder / "huge.jsonl")
            rows.append((f"one {size:.0f} MB HTML page", size, peak, idle_html, seconds))
    print("peak RSS of one convert process; idle: a small file of the same format\n")
    print("| input | MB | peak RSS MB | idle MB | above idle | × input | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, size, peak, baseline, seconds in rows:
        above = peak - baseline
        print(
            f"| {name} | {size:.1f} | {peak:.0f} | {baseline:.0f} | {above:.0f} | "
            f"{above / size:.1f} | "
            f"{seconds:.1f} |"
        )


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
