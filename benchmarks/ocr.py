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

Then structchunk end to end (`--structchunk`, Tesseract only): whole corpus documents
made image-only PDFs (each page rendered at the dpi, wrapped by Pillow's PDF writer) and
converted with `ocr="auto"`, against the born-digital file's conversion: word recall of
the pages' words as read (`Document.read`), heading F1 (section titles, compared by their
letters and digits), pages/s of the whole conversion.

    python benchmarks/ocr.py [--corpus ../shared/corpus ($STRUCTCHUNK_CORPUS)]
        [--dpi 150 300] [--engines tesseract rapidocr] [--structchunk] [--skip-engines]

Needs `tesseract` (Debian: `apt-get install tesseract-ocr`), pytesseract and
rapidocr-onnxruntime.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
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

_EDGE = re.compile(r"^\W+|\W+$")


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


def _key(word: str) -> str:
    return _EDGE.sub("", word)


def recall(truth: list[Token], read: list[Token]) -> tuple[int, int]:
    want = Counter(k for k in (_key(t[2]) for t in truth) if k)
    got = Counter(k for k in (_key(t[2]) for t in read) if k)
    return sum((want & got).values()), sum(want.values())


def edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


DOCUMENTS = (
    "pdf/rust-book/ch01-01-installation.pdf",
    "pdf/untagged/fastapi-tutorial-cors.pdf",
    "pdf/pypdf-samples/pdflatex-outline.pdf",
    "pdf/awsdocs/volume_limits.pdf",
    "pdf/pdfplumber/word365_structure.pdf",
)
"""Documents with headings: a tagged Chrome print, an untagged one, LaTeX, a tagged AWS
page, Word 365."""


def scanned(data: bytes, dpi: int) -> bytes:
    """`data`'s pages rendered at `dpi`, as an image-only PDF of the same page size."""
    document = pypdfium2.PdfDocument(data)
    images = [page.render(scale=dpi / 72).to_pil().convert("RGB") for page in document]
    document.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out.getvalue()


def _titles(document: Any) -> set[str]:
    return {
        re.sub(r"\W+", "", section.title).lower()
        for section in document.sections()
        if section.level and section.title
    }


def structchunk_rows(corpus: Path, dpis: list[int]) -> None:
    """structchunk on scans of whole documents against its born-digital reading."""
    from structchunk.parsers import ParseSettings
    from structchunk.parsers.pdf import parse

    print("\n| document | dpi | word recall | heading F1 | pages/s |\n|---|---|---|---|---|")
    for dpi in dpis:
        sums = [0, 0, 0, 0, 0, 0.0, 0]
        for path in DOCUMENTS:
            data = (corpus / path).read_bytes()
            born = parse(data, path, ParseSettings())
            scan = scanned(data, dpi)
            start = time.perf_counter()
            read = parse(scan, path, ParseSettings(ocr_dpi=dpi))
            seconds = time.perf_counter() - start
            truth = [(0.0, 0.0, w) for page in born.read for w in page.words.split()]
            found, wanted = recall(
                truth, [(0.0, 0.0, w) for p in read.read for w in p.words.split()]
            )
            want, got = _titles(born), _titles(read)
            hits = len(want & got)
            f1 = 2 * hits / (len(want) + len(got)) if want or got else 1.0
            pages = len(born.read)
            for k, value in enumerate((found, wanted, hits, len(want), len(got), seconds, pages)):
                sums[k] += value
            print(
                f"| {path.removeprefix('pdf/')} | {dpi} | {found / max(wanted, 1):.3f} | "
                f"{f1:.2f} | {pages / seconds:.2f} |",
                flush=True,
            )
        found, wanted, hits, want_n, got_n, seconds, pages = sums
        print(
            f"| **all** | {dpi} | {found / wanted:.3f} | {2 * hits / (want_n + got_n):.2f} | "
            f"{pages / seconds:.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("STRUCTCHUNK_CORPUS", ""))
    parser.add_argument("--dpi", type=int, nargs="+", default=[150, 300])
    parser.add_argument("--engines", nargs="+", default=list(ENGINES))
    parser.add_argument("--structchunk", action="store_true", help="structchunk end to end")
    parser.add_argument("--skip-engines", action="store_true", help="no engine table")
    args = parser.parse_args()
    corpus = Path(args.corpus or ROOT.parent / "shared" / "corpus")
    if not args.skip_engines:
        engine_rows(corpus, args.dpi, args.engines)
    if args.structchunk:
        structchunk_rows(corpus, args.dpi)


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
                errors = edit_distance(truth_text, " ".join(_ordered(read)))
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
    for name, dpi, word_recall, cer, speed in rows:
        print(f"| {name} | {dpi} | {word_recall:.3f} | {cer:.3f} | {speed:.2f} |")


if __name__ == "__main__":
    main()
