"""PDF into the section tree, with the pages every block comes from.

The stages, in order (see docs/pdf.md):

    stream_limits.py  before any engine: decompression bombs emptied, streams of too
                   many text objects cut (inflate.py bounds what one stream inflates to)
    engines/       open with the engine `ParseSettings.pdf_engine` names (engines/pdfium/
                   or engines/pdfplumber/): password, repairs, the document's evidence
                   (tags, bookmarks, title); each page read into a `PageReading`;
                   a page without a text layer rendered and read by Tesseract
                   (engines/ocr.py, `ParseSettings.ocr`)
    page.py        `PAGE_STAGES`, each page on its own, in this process or in several
                   (parallel.py, `ParseSettings.page_workers`), to a `PageContent`:
                       ruled tables out of the text (tables.py)
                       figures: a chart's labels (figures.py)
                       rows (layout.py)
                       tagged tables (tables.py)
                       borderless tables (borderless.py)
                       margin notes and line numbers (margins.py)
                       column gutters (layout.py)
                       term tables (terms.py)
                       the text as read, for the audit
                       tables, figures and sideways text placed
                       lines in reading order, region by region (layout.py,
                       interleaved.py), with list bullets and heading tags
    __init__.py    `DOCUMENT_STAGES`, over all the light `PageContent` values (types.py):
                       pages checked: unreadable, image-only, no text at all
                       monospace body text (a typewritten document) is no code
                       furniture: running headers/footers and page numbers dropped
                       (furniture.py, running.py)
                       contents pages and lists of figures dropped (contents.py)
                       headings: from tags, then bookmarks (structure.py), then
                       typography (headings.py, typography.py, levels.py)
                       the title: the metadata's when page 1 prints it, else the
                       cover's or page 1's opening lines (typography.py)
                       blocks: lines to paragraphs, lists, code and tables, in order,
                       to the builder (blocks.py, hanging.py)
                   then the tree, with the kept lines as one text with each line's box
                   (source.py, for chunk `boxes`) and each page's words as read

cleanup.py holds the text clean-up and font vocabulary every stage shares.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from ...document import Document, PageRead, page_ranges
from ...errors import OPTION_SLOT, NoTextError, OptionHint, ParseError
from ...progress import report
from ..builder import TreeBuilder
from ..settings import ParseSettings
from .blocks import BlockWriter
from .cleanup import document_vocabulary, is_mono, match_key
from .contents import drop_contents
from .engines import open_document
from .engines.base import OpenPdf
from .engines.ocr import OcrSettings, ocr_missing, with_ocr
from .furniture import drop_furniture
from .headings import find_headings
from .layout import usual_line_gap
from .page import PROGRESS_PAGES, ocr_pages, read_pages
from .parallel import read_parallel, worth_it
from .source import dropped_boxes, placed_text
from .stream_limits import bound_streams
from .structure import OutlineEntry
from .types import MAX_CHARS_PER_PAGE, Item, Line, PageContent, PageTable
from .typography import cover_title, opening_title

log = logging.getLogger("structchunk")

DEFAULT_MONO_BODY_SHARE = 0.5
"""When more than this share of the text is in a monospace font (typewritten transcripts,
plain-text printouts), monospace means body text, not code."""


DEFAULT_SPARSE_CHARS = 200
"""Characters per page below which a PDF with images is read as a scan carrying only a
stamp or watermark (a trial-version banner is about 70; a page of prose, 2 000-3 000)."""


DEFAULT_LOW_CONFIDENCE = 60.0
"""Mean OCR word confidence (%) below which the warning asks about the language: clean
English prints read at 90-96, a Chinese page read as English at 28."""


@dataclass(slots=True)
class DocumentWork:
    """A document's read pages on their way through `DOCUMENT_STAGES` to the builder."""

    pages: list[PageContent]
    outline: list[OutlineEntry]
    title: str
    """The metadata's title."""
    builder: TreeBuilder
    ocr: str = "never"
    """`ParseSettings.ocr`, for what the warnings about scans advise."""
    ocr_language: str = "eng"
    furniture: list[Line] = field(default_factory=list)
    """Running headers and footers, page numbers and line numbers, dropped."""
    contents: list[Item] = field(default_factory=list)
    """Contents pages' entries, dropped."""
    dropped: list[tuple[int, str]] = field(default_factory=list)
    """(page, text) of everything dropped on purpose."""


