"""Ruled tables on scanned pages: corpus pages whose born-digital reading has ruled tables,
rendered at a dpi and read by OCR (engines/ocr.py, ocr_rules.py), against that reading.

For each page: the born-digital tables (pdfium engine, `kept_tables` over the page's
ruled grids) and the scan's (the page rendered at the dpi as an image-only PDF, read
with `ocr="auto"` at the same dpi). A born table is found when a scan table's box
covers half of it (intersection over the smaller box); scan tables that cover none are
extra. Cells: the born table's non-empty
cells, normalised (lower case, letters and digits only), matched as a multiset against
the matched scan table's cells. The time of the rule finding (greyscale conversion
included) is set beside Tesseract's on the same image.

    python benchmarks/ocr_tables.py [--corpus ../shared/corpus] [--dpi 300]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import time
from collections import Counter
from pathlib import Path

import numpy
import pypdfium2
from PIL import Image

from structchunk.parsers.pdf.engines import reopen
from structchunk.parsers.pdf.engines.ocr import OcrSettings, recognise
from structchunk.parsers.pdf.engines.ocr_rules import table_rules
from structchunk.parsers.pdf.tables import PageTable, kept_tables

ROOT = Path(__file__).resolve().parent.parent
PAGES = (
    ("pdf/awsdocs/Overview.Encryption.pdf", 2),
    ("pdf/fastapi/tutorial-metadata.pdf", 0),
    ("pdf/pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf", 0),
    ("pdf/pdfplumber/chelsea_pdta.pdf", 32),
    ("pdf/pdfplumber/federal-register-2020-17221.pdf", 5),
    ("pdf/pdfplumber/issue-33-lorem-ipsum.pdf", 0),
    ("pdf/pdfplumber/issue-67-example.pdf", 2),
    ("pdf/pdfplumber/issue-67-example.pdf", 8),
    ("pdf/pdfplumber/issue-71-duplicate-chars-2.pdf", 3),
    ("pdf/pdfplumber/word365_structure.pdf", 0),
    ("pdf/pypdf-samples/GeoTopo-komprimiert.pdf", 34),
    ("pdf/rust-book/ch03-02-data-types.pdf", 0),
    ("pdf/sec-10q/2022-Q3-NVDA.pdf", 10),
    ("pdf/sec-10q/2023-Q1-AAPL.pdf", 2),
    ("pdf/sec-10q/2023-Q1-MSFT.pdf", 19),
    ("pdf/usgov/2014-annual-performance-report.pdf", 13),
    ("pdf/usgov/2014-annual-performance-report.pdf", 107),
    ("pdf/usgov/DOC2022.pdf", 10),
    ("pdf/usgov/EPA2022.pdf", 12),
    ("pdf/usgov/HHS2022.pdf", 15),
    ("pdf/usgov/ntsb-20080104X00020.pdf", 2),
)
"""One or two pages of each corpus document with ruled tables (Chrome prints, pdfplumber's
test files, LaTeX, EDGAR filings, agency reports, an NTSB form)."""

_NOT_WORD = re.compile(r"[\W_]+")


def _tables(data: bytes, index: int, ocr: OcrSettings) -> list[PageTable]:
    pdf = reopen("pdfium", data, "", ocr)
    try:
        return kept_tables(pdf.read_page(index, False).grids, index + 1)
    finally:
        pdf.close()


def _scan(data: bytes, index: int, dpi: int) -> tuple[bytes, Image.Image]:
    """The page as an image-only PDF (as tests/test_pdf_ocr.py makes scans) and the
    greyscale image OCR renders of it."""
    document = pypdfium2.PdfDocument(data)
    image = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()
    out = io.BytesIO()
    image.save(out, "PDF", resolution=dpi)
    scan = pypdfium2.PdfDocument(out.getvalue())
    rendered = scan[0].render(scale=dpi / 72).to_pil()
    scan.close()
    return out.getvalue(), rendered


def _cells(table: PageTable) -> Counter[str]:
    keys = (_NOT_WORD.sub("", cell).lower() for row in table.rows for cell in row)
    return Counter(key for key in keys if key)


def _covers(a: PageTable, b: PageTable) -> bool:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.bottom, b.bottom) - max(a.top, b.top)
    smaller = min((a.x1 - a.x0) * (a.bottom - a.top), (b.x1 - b.x0) * (b.bottom - b.top))
    return width > 0 and height > 0 and width * height >= smaller / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("STRUCTCHUNK_CORPUS", ""))
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    corpus = Path(args.corpus or ROOT.parent / "shared" / "corpus")
    totals = Counter[str]()
    print("| page | tables | found | extra | cells | matched | rules ms | Tesseract ms |")
    print("|---|---|---|---|---|---|---|---|")
    for path, index in PAGES:
        data = (corpus / path).read_bytes()
        born = _tables(data, index, OcrSettings("never"))
        scan, image = _scan(data, index, args.dpi)
        start = time.perf_counter()
        table_rules(numpy.asarray(image.convert("L")), 72 / args.dpi)
        rules_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        recognise(image, "eng")
        tesseract_ms = (time.perf_counter() - start) * 1000
        read = _tables(scan, 0, OcrSettings("auto", "eng", args.dpi))
        found = cells = matched = 0
        for table in born:
            want = _cells(table)
            cells += sum(want.values())
            match = next((t for t in read if _covers(table, t)), None)
            if match is not None:
                found += 1
                matched += sum((want & _cells(match)).values())
        extra = sum(1 for t in read if not any(_covers(table, t) for table in born))
        row = {"tables": len(born), "found": found, "extra": extra}
        row.update({"cells": cells, "matched": matched})
        totals.update(row)
        totals.update({"rules_ms": round(rules_ms), "tesseract_ms": round(tesseract_ms)})
        print(
            f"| {path.removeprefix('pdf/')} p{index + 1} | {len(born)} | {found} | {extra} | "
            f"{cells} | {matched} | {rules_ms:.0f} | {tesseract_ms:.0f} |",
            flush=True,
        )
    pages = len(PAGES)
    print(
        f"| **{pages} pages, {args.dpi} dpi** | {totals['tables']} | {totals['found']} | "
        f"{totals['extra']} | {totals['cells']} | "
        f"{totals['matched']} ({totals['matched'] / totals['cells']:.1%}) | "
        f"{totals['rules_ms'] / pages:.0f} a page | {totals['tesseract_ms'] / pages:.0f} a page |"
    )


if __name__ == "__main__":
    main()
