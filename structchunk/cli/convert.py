"""`structchunk convert`: inputs to JSONL, locally or on Ray, with a manifest for reruns.

stdout carries data only (the JSONL, when `-o -`); progress, the summary and one-line
errors go to stderr. Exit codes: 0 all files converted, 1 some file failed (0 with
`--allow-failures`), 2 usage error, or an output that cannot be written at all (a full
disk, a read-only folder, another run writing into the same `--out-dir`).
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ..batch import BatchConfig, BatchReport, default_manifest, run_batch
from ..batch.atomic import is_special_file
from ..batch.inputs import InputFile, scan_inputs
from ..batch.memory import parse_size_mb
from ..batch.parquet import OUTPUT_FORMATS, require_pyarrow
from ..errors import OutputError, StructChunkError, UnsupportedFormatError, install_hint
from ..options import ChunkOptions
from ..progress import listening_with_ocr
from .chunking_flags import chunking_options, options_from_flags
from .progress_bar import ProgressBar
from .terminal import USAGE_EXIT_CODE, echo_error, exit_usage


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option(
    "-o",
    "--output",
    "out",
    default="-",
    show_default=True,
    help="File to write (atomically): .jsonl, or .parquet for a table; - for stdout (JSONL).",
)
@click.option(
    "--output-format",
    type=click.Choice(["jsonl", "parquet"]),
    default=None,
    help="Record format (default: from -o's extension; jsonl for --out-dir and stdout). "
    f"Parquet needs pyarrow: {install_hint('parquet')}.",
)
@chunking_options
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write one JSONL per input, mirroring the input tree (a/b.md -> "
    "OUT_DIR/a/b.md.jsonl; absolute paths from their common folder), instead of one -o file.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes: files in parallel, or the pages of one large PDF "
    "(default: the number of cores).",
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
    "--changes",
    "changes_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the plan for a vector store as JSONL: one line per chunk id, "
    '{"op": "add"|"delete"|"keep", "id", "source"}, since the last completed run '
    "(needs the manifest: --out-dir, or -o with --manifest).",
)
@click.option(
    "--prune",
    is_flag=True,
    help="Remove outputs of inputs that no longer exist (from the manifest).",
)
@click.option(
    "--timeout-per-file",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Fail a file that takes longer than this many seconds (it then runs in a "
    "worker process, which is stopped if it does not stop itself).",
)
@click.option(
    "--max-memory-per-file",
    "max_memory",
    metavar="SIZE",
    default=None,
    help="Fail a file whose conversion needs more memory than this (e.g. 2G, 1500M; "
    "0 for no limit). Default: 2G (less where the workers would pass 80%% of RAM "
    "together); not held under --engine ray.",
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
@click.option(
    "--source-name",
    metavar="NAME",
    default=None,
    help="Name of the document read from stdin (-): its records' source (instead of -), "
    "its output name under --out-dir, and its format by extension when its bytes do not "
    "say it (a PDF, an Office or EPUB package are recognised).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.pass_context
def convert(
    ctx: click.Context,
    /,
    inputs: tuple[str, ...],
    out: str,
    output_format: str | None,
    out_dir: Path | None,
    jobs: int | None,
    errors_path: Path | None,
    manifest_path: Path | None,
    no_manifest: bool,
    changes_path: Path | None,
    prune: bool,
    timeout_per_file: float | None,
    max_memory: str | None,
    allow_failures: bool,
    engine: str,
    ray_address: str | None,
    source_name: str | None,
    quiet: bool,
    **chunking: Any,
) -> None:
    """Chunk INPUTS (files, directories, glob patterns, URLs such as s3://… with the
    remote extra, or - for stdin) into JSONL.

    Directories are searched recursively for known extensions (the summary counts the
    other files, and -v lists them); all inputs are processed in sorted order. A file
    that fails gets a one-line error on stderr and no records; the others are still
    written, and the exit code is 1 (0 with --allow-failures). Writing to files, a
    manifest beside the output makes reruns convert only what changed.
    """
    if out_dir is not None and out != "-":
        raise click.UsageError("give either -o/--output or --out-dir, not both")
    _check_destination(out, out_dir)
    output_format = _output_format(out, out_dir, output_format)
    options = options_from_flags(chunking)
    if source_name is not None and "-" not in inputs:
        exit_usage("--source-name names the document read from stdin; give - as an input")
    try:
        found = scan_inputs(inputs, options.format, source_name)
    except StructChunkError as error:
        exit_usage(error)
    items, problems = found.items, found.problems
    if options.doc_key is not None and len(items) + len(problems) > 1:
        exit_usage("--doc-key names one document: give one input (a file or -)")
    for problem in problems:
        echo_error(problem)
    unsupported = sum(isinstance(p, UnsupportedFormatError) for p in problems)
    config = BatchConfig(
        out=out,
        out_dir=out_dir,
        jobs=jobs,
        errors=errors_path,
        prune=prune,
        output_format=output_format,
        timeout=timeout_per_file,
        max_memory_mb=_memory_limit(max_memory, engine),
    )
    if not no_manifest:
        config = replace(config, manifest=manifest_path or default_manifest(config))
    if changes_path is not None:
        if config.manifest is None:
            exit_usage(
                "--changes needs the manifest, which holds the last run's chunk ids: "
                "give --out-dir, or -o with --manifest PATH (and not --no-manifest)"
            )
        config = replace(config, changes=changes_path)
    bar = ProgressBar(len(items), enabled=not quiet and sys.stderr.isatty())
    try:
        with bar.logging_above():
            if engine == "ray":
                report = _run_on_ray(items, options, config, ray_address, bar)
            else:
                with listening_with_ocr(bar.pages):
                    report = run_batch(items, options, config, progress=bar)
    except OutputError as error:  # the output, manifest or errors file cannot be written
        unwritable: OutputError | None = error
    except KeyboardInterrupt:
        bar.close()
        echo_error(_interrupted(config))
        ctx.exit(INTERRUPTED_EXIT_CODE)
    else:
        unwritable = None
    finally:
        bar.close()
    if unwritable is not None:  # the destination, not a file: exit as for bad usage
        echo_error(str(unwritable))
        ctx.exit(USAGE_EXIT_CODE)
    if not quiet and report.summary is not None:
        line = report.summary.line(
            report.ok,
            report.failed,
            report.skipped,
            report.seconds,
            report.pruned,
            missing=len(problems) - unsupported,
            unsupported=unsupported,
            unknown=len(found.unknown),
        )
        if changes_path is not None and report.changes is not None:
            line += f"; {report.changes.line()}"
        click.echo(line, err=True)
    if (report.failed or problems) and not allow_failures:
        ctx.exit(1)


INTERRUPTED_EXIT_CODE = 130
"""128 + SIGINT, as shells report a command stopped by Ctrl-C."""


def _interrupted(config: BatchConfig) -> str:
    """What an interrupted run leaves, in one line."""
    if config.out_dir is not None:
        kept = f"the files finished so far are in {config.out_dir}"
        return f"interrupted: {kept}; run the same command again to convert the rest"
    if config.out != "-":
        return f"interrupted: {config.out} was not written"
    return "interrupted"


def _output_format(out: str, out_dir: Path | None, chosen: str | None) -> str:
    """The record format, from `--output-format` and -o's extension; a usage error for
    an extension structchunk does not write (never silently JSONL) or a mismatch."""
    if out_dir is not None or out == "-" or is_special_file(Path(out)):
        if out_dir is None and chosen == "parquet":  # -o /dev/stdout as -o -
            exit_usage("Parquet cannot go to stdout; give -o FILE.parquet or --out-dir DIR")
        fmt = chosen or "jsonl"
    else:
        suffix = Path(out).suffix.lower()
        named = OUTPUT_FORMATS.get(suffix)
        if named is None:
            exit_usage(
                f"-o {out}: structchunk writes .jsonl (or .ndjson) and .parquet files, "
                f"not {suffix or 'a name without an extension'}"
            )
        if chosen is not None and chosen != named:
            exit_usage(f"-o {out} names {named} output, but --output-format is {chosen}")
        fmt = named
    if fmt == "parquet":
        try:
            require_pyarrow()
        except StructChunkError as error:
            exit_usage(error)
    return fmt


def _memory_limit(size: str | None, engine: str) -> float | None:
    """MB from `--max-memory-per-file` (0: none; None: the default), or a usage error.

    Ray runs several tasks in one worker process, where no file can be capped alone: the
    default ceiling is not held there, and a limit asked for is refused rather than
    silently ignored."""
    if size is None:
        return None
    try:
        limit = parse_size_mb(size)
    except ValueError as error:
        exit_usage(f"--max-memory-per-file: {error}")
    if engine == "ray" and limit:
        exit_usage(
            "--max-memory-per-file is not supported with --engine ray; "
            "Ray's own memory monitor stops tasks that exhaust a node"
        )
    return limit


def _check_destination(out: str, out_dir: Path | None) -> None:
    """Refuse, before any work, a destination that cannot be what was asked for."""
    if out != "-" and (Path(out).is_dir() or out.endswith(("/", os.sep))):
        exit_usage(  # `-o out/` names a folder even before it exists
            f"-o {out}: is a directory; give a file name, or --out-dir {out} "
            "for one JSONL per input"
        )
    if out != "-" and is_special_file(Path(out)):  # a device or a pipe is written in place
        if not os.access(out, os.W_OK):
            exit_usage(f"-o {out}: no permission to write there")
        return
    folder = out_dir if out_dir is not None else (Path(out).parent if out != "-" else None)
    while folder is not None and not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the nearest existing folder is where writing starts
    if folder is not None and folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        exit_usage(f"{folder}: no permission to write there")


def _run_on_ray(
    items: list[InputFile],
    options: ChunkOptions,
    config: BatchConfig,
    address: str | None,
    progress: ProgressBar,
) -> BatchReport:
    try:
        from ..batch.ray_engine import run_batch_on_ray
    except ImportError as error:
        exit_usage(f"--engine ray needs Ray: {install_hint('ray')} ({error})")
    return run_batch_on_ray(items, options, config, address, progress)
