"""One `eval` run: documents read once, chunked per option set or baseline, each scored."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from ..api import parse_document
from ..batch.work import error_message
from ..inputs import InputFile
from ..options import ChunkOptions
from ..render import render_block
from .evaluate import EvalResult, evaluate
from .grid import RunSpec
from .loading import chunk_document, read_bytes
from .questions import Question
from .views import ChunkView, DocumentChunks

log = logging.getLogger("structchunk")

RAW_TEXT_FORMATS = ("markdown", "text")
"""Formats whose bytes are already the text a naive fixed-size splitter would cut (as the
shared harness's `fixed_chars` does); HTML and PDF go through our parser first."""


@dataclass(frozen=True, slots=True)
class SourceDocument:
    item: InputFile
    data: bytes


def read_sources(items: Sequence[InputFile]) -> tuple[list[SourceDocument], list[str]]:
    """Each document's bytes, read once for every run; one message per unreadable file."""
    sources, failures = [], []
    for item in items:
        try:
            sources.append(SourceDocument(item, read_bytes(item)))
        except Exception as error:  # the file boundary
            failures.append(error_message(error, item.path))
    return sources, failures


def document_text(source: SourceDocument, options: ChunkOptions) -> str:
    """The plain text a fixed-size baseline cuts: the file itself for Markdown and text,
    our extracted headings and blocks (blank-line separated) for HTML and PDF."""
    if source.item.format in RAW_TEXT_FORMATS:
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
    sources: Sequence[SourceDocument], spec: RunSpec, base: ChunkOptions
) -> tuple[list[DocumentChunks], list[str]]:
    """Every document chunked as `spec` says; failures name the run and the file."""
    documents, failures = [], []
    for source in sources:
        try:
            if spec.fixed_chars is not None:
                text = document_text(source, base)
                documents.append(fixed_chunks(source.item.path, text, spec.fixed_chars))
            else:
                assert spec.options is not None
                documents.append(chunk_document(source.item, source.data, spec.options))
        except Exception as error:  # the file boundary: one bad file never stops a run
            log.debug("%s: failed", source.item.path, exc_info=True)
            failures.append(f"{spec.label}: {error_message(error, source.item.path)}")
    return documents, failures


def _options_json(options: ChunkOptions | None) -> dict[str, object] | None:
    if options is None:
        return None
    return {
        "max_tokens": options.max_tokens,
        "min_tokens": options.min_tokens,
        "overlap_tokens": options.overlap_tokens,
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
) -> tuple[list[EvalResult], list[str]]:
    """One scored result per spec, in order, and every failure met on the way."""
    results, failures = [], []
    for spec in specs:
        documents, failed = chunk_sources(sources, spec, base)
        failures.extend(failed)
        result = evaluate(spec.label, documents, questions, ks)
        result.options = _options_json(spec.options)
        results.append(result)
    return results, failures
