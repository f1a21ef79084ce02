"""Peak memory of one large document, beside the same text as many files.

    python benchmarks/memory.py [--corpus ../shared/corpus] [--copies 1,5] [--html-mb 50]
                                [--pdf-pages 500,1000] [--scan-pages 20,100 --scan-dpi 150]

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

A second table does the same for long PDFs, made by joining the corpus's US government
reports until they reach `--pdf-pages` pages: peak above a one-page-deep idle (the
bundled sample PDF), its cost per page, and when `iter_chunks` yields its first chunk
beside its last (a PDF's headings and running headers are decided over all its pages,
so the first chunk comes after the reading: docs/pdf.md, "Speed and memory").

A third table (`--scan-pages`, off by default: OCR takes seconds a page) makes the joined
reports image-only — each page rendered at `--scan-dpi` in grey, as a scanner would —
and converts them with OCR: the peak should not grow with the pages, since each page is
rendered, read and let go in turn.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def convert(inputs: list[Path], out: Path, *options: str) -> tuple[float, float]:
    """Peak RSS (MB) and wall seconds of one `structchunk convert` of `inputs`."""
    command = [sys.executable, "-m", "structchunk", "convert", *map(str, inputs)]
    command += ["-o", str(out), "-q", "--jobs", "1", *options]
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"convert failed: {' '.join(command)}")
    return usage.ru_maxrss / 1024, seconds


FIRST_CHUNK = """
import json, sys, time
import structchunk
start = time.perf_counter()
chunks = structchunk.iter_chunks(sys.argv[1], page_workers=1)
next(chunks)
first = time.perf_counter() - start
rest = sum(1 for _ in chunks)
print(json.dumps([first, time.perf_counter() - start, rest + 1]))
"""
"""Times `iter_chunks` to its first and its last chunk, in a fresh interpreter."""


def first_and_last_chunk(path: Path) -> tuple[float, float, int]:
    """Seconds to `iter_chunks`' first and last chunk of `path`, and the chunks."""
    result = subprocess.run(
        [sys.executable, "-c", FIRST_CHUNK, str(path)], capture_output=True, text=True, check=True
    )
    first, last, count = json.loads(result.stdout)
    return first, last, count


def joined_pdf(corpus: Path, pages: int, out: Path) -> int:
    """The corpus's US government reports joined, whole, until `pages`; the page count."""
    import pypdfium2

    reports = sorted((corpus / "pdf" / "usgov").glob("*.pdf"))
    if not reports:
        sys.exit(f"no PDFs under {corpus / 'pdf' / 'usgov'}")
    joined = pypdfium2.PdfDocument.new()
    while len(joined) < pages:
        for report in reports:
            joined.import_pages(pypdfium2.PdfDocument(report))
            if len(joined) >= pages:
                break
    count = len(joined)
    joined.save(out)
    return count


def pdf_rows(corpus: Path, sizes: list[int], folder: Path) -> None:
    """Print peak memory and first/last chunk times of PDFs of `sizes` pages."""
    idle, _ = convert([ROOT / "samples" / "rust-data-types.pdf"], folder / "idle-pdf.jsonl")
    print(
        "\n| PDF | pages | MB | peak RSS MB | above idle | MB a page | first chunk s | "
        "last chunk s | chunks |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for wanted in sizes:
        path = folder / f"joined-{wanted}.pdf"
        pages = joined_pdf(corpus, wanted, path)
        peak, _ = convert([path], folder / f"joined-{wanted}-pdf.jsonl")
        first, last, count = first_and_last_chunk(path)
        above = peak - idle
        print(
            f"| usgov reports joined | {pages} | {path.stat().st_size / 1e6:.1f} | {peak:.0f} | "
            f"{above:.0f} | {above / pages:.2f} | {first:.1f} | {last:.1f} | {count} |"
        )
        path.unlink()


def scanned_pdf(source: Path, pages: int, dpi: int, out: Path) -> int:
    """The first `pages` pages of `source` as an image-only PDF (grey, `dpi`)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(source)
    count = min(pages, len(document))
    images = [
        document[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        for index in range(count)
    ]
    document.close()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return count


def scan_rows(corpus: Path, sizes: list[int], dpi: int, folder: Path) -> None:
    """Print peak memory and time of OCRing scans of `sizes` pages."""
    idle, _ = convert([ROOT / "samples" / "rust-data-types.pdf"], folder / "idle-pdf.jsonl")
    print(
        f"\n| scan ({dpi} dpi, grey) | pages | MB | peak RSS MB | above idle | seconds | s a page |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    source = folder / "joined-scan-source.pdf"
    joined_pdf(corpus, max(sizes), source)
    for wanted in sizes:
        path = folder / f"scan-{wanted}.pdf"
        pages = scanned_pdf(source, wanted, dpi, path)
        peak, seconds = convert([path], folder / f"scan-{wanted}.jsonl", "--ocr-dpi", str(dpi))
        print(
            f"| usgov reports scanned | {pages} | {path.stat().st_size / 1e6:.1f} | {peak:.0f} | "
            f"{peak - idle:.0f} | {seconds:.0f} | {seconds / pages:.1f} |"
        )
        path.unlink()


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
    parser.add_argument(
        "--pdf-pages", default="500,1000", help="comma list of joined PDF sizes; 0: none"
    )
    parser.add_argument(
        "--scan-pages", default="0", help="comma list of scanned PDF sizes (OCR); 0: none"
    )
    parser.add_argument("--scan-dpi", type=int, default=150, help="resolution of the scans")
    parser.add_argument("--scans-only", action="store_true", help="only the scan table")
    args = parser.parse_args()
    scans = [int(size) for size in args.scan_pages.split(",") if int(size)]
    if args.scans_only:
        with tempfile.TemporaryDirectory() as tmp:
            scan_rows(args.corpus, scans, args.scan_dpi, Path(tmp))
        return
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
    sizes = [int(size) for size in args.pdf_pages.split(",") if int(size)]
    if sizes:
        with tempfile.TemporaryDirectory() as tmp:
            pdf_rows(args.corpus, sizes, Path(tmp))
    if scans:
        with tempfile.TemporaryDirectory() as tmp:
            scan_rows(args.corpus, scans, args.scan_dpi, Path(tmp))


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
