"""Progress inside one long document (the pages of a PDF), for whoever is watching.

Parsers call `report(done, total)` as they go; by default nobody listens and it costs a
lookup. The command line listens while it converts a file in its own process, so a
1 000-page manual shows its pages instead of sitting at "0/1 file"; library callers can
listen the same way:

    with structchunk.progress.listening(lambda done, total: print(done, "/", total)):
        chunks = structchunk.chunk_file("manual.pdf")

A PDF's scanned pages take seconds each to read by OCR; a listener that wants to say so
takes a third argument, the pages of those done that were OCRed:

    with structchunk.progress.listening_with_ocr(lambda done, total, ocr: ...):
        ...

Reports come from the thread that parses; a batch pool's workers pass theirs on to the
parent's listener; Ray workers have no listener, so their documents report nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Listener = Callable[[int, int], None]
"""Called with (units done, units in total) — pages, for PDFs."""
OcrListener = Callable[[int, int, int], None]
"""Called with (pages done, pages in total, pages of those done read by OCR)."""

_LISTENER: ContextVar[OcrListener | None] = ContextVar("structchunk_progress", default=None)


def report(done: int, total: int, ocr: int = 0) -> None:
    """Tell the listener, if any, that `done` of `total` units are finished, `ocr` of
    them pages read by OCR."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total, ocr)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send the reports of documents parsed inside this block to `listener`."""
    with listening_with_ocr(lambda done, total, _ocr: listener(done, total)):
        yield


@contextmanager
def listening_with_ocr(listener: OcrListener) -> Iterator[None]:
    """As `listening`, with the count of pages read by OCR as a third argument."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
