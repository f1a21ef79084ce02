"""Per-file limits that hold in every mode: time, memory, and what a stream may inflate to.

Each test builds the hostile input it needs. The worker tests stand in for C code that
ignores Python's signals by blocking SIGALRM in the worker, and rely on workers being
forked (they inherit the test's monkeypatching), so they run on Linux only.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click.testing
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdf_factory import Page, bomb_stream, hexed_bomb_stream, pdf_bytes
from test_pdf import text_of

import structchunk
from structchunk.api import parse_document
from structchunk.batch import BatchConfig, run_batch
from structchunk.batch.boundary import FileLimits
from structchunk.batch.inputs import InputFile, expand_inputs
from structchunk.batch.memory import parse_size_mb, process_tree_mb
from structchunk.batch.pool import HARD_TIMEOUT_GRACE, WorkerPool
from structchunk.batch.work import Task
from structchunk.errors import ParseError
from structchunk.options import ChunkOptions
from structchunk.parsers.pdf import inflate
from structchunk.progress import listening

OPTIONS = ChunkOptions(max_tokens=128)
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="forked workers, /proc")


def _task(path: Path, tmp_path: Path, index: int = 0, fmt: str = "markdown") -> Task:
    return Task(index, str(path), fmt, path.name, str(tmp_path / f"{path.name}.jsonl"))


def _small_md(tmp_path: Path) -> Path:
    path = tmp_path / "fine.md"
    path.write_text("# Fine\n\nA short file.\n")
    return path


def _with_a_bad_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, misbehave: Callable[[], None]
) -> list[InputFile]:
    """Inputs `name` and a fine file, where converting `name` first runs `misbehave` in
    the worker (forked, so it inherits this patch)."""
    import structchunk.batch.pool as pool
    import structchunk.batch.work as work

    def chunks(*args: object, **kwargs: object) -> object:
        if str(args[1]).endswith(name):
            misbehave()
        return structchunk.iter_chunks_from_bytes(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(work, "iter_records_from_bytes", chunks)
    monkeypatch.setattr(pool, "start_context", lambda: multiprocessing.get_context("fork"))
    (tmp_path / name).write_text("# Bad\n\nText.\n")
    items, _ = expand_inputs([str(tmp_path / name), str(_small_md(tmp_path))], None)
    return items


# --- decompression bombs -------------------------------------------------------------


def test_pdfminer_inflates_through_the_bounded_decoder() -> None:
    from pdfminer import pdftypes

    assert pdftypes.zlib.decompress is inflate.decompress
    assert pdftypes.decompress_corrupted is inflate.decompress_corrupted


def test_a_decompression_bomb_is_stopped_at_the_limit_and_its_page_skipped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Before: two Flate layers inflating to 1 GiB peaked at 2.1 GB, for a "no text" end.
    Here the limit is 8 MB and the page would inflate to 64 MB: one setting for the
    stream bounds both engines read through and for pdfminer's own decoder."""
    monkeypatch.setattr(inflate, "MAX_INFLATED_BYTES", 8 << 20)
    bomb = Page().text(72, 700, "Hidden").text(72, 680, " " * (64 << 20))
    good = Page().text(72, 700, "The second page is read.")
    path = tmp_path / "bomb.pdf"
    path.write_bytes(pdf_bytes([bomb, good], deflate_layers=2))
    options = OPTIONS.model_copy(update={"pdf_engine": "pdfplumber"})
    tracemalloc.start()
    try:
        document = parse_document(path.read_bytes(), str(path), "pdf", options)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20, f"peak {peak >> 20} MB (the page inflates to 64 MB)"
    assert any("inflates past 8 MB (a decompression bomb?)" in w for w in document.warnings)
    chunks = structchunk.chunk_file(str(path), pdf_engine="pdfplumber")
    assert "second page is read" in " ".join(c.text for c in chunks)


