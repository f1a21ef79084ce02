"""Progress inside one document: PDFs report pages, the CLI shows them as a second bar."""

from __future__ import annotations

import logging

import pytest
from conftest import ROOT
from tqdm import tqdm

from structchunk import chunk_file, progress
from structchunk.batch.work import Outcome
from structchunk.cli.progress_bar import ProgressBar
from structchunk.parsers.pdf import parallel as pdf_parallel

SAMPLE_PDF = ROOT / "samples" / "rust-data-types.pdf"
SAMPLE_PAGES = 7


def test_reports_go_to_the_innermost_listener_and_nowhere_outside() -> None:
    outer: list[tuple[int, int]] = []
    inner: list[tuple[int, int]] = []
    progress.report(1, 2)  # nobody listens: nothing happens
    with progress.listening(lambda d, t: outer.append((d, t))):
        progress.report(1, 3)
        with progress.listening(lambda d, t: inner.append((d, t))):
            progress.report(2, 3)
        progress.report(3, 3)
    progress.report(4, 4)
    assert outer == [(1, 3), (3, 3)]
    assert inner == [(2, 3)]


def _pages_reported(**options: object) -> list[tuple[int, int]]:
    calls: list[tuple[int, int]] = []
    with progress.listening(lambda done, total: calls.append((done, total))):
        chunk_file(SAMPLE_PDF, **options)
    return calls


def test_a_pdf_read_in_one_process_reports_its_pages() -> None:
    calls = _pages_reported(page_workers=1)
    assert calls[-1] == (SAMPLE_PAGES, SAMPLE_PAGES)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert len(calls) >= 2


def test_a_pdf_read_by_several_processes_reports_its_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_parallel, "DEFAULT_MIN_PAGES_PER_JOB", 2)
    monkeypatch.setattr(pdf_parallel, "DEFAULT_PAGES_PER_TASK", 1)
    calls = _pages_reported(page_workers=2)
    assert calls[-1] == (SAMPLE_PAGES, SAMPLE_PAGES)
    assert all(0 < done <= SAMPLE_PAGES for done, _ in calls)


def test_the_cli_bar_shows_pages_of_a_long_document_and_closes_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bar = ProgressBar(1, enabled=True)
    bar.pages(10, 40)
    bar.pages(40, 40)
    assert bar.page_bar is not None and bar.page_bar.n == 40
    bar(Outcome(0, "a.pdf", "a.pdf", ok=True), 100)
    assert bar.page_bar is None
    bar.close()
    assert "/40 [" in capsys.readouterr().err  # drawn (tqdm throttles redraws)


def test_the_cli_bar_ignores_short_documents_and_quiet_runs() -> None:
    short = ProgressBar(1, enabled=True)
    short.pages(3, 5)
    assert short.page_bar is None
    short.close()
    quiet = ProgressBar(1, enabled=False)
    quiet.pages(10, 400)
    assert quiet.page_bar is None
    quiet.close()


def test_log_lines_print_above_the_bars(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    monkeypatch.setattr(tqdm, "write", classmethod(lambda cls, s, **kw: written.append(s)))
    bar = ProgressBar(2, enabled=True)
    with bar.logging_above():
        logging.getLogger("structchunk").warning("a.pdf: damaged file")
    bar.close()
    assert any("a.pdf: damaged file" in line for line in written)  # tqdm.write keeps the bar


def test_the_cli_bar_shows_a_short_scan_and_counts_its_ocr_pages() -> None:
    bar = ProgressBar(1, enabled=True)
    bar.pages(1, 3, ocr=1)
    bar.pages(3, 3, ocr=3)
    assert bar.page_bar is not None and bar.page_bar.n == 3
    assert bar.page_bar.postfix == "3 by OCR"
    bar.close()


def test_two_argument_listeners_still_hear_pdf_pages_with_ocr_counted_apart() -> None:
    plain: list[tuple[int, int]] = []
    counted: list[tuple[int, int, int]] = []
    with progress.listening(lambda done, total: plain.append((done, total))):
        progress.report(1, 2, ocr=1)
    with progress.listening_with_ocr(lambda *args: counted.append(args)):
        progress.report(2, 2, ocr=1)
        chunk_file(SAMPLE_PDF, page_workers=1)
    assert plain == [(1, 2)]
    assert counted[0] == (2, 2, 1)
    assert counted[-1] == (SAMPLE_PAGES, SAMPLE_PAGES, 0)  # born-digital: none by OCR
