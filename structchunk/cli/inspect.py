"""`structchunk inspect`: flag and summarise chunks — ours, made on the fly, or another
tool's JSONL.

Tables and JSON go to stdout, one-line errors and notes to stderr. Exit codes: 0 fine,
1 some input failed, 2 usage error, 3 an `--fail-on` flag occurred.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import click

from ..batch.atomic import atomic_writer
from ..errors import StructChunkError
from ..quality.flags import FLAGS, Flag, FlagRules
from ..quality.inspection import Inspection, inspect_documents
from ..quality.loading import is_chunk_file, load_inputs
from ..quality.tables import compare_table, flagged_listing, inspect_table
from ..quality.views import read_chunk_file
from ..tokenizers import get_tokenizer
from .chunking_flags import chunking_options, options_from_flags
from .terminal import EXIT_INPUT_FAILED, echo_error, exit_usage

EXIT_FLAGGED = 3
"""`inspect --fail-on`: distinct from 1 (an input failed) and 2 (usage), so CI can tell."""


def _parse_flags(text: str) -> list[Flag]:
    names = [name.strip().upper() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in FLAGS]
    if unknown:
        raise click.BadParameter(
            f"unknown flag {', '.join(unknown)}; known: {', '.join(FLAGS)}", param_hint="--fail-on"
        )
    return [flag for flag in FLAGS if flag in names]


def _write_html(path: str, inspection: Inspection, compare: Inspection | None) -> None:
    from ..quality.report_html import render_report

    with atomic_writer(path) as handle:
        handle.write(render_report(inspection, compare))
    click.echo(f"structchunk: wrote {path}", err=True)


def _print_inspection(inspection: Inspection, compare: Inspection | None, show: int) -> None:
    click.echo(inspect_table(inspection))
    if show:
        flagged = inspection.flagged(show)
        plural = "s" if len(flagged) != 1 else ""
        click.echo(
            f"\nfirst {len(flagged)} flagged chunk{plural}:" if flagged else "\nno flagged chunks"
        )
        if flagged:
            click.echo(flagged_listing(flagged))
    if compare is not None:
        click.echo("\n" + compare_table(inspection, compare))


def _inputs_label(inputs: Sequence[str]) -> str:
    """`structchunk` when we chunk, the file name for one JSONL file, else `inputs`."""
    chunk_files = [raw for raw in inputs if is_chunk_file(raw)]
    if not chunk_files:
        return "structchunk"
    return os.path.basename(chunk_files[0]) if len(inputs) == 1 else "inputs"


@click.command("inspect")
@click.argument("inputs", nargs=-1, required=True)
@chunking_options
@click.option(
    "--budget",
    type=int,
    default=None,
    help="Budget that TOO_LARGE is judged against (default: --max-tokens); for "
    "JSONL inputs, the budget they were made for.",
)
@click.option(
    "--show",
    type=click.IntRange(min=0),
    default=0,
    metavar="N",
    help="Print the first N flagged chunks with their start and end.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@click.option(
    "--html",
    "html_path",
    default=None,
    metavar="REPORT.html",
    help="Write a self-contained HTML report of every chunk.",
)
@click.option(
    "--fail-on",
    default="",
    metavar="FLAG[,FLAG]",
    help=f"Exit with {EXIT_FLAGGED} when any of these flags occurs.",
)
@click.option(
    "--compare",
    "compare_path",
    default=None,
    metavar="OTHER.jsonl",
    help="Another tool's chunks (text, page_content or content) shown side by side.",
)
@click.pass_context
def inspect_command(
    ctx: click.Context,
    /,
    inputs: tuple[str, ...],
    budget: int | None,
    show: int,
    as_json: bool,
    html_path: str | None,
    fail_on: str,
    compare_path: str | None,
    **params: Any,
) -> None:
    """Flag and summarise chunks: INPUTS are documents (chunked with the options below)
    or chunk JSONL files (ours or another tool's).

    Flags: CUT_MID_SENTENCE, NO_HEADING, TOO_SMALL, TOO_LARGE, TABLE_SPLIT,
    PREFIX_SHORTENED (see docs/inspect-and-eval.md).
    """
    options = options_from_flags(params)
    gate = _parse_flags(fail_on)
    try:
        loaded = load_inputs(inputs, options)
    except StructChunkError as error:
        exit_usage(error)
    rules = FlagRules(
        budget=budget if budget is not None else options.max_tokens,
        min_tokens=options.min_tokens,
    )
    tokenizer = get_tokenizer(options.tokenizer)
    inspection = inspect_documents(
        loaded.documents, rules, tokenizer.name, label=_inputs_label(inputs)
    )
    compare = None
    if compare_path is not None:
        try:
            other = read_chunk_file(compare_path, tokenizer.count, tokenizer.name)
        except StructChunkError as error:
            exit_usage(error)
        compare = inspect_documents(
            other,
            rules,
            tokenizer.name,
            label=os.path.basename(compare_path),
        )
    for failure in loaded.failures:
        echo_error(failure)
    occurring = inspection.occurring(gate)
    if as_json:
        document = inspection.to_json(show)
        document.update(
            {
                "compare": compare.to_json() if compare else None,
                "failures": loaded.failures,
                "fail_on": {"flags": gate, "occurring": occurring},
            }
        )
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        _print_inspection(inspection, compare, show)
    if html_path:
        try:
            _write_html(html_path, inspection, compare)
        except StructChunkError as error:  # the report cannot be written: the table stands
            echo_error(error)
            ctx.exit(EXIT_INPUT_FAILED)
    if loaded.failures or not loaded.documents:
        ctx.exit(EXIT_INPUT_FAILED)
    if occurring:
        click.echo(f"structchunk: {', '.join(occurring)} found (--fail-on)", err=True)
        ctx.exit(EXIT_FLAGGED)
