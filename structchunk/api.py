"""The library API: a file, bytes or a string in, `Chunk` records out.

`iter_chunks` streams; `chunk_file` and `chunk_text` collect. Every function takes one
`ChunkOptions` (`options=`) and, for convenience, its fields as keywords
(`chunk_file("guide.md", max_tokens=256)`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .document import Document, GrowingDocument
from .errors import InputError, OptionsError, StructChunkError
from .ids import ChunkIds, document_hash
from .offsets import Aligner
from .options import ChunkOptions
from .packing import PackedChunk, Packer
from .packing.outline import settled_sections
from .parsers import FORMATS, ParseSettings, detect_format, format_spec, get_parser
from .records import Chunk, printable_path
from .remote import is_url, read_url, url_format

log = logging.getLogger("structchunk")


def resolve_options(options: ChunkOptions | None = None, **overrides: Any) -> ChunkOptions:
    """`options` with `overrides` applied and validated; a clear `OptionsError` if invalid."""
    try:
        if options is None:
            return ChunkOptions(**overrides)
        if not overrides:
            return options
        return ChunkOptions(**{**dict(options), **overrides})
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in error.errors()
        )
        raise OptionsError(f"invalid options: {problems}") from None


def parse_settings(options: ChunkOptions) -> ParseSettings:
    """The part of the options a parser may read (nothing about budgets or tokenizers)."""
    return ParseSettings(
        pdf_password=options.pdf_password or "",
        page_workers=options.page_workers,
        pdf_engine=options.pdf_engine,
        ocr=options.ocr,
        ocr_language=options.ocr_language,
        ocr_dpi=options.ocr_dpi,
    )


def parse_document(data: bytes, source: str, format: str, options: ChunkOptions) -> Document:
    """Parse bytes of a known format into the section tree."""
    try:
        return get_parser(format)(data, source, parse_settings(options))
    except StructChunkError as error:
        raise error.with_source(source) from error


def decoded_source(data: bytes, format: str) -> str:
    """The text a Markdown, text or HTML document's chunk `offsets` index (BOM removed,
    newlines as `\\n`); "" for PDF, whose chunks carry pages instead."""
    spec = FORMATS.get(format)
    return spec.source_text(data) if spec is not None and spec.source_text is not None else ""


def _growing_document(
    data: bytes, source: str, format: str, options: ChunkOptions
) -> GrowingDocument | None:
    """The document as a tree built a piece at a time, when its format streams it (long
    Markdown); None to parse it whole, as always under `strict`, whose heading audit
    needs the whole tree."""
    try:
        stream = format_spec(format).stream
        if stream is None or options.strict:
            return None
        return stream(data, source, parse_settings(options))
    except StructChunkError as error:
        raise error.with_source(source) from error


def _record(
    packed: PackedChunk,
    index: int,
    id_: str,
    doc_hash: str,
    source: str,
    format: str,
    tokenizer: str,
    aligner: Aligner | None,
) -> Chunk:
    prov = packed.prov
    spans, boxes = (
        aligner.place(packed.body, prov.lines, prov.pages) if aligner is not None else ([], [])
    )
    return Chunk.model_construct(
        id=id_,
        doc_id=doc_hash,
        doc_hash=doc_hash,
        source=source,
        format=format,
        chunk_index=index,
        heading_path=list(packed.heading_path),
        text=packed.text,
        body=packed.body,
        n_tokens=packed.n_tokens,
        tokenizer=tokenizer,
        block_types=packed.block_types,
        pages=list(prov.pages) if prov.pages else None,
        lines=list(prov.lines) if prov.lines else None,
        offsets=[list(span) for span in spans] if spans else None,
        boxes=list(boxes) if boxes else None,
        table_rows=list(packed.table_rows) if packed.table_rows else None,
    )


def iter_chunks_from_bytes(
    data: bytes,
    source: str,
    format: str | None = None,
    options: ChunkOptions | None = None,
    **overrides: Any,
) -> Iterator[Chunk]:
    """Chunks of a document given as bytes; `format` is detected from `source` if None."""
    opts = resolve_options(options, **overrides)
    fmt = format or opts.format or detect_format(source)
    growing = _growing_document(data, source, fmt, opts)
    if growing is not None:
        yield from _chunks_of_growing_document(growing, data, source, opts)
        return
    document = parse_document(data, source, fmt, opts)
    yield from chunks_of_document(document, data, source, opts)


def _chunks_of_growing_document(
    document: GrowingDocument, data: bytes, source: str, options: ChunkOptions
) -> Iterator[Chunk]:
    """The chunks `chunks_of_document` gives for the whole tree, packed as its sections
    settle."""
    packer = Packer(options)
    packed = packer.pack_sections(settled_sections(document))
    aligner = _aligner(document, options)
    yield from _records(packed, data, source, document.format, packer, aligner, options.doc_key)
    for warning in document.warnings:
        log.warning("%s: %s", source, warning)


def chunks_of_document(
    document: Document, data: bytes, source: str, options: ChunkOptions
) -> Iterator[Chunk]:
    """The chunks of a document `parse_document` read from `data` (for callers that also
    want the tree: `inspect` draws what the parser dropped)."""
    fmt, opts = document.format, options
    for warning in document.warnings:
        log.warning("%s: %s", source, warning)
    packer = Packer(opts)
    aligner = _aligner(document, opts)
    yield from _records(packer.pack(document), data, source, fmt, packer, aligner, opts.doc_key)


def _aligner(document: Document | GrowingDocument, options: ChunkOptions) -> Aligner | None:
    """What finds where each chunk comes from, when asked for and the parser kept the
    source text: in a markup format's visible text, a PDF's by its line boxes."""
    if not (document.source_text and options.offsets):
        return None
    boxes = document.source_boxes if isinstance(document, Document) else None
    return Aligner(document.source_text, format_spec(document.format).markup, boxes)


def _records(
    packed: Iterator[PackedChunk],
    data: bytes,
    source: str,
    format: str,
    packer: Packer,
    aligner: Aligner | None,
    doc_key: str | None,
) -> Iterator[Chunk]:
    """The records of a document's packed chunks, numbered in order; a packing error
    names the source. Ids are keyed on `doc_key` when given, else on the source."""
    doc_hash = document_hash(data)
    shown = printable_path(source)
    ids = ChunkIds(doc_key if doc_key is not None else shown)
    try:
        for index, chunk in enumerate(packed):
            id_ = ids.next(chunk.heading_path, chunk.text)
            tokenizer = packer.tokenizer.name
            yield _record(chunk, index, id_, doc_hash, shown, format, tokenizer, aligner)
    except StructChunkError as error:
        raise error.with_source(source) from error


def read_input(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file, or at a URL (`s3://…`, `https://…`: the `remote` extra),
    with a one-line error for the usual ways reading fails."""
    if is_url(os.fspath(path)):
        return read_url(os.fspath(path))
    target = Path(path)
    try:
        return target.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", source=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a directory (the CLI reads directories)", source=str(path)) from None
    except PermissionError:
        raise InputError("permission denied", source=str(path)) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source=str(path)) from None


def iter_chunks(
    path: str | os.PathLike[str], options: ChunkOptions | None = None, **overrides: Any
) -> Iterator[Chunk]:
    """Stream the chunks of one file (format from `options.format` or the extension)."""
    opts = resolve_options(options, **overrides)
    source = os.fspath(path)
    fmt = opts.format or (url_format(source) if is_url(source) else detect_format(source))
    yield from iter_chunks_from_bytes(read_input(source), source, fmt, opts)


def chunk_file(
    path: str | os.PathLike[str], options: ChunkOptions | None = None, **overrides: Any
) -> list[Chunk]:
    """All chunks of one file, e.g. `chunk_file("guide.md", max_tokens=256)`."""
    return list(iter_chunks(path, options, **overrides))


def chunk_text(
    text: str,
    format: str = "markdown",
    options: ChunkOptions | None = None,
    source: str = "-",
    **overrides: Any,
) -> list[Chunk]:
    """All chunks of a document given as a string, e.g. `chunk_text(md, format="markdown")`."""
    return list(iter_chunks_from_bytes(text.encode("utf-8"), source, format, options, **overrides))
