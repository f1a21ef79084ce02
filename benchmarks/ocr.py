"""OCR engines on scanned pages whose truth is known: Tesseract beside RapidOCR.

The scanned set: pages of born-digital corpus PDFs from several producers, rendered with
PDFium at 150 and 300 dpi (the image an image-only PDF of the page holds, without a
round trip through a PDF writer). The truth is the page's text layer as pdfplumber reads
it. For each engine and dpi, over all pages:

- word recall: the share of the truth's words (case kept, punctuation stripped at the
  ends) the engine read, as multisets;
- CER: character edit distance / truth characters, both texts in the same order (words
  by line, then left to right, lines bucketed by half a line height), so reading order
  differences between engines count little;
- pages/s: OCR time only (the render is not counted), on this machine; Tesseract on one
  thread, as structchunk runs it.

RapidOCR's models ship in the rapidocr-onnxruntime wheel (nothing is downloaded); the
newer `rapidocr` package fetches its models at run time, so it is not compared.

Then structchunk end to end (`--structchunk`, Tesseract only): corpus documents with
headings from nine producers, two pages each (`--max-pages`), rendered grey at each dpi,
degraded (`ocr_scans.DEGRADATIONS`: clean, noise, skew, jpeg, all) and wrapped into
image-only PDFs, converted with `ocr="auto"` and scored against structchunk's reading of
the born-digital pages: word recall of the pages' words as read (`Document.read`), CER
over those words page by page in the order read, heading F1 (section titles by their
letters and digits, a title found matching a wanted one it spells within a fifth of
edits, `ocr_scans.f1_read`; "exact": letter for letter), pages/s of the whole
conversion. Unstructured's `partition_pdf(strategy="ocr_only")` reads the same files
under `--peers` conditions (in the peers' virtualenv, `ocr_unstructured.py`): its text
by page, its Title elements as headings, its time inside the process.

`--real-scans`: the real scans of `benchmarks/ocr-scans/` (licences in its README) read
by both, with recall where the page's text exists and the heading tree structchunk built.

    python benchmarks/ocr.py [--corpus ../shared/corpus ($STRUCTCHUNK_CORPUS)]
        [--dpi 150 300] [--engines tesseract rapidocr] [--skip-engines]
        [--structchunk [--conditions clean noise skew jpeg all] [--peers clean all]
        [--max-pages 2] [--holdout | --set main|holdout|wide]] [--real-scans] [--hocr-cache DIR]

`--holdout` (`--set holdout`) reads `HOLDOUT`, eight other documents of other
producers, instead of `DOCUMENTS`, to check that a rule tuned on one set holds on the
other, and `--set wide` twenty more of eleven producers neither has; `--hocr-cache`
keeps Tesseract's hOCR of each rendered page in a folder, so a rerun after a change past
the OCR takes seconds a page instead of Tesseract's seconds.

Needs `tesseract` (Debian: `apt-get install tesseract-ocr`), pytesseract and
rapidocr-onnxruntime; the peers need the shared bench's virtualenv, `.venvs/peers` beside
`shared/` (unstructured, pdf2image), and
poppler's pdftoppm (Debian: `apt-get install poppler-utils`), else they are left out.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
from ocr_scans import cut_pages, f1, f1_read, levenshtein, scanned, title_key, word_recall
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent

PAGES = (
    ("pdf/pypdf-samples/pdflatex-4-pages.pdf", 0),
    ("pdf/pypdf-samples/002-trivial-libre-office-writer.pdf", 0),
    ("pdf/pdfplumber/federal-register-2020-17221.pdf", 0),
    ("pdf/awsdocs/volume_limits.pdf", 0),
    ("pdf/readability/v8-blog.pdf", 1),
    ("pdf/sec-10q/2023-Q1-AAPL.pdf", 2),
    ("pdf/pdfplumber/word365_structure.pdf", 0),
)
"""LaTeX, LibreOffice Writer, a three-column register, Chrome prints (tagged and
untagged), a filing's financial tables (EO.Pdf), Word 365. (Not the iText agency reports
of usgov/: they print no spaces, so pdfplumber's words are no truth.)"""

