"""One `eval` run: documents read once, chunked per option set or baseline, each scored."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ..api import parse_document
from ..batch.boundary import FileFailure, guarded
from ..batch.inputs import InputFile
from ..options import ChunkOptions
from ..packing.render import render_block
from ..parsers import format_spec
from .embedding import EmbedFunction
from .grid import RunSpec
from .loading import chunk_document, read_bytes
from .questions import Question
from .retrieval import EvalResult, evaluate
from .views import ChunkView, DocumentChunks


@dataclass(frozen=True, slots=True)
class SourceDocument:
    item: InputFile
    data: bytes


def _read_source(item: InputFile) -> SourceDocument:
    return SourceDocument(item, read_bytes(item))


def read_sources(items: Sequence[InputFile]) -> tuple[list[SourceDocument], list[str]]:
    """Each document's bytes, read once for every run; one message per unreadable file."""
    sources, failures = [], []
    for item in items:
        result = guarded(item.path, partial(_read_source, item))
        if isinstance(result, FileFailure):
            failures.append(result.message)
        else:
            sources.append(result)
    return sources, failures


def document_text(source: SourceDocument, options: ChunkOptions) -> str:
    """The plain text a fixed-size baseline cuts: the file itself for Markdown and text
    (`FormatSpec.raw_text`), our extracted headings and blocks (blank-line separated)
    for HTML, PDF and the rest."""
    if format_spec(source.item.format).raw_text:
        return source.data.decode("utf-8", errors="replace").lstrip("\ufeff")
    document = parse_document(source.data, source.item.path, source.item.format, options)
    parts: list[str] = []
    for section in document.sections():
        if section.title:
            parts.append(section.title)
        parts.extend(render_block(block) for block in section.blocks)
    return "\n\n".join(parts)


def fixed_chunks(source: str, text: str, size: int) -> DocumentChunks:
    """`size`-character windows, cut wherever they fall: the baseline every chunker must beat."""
    views = [
        ChunkView(
            source=source,
            index=i,
            text=text[start : start + size],
            body=None,
            heading_path=(),
            n_tokens=len(text[start : start + size].split()),
            headings_recorded=False,
        )
        for i, start in enumerate(range(0, len(text), size))
    ]
    return DocumentChunks(source, views)


def chunk_sources(
    sources: Sequence[SourceDocument], spec: RunSpec, base: ChunkOptions, parents: bool = False
) -> tuple[list[DocumentChunks], list[str]]:
    """Every document chunked as `spec` says (and with its parent records, for context
    budgets: the chunks are the same); failures name the run and the file."""
    documents, failures = [], []
    if parents and spec.options is not None:
        spec = RunSpec(spec.label, spec.options.model_copy(update={"parents": True}))
    for source in sources:
        result = guarded(source.item.path, partial(_chunk_source, source, spec, base))
        if isinstance(result, FileFailure):
            failures.append(f"{spec.label}: {result.message}")
        else:
            documents.append(result)
    return documents, failures


def _chunk_source(source: SourceDocument, spec: RunSpec, base: ChunkOptions) -> DocumentChunks:
    if spec.fixed_chars is not None:
        return fixed_chunks(source.item.path, document_text(source, base), spec.fixed_chars)
    assert spec.options is not None
    return chunk_document(source.item, source.data, spec.options)


def _options_json(options: ChunkOptions | None, parents: bool) -> dict[str, object] | None:
    if options is None:
        return None
    limit = {"parent_max_tokens": options.parent_limit} if parents else {}
    return limit | {
        "max_tokens": options.max_tokens,
        "min_tokens": options.min_tokens,
        "overlap_tokens": options.overlap_tokens,
        "repeat_lead_ins": options.repeat_lead_ins,
        "tokenizer": options.tokenizer_name,
        "heading_prefix": options.heading_prefix,
        "sentence_model": options.sentence_model,
    }


def run_eval(
    sources: Sequence[SourceDocument],
    specs: Sequence[RunSpec],
    base: ChunkOptions,
    questions: Sequence[tuple[Question, str | None]],
    ks: Sequence[int],
    embedders: Sequence[EmbedFunction | None] = (None,),
    budgets: Sequence[int] = (),
) -> tuple[list[EvalResult], list[str]]:
    """One scored result per spec and retriever (`None`: BM25, else that embedding
    function), in order, and every failure met on the way. Each spec is chunked once
    (with parents when there are context `budgets`)."""
    results, failures = [], []
    for spec in specs:
        documents, failed = chunk_sources(sources, spec, base, parents=bool(budgets))
        failures.extend(failed)
        for embed in embedders:
            result = evaluate(spec.label, documents, questions, ks, embed, budgets)
            result.options = _options_json(spec.options, bool(budgets))
            results.append(result)
    return results, failures
