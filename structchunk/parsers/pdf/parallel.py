"""Reading one large PDF with several processes, pages shared out in small batches.

Only the page reading (the slow part) runs in parallel. The calling process
works too: worker processes take batches from the front of the page list while the
caller takes them from the back, so nobody waits for a slow batch. Workers open the
same bytes once, run the page stages (page.py `read_pages`) and return plain
`PageContent` values; the result, and everything
computed from it afterwards, is the same as with one process.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ...errors import OPTION_SLOT, OptionHint, ParseError
from ...options import PdfEngine
from ...processes import die_with_parent, start_context
from ...progress import report
from .engines import reopen
from .engines.base import OpenPdf
from .engines.ocr import OcrSettings, ocr_settings
from .page import ocr_pages, read_pages
from .types import PageContent

DEFAULT_PAGES_PER_TASK = 4
"""Pages per batch: small enough to balance uneven pages, large enough to amortise the
round trip (a 4-page batch takes 0.2–0.5 s on the corpus)."""
DEFAULT_MIN_PAGES_PER_JOB = 8
"""Below this many pages per process, starting a process costs more than it saves."""
DEFAULT_AHEAD = 2
"""Batches queued per worker, so a worker never idles between two batches."""

_STATE: dict[str, Any] = {}


def _start(engine: PdfEngine, data: bytes, password: str, ocr: OcrSettings, parent: int) -> None:
    die_with_parent(parent)
    _STATE["pdf"] = reopen(engine, data, password, ocr)


def _read(task: tuple[list[int], bool]) -> list[PageContent]:
    indexes, tagged = task
    pdf: OpenPdf = _STATE["pdf"]
    return read_pages(pdf, indexes, tagged)


def worth_it(pages: int, jobs: int) -> bool:
    return jobs > 1 and pages >= 2 * DEFAULT_MIN_PAGES_PER_JOB


def read_parallel(pdf: OpenPdf, jobs: int, tagged: bool) -> list[PageContent]:
    """All pages of the open `pdf`, read by `jobs` processes (it and `jobs - 1` workers).

    A worker that dies (a crash in the C code reading a page) fails the document with a
    one-line error instead of a traceback.
    """
    try:
        return _read_parallel(pdf, jobs, tagged)
    except BrokenProcessPool:
        raise ParseError(
            f"a page-reading process died (a crash reading this file); try {OPTION_SLOT}",
            hint=OptionHint("pdf_engine", "pdfplumber"),
        ) from None


def _read_parallel(pdf: OpenPdf, jobs: int, tagged: bool) -> list[PageContent]:
    count = pdf.count
    workers = max(1, min(jobs, count // DEFAULT_MIN_PAGES_PER_JOB) - 1)
    batches = deque(
        list(range(start, min(start + DEFAULT_PAGES_PER_TASK, count)))
        for start in range(0, count, DEFAULT_PAGES_PER_TASK)
    )
    done: dict[int, list[PageContent]] = {}
    queued: dict[int, Future[list[PageContent]]] = {}
    with ProcessPoolExecutor(
        workers,
        mp_context=start_context(),
        initializer=_start,
        initargs=(pdf.engine, pdf.data, pdf.password, ocr_settings(pdf), os.getpid()),
    ) as pool:

        def top_up() -> None:
            while batches and sum(not f.done() for f in queued.values()) < DEFAULT_AHEAD * workers:
                batch = batches.popleft()
                queued[batch[0]] = pool.submit(_read, (batch, tagged))

        def report_done(finished: list[list[PageContent]]) -> None:
            pages = [page for batch in [*done.values(), *finished] for page in batch]
            report(len(pages), count, ocr_pages(pages))

        top_up()
        while batches:
            batch = batches.pop()
            done[batch[0]] = read_pages(pdf, batch, tagged)
            report_done([f.result() for f in queued.values() if f.done()])
            top_up()
        first_of = {future: first for first, future in queued.items()}
        for future in as_completed(first_of):
            done[first_of[future]] = future.result()
            report_done([])
    return [page for first in sorted(done) for page in done[first]]