Token = tuple[float, float, str]
"""(top, x0, text) of a word, in points from the page's top left."""


def truth_words(data: bytes, index: int) -> list[Token]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[index]
        return [(w["top"], w["x0"], w["text"]) for w in page.extract_words()]


def render(data: bytes, index: int, dpi: int) -> Image.Image:
    document = pypdfium2.PdfDocument(data)
    try:
        return document[index].render(scale=dpi / 72).to_pil().convert("RGB")  # type: ignore[no-any-return]
    finally:
        document.close()


def tesseract(image: Image.Image, scale: float) -> list[Token]:
    import pytesseract

    os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # as structchunk runs it
    data = pytesseract.image_to_data(image, output_type=pytesseract.Output.DICT)
    return [
        (data["top"][i] * scale, data["left"][i] * scale, text)
        for i, text in enumerate(data["text"])
        if text.strip()
    ]


_RAPID: list[Any] = []


def rapidocr(image: Image.Image, scale: float) -> list[Token]:
    import numpy
    from rapidocr_onnxruntime import RapidOCR

    if not _RAPID:
        _RAPID.append(RapidOCR())
    result, _ = _RAPID[0](numpy.asarray(image))
    tokens: list[Token] = []
    for box, text, _score in result or []:
        x0, top = min(p[0] for p in box), min(p[1] for p in box)
        x1 = max(p[0] for p in box)
        words = text.split()
        step = (x1 - x0) / max(len(words), 1)
        tokens += [(top * scale, (x0 + k * step) * scale, w) for k, w in enumerate(words)]
    return tokens


ENGINES: dict[str, Callable[[Image.Image, float], list[Token]]] = {
    "tesseract": tesseract,
    "rapidocr": rapidocr,
}


def _ordered(tokens: list[Token], line: float = 5.0) -> list[str]:
    return [t[2] for t in sorted(tokens, key=lambda t: (round(t[0] / line), t[1]))]


def recall(truth: list[Token], read: list[Token]) -> tuple[int, int]:
    return word_recall((t[2] for t in truth), (t[2] for t in read))


DOCUMENTS = (
    ("pdf/rust-book/ch01-01-installation.pdf", 0, "Chrome, tagged"),
    ("pdf/untagged/fastapi-tutorial-cors.pdf", 0, "Chrome, untagged"),
    ("pdf/awsdocs/volume_limits.pdf", 0, "Chrome, tables"),
    ("pdf/pypdf-samples/pdflatex-outline.pdf", 0, "pdfTeX, a contents page"),
    ("pdf/pdfplumber/word365_structure.pdf", 0, "Word 365"),
    ("pdf/usgov/ntsb-20080104X00020.pdf", 0, "Aspose.Words"),
    ("pdf/usgov/NARA2022.pdf", 3, "TopLeaf, iText"),
    ("pdf/usgov/2014-annual-performance-report.pdf", 10, "InDesign"),
    ("pdf/sec-10q/2023-Q1-AAPL.pdf", 3, "EDGAR, EO.Pdf: Part I, financial tables"),
)
"""Documents with headings from nine producers: (path, first page (0-based), producer),
each cut to `--max-pages` pages from its first."""

HOLDOUT = (
    ("pdf/pdfplumber/150109DSP-Milw-505-90D.pdf", 0, "Acrobat PDFMaker for Word"),
    ("pdf/pdfplumber/issue-33-lorem-ipsum.pdf", 0, "pdfTeX 1.40.16, LaTeX"),
    ("pdf/pypdf-samples/multicolumn.pdf", 0, "pdfTeX 1.40.21, two columns"),
    ("pdf/sec-10q/2022-Q3-NVDA.pdf", 2, "EDGAR, EO.Pdf: bold capitals"),
    ("pdf/sec-10q/2023-Q1-MSFT.pdf", 3, "KS PDF Engine (Chromium): statements"),
    ("pdf/readability/google-sre-book-1.pdf", 0, "Skia (Chrome print of a book)"),
    ("pdf/usgov/DOL2022.pdf", 4, "TopLeaf, iText: another agency"),
    ("pdf/pdfplumber/issue-71-duplicate-chars-2.pdf", 2, "InDesign CC, French"),
)
"""A held-out set (`--holdout`) of other documents and producers, to check that a rule
tuned on `DOCUMENTS` holds where it was not looked at."""