@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
def test_a_decompression_bomb_is_left_out_before_either_engine_reads_it(engine: str) -> None:
    """Before: PDFium inflated the 1 GiB page in C (2.1 GB peak, 20 s) where inflate.py
    could not stop it. Now the file's streams are measured before any engine parses
    them, and the bomb becomes an empty stream, under either engine alike."""
    pages = [Page(written=bomb_stream(1024)), Page().text(72, 700, "The second page is read.")]
    start = time.monotonic()
    document = parse_document(pdf_bytes(pages), "bomb.pdf", "pdf", ChunkOptions(pdf_engine=engine))
    assert time.monotonic() - start < 20  # inflating 2 x 256 MB to count it, not 1 GiB
    assert "The second page is read." in text_of(document)
    assert any("inflates past 256 MB (a decompression bomb?)" in w for w in document.warnings)


def test_a_pdf_whose_only_page_is_a_bomb_fails_in_one_line_under_either_engine() -> None:
    data = pdf_bytes([Page(written=bomb_stream(300))])
    for engine in ("pdfium", "pdfplumber"):
        with pytest.raises(
            ParseError,
            match=r"^bomb.pdf: no page could be read \(a stream \(object \d+\) inflates past 256",
        ):
            parse_document(data, "bomb.pdf", "pdf", ChunkOptions(pdf_engine=engine))


@linux_only
def test_a_bomb_the_stream_bounds_cannot_see_costs_only_its_file(tmp_path: Path) -> None:
    """A stream behind another filter (ASCIIHex here) is not measured before PDFium
    inflates it in C: the worker's memory limit holds it (its address-space cap makes
    PDFium's allocation fail, and PDFium aborts the worker). The batch reports that
    file and converts the rest."""
    path = tmp_path / "bomb.pdf"
    path.write_bytes(
        pdf_bytes([Page(written=hexed_bomb_stream(400)), Page().text(72, 700, "Fine.")])
    )
    items, _ = expand_inputs([str(path), str(_small_md(tmp_path))], None)
    config = BatchConfig(out_dir=tmp_path / "out", jobs=1, max_memory_mb=300, timeout=60)
    report = run_batch(items, OPTIONS, config)
    (failure,) = report.failures
    assert failure.kind in ("memory", "worker_died") and "bomb.pdf" in failure.message
    assert report.ok == 1 and list((tmp_path / "out").rglob("fine.md.jsonl"))


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=4000), st.integers(min_value=0, max_value=3))
def test_bounded_inflate_matches_zlib(data: bytes, repeat: int) -> None:
    packed = zlib.compress(data * (1 + repeat * 50))
    assert inflate.decompress(packed) == zlib.decompress(packed)
    assert inflate.decompress_corrupted(packed) == zlib.decompress(packed)


def _pdfminer_corrupted(data: bytes) -> bytes:
    """pdfminer's fallback as it is written (byte by byte), to compare with."""
    inflater, out = zlib.decompressobj(), b""
    for i in range(len(data)):
        try:
            out += inflater.decompress(data[i : i + 1])
        except zlib.error:
            if i < len(data) - 3:
                raise
            return out
    return out


def _outcome(decode: Callable[[bytes], bytes], data: bytes) -> bytes | str:
    try:
        return decode(data)
    except zlib.error:
        return "zlib.error"


@settings(max_examples=80, deadline=None)
@given(st.binary(min_size=1, max_size=3000), st.data())
def test_a_damaged_stream_reads_as_pdfminer_and_zlib_read_it(
    data: bytes, draw: st.DataObject
) -> None:
    packed = bytearray(zlib.compress(data * 20))
    position = draw.draw(st.integers(min_value=0, max_value=len(packed) - 1))
    packed[position] ^= draw.draw(st.integers(min_value=1, max_value=255))
    damaged = bytes(packed)
    assert _outcome(inflate.decompress_corrupted, damaged) == _outcome(_pdfminer_corrupted, damaged)
    assert _outcome(inflate.decompress, damaged) == _outcome(zlib.decompress, damaged)


# --- the time limit ------------------------------------------------------------------


