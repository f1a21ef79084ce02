"""`structchunk eval`: retrieval on the user's own questions, for several option sets at
once and the fixed-size baseline (needs `structchunk-rag[eval]`).

The table or JSON goes to stdout, one-line errors and notes to stderr. Exit codes: 0
fine, 1 some input failed (or bm25s is missing), 2 usage error.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import click

from ..errors import StructChunkError
from ..options import ChunkOptions
from ..quality.embedding import EmbedFunction, load_embedder
from ..quality.grid import RunSpec, grid_specs, looks_like_axis, parse_axes, parse_baseline
from ..quality.loading import expand_documents
from ..quality.outcomes import question_records, write_question_records
from ..quality.questions import read_questions, resolve_documents
from ..quality.retrieval import DEFAULT_KS, EvalResult, load_bm25s
from ..quality.runs import read_sources, run_eval
from ..quality.tables import eval_table
from .chunking_flags import chunking_options, options_from_flags
from .terminal import EXIT_INPUT_FAILED, echo_error, exit_usage


def _parse_ks(text: str, flag: str = "--k", example: str = "1,3,5") -> list[int]:
    """Positive integers, comma-separated, sorted (`--k`, `--context-budget`)."""
    problem = f"{text!r}: use positive integers like {example}"
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise click.BadParameter(problem, param_hint=flag) from None
    if not ks or ks[0] < 1:
        raise click.BadParameter(problem, param_hint=flag)
    return ks


def _run_specs(
    options: ChunkOptions, axes_text: Sequence[str], baselines: Sequence[str]
) -> tuple[list[RunSpec], list[str]]:
    try:
        axes = [axis for text in axes_text for axis in parse_axes(text)]
        specs, rejected = grid_specs(options, axes)
        specs += [parse_baseline(text) for text in baselines]
    except StructChunkError as error:
        exit_usage(error)
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
    per_question: Sequence[dict[str, Any]],
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
            "per_question": list(per_question),
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
@click.option(
    "--retriever",
    type=click.Choice(["bm25", "dense", "both"]),
    default=None,
    help="Rank chunks by BM25, by --embed's embeddings, or score both "
    "(default: bm25; both when --embed is given).",
)
@click.option(
    "--embed",
    "embed_spec",
    default=None,
    metavar="MODULE:FUNCTION",
    help="Embedding function for dense retrieval: an importable callable from a list of "
    "texts to vectors, or sentence-transformers:MODEL_DIR (a local model folder).",
)
@click.option(
    "--misses",
    "misses_path",
    default=None,
    metavar="FILE",
    help="Write every question under every run as JSONL: its answer's rank, hit@k, "
    "the top chunk's and the answer chunk's heading paths (filter on hit@1 for misses).",
)
@click.option(
    "--context-budget",
    "budget_text",
    default=None,
    metavar="N1,N2",
    help="Also fill a context of N tokens (e.g. 512,1024,2048) from each question's ranked "
    "chunks, from their parent records, and from chunks merged into their parent once two "
    "are hits (small-to-big); report the answers wholly inside it (ctx@N, parent@N, "
    "merged@N).",
)
@chunking_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def eval_command(
    ctx: click.Context,
    /,
    docs: tuple[str, ...],
    questions_path: str,
    root: str | None,
    k_text: str,
    grid: tuple[str, ...],
    baselines: tuple[str, ...],
    retriever: str | None,
    embed_spec: str | None,
    misses_path: str | None,
    budget_text: str | None,
    as_json: bool,
    **params: Any,
) -> None:
    """Measure retrieval on your own questions: BM25 (or your embeddings) over the chunks
    of DOCS, then hit@k, coverage@k and the answer-split rate (needs `structchunk-rag[eval]`)."""
    options = options_from_flags(params)
    ks = _parse_ks(k_text)
    budgets = _parse_ks(budget_text, "--context-budget", "512,1024") if budget_text else []
    bare_axes, inputs = _split_axes(docs)
    specs, rejected = _run_specs(options, [*grid, *bare_axes], baselines)
    retriever = retriever or ("both" if embed_spec else "bm25")
    if retriever != "bm25" and not embed_spec:
        exit_usage(f"--retriever {retriever} needs --embed MODULE:FUNCTION")
    try:
        load_bm25s()
        embed = load_embedder(embed_spec) if embed_spec and retriever != "bm25" else None
        question_set = read_questions(questions_path)
        items, problems = expand_documents(inputs, options.format)
    except StructChunkError as error:
        echo_error(error)
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
    embedders: list[EmbedFunction | None] = [None] if retriever != "dense" else []
    if retriever != "bm25":
        embedders.append(embed)
    try:
        results, run_failures = run_eval(sources, specs, options, questions, ks, embedders, budgets)
    except StructChunkError as error:  # the embedding function failed or misbehaved
        echo_error(error)
        ctx.exit(EXIT_INPUT_FAILED)
    failures = problems + failures + run_failures
    for message in failures:
        echo_error(message)
    for message in rejected:
        click.echo(f"structchunk: note: {message}", err=True)
    per_question = question_records(results)
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
                per_question,
            )
        )
    else:
        click.echo(
            f"{len(questions)} questions over {len(sources)} documents"
            + (f"; {unmatched} skipped (document not among the inputs)" if unmatched else "")
            + (f"; {question_set.invalid} invalid lines" if question_set.invalid else "")
        )
        click.echo(eval_table(results, ks))
    if misses_path is not None:
        try:
            write_question_records(misses_path, per_question)
        except StructChunkError as error:  # the file cannot be written: the table stands
            echo_error(str(error))
            ctx.exit(EXIT_INPUT_FAILED)
    if failures or not sources:
        ctx.exit(EXIT_INPUT_FAILED)