WIDE = (
    ("pdf/pdfplumber/2023-06-20-PV.pdf", 0, "Acrobat PDFMaker pour Word, French minutes"),
    ("pdf/pdfplumber/cupertino_usd_4-6-16.pdf", 0, "Quartz (Word for Mac): an agenda"),
    ("pdf/pdfplumber/issue-316-example.pdf", 0, "3B2, a journal's contents pages"),
    ("pdf/pdfplumber/issue-53-example.pdf", 0, "SkyPDF: statistics tables"),
    ("pdf/pdfplumber/issue-982-example.pdf", 0, "pdfTeX 1.40.12, a paper"),
    ("pdf/pdfplumber/chelsea_pdta.pdf", 0, "Quartz (PDFMaker pour Word): a report's cover"),
    ("pdf/pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf", 0, "Excel 2013: a list"),
    ("pdf/pdfplumber/pdffill-demo.pdf", 0, "PDFill"),
    ("pdf/pdfplumber/scotus-transcript-p1.pdf", 0, "Distiller: a transcript"),
    ("pdf/pdfplumber/test-punkt.pdf", 0, "Pages"),
    ("pdf/pypdf-samples/GeoTopo-komprimiert.pdf", 0, "3-Heights (LaTeX): a German book"),
    ("pdf/pypdf-samples/crazyones-pdfa.pdf", 0, "Ghostscript 10"),
    ("pdf/pypdf-samples/mistitled_outlines_example.pdf", 1, "pdfTeX: numbered sections"),
    ("pdf/pypdf-samples/libreoffice-form.pdf", 0, "LibreOffice: a form"),
    ("pdf/fastapi/deployment-concepts.pdf", 2, "Chrome, tagged, cut"),
    ("pdf/rust-book/ch03-02-data-types.pdf", 2, "Chrome: code and tables"),
    ("pdf/untagged/rust-book-ch14-02-publishing-to-crates-io.pdf", 0, "Chrome, untagged"),
    ("pdf/usgov/DHS2020.pdf", 18, "TopLeaf: numbered sections three deep"),
    ("pdf/usgov/EPA2022.pdf", 35, "TopLeaf: strategies"),
    ("pdf/usgov/GSA2022.pdf", 2, "TopLeaf: vision, mission"),
)
"""A wider held-out set (`--set wide`): producers neither set above has (Quartz, 3B2,
SkyPDF, Excel, Pages, Ghostscript, PDFill, Distiller) and more of those it has, chosen
by the headings their born-digital pages hold, before any scan of them was read."""

SETS = {"main": DOCUMENTS, "holdout": HOLDOUT, "wide": WIDE}

CONDITIONS = ("clean", "noise", "skew", "jpeg", "all")
PEERS = ROOT.parent / ".venvs" / "peers" / "bin" / "python"
"""The peers' virtualenv of the shared benchmark, where unstructured is installed."""