@linux_only
def test_the_time_limit_holds_when_the_code_ignores_signals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Before: a single file ran in this process, and code deaf to the alarm (C code)
    ran on past --timeout-per-file. Now the file runs in a worker that is killed."""

    def deaf() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)

    items = _with_a_bad_file(monkeypatch, tmp_path, "stuck.md", deaf)
    start = time.monotonic()
    report = run_batch(items, OPTIONS, BatchConfig(out_dir=tmp_path / "out", timeout=0.5))
    elapsed = time.monotonic() - start
    (failure,) = report.failures
    assert failure.kind == "timeout" and "the worker was stopped" in failure.message
    assert report.ok == 1 and elapsed < 0.5 + HARD_TIMEOUT_GRACE + 5


@pytest.mark.parametrize(("engine", "operators"), [("pdfplumber", 400_000), ("pdfium", 1_200_000)])
def test_a_pdf_of_endless_text_operators_stops_at_the_time_limit(
    engine: str, operators: int, tmp_path: Path
) -> None:
    """Before: a small PDF holding 200 MiB of text operators ran past the limit (the
    alarm fired once, inside pdfminer, and was absorbed). Each engine gets several times
    the work it does in the limit on this machine (PDFium reads 20 MiB of them in about
    a second: at a 1 s limit, a faster day let the file through)."""
    page = Page()
    page.ops.append("BT /F1 10 Tf 72 700 Td (Hello world again) Tj ET\n" * operators)
    path = tmp_path / "textops.pdf"
    path.write_bytes(pdf_bytes([page], deflate_layers=1))
    items, _ = expand_inputs([str(path)], None)
    options = OPTIONS.model_copy(update={"pdf_engine": engine})
    start = time.monotonic()
    report = run_batch(items, options, BatchConfig(out=str(tmp_path / "o.jsonl"), timeout=0.5))
    (failure,) = report.failures
    assert failure.kind == "timeout"
    assert time.monotonic() - start < 0.5 + HARD_TIMEOUT_GRACE + 5


# --- the memory limit ----------------------------------------------------------------


@linux_only
@pytest.mark.parametrize("how", ["gradual", "at-once"])
def test_the_memory_limit_stops_only_the_file_that_goes_over(
    how: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`gradual` grows slowly, so the parent's sampling sees it and stops the worker;
    `at-once` asks for far more than the limit in one allocation, which the worker's
    address-space cap refuses with MemoryError."""

    def greedy() -> None:
        if how == "at-once":
            bytearray(8 << 30)
        hoard = []
        for _ in range(100):
            hoard.append(bytearray(20 << 20))
            time.sleep(0.05)

    items = _with_a_bad_file(monkeypatch, tmp_path, "greedy.md", greedy)
    config = BatchConfig(out_dir=tmp_path / "out", jobs=1, max_memory_mb=300)
    report = run_batch(items, OPTIONS, config)
    (failure,) = report.failures
    assert failure.kind == "memory", failure.message
    assert "300 MB" in failure.message and "--max-memory-per-file" in failure.message
    assert report.ok == 1 and list((tmp_path / "out").rglob("fine.md.jsonl"))


@linux_only
def test_a_worker_aborted_under_a_memory_limit_is_said_to_have_run_out_of_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """PDFium aborts the process when the address-space cap refuses its allocation.
    Before: "killed by signal 6 (out of memory?)", which named no limit."""
    items = _with_a_bad_file(monkeypatch, tmp_path, "aborts.md", os.abort)
    report = run_batch(items, OPTIONS, BatchConfig(out_dir=tmp_path / "out", max_memory_mb=300))
    (failure,) = report.failures
    assert failure.message.endswith(
        "aborts.md: the worker process killed by signal 6 (out of memory? it may use no more "
        "than 300 MB: --max-memory-per-file)"
    )
    assert report.ok == 1


def test_the_memory_of_a_process_includes_its_children() -> None:
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "b = bytearray(200 << 20); b[::4096] = b'x' * len(b[::4096]); "
            "import time; time.sleep(30)",
        ]
    )
    try:
        deadline = time.monotonic() + 10
        while (process_tree_mb(child.pid) or 0) < 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (process_tree_mb(os.getpid()) or 0) >= 200  # this test process and its child
    finally:
        child.kill()
        child.wait()


