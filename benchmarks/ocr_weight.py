"""How well the stroke weight measured on scans (engines/ocr_weight.py) tells bold lines.

For each document of `ocr.py`'s three sets (main, held-out, wide), at one dpi and
degradation: the page is scanned and OCRed as `ocr.py --structchunk` does, each OCR line
is weighed against the page's body (`line_weights` over `body_weight`), and labelled by
the born-digital words inside it: bold when 95% or more of their letters are in a bold
font, regular when 5% or less. Prints each page's lowest bold and highest regular
ratios, then the lowest bold and highest regular ratios over all pages, against
`DEFAULT_BOLD_WEIGHT`, and how many lines each candidate threshold would misread.

    python benchmarks/ocr_weight.py [--dpi 300] [--condition clean] [--hocr-cache DIR]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import ocr as bench
from ocr_scans import cut_pages, scanned

from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.cleanup import is_bold
from structchunk.parsers.pdf.engines import ocr as ocr_engine
from structchunk.parsers.pdf.engines import open_document
from structchunk.parsers.pdf.engines.ocr_weight import (
    DEFAULT_BOLD_WEIGHT,
    body_weight,
    line_weights,
)

Ratio = tuple[float, str]


def page_ratios(
    grey: Any, lines: list[Any], scale: float, truth: list[Any]
) -> tuple[list[Ratio], list[Ratio]]:
    """(bold, regular) lines of one page: their weight over the page's body, and text."""
    weights = line_weights(grey, lines, scale)
    body = body_weight(weights, [sum(len(w.text) for w in line) for line in lines])
    bold: list[Ratio] = []
    regular: list[Ratio] = []
    for line, weight in zip(lines, weights):
        if weight is None or body is None:
            continue
        inside = [
            t
            for t in truth
            for o in line
            if o.x0 <= (t.x0 + t.x1) / 2 <= o.x1 and o.top <= (t.top + t.bottom) / 2 <= o.bottom
        ]
        letters = sum(len(t.text) for t in inside)
        if not letters:
            continue
        share = sum(len(t.text) for t in inside if is_bold(t.font)) / letters
        text = " ".join(o.text for o in line)[:40]
        if share >= 0.95:
            bold.append((weight / body, text))
        elif share <= 0.05:
            regular.append((weight / body, text))
    return bold, regular


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("STRUCTCHUNK_CORPUS", ""))
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--condition", default="clean")
    parser.add_argument("--hocr-cache", default="")
    args = parser.parse_args()
    corpus = Path(args.corpus or bench.ROOT.parent / "shared" / "corpus")
    if args.hocr_cache:
        bench.cache_hocr(Path(args.hocr_cache))
    captured: list[tuple[Any, list[Any], float]] = []
    weigh = ocr_engine.weighed

    def keep(grey: Any, lines: list[Any], scale: float) -> list[Any]:
        captured.append((grey, lines, scale))
        return weigh(grey, lines, scale)

    ocr_engine.weighed = keep
    bold: list[Ratio] = []
    regular: list[Ratio] = []
    for path, first, _producer in bench.DOCUMENTS + bench.HOLDOUT + bench.WIDE:
        data = cut_pages((corpus / path).read_bytes(), first, 2)
        pdf = open_document("pdfium", data)
        born = [pdf.read_page(i, False).words for i in range(pdf.count)]
        pdf.close()
        captured.clear()
        scan = scanned(data, args.dpi, args.condition)
        parse(scan, path, ParseSettings(ocr_dpi=args.dpi))
        for (grey, lines, scale), truth in zip(captured, born):
            heavy, plain = page_ratios(grey, lines, scale, truth)
            bold += heavy
            regular += plain
            low = min(heavy, default=(0.0, ""))
            high = max(plain, default=(0.0, ""))
            print(
                f"  {path}: bold from {low[0]:.2f} {low[1]!r}, regular to {high[0]:.2f} {high[1]!r}"
            )
    print(f"\nthreshold {DEFAULT_BOLD_WEIGHT}")
    print("lowest bold:", [(round(r, 2), t) for r, t in sorted(bold)[:8]])
    print("highest regular:", [(round(r, 2), t) for r, t in sorted(regular)[-8:]])
    print(f"\n{len(bold)} bold lines, {len(regular)} regular lines; misread at each threshold:")
    for threshold in (1.15, 1.2, 1.25, 1.3, 1.35):
        missed = sum(r < threshold for r, _t in bold)
        taken = sum(r >= threshold for r, _t in regular)
        print(f"  {threshold:.2f}: bold read as regular {missed}, regular read as bold {taken}")


if __name__ == "__main__":
    main()
