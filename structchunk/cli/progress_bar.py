"""The progress bar `convert` shows on a terminal: files, chunks, MB/s, and the pages of
a long PDF being read in this process.
"""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from tqdm.std import tqdm  # not `tqdm`'s package: it loads asyncio for tqdm.auto

from ..batch.work import Outcome
from ..records import printable_path

MIN_PAGES_FOR_A_BAR = 20
"""Documents shorter than this read in a few seconds: no page bar."""


class ProgressBar:
    """tqdm on stderr (when it is a terminal): files, chunks, MB/s, ETA; errors above it.

    A document read in this process that reports its pages (a PDF) gets a second bar
    for them while it is being read, so one long file does not sit at "0/1 file".
    """

    def __init__(self, total: int, enabled: bool) -> None:
        self.enabled = enabled
        # tqdm's monitor thread would make a parallel PDF read spawn its workers (slow to
        # start) instead of forking them: fork is only safe in a single-threaded process
        tqdm.monitor_interval = 0
        self.bar = tqdm(
            total=total,
            unit="file",
            disable=not enabled,
            file=sys.stderr,
            leave=False,
            dynamic_ncols=True,
        )
        self.page_bar: tqdm[Any] | None = None
        self.chunks = 0
        self.bytes = 0
        self.start = time.perf_counter()

    def pages(self, done: int, total: int, ocr: int = 0) -> None:
        """A progress report from inside the documents being read (summed over a pool's
        workers: the total grows as a worker starts another long document); `ocr` of the
        pages done were read by OCR, seconds each, so a scan gets a bar however short."""
        if not self.enabled or (total < MIN_PAGES_FOR_A_BAR and not ocr):
            return
        if self.page_bar is not None and self.page_bar.total != total:
            self.page_bar.total = total
            self.page_bar.refresh()
        if self.page_bar is None:
            self.page_bar = tqdm(
                total=total,
                unit="page",
                file=sys.stderr,
                leave=False,
                dynamic_ncols=True,
                position=1,
            )
        if ocr:
            self.page_bar.set_postfix_str(f"{ocr} by OCR", refresh=False)
        self.page_bar.update(done - self.page_bar.n)

    def logging_above(self) -> AbstractContextManager[None]:
        """Log lines printed above the bars rather than through them."""
        if not self.enabled:
            return nullcontext()
        from tqdm.contrib.logging import logging_redirect_tqdm  # only with a bar on screen

        redirect: AbstractContextManager[None] = logging_redirect_tqdm()
        return redirect

    def _close_pages(self) -> None:
        if self.page_bar is not None:
            self.page_bar.close()
            self.page_bar = None

    def __call__(self, outcome: Outcome | None, size: int) -> None:
        self._close_pages()
        if outcome is not None and not outcome.ok:
            tqdm.write(f"structchunk: error: {printable_path(outcome.message)}", file=sys.stderr)
        if outcome is not None:
            self.chunks += outcome.chunks
            self.bytes += size
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        self.bar.set_postfix_str(
            f"{self.chunks} chunks, {self.bytes / 1e6 / elapsed:.2f} MB/s", refresh=False
        )
        self.bar.update(1)

    def close(self) -> None:
        self._close_pages()
        self.bar.close()