@dataclass
class Score:
    """Sums over documents for one reader under one condition."""

    found: int = 0
    wanted: int = 0
    errors: int = 0
    chars: int = 0
    hits: int = 0
    hits_read: int = 0
    titles_wanted: int = 0
    titles_found: int = 0
    seconds: float = 0.0
    pages: int = 0

    def add(
        self,
        truth: dict[int, str],
        read: dict[int, str],
        titles: tuple[set[str], set[str]],
        seconds: float,
    ) -> str:
        """Adds one document: words by page (1-based), headings wanted and found."""
        found, wanted = word_recall(
            " ".join(truth.values()).split(), " ".join(read.values()).split()
        )
        errors = sum(levenshtein(text, read.get(page, "")) for page, text in truth.items())
        chars = sum(len(text) for text in truth.values())
        hits, want, got = f1(*titles)
        hits_read = f1_read(*titles)[0]
        for name, value in zip(
            ("found", "wanted", "errors", "chars", "hits", "hits_read"),
            (found, wanted, errors, chars, hits, hits_read),
        ):
            setattr(self, name, getattr(self, name) + value)
        self.titles_wanted += want
        self.titles_found += got
        self.seconds += seconds
        self.pages += len(truth)
        return _cells(
            (found, wanted, errors, chars), (hits, hits_read, want, got), len(truth), seconds
        )

    def cells(self) -> str:
        return _cells(
            (self.found, self.wanted, self.errors, self.chars),
            (self.hits, self.hits_read, self.titles_wanted, self.titles_found),
            self.pages,
            self.seconds,
        )


def _cells(
    words: tuple[int, int, int, int], titles: tuple[int, int, int, int], pages: int, seconds: float
) -> str:
    """word recall | CER | heading F1 as read | heading F1 exact | pages/s"""
    found, wanted, errors, chars = words
    hits, hits_read, want, got = titles

    def score(hit: int) -> float:
        return 2 * hit / (want + got) if want + got else 1.0

    return (
        f"{found / max(wanted, 1):.3f} | {errors / max(chars, 1):.3f} | "
        f"{score(hits_read):.2f} | {score(hits):.2f} | {pages / max(seconds, 1e-9):.2f}"
    )


def _words(document: Any) -> dict[int, str]:
    return {page.page: " ".join(page.words.split()) for page in document.read}


def _titles(document: Any) -> set[str]:
    return {
        title_key(section.title)
        for section in document.sections()
        if section.level and section.title
    }


