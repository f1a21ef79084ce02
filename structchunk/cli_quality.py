"""The command line for looking at chunks: `structchunk inspect` and `structchunk eval`.

Like `cli.py`, this module alone writes to the terminal: tables and JSON to stdout,
one-line errors and notes to stderr. Exit codes: 0 fine, 1 some input failed (or a
missing optional package), 2 usage error, 3 an `inspect --fail-on` flag occurred.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import click

from .cli_options import chunking_options, options_from_flags
from .errors import StructChunkError
from .options import ChunkOptions
from .quality.evaluate import DEFAULT_KS, EvalResult, load_bm25s
from .quality.flags import FLAGS, Flag, FlagRules
from .quality.grid import RunSpec, grid_specs, looks_like_axis, parse_axes, parse_baseline
from .quality.inspection import Inspection, inspect_documents
from .quality.loading import expand_documents, is_chunk_file, load_inputs
from .quality.questions import read_questions, resolve_documents
from .quality.runs import read_sources, run_eval
from .quality.tables import compare_table, eval_table, flagged_listing, inspect_table
from .quality.views import read_chunk_file
from .records import atomic_writer
from .terminal import echo_error, exit_usage
from .tokenizers import get_tokenizer

EXIT_INPUT_FAILED = 1
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
    from .quality.report_html import render_report

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
        exit_usage(str(error))
    any_jsonl = any(is_chunk_file(raw) for raw in inputs)
    rules = FlagRules(
        budget=budget if budget is not None else options.max_tokens,
        min_tokens=options.min_tokens,
        heading_prefix=None if any_jsonl else options.heading_prefix,
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
            exit_usage(str(error))
        compare = inspect_documents(
            other,
            FlagRules(rules.budget, rules.min_tokens),
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
        _write_html(html_path, inspection, compare)
    if loaded.failures or not loaded.documents:
        ctx.exit(EXIT_INPUT_FAILED)
    if occurring:
        click.echo(f"structchunk: {', '.join(occurring)} found (--fail-on)", err=True)
        ctx.exit(EXIT_FLAGGED)


def _parse_ks(text: str) -> list[int]:
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise click.BadParameter(
            f"{text!r}: use positive integers like 1,3,5", param_hint="--k"
        ) from None
    if not ks or ks[0] < 1:
        raise click.BadParameter(f"{text!r}: use positive integers like 1,3,5", param_hint="--k")
    return ks


def _run_specs(
    options: ChunkOptions, axes_text: Sequence[str], baselines: Sequence[str]
) -> tuple[list[RunSpec], list[str]]:
    try:
        axes = [axis for text in axes_text for axis in parse_axes(text)]
        specs, rejected = grid_specs(options, axes)
        specs += [parse_baseline(text) for text in baselines]
    except StructChunkError as error:
        exit_usage(str(error))
    return specs, rejected


def _split_axes(arguments: Sequence[str]) -> tuple[list[str], list[str]]:
    """Bare `FIELD=V1,V2` arguments are grid axes (`--grid a=1,2 b=3,4` reads naturally),
    unless a file of that name exists; the rest are documents."""
    axes = [a for a in arguments if looks_like_axis(a) and not os.path.exists(a)]
    return axes, [a for a in arguments if a not in axes]


def _eval_json(
    questions_path: str,
    used: int,
    unmatched: int,
    invalid: int,
    documents: int,
    ks: Sequence[int],
    results: Sequence[EvalResult],
    failures: Sequence[str],
    rejected: Sequence[str],
) -> str:
    return json.dumps(
        {
            "questions": {
                "file": questions_path,
                "used": used,
                "unmatched": unmatched,
                "invalid": invalid,
            },
            "documents": documents,
            "k": list(ks),
            "runs": [result.to_json() for result in results],
            "failures": list(failures),
            "skipped_runs": list(rejected),
        },
        indent=2,
        ensure_ascii=False,
    )


@click.command("eval")
@click.argument("docs", nargs=-1, required=True)
@click.option(
    "--questions",
    "questions_path",
    required=True,
    metavar="Q.jsonl",
    help="question, answer (exact excerpt), optional answers list and doc.",
)
@click.option(
    "--root",
    default=None,
    metavar="DIR",
    help="Corpus root the questions' doc paths are relative to (default: match "
    "them as path suffixes of the inputs).",
)
@click.option(
    "--k",
    "k_text",
    default=",".join(map(str, DEFAULT_KS)),
    show_default=True,
    help="Cut-offs for hit@k and coverage@k.",
)
@click.option(
    "--grid",
    "grid",
    multiple=True,
    metavar="FIELD=V1,V2",
    help="Evaluate every combination, e.g. --grid max_tokens=128,256 "
    "overlap_tokens=0,32 (repeatable).",
)
@click.option(
    "--baseline",
    "baselines",
    multiple=True,
    metavar="fixed:N",
    help="Add N-character fixed-size chunks to the table (repeatable).",
)
@chunking_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def eval_command(
    ctx: click.Context,
    docs: tuple[str, ...],
    questions_path: str,
    root: str | None,
    k_text: str,
    grid: tuple[str, ...],
    baselines: tuple[str, ...],
    as_json: bool,
    **params: Any,
) -> None:
    """Measure retrieval on your own questions: BM25 over the chunks of DOCS, then
    hit@k, coverage@k and the answer-split rate (needs `structchunk[eval]`)."""
    options = options_from_flags(params)
    ks = _parse_ks(k_text)
    bare_axes, inputs = _split_axes(docs)
    specs, rejected = _run_specs(options, [*grid, *bare_axes], baselines)
    try:
        load_bm25s()
        question_set = read_questions(questions_path)
        items, problems = expand_documents(inputs, options.format)
    except StructChunkError as error:
        echo_error(str(error))
        ctx.exit(EXIT_INPUT_FAILED)
    sources, failures = read_sources(items)
    questions, unmatched = resolve_documents(
        question_set.questions, [s.item.path for s in sources], root
    )
    if not questions:
        echo_error(
            f"{questions_path}: no usable question ({unmatched} name a document that "
            f"is not among the inputs, {question_set.invalid} invalid lines); "
            "check the inputs and --root"
        )
        ctx.exit(EXIT_INPUT_FAILED)
    results, run_failures = run_eval(sources, specs, options, questions, ks)
    failures = problems + failures + run_failures
    for message in failures:
        echo_error(message)
    for message in rejected:
        click.echo(f"structchunk: note: {message}", err=True)
    if as_json:
        click.echo(
            _eval_json(
                questions_path,
                len(questions),
                unmatched,
                question_set.invalid,
                len(sources),
                ks,
                results,
                failures,
                rejected,
            )
        )
    else:
        click.echo(
            f"{len(questions)} questions over {len(sources)} documents"
            + (f"; {unmatched} skipped (document not among the inputs)" if unmatched else "")
            + (f"; {question_set.invalid} invalid lines" if question_set.invalid else "")
        )
        click.echo(eval_table(results, ks))
    if failures or not sources:
        ctx.exit(EXIT_INPUT_FAILED)


QUALITY_COMMANDS = (inspect_command, eval_command)
"""What `cli.py` adds to the `structchunk` group."""
