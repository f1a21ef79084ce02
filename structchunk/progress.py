"""Progress inside one long document (the pages of a PDF), for whoever is watching.

Parsers call `report(done, total)` as they go; by default nobody listens and it costs a
lookup. The command line listens while it converts a file in its own process, so a
1 000-page manual shows its pages instead of sitting at "0/1 file"; library callers can
listen the same way:

    with structchunk.progress.listening(lambda done, total: print(done, "/", total)):
        chunks = structchunk.chunk_file("manual.pdf")

Reports come from the thread that parses; worker processes (batch pools, Ray) have no
listener, so their documents report nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Listener = Callable[[int, int], None]
"""Called with (units done, units in total) — pages, for PDFs."""

_LISTENER: ContextVar[Listener | None] = ContextVar("structchunk_progress", default=None)


def report(done: int, total: int) -> None:
    """Tell the listener, if any, that `done` of `total` units are finished."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send the reports of documents parsed inside this block to `listener`."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
