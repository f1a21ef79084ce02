"""Each corpus PDF read once per test session, keeping what the page reader saw.

Three corpus-wide PDF tests need the same reading — the file converts, nothing read is
lost but documented furniture, no heading is lifted out of a table — and reading a PDF
is most of their time (test_pdf_corpus checks that this is the parser's own reading).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from structchunk.document import Document
from structchunk.errors import StructChunkError
from structchunk.options import DEFAULT_PDF_ENGINE, PdfEngine
from structchunk.parsers import ParseSettings
from structchunk.parsers.builder import TreeBuilder
from structchunk.parsers.pdf import build, read_document
from structchunk.parsers.pdf.types import PageContent, PageTable


@dataclass(frozen=True)
class Reading:
    """A corpus PDF as the parser reads it: the words on its pages before anything is
    dropped, and the document built from them (or the error that stopped it)."""

    words: tuple[str, ...]
    document: Document | None
    error: StructChunkError | None


def read_words(pages: list[PageContent]) -> tuple[str, ...]:
    words: list[str] = []
    for page in pages:
        for item in page.items:
            if isinstance(item, PageTable):
                words.extend(" ".join(cell for row in item.rows for cell in row).split())
            else:
                words.extend(item.printed().split())
    return tuple(words)


@cache
def read_corpus_pdf(path: Path, engine: PdfEngine = DEFAULT_PDF_ENGINE) -> Reading:
    """The stages of `structchunk.parsers.pdf.parse`, one process, pages kept."""
    builder = TreeBuilder("pdf")
    try:
        pages, outline, title = read_document(
            path.read_bytes(), ParseSettings(pdf_engine=engine), builder.warnings
        )
    except StructChunkError as error:
        return Reading((), None, error)
    words = read_words(pages)
    try:
        return Reading(words, build(pages, outline, title, builder), None)
    except StructChunkError as error:
        return Reading(words, None, error)
