"""The library API: a file, bytes or a string in, `Chunk` records out.

`iter_chunks` streams; `chunk_file` and `chunk_text` collect. Every function takes one
`ChunkOptions` (`options=`) and, for convenience, its fields as keywords
(`chunk_file("guide.md", max_tokens=256)`).
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .document import Document, GrowingDocument
from .errors import InputError, OptionsError, StructChunkError
from .ids import ChunkIds, document_hash
from .offsets import Aligner
from .options import ChunkOptions
from .packing import PackedChunk, PackedParent, Packer
from .packing.outline import settled_sections
from .parsers import FORMATS, ParseSettings, detect_format, format_spec, get_parser
from .records import Chunk, Parent, printable_path
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
    parent_id: str | None = None,
    ocr_pages: dict[int, float] | None = None,
) -> Chunk:
    prov = packed.prov
    confidences = [ocr_pages[page] for page in prov.pages if page in ocr_pages] if ocr_pages else []
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
        language=packed.language,
        pages=list(prov.pages) if prov.pages else None,
        lines=list(prov.lines) if prov.lines else None,
        offsets=[list(span) for span in spans] if spans else None,
        boxes=list(boxes) if boxes else None,
        table_rows=list(packed.table_rows) if packed.table_rows else None,
        ocr=True if confidences else None,
        ocr_confidence=round(sum(confidences) / len(confidences), 1) if confidences else None,
        parent_id=parent_id,
    )


def _most_common_language(chunks: list[Chunk]) -> str | None:
    """The language most of `chunks` were read as, the first on a tie; None if none was."""
    counts = Counter(chunk.language for chunk in chunks if chunk.language)
    return max(counts, key=counts.__getitem__) if counts else None


def _parent_record(packed: PackedParent, index: int, id_: str, chunks: list[Chunk]) -> Parent:
    """A parent's record; where it comes from is where its chunks do."""
    first, prov = chunks[0], packed.prov
    spans = [span for chunk in chunks for span in chunk.offsets or ()]
    boxes = list(dict.fromkeys(box for chunk in chunks for box in chunk.boxes or ()))
    return Parent.model_construct(
        record="parent",
        id=id_,
        doc_hash=first.doc_hash,
        source=first.source,
        format=first.format,
        parent_index=index,
        heading_path=list(packed.heading_path),
        text=packed.text,
        body=packed.body,
        n_tokens=packed.n_tokens,
        tokenizer=first.tokenizer,
        block_types=packed.block_types,
        language=_most_common_language(chunks),
        pages=list(prov.pages) if prov.pages else None,
        lines=list(prov.lines) if prov.lines else None,
        offsets=[[min(s for s, _ in spans), max(e for _, e in spans)]] if spans else None,
        boxes=boxes or None,
        chunk_ids=[chunk.id for chunk in chunks],
    )


def iter_chunks_from_bytes(
    data: bytes,
    source: str,
    format: str | None = None,
    options: ChunkOptions | None = None,
    **overrides: Any,
) -> Iterator[Chunk]:
    """Chunks of a document given as bytes; `format` is detected from `source` if None."""
    records = iter_records_from_bytes(data, source, format, options, **overrides)
    return (record for record in records if isinstance(record, Chunk))


def iter_records_from_bytes(
    data: bytes,
    source: str,
    format: str | None = None,
    options: ChunkOptions | None = None,
    **overrides: Any,
) -> Iterator[Chunk | Parent]:
    """As `iter_chunks_from_bytes`, and with `parents` on each parent record before its
    chunks."""
    opts = resolve_options(options, **overrides)
    fmt = format or opts.format or detect_format(source)
    growing = _growing_document(data, source, fmt, opts)
    if growing is not None:
        yield from _chunks_of_growing_document(growing, data, source, opts)
        return
    document = parse_document(data, source, fmt, opts)
    yield from records_of_document(document, data, source, opts)


def _chunks_of_growing_document(
    document: GrowingDocument, data: bytes, source: str, options: ChunkOptions
) -> Iterator[Chunk | Parent]:
    """The chunks `chunks_of_document` gives for the whole tree, packed as its sections
    settle."""
    packer = Packer(options)
    packed = packer.pack_sections(settled_sections(document))
    aligner = _aligner(document, options)
    yield from _records(packed, data, source, document, packer, aligner)
    for warning in document.warnings:
        log.warning("%s: %s", source, warning)


def chunks_of_document(
    document: Document, data: bytes, source: str, options: ChunkOptions
) -> Iterator[Chunk]:
    """The chunks of a document `parse_document` read from `data` (for callers that also
    want the tree: `inspect` draws what the parser dropped)."""
    records = records_of_document(document, data, source, options)
    return (record for record in records if isinstance(record, Chunk))


def records_of_document(
    document: Document, data: bytes, source: str, options: ChunkOptions
) -> Iterator[Chunk | Parent]:
    """As `chunks_of_document`, with the parent records when `parents` is on."""
    for warning in document.warnings:
        log.warning("%s: %s", source, warning)
    packer = Packer(options)
    aligner = _aligner(document, options)
    yield from _records(packer.pack(document), data, source, document, packer, aligner)


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
    document: Document | GrowingDocument,
    packer: Packer,
    aligner: Aligner | None,
) -> Iterator[Chunk | Parent]:
    """The records of a document's packed chunks, numbered in order, with their parents
    when asked for; a packing error names the source. Ids are keyed on `doc_key` when
    given, else on the source."""
    doc_key, shown = packer.options.doc_key, printable_path(source)
    ids = ChunkIds(doc_key if doc_key is not None else shown)
    parent_ids = ChunkIds(ids.doc_key, kind="parent")
    doc_hash, tokenizer = document_hash(data), packer.tokenizer.name
    ocr_pages = document.ocr_pages if isinstance(document, Document) else None
    index = 0

    def record(chunk: PackedChunk, parent_id: str | None) -> Chunk:
        nonlocal index
        id_ = ids.next(chunk.heading_path, chunk.text)
        index += 1
        return _record(
            chunk,
            index - 1,
            id_,
            doc_hash,
            shown,
            document.format,
            tokenizer,
            aligner,
            parent_id,
            ocr_pages,
        )

    try:
        if not packer.options.parents:
            for chunk in packed:
                yield record(chunk, None)
            return
        for number, parent in enumerate(packer.parents(packed, len(document.root.path))):
            parent_id = parent_ids.next(parent.heading_path, parent.text)
            chunks = [record(chunk, parent_id) for chunk in parent.chunks]
            yield _parent_record(parent, number, parent_id, chunks)
            yield from chunks
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
    records = iter_records(path, options, **overrides)
    return (record for record in records if isinstance(record, Chunk))


def iter_records(
    path: str | os.PathLike[str], options: ChunkOptions | None = None, **overrides: Any
) -> Iterator[Chunk | Parent]:
    """As `iter_chunks`, and with `parents=True` each parent record before its chunks
    (`iter_records("guide.md", parents=True)`)."""
    opts = resolve_options(options, **overrides)
    source = os.fspath(path)
    fmt = opts.format or (url_format(source) if is_url(source) else detect_format(source))
    yield from iter_records_from_bytes(read_input(source), source, fmt, opts)


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
