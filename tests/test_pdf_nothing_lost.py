"""Real PDFs, both engines: every word a page's reader saw reaches a block of that page,
or is text the parser dropped on purpose there and says so (`Document.read`: running
headers, page numbers, contents entries, a table header printed again) — the `strict`
audit of `structchunk/packing/page_audit.py`, page by page, with no slack: a lost word,
line, cell or column fails its file. Packing under `strict` then holds the blocks to the
chunks (`packing/audit.py`). (What the page reader sees of the raw PDF — visible,
de-duplicated glyphs — is tested in test_pdf.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_params
from corpus_pdf import read_corpus_pdf

from structchunk import ChunkOptions
from structchunk.options import PdfEngine
from structchunk.packing import Packer
from structchunk.packing.page_audit import lost_text


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
@pytest.mark.parametrize("path", corpus_params("pdf", "*.pdf"))
def test_nothing_read_is_lost_but_documented_furniture(path: Path, engine: PdfEngine) -> None:
    reading = read_corpus_pdf(path, engine)
    if reading.document is None:
        pytest.skip("cannot be read (tested in test_pdf_corpus)")
    document = reading.document
    assert document.read, "the reader recorded no page"
    losses = [loss.describe() for loss in lost_text(document)]
    assert not losses, "; ".join(losses)
    assert list(Packer(ChunkOptions(max_tokens=200, strict=True)).pack(document))