DocumentStage = Callable[[DocumentWork], None]


def _check_pages(work: DocumentWork) -> None:
    """Warn about unreadable and image-only pages; fail when no page has text."""
    pages, warnings = work.pages, work.builder.warnings
    broken = [p for p in pages if p.error]
    for page in broken:
        warnings.append(f"page {page.number} could not be read and was skipped ({page.error})")
    for page in pages:
        if page.chars_left_out:
            warnings.append(
                f"page {page.number}: only its first {MAX_CHARS_PER_PAGE:,} characters were "
                f"read; {page.chars_left_out:,} more were left out"
            )
    if not any(p.items for p in pages):
        if broken and not any(p.chars for p in pages):
            raise ParseError(f"no page could be read ({broken[0].error})")
        hint = OptionHint("ocr", "auto") if work.ocr == "never" else None
        raise NoTextError(f"no text layer (a scan or images only?); {_no_ocr(work)}", hint=hint)
    scans = [p.number for p in pages if not p.error and not p.chars and p.images]
    if scans:
        warnings.append(
            f"pages {page_ranges(scans, ', ')} have images but no text layer "
            f"(not OCRed); their content is missing{_advice(work)}"
        )
    read = [p for p in pages if p.ocr_confidence is not None]
    if read:
        confidence = sum(p.ocr_confidence or 0.0 for p in read) / len(read)
        low = (
            f"; low: are they in another language than {work.ocr_language}?"
            if confidence < DEFAULT_LOW_CONFIDENCE
            else ""
        )
        warnings.append(
            f"page{'s' if len(read) > 1 else ''} {page_ranges([p.number for p in read], ', ')} "
            f"read by OCR (mean word confidence {confidence:.0f}%{low})"
        )
    readable = [p for p in pages if not p.error]
    chars = sum(p.chars for p in readable)
    if chars and any(p.images for p in readable) and chars < DEFAULT_SPARSE_CHARS * len(readable):
        warnings.append(
            f"almost no text ({chars} characters on {len(readable)} "
            f"page{'s' if len(readable) != 1 else ''}) beside images: "
            "a scan with a stamp or watermark? The images' content is missing unless OCRed"
        )


def _no_ocr(work: DocumentWork) -> str:
    """Why a page without a text layer was not read by OCR."""
    if work.ocr == "never":
        return f"OCR is off: {OPTION_SLOT} reads it by OCR"
    missing = ocr_missing(work.ocr_language)
    return missing if missing else "OCR found no text on it either"


def _advice(work: DocumentWork) -> str:
    """How to have the scanned pages OCRed, after the warning that they were not."""
    missing = ocr_missing(work.ocr_language) if work.ocr == "auto" else ""
    return f" ({missing})" if missing else ""


def _monospace_body(work: DocumentWork) -> None:
    """Monospace text is body text, not code, where most of the text is in it."""
    lines = [line for page in work.pages for line in page.lines()]
    mono = sum(line.chars for line in lines if is_mono(line.font))
    if mono > DEFAULT_MONO_BODY_SHARE * sum(line.chars for line in lines):
        for line in lines:
            line.mono = False


def _metadata_title(title: str, pages: list[PageContent]) -> str:
    """The metadata title, when page 1 prints it (metadata is often a file name)."""
    key = match_key(title)
    if not key or not pages:
        return ""
    first = next((p for p in pages if p.items), pages[0])
    return title if any(match_key(line.printed()) == key for line in first.lines()) else ""


def _text_of(item: Item) -> str:
    if isinstance(item, PageTable):
        return "\n".join(" ".join(row) for row in item.rows)
    return item.printed()


def _furniture(work: DocumentWork) -> None:
    """Running headers and footers and page numbers out of the pages."""
    work.furniture = [line for page in work.pages for line in page.line_numbers]
    work.furniture += drop_furniture(work.pages)


def _contents(work: DocumentWork) -> None:
    """Contents pages and lists of figures out of the pages."""
    work.contents = drop_contents(work.pages)
    work.dropped = [(item.page, _text_of(item)) for item in [*work.furniture, *work.contents]]


def _headings(work: DocumentWork) -> None:
    """Which lines are headings: tags, then bookmarks, then typography."""
    source = find_headings(work.pages, work.outline, work.dropped, work.builder.warnings)
    log.debug(
        "%d running header/footer lines and %d contents entries dropped; headings from %s",
        len(work.furniture),
        len(work.contents),
        source,
    )