def test_the_default_ceiling_is_2_gib_unless_the_workers_share_of_ram_is_less(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import structchunk.batch.memory as memory

    monkeypatch.setattr(memory, "total_memory_mb", lambda: 24 * 1024.0)
    assert memory.default_limit_mb(1) == memory.default_limit_mb(2) == 2048
    assert BatchConfig().limits(2).max_memory_mb == 2048
    assert BatchConfig(max_memory_mb=0).limits(2).max_memory_mb is None
    assert BatchConfig(max_memory_mb=5000).limits(2).max_memory_mb == 5000
    monkeypatch.setattr(memory, "total_memory_mb", lambda: 4 * 1024.0)
    assert memory.default_limit_mb(4) == pytest.approx(4 * 1024 * 0.8 / 4)
    monkeypatch.setattr(memory, "total_memory_mb", lambda: None)
    assert memory.default_limit_mb(64) == 2048


@linux_only
def test_one_file_holds_the_default_memory_ceiling_of_2_gib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: with no `--max-memory-per-file`, a single file ran in the command's own
    process with no ceiling at all. (Forked, the worker inherits the greedy stand-in.)"""
    import structchunk.batch.memory as memory
    import structchunk.batch.pool as pool
    import structchunk.batch.work as work
    from structchunk.cli import cli

    def greedy(*args: object, **kwargs: object) -> object:
        bytearray(8 << 30)
        return structchunk.iter_chunks_from_bytes(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(work, "iter_records_from_bytes", greedy)
    monkeypatch.setattr(pool, "start_context", lambda: multiprocessing.get_context("fork"))
    monkeypatch.setattr(memory, "total_memory_mb", lambda: 64 * 1024.0)
    path = tmp_path / "greedy.md"
    path.write_text("# Greedy\n\nText.\n")
    result = click.testing.CliRunner().invoke(
        cli, ["convert", str(path), "-o", str(tmp_path / "o.jsonl")]
    )
    assert result.exit_code == 1
    (line, _summary) = result.stderr.splitlines()
    assert line == (
        f"structchunk: error: {path}: needed more than 2048 MB of memory (--max-memory-per-file)"
    )


@pytest.mark.parametrize(
    ("text", "mb"),
    [("1500", 1500.0), ("1500M", 1500.0), ("2G", 2048.0), ("2GiB", 2048.0), ("0", 0.0)],
)
def test_memory_sizes(text: str, mb: float) -> None:
    assert parse_size_mb(text) == mb


@pytest.mark.parametrize("bad", ["lots", "12X", "10"])
def test_memory_sizes_that_are_not_limits(bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        parse_size_mb(bad)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--max-memory-per-file", "lots"], "--max-memory-per-file: 'lots' is not a size"),
        (["--max-memory-per-file", "1G", "--engine", "ray"], "not supported with --engine ray"),
    ],
)
def test_bad_memory_limits_are_one_line_usage_errors(
    flags: list[str], message: str, tmp_path: Path
) -> None:
    path = _small_md(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "structchunk", "convert", str(path), "-q", *flags],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


# --- one file in a worker still shows its pages --------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_workers_pass_the_page_progress_of_their_documents_on(jobs: int, tmp_path: Path) -> None:
    """Before: a batch of PDFs in a pool showed only files (`1/11` for 20-50 s)."""
    tasks = []
    for index in range(jobs):
        pages = [Page().text(72, 700, f"Page {n} says something.") for n in range(1, 41)]
        path = tmp_path / f"long-{index}.pdf"
        path.write_bytes(pdf_bytes(pages))
        tasks.append(_task(path, tmp_path, index, fmt="pdf"))
    seen: list[tuple[int, int]] = []
    pool = WorkerPool(jobs, OPTIONS, FileLimits(timeout=60))
    with listening(lambda done, total: seen.append((done, total))):
        outcomes = list(pool.run(tasks))
    assert all(outcome.ok for outcome in outcomes)
    assert (40, 40) in seen or (80, 80) in seen
    assert all(done <= total <= 40 * jobs for done, total in seen)


# --- damaged files go to the fast repair first -----------------------------------------


def test_a_file_whose_xref_pointer_is_broken_is_repaired_before_pdfminer_scans_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: pdfminer's fallback parsed every object of a damaged 1 MB file (13 s, then
    "No /Root object!") before PDFium's 0.3 s repair was tried."""
    from structchunk.parsers.pdf.engines import opening

    pages = [Page().text(72, 700, f"Page {n} of the damaged file.") for n in range(1, 4)]
    good = pdf_bytes(pages)
    middle = good.index(b"2 0 obj")
    shifted = good[:middle] + b"% junk that moves every offset\n" * 50 + good[middle:]
    opened_with: list[bytes] = []
    real_open = opening.open_plain

    def recording_open(data: bytes, password: str) -> object:
        opened_with.append(data)
        return real_open(data, password)

    monkeypatch.setattr(opening, "open_plain", recording_open)
    opened = opening.open_pdf(shifted)
    assert opened.repaired and opened_with[0] != shifted
    assert len(opened.pdf.pages) == 3
    opened_with.clear()
    assert not opening.open_pdf(good).repaired and opened_with == [good]


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for whoever adopted it to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@linux_only
def test_workers_do_not_outlive_a_killed_parent(tmp_path: Path) -> None:
    """Before: forked workers held copies of the parent's pipe ends, so after `kill -9`
    of the CLI they waited for work forever."""
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text("# Big\n\n" + ("Word " * 40 + "end.\n\n") * 60000)
    cli = subprocess.Popen(
        [sys.executable, "-m", "structchunk", "convert", str(tmp_path / "a.md")]
        + [str(tmp_path / "b.md"), "--out-dir", str(tmp_path / "out"), "--jobs", "2", "-q"],
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 30
    while len(workers) < 2 and time.monotonic() < deadline:
        children = Path(f"/proc/{cli.pid}/task/{cli.pid}/children")
        workers = [int(pid) for pid in children.read_text().split()] if children.exists() else []
        time.sleep(0.05)
    assert len(workers) == 2
    cli.kill()
    cli.wait()
    deadline = time.monotonic() + 10
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [pid for pid in workers if _running(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive


@linux_only
def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_the_run_in_one_line_with_exit_130(tmp_path: Path) -> None:
    """Before: worker KeyboardInterrupt tracebacks and exit 1, the "a file failed" code."""
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text("# Big\n\n" + ("Word " * 40 + "end.\n\n") * 60000)
    out = tmp_path / "out"
    cli = subprocess.Popen(
        [sys.executable, "-m", "structchunk", "convert", str(tmp_path), "--out-dir", str(out)]
        + ["--jobs", "2", "-q"],
        stderr=subprocess.PIPE,
        text=True,
        # as from a terminal: a shell starts background jobs with SIGINT ignored, and a
        # test run started that way (a CI script with `&`) would pass that on, so Python
        # would never install its Ctrl-C handler and the run would finish with exit 0
        preexec_fn=_interruptible,
    )
    children = Path(f"/proc/{cli.pid}/task/{cli.pid}/children")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(children.read_text().split()) < 2:
        time.sleep(0.05)
    workers = [int(pid) for pid in children.read_text().split()]
    time.sleep(0.5)  # inside the files now
    cli.send_signal(signal.SIGINT)
    _, stderr = cli.communicate(timeout=30)
    assert cli.returncode == 130
    assert stderr.strip().splitlines() == [
        f"structchunk: error: interrupted: the files finished so far are in {out}; "
        "run the same command again to convert the rest"
    ]
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    assert not [pid for pid in workers if _running(pid)]


def _crash_when_forked(data: bytes, source: str, format: str, options: ChunkOptions) -> Any:
    if os.getpid() != _TEST_PROCESS:
        import faulthandler

        faulthandler.disable()  # pytest's handler would print the crash's stack
        os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("a PDF read by PDFium must be converted in a worker")


_TEST_PROCESS = os.getpid()


@pytest.mark.skipif(sys.platform != "linux", reason="forks a worker that segfaults")
def test_a_crash_in_pdfium_costs_one_pdf_even_without_limits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """PDFium is C code: a damaged file that crashes it must fail that file in one line.
    Before: with no limits set, one PDF and a Markdown file were converted in the CLI's
    own process, and a crash there ended the whole run with no output at all."""
    import structchunk.batch.work as work

    monkeypatch.setattr(work, "iter_records_from_bytes", _crash_when_forked)
    path = tmp_path / "crash.pdf"
    path.write_bytes(pdf_bytes([Page().text(72, 700, "Crash")]))
    items, _ = expand_inputs([str(path)], None)
    report = run_batch(items, OPTIONS, BatchConfig(out_dir=tmp_path / "out", jobs=1))
    (failure,) = report.failures
    assert failure.kind == "worker_died" and "crash.pdf" in failure.message
    assert "\n" not in failure.message