def unstructured(files: list[Path], dpi: int) -> dict[str, Any]:
    """Unstructured's ocr_only reading of `files`, by file name; {} when the peers'
    virtualenv is missing."""
    if not PEERS.exists():
        return {}
    script = Path(__file__).with_name("ocr_unstructured.py")
    env = dict(os.environ, OMP_THREAD_LIMIT="1", UNSTRUCTURED_DISABLE_NOTICE="1")
    run = subprocess.run(
        [str(PEERS), str(script), str(dpi), *map(str, files)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return {Path(line["file"]).name: line for line in map(json.loads, run.stdout.splitlines())}


def unstructured_reading(line: dict[str, Any]) -> tuple[dict[int, str], set[str]]:
    """Unstructured's words by page and its Title elements."""
    pages: dict[int, list[str]] = {}
    titles = set()
    for category, text, page in line["elements"]:
        pages.setdefault(page or 1, []).extend(text.split())
        if category == "Title":
            titles.add(title_key(text))
    return {page: " ".join(words) for page, words in pages.items()}, titles - {""}


def cache_hocr(folder: Path) -> None:
    """Tesseract's hOCR of each rendered page kept in `folder` by the image's digest, so
    a rerun after a change past the render reads the same words in seconds (the
    benchmark only; the package always runs Tesseract)."""
    import hashlib

    from structchunk.parsers.pdf.engines import ocr

    folder.mkdir(parents=True, exist_ok=True)
    run = ocr.recognise

    def cached(image: Any, language: str) -> bytes:
        digest = hashlib.sha256(image.tobytes() + f"{image.mode}{image.size}{language}".encode())
        path = folder / f"{digest.hexdigest()}.hocr"
        if path.exists():
            return path.read_bytes()
        hocr = run(image, language)
        path.write_bytes(hocr)
        return hocr

    ocr.recognise = cached


def structchunk_rows(
    corpus: Path,
    dpis: list[int],
    conditions: list[str],
    peers: list[str],
    max_pages: int,
    documents: tuple[tuple[str, int, str], ...] = DOCUMENTS,
    cached: bool = False,
) -> None:
    """structchunk (and Unstructured) on the scanned set against structchunk's reading of
    the born-digital pages."""
    from structchunk.errors import ParseError
    from structchunk.parsers import ParseSettings
    from structchunk.parsers.pdf import parse

    born = {}
    for path, first, _producer in documents:
        data = cut_pages((corpus / path).read_bytes(), first, max_pages)
        document = parse(data, path, ParseSettings())
        born[path] = (data, _words(document), _titles(document))
    rows = []
    for dpi in dpis:
        for condition in conditions:
            ours, theirs = Score(), Score()
            with tempfile.TemporaryDirectory() as folder:
                files = []
                for n, (path, _first, _producer) in enumerate(documents):
                    data, truth, titles = born[path]
                    scan = scanned(data, dpi, condition)
                    files.append(Path(folder) / f"{n}-{Path(path).name}")
                    files[-1].write_bytes(scan)
                    start = time.perf_counter()
                    try:
                        read = parse(scan, path, ParseSettings(ocr_dpi=dpi))
                        words, found = _words(read), _titles(read)
                    except ParseError as error:  # scored as nothing read, not a crash
                        print(f"  {condition} {dpi} structchunk {path}: {error}")
                        words, found = {}, set()
                    seconds = time.perf_counter() - start
                    line = ours.add(truth, words, (titles, found), seconds)
                    print(f"  {condition} {dpi} structchunk {path}: {line}", flush=True)
                    for title in sorted(titles - found):
                        print(f"      missed {title}")
                    for title in sorted(found - titles):
                        print(f"      extra  {title}")
                rows.append((condition, dpi, "structchunk", ours.cells()))
                if condition not in peers:
                    continue
                lines = unstructured(files, dpi)
                if not lines:
                    continue
                for file, (path, _first, _producer) in zip(files, documents):
                    _data, truth, titles = born[path]
                    read, found = unstructured_reading(lines[file.name])
                    line = theirs.add(truth, read, (titles, found), lines[file.name]["seconds"])
                    print(f"  {condition} {dpi} unstructured {path}: {line}", flush=True)
                rows.append((condition, dpi, "Unstructured ocr_only", theirs.cells()))
    pages = sum(len(truth) for _data, truth, _titles in born.values())
    print(f"\n{len(documents)} documents, {pages} pages")
    if cached:
        print("(structchunk's pages/s leave out Tesseract's time where its hOCR was cached)")
    print("| scan | dpi | reader | word recall | CER | heading F1 | exact | pages/s |")
    print("|---|---|---|---|---|---|---|---|")
    for condition, dpi, reader, cells in rows:
        print(f"| {condition} | {dpi} | {reader} | {cells} |")


REAL_SCANS = (
    ("linn.pdf", "linn.txt"),
    ("skew.pdf", "linn.txt"),
    ("c02-22.pdf", ""),
    ("epson.pdf", ""),
)
"""Real scans from OCRmyPDF's test resources (benchmarks/ocr-scans/, licences in its
README) and the text each is scored against, where one exists."""


def real_scan_rows(folder: Path) -> None:
    """structchunk and Unstructured on real scans: what each read, and recall where a
    text of the page exists."""
    from structchunk.parsers import ParseSettings
    from structchunk.parsers.pdf import parse

    lines = unstructured([folder / name for name, _truth in REAL_SCANS], 300)
    print("\n| scan | pages | confidence | words | recall | Unstructured words | recall |")
    print("|---|---|---|---|---|---|---|")
    for name, truth_name in REAL_SCANS:
        document = parse((folder / name).read_bytes(), name, ParseSettings())
        words = " ".join(page.words for page in document.read).split()
        theirs = [
            w for _c, text, _p in lines.get(name, {}).get("elements", []) for w in text.split()
        ]
        confidence = sum(document.ocr_pages.values()) / max(len(document.ocr_pages), 1)
        cells = [name, str(len(document.read)), f"{confidence:.0f}", str(len(words))]
        if truth_name:
            truth = (folder / truth_name).read_text(encoding="utf-8").split()
            for read in (words, theirs):
                found, wanted = word_recall(truth, read)
                cells.append(f"{found / wanted:.3f}")
            cells.insert(5, str(len(theirs)))
        else:
            cells += ["no truth", str(len(theirs)), "no truth"]
        print("| " + " | ".join(cells) + " |")
        for section in document.sections():
            if section.level and section.title:
                print(f"    {'  ' * section.level}{section.title}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("STRUCTCHUNK_CORPUS", ""))
    parser.add_argument("--dpi", type=int, nargs="+", default=[150, 300])
    parser.add_argument("--engines", nargs="+", default=list(ENGINES))
    parser.add_argument("--structchunk", action="store_true", help="structchunk end to end")
    parser.add_argument("--skip-engines", action="store_true", help="no engine table")
    parser.add_argument("--conditions", nargs="+", default=list(CONDITIONS))
    parser.add_argument(
        "--peers", nargs="*", default=["clean", "all"], help="conditions Unstructured reads"
    )
    parser.add_argument("--max-pages", type=int, default=2, help="pages per document")
    parser.add_argument("--real-scans", action="store_true", help="benchmarks/ocr-scans/")
    parser.add_argument("--holdout", action="store_true", help="the held-out documents")
    parser.add_argument(
        "--set", choices=sorted(SETS), default="", help="which documents (default main)"
    )
    parser.add_argument("--hocr-cache", default="", help="a folder keeping Tesseract's hOCR")
    args = parser.parse_args()
    corpus = Path(args.corpus or ROOT.parent / "shared" / "corpus")
    if args.hocr_cache:
        cache_hocr(Path(args.hocr_cache))
    if not args.skip_engines:
        engine_rows(corpus, args.dpi, args.engines)
    if args.structchunk:
        documents = SETS[args.set or ("holdout" if args.holdout else "main")]
        structchunk_rows(
            corpus,
            args.dpi,
            args.conditions,
            args.peers,
            args.max_pages,
            documents,
            cached=bool(args.hocr_cache),
        )
    if args.real_scans:
        real_scan_rows(Path(__file__).with_name("ocr-scans"))


def engine_rows(corpus: Path, dpis: list[int], engines: list[str]) -> None:
    """Each OCR engine on the rendered pages against their text layer."""
    rows = []
    for dpi in dpis:
        totals = {name: [0, 0, 0, 0, 0.0] for name in engines}
        for path, index in PAGES:
            data = (corpus / path).read_bytes()
            truth = truth_words(data, index)
            image = render(data, index, dpi)
            truth_text = " ".join(_ordered(truth))
            for name in engines:
                start = time.perf_counter()
                read = ENGINES[name](image, 72 / dpi)
                seconds = time.perf_counter() - start
                found, wanted = recall(truth, read)
                errors = levenshtein(truth_text, " ".join(_ordered(read)))
                total = totals[name]
                total[0] += found
                total[1] += wanted
                total[2] += errors
                total[3] += len(truth_text)
                total[4] += seconds
                print(
                    f"  {dpi} {name:9} {path}#{index + 1}: recall {found / max(wanted, 1):.3f} "
                    f"CER {errors / max(len(truth_text), 1):.3f} {seconds:.1f}s",
                    flush=True,
                )
        for name, (found, wanted, errors, chars, seconds) in totals.items():
            rows.append((name, dpi, found / wanted, errors / chars, len(PAGES) / seconds))
    print(f"\n{len(PAGES)} pages\n| engine | dpi | word recall | CER | pages/s |")
    print("|---|---|---|---|---|")
    for name, dpi, share, cer, speed in rows:
        print(f"| {name} | {dpi} | {share:.3f} | {cer:.3f} | {speed:.2f} |")


if __name__ == "__main__":
    main()