def _title(work: DocumentWork) -> None:
    """The metadata's title when page 1 prints it, else the cover's or the opening's."""
    pages = work.pages
    title = _metadata_title(work.title, pages) or cover_title(pages) or opening_title(pages)
    work.builder.set_title(title)


def _blocks(work: DocumentWork) -> None:
    """Lines to paragraphs, lists, code and tables, page by page, to the builder."""
    pages, builder = work.pages, work.builder
    vocabulary = document_vocabulary([line for page in pages for line in page.lines()])
    writer = BlockWriter(builder, vocabulary, usual_line_gap(pages), work.dropped)
    for page in pages:
        writer.feed(page)
    writer.flush()
    builder.dropped.extend(text for _, text in work.dropped)


DOCUMENT_STAGES: tuple[DocumentStage, ...] = (
    _check_pages,
    _monospace_body,
    _furniture,
    _contents,
    _headings,
    _title,
    _blocks,
)
"""The document stages, in order: furniture and contents dropped before the headings
are found (a running header is no heading; a contents entry repeats one), then the
title, and the blocks last."""


def build(
    pages: list[PageContent],
    outline: list[OutlineEntry],
    title: str,
    builder: TreeBuilder,
    settings: ParseSettings | None = None,
) -> Document:
    """The document from its read pages: `DOCUMENT_STAGES`, then the tree."""
    settings = settings or ParseSettings(ocr="never")
    work = DocumentWork(pages, outline, title, builder, settings.ocr, settings.ocr_language)
    for stage in DOCUMENT_STAGES:
        stage(work)
    document = builder.finish(*placed_text(pages))
    document.dropped_boxes = dropped_boxes(pages, [*work.furniture, *work.contents])
    document.read = _pages_read(pages, work.dropped)
    document.ocr_pages = {p.number: p.ocr_confidence for p in pages if p.ocr_confidence is not None}
    return document


def _pages_read(pages: list[PageContent], dropped: list[tuple[int, str]]) -> list[PageRead]:
    """Each page's words as read and its text dropped on purpose, for the audit."""
    read = {page.number: PageRead(page.number, page.read) for page in pages}
    for number, text in dropped:
        read[number].dropped.append(text)
    return list(read.values())


def read_all_pages(pdf: OpenPdf, tagged: bool) -> list[PageContent]:
    """Every page in order, in this process, reporting progress as pages finish."""
    count = pdf.count
    pages: list[PageContent] = []
    for start in range(0, count, PROGRESS_PAGES):
        pages.extend(
            read_pages(pdf, list(range(start, min(start + PROGRESS_PAGES, count))), tagged)
        )
        report(len(pages), count, ocr_pages(pages))
    return pages


def read_document(
    data: bytes, settings: ParseSettings, warnings: list[str]
) -> tuple[list[PageContent], list[OutlineEntry], str]:
    """Open PDF bytes with the engine `settings` names and read what `build` needs: every
    page (in one process or several), the bookmarks and the metadata title."""
    data, left_out = bound_streams(data)
    warnings.extend(left_out)
    ocr = OcrSettings(settings.ocr, settings.ocr_language, settings.ocr_dpi)
    pdf = with_ocr(open_document(settings.pdf_engine, data, settings.pdf_password), ocr)
    warnings.extend(pdf.notes)
    if pdf.repaired:
        warnings.append("damaged file: repaired before reading, some text may be missing")
    try:
        count = pdf.count
        if count == 0:
            raise NoTextError("the PDF has no pages")
        if not pdf.extractable():
            warnings.append(
                "the PDF's permissions forbid copying text; extracted "
                "anyway (the owner password only restricts viewers)"
            )
        tagged = pdf.tagged()
        outline = pdf.outline(warnings)
        title = pdf.title()
        if worth_it(count, settings.page_workers):
            pages = read_parallel(pdf, settings.page_workers, tagged)
        else:
            pages = read_all_pages(pdf, tagged)
    finally:
        pdf.close()
    if left_out and not any(page.items for page in pages):
        raise ParseError(f"no page could be read ({left_out[0]})")
    return pages, outline, title


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse PDF bytes into a `Document`; every block carries its pages."""
    builder = TreeBuilder("pdf")
    pages, outline, title = read_document(data, settings, builder.warnings)
    return build(pages, outline, title, builder, settings)
