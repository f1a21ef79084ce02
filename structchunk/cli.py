"""The command line: `structchunk convert`, `schema`, `inspect`, `eval`.

Only this module writes to the terminal. stdout carries data (JSONL, the schema);
progress, the summary and one-line errors go to stderr.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from . import __version__
from .batch import BatchConfig, BatchReport, default_manifest, run_batch
from .batch.work import Outcome
from .cli_options import chunking_options, options_from_flags
from .errors import StructChunkError
from .inputs import InputFile, expand_inputs
from .options import ChunkOptions
from .progress import listening
from .records import chunk_schema
from .terminal import configure_logging, echo_error, exit_usage

log = logging.getLogger("structchunk")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="structchunk")
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
def cli(verbose: int) -> None:
    """Structure-aware document chunking for RAG: Markdown, HTML, PDF and text into
    heading-prefixed, budgeted JSONL chunks."""
    level = logging.WARNING - 10 * verbose
    configure_logging(max(level, logging.DEBUG))


MIN_PAGES_FOR_A_BAR = 20
"""Documents shorter than this read in a few seconds: no page bar."""


class _ProgressBar:
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

    def pages(self, done: int, total: int) -> None:
        """A progress report from inside the document being read."""
        if not self.enabled or total < MIN_PAGES_FOR_A_BAR:
            return
        if self.page_bar is None or self.page_bar.total != total:
            self._close_pages()
            self.page_bar = tqdm(
                total=total,
                unit="page",
                file=sys.stderr,
                leave=False,
                dynamic_ncols=True,
                position=1,
            )
        self.page_bar.update(done - self.page_bar.n)

    def logging_above(self) -> AbstractContextManager[None]:
        """Log lines printed above the bars rather than through them."""
        return logging_redirect_tqdm() if self.enabled else nullcontext()

    def _close_pages(self) -> None:
        if self.page_bar is not None:
            self.page_bar.close()
            self.page_bar = None

    def __call__(self, outcome: Outcome | None, size: int) -> None:
        self._close_pages()
        if outcome is not None and not outcome.ok:
            tqdm.write(f"structchunk: error: {outcome.message}", file=sys.stderr)
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


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option(
    "-o",
    "--output",
    "out",
    default="-",
    show_default=True,
    help="JSONL file to write (atomically), or - for stdout.",
)
@chunking_options
@click.option("--strict", is_flag=True, help="Fail a file on any budget violation or lost text.")
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write one JSONL per input, mirroring the input tree (a/b.md -> "
    "OUT_DIR/a/b.md.jsonl), instead of one -o file.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: the number of cores).",
)
@click.option(
    "--errors",
    "errors_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write failed files as JSONL (path, kind, message).",
)
@click.option(
    "--manifest",
    "manifest_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Manifest for incremental reruns (default: beside the output).",
)
@click.option("--no-manifest", is_flag=True, help="Convert every input, remember nothing.")
@click.option(
    "--prune",
    is_flag=True,
    help="Remove outputs of inputs that no longer exist (from the manifest).",
)
@click.option(
    "--timeout-per-file",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Fail a file that takes longer than this many seconds.",
)
@click.option(
    "--allow-failures",
    is_flag=True,
    help="Exit 0 even when some files failed (they are still reported).",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Run on this machine, or on a Ray cluster.",
)
@click.option(
    "--ray-address", default=None, help="Ray cluster address (default: start a local Ray)."
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.pass_context
def convert(
    ctx: click.Context,
    inputs: tuple[str, ...],
    out: str,
    strict: bool,
    out_dir: Path | None,
    jobs: int | None,
    errors_path: Path | None,
    manifest_path: Path | None,
    no_manifest: bool,
    prune: bool,
    timeout_per_file: float | None,
    allow_failures: bool,
    engine: str,
    ray_address: str | None,
    quiet: bool,
    **chunking: Any,
) -> None:
    """Chunk INPUTS (files, directories, glob patterns, or - for stdin) into JSONL.

    Directories are searched recursively for known extensions; all inputs are
    processed in sorted order. A file that fails gets a one-line error on stderr and
    no records; the others are still written, and the exit code is 1 (0 with
    --allow-failures). Writing to files, a manifest beside the output makes reruns
    convert only what changed.
    """
    if out_dir is not None and out != "-":
        raise click.UsageError("give either -o/--output or --out-dir, not both")
    options = options_from_flags(chunking)
    try:
        items, missing = expand_inputs(inputs, options.format)
    except StructChunkError as error:
        exit_usage(str(error))
    for problem in missing:
        echo_error(str(problem))
    config = BatchConfig(
        out=out,
        out_dir=out_dir,
        jobs=jobs,
        errors=errors_path,
        prune=prune,
        timeout=timeout_per_file,
        strict=strict,
    )
    if not no_manifest:
        config = replace(config, manifest=manifest_path or default_manifest(config))
    bar = _ProgressBar(len(items), enabled=not quiet and sys.stderr.isatty())
    try:
        with bar.logging_above():
            if engine == "ray":
                report = _run_on_ray(items, options, config, ray_address, bar)
            else:
                with listening(bar.pages):
                    report = run_batch(items, options, config, progress=bar)
    finally:
        bar.close()
    if not quiet and report.summary is not None:
        click.echo(
            report.summary.line(
                report.ok, report.failed, report.skipped, report.seconds, report.pruned
            ),
            err=True,
        )
    if (report.failed or missing) and not allow_failures:
        ctx.exit(1)


def _run_on_ray(
    items: list[InputFile],
    options: ChunkOptions,
    config: BatchConfig,
    address: str | None,
    progress: _ProgressBar,
) -> BatchReport:
    try:
        from .ray import run_batch_on_ray
    except ImportError as error:
        exit_usage(f"--engine ray needs Ray: pip install 'structchunk[ray]' ({error})")
    return run_batch_on_ray(items, options, config, address, progress)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of a chunk record."""
    click.echo(json.dumps(chunk_schema(), indent=2))


from .cli_quality import QUALITY_COMMANDS  # noqa: E402  (they attach to `cli` above)

for _command in QUALITY_COMMANDS:
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="structchunk")
