"""The command line: `structchunk convert`, `structchunk schema`.

Only this module writes to the terminal. stdout carries data (JSONL, the schema);
progress, the summary and one-line errors go to stderr.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

import click
from tqdm import tqdm

from . import __version__
from .api import iter_chunks_from_bytes, read_input, resolve_options
from .errors import StructChunkError
from .inputs import InputFile, expand_inputs
from .options import DEFAULT_MAX_TOKENS, ChunkOptions
from .parsers import FORMATS
from .records import atomic_writer, chunk_schema, to_json_line
from .summary import BudgetSummary

log = logging.getLogger("structchunk")


def _echo_error(message: str) -> None:
    click.echo(f"structchunk: error: {message}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="structchunk")
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
def cli(verbose: int) -> None:
    """Structure-aware document chunking for RAG: Markdown, HTML, PDF and text into
    heading-prefixed, budgeted JSONL chunks."""
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(level=max(level, logging.DEBUG), stream=sys.stderr,
                        format="structchunk: %(levelname)s: %(message)s")


@dataclass
class ConvertResult:
    ok: int = 0
    failed: int = 0
    chunks: int = 0


def _convert_one(item: InputFile, options: ChunkOptions, strict: bool,
                 summary: BudgetSummary) -> list[str]:
    """All JSONL lines of one input, or an exception: never a partial document."""
    data = sys.stdin.buffer.read() if item.path == "-" else read_input(item.path)
    lines = []
    for chunk in iter_chunks_from_bytes(data, item.path, item.format, options, strict=strict):
        summary.add(chunk.n_tokens, chunk.heading_path, chunk.text)
        lines.append(to_json_line(chunk))
    if not lines and data.strip():
        log.warning("%s: no text to chunk", item.path)
    return lines


@contextmanager
def _output(path: str) -> Iterator[IO[str]]:
    if path == "-":
        yield sys.stdout
    else:
        with atomic_writer(path) as handle:
            yield handle


def _run_convert(items: list[InputFile], options: ChunkOptions, out: str, strict: bool,
                 quiet: bool, verbose: int) -> ConvertResult:
    result = ConvertResult()
    summary = BudgetSummary(options.max_tokens, options.tokenizer_name)
    show_progress = not quiet and len(items) > 1 and sys.stderr.isatty()
    with _output(out) as handle, tqdm(total=len(items), unit="file", disable=not show_progress,
                                      file=sys.stderr, leave=False) as progress:
        for item in items:
            try:
                lines = _convert_one(item, options, strict, summary)
            except StructChunkError as error:
                _echo_error(str(error.with_source(item.path)))
                result.failed += 1
            except Exception as error:  # the file boundary: one bad file never stops a batch
                if verbose:
                    log.exception("%s: internal error", item.path)
                _echo_error(f"{item.path}: internal error: {type(error).__name__}: {error} "
                            "(please report it; -v shows the traceback)")
                result.failed += 1
            else:
                handle.writelines(lines)
                result.ok += 1
                result.chunks += len(lines)
            progress.update(1)
    if not quiet:
        click.echo(summary.line(result.ok, result.failed), err=True)
    return result


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", "out", default="-", show_default=True,
              help="JSONL file to write (atomically), or - for stdout.")
@click.option("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, show_default=True,
              help="Token budget per chunk, heading prefix included.")
@click.option("--min-tokens", type=int, default=0, show_default=True,
              help="Merge smaller chunks into a neighbour in the same section.")
@click.option("--overlap-tokens", type=int, default=0, show_default=True,
              help="Repeat up to this many tokens of trailing sentences (same section).")
@click.option("--tokenizer", default="words", show_default=True,
              help="words, chars, tiktoken:<encoding> or hf:<name-or-path>.")
@click.option("--format", "format_", type=click.Choice(sorted(FORMATS)), default=None,
              help="Override detection by extension (required for stdin).")
@click.option("--no-heading-prefix", is_flag=True,
              help="Do not start chunk text with the heading path.")
@click.option("--sentence-model", default="bundled", show_default=True,
              help="bundled, or nltk:<language> for an installed punkt_tab model.")
@click.option("--password", default=None, envvar="STRUCTCHUNK_PDF_PASSWORD",
              help="Password for encrypted PDFs (or $STRUCTCHUNK_PDF_PASSWORD).")
@click.option("--strict", is_flag=True,
              help="Fail a file on any budget violation or lost text.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.pass_context
def convert(ctx: click.Context, inputs: tuple[str, ...], out: str, max_tokens: int,
            min_tokens: int, overlap_tokens: int, tokenizer: str, format_: str | None,
            no_heading_prefix: bool, sentence_model: str, password: str | None, strict: bool,
            quiet: bool) -> None:
    """Chunk INPUTS (files, directories, or - for stdin) into JSONL records.

    Directories are searched recursively for known extensions. A file that fails
    gets a one-line error on stderr and no records; the others are still written,
    and the exit code is 1.
    """
    try:
        options = resolve_options(
            max_tokens=max_tokens, min_tokens=min_tokens, overlap_tokens=overlap_tokens,
            tokenizer=tokenizer, format=format_, heading_prefix=not no_heading_prefix,
            sentence_model=sentence_model, pdf_password=password)
        _check_resources(options)
        items, missing = expand_inputs(inputs, format_)
    except StructChunkError as error:
        raise click.UsageError(str(error)) from None
    for problem in missing:
        _echo_error(str(problem))
    verbose = ctx.find_root().params.get("verbose", 0)
    result = _run_convert(items, options, out, strict, quiet, verbose)
    if result.failed or missing:
        ctx.exit(1)


def _check_resources(options: ChunkOptions) -> None:
    """Resolve the tokenizer and sentence model once, before any file is read."""
    from .sentences import get_segmenter
    from .tokenizers import get_tokenizer

    get_tokenizer(options.tokenizer)
    get_segmenter(options.sentence_model)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of a chunk record."""
    click.echo(json.dumps(chunk_schema(), indent=2))


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="structchunk")
