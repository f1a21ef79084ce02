"""What inspect and eval read: our chunks or another tool's JSONL, as one plain view.

Other tools write different JSONL: LangChain documents (`page_content`, `metadata`),
LlamaIndex nodes (`text`, `metadata`), docling chunks (`text`, `meta.headings`), or just
`content`. `read_chunk_file` accepts them all and groups records into documents by
their source, so flags and summaries treat every tool alike.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..records import Chunk

TEXT_FIELDS = ("text", "page_content", "content")
"""Where the chunk text is, in order of preference."""

SOURCE_FIELDS = (
    ("source",),
    ("doc",),
    ("metadata", "source"),
    ("metadata", "doc"),
    ("metadata", "filename"),  # Unstructured's elements
    ("meta", "origin", "filename"),  # Docling's chunks
)
"""Where the document a chunk belongs to is named, in order of preference."""

HEADING_FIELDS = (
    ("heading_path",),
    ("headings",),
    ("metadata", "heading_path"),
    ("metadata", "headings"),
    ("meta", "headings"),
)
"""Where a heading path (a list of titles) may be recorded."""

_HEADER_KEY = re.compile(r"(?:header|h)\s*_?(\d)$", re.IGNORECASE)
"""LangChain's MarkdownHeaderTextSplitter metadata keys: `Header 1`, `Header 2`, …"""

_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$")


@dataclass(frozen=True, slots=True)
class ChunkView:
    """One chunk as the quality tools see it, whichever tool wrote it."""

    source: str
    index: int
    """0-based position within its document, in reading order."""
    text: str
    """The full text that gets embedded (our heading prefix included)."""
    body: str | None
    """The content without the heading prefix; None when the tool records no such field."""
    heading_path: tuple[str, ...]
    """Titles from the document root; empty when the chunk has no heading."""
    n_tokens: int
    headings_recorded: bool = True
    """Whether `heading_path` comes from a record field (ours, or another tool's metadata)
    rather than from a Markdown `#` line at the start of the text."""
    lines: tuple[int, int] | None = None
    pages: tuple[int, ...] | None = None
    table_rows: tuple[int, int, int] | None = None
    offsets: tuple[tuple[int, int], ...] = ()
    """Spans of the decoded source the body comes from (ours: Markdown, text, HTML)."""
    boxes: tuple[tuple[float, float, float, float, float], ...] = ()
    """PDF: `(page, x0, top, x1, bottom)` of the lines the body is printed in (ours)."""
    chunk_id: str | None = None
    """The record's `id` (ours, or another tool's string `id`); None for a baseline's windows."""
    parent_id: str | None = None
    """Ours, chunked with parents: the id of its parent record (`DocumentChunks.parents`)."""

    @property
    def content(self) -> str:
        """What the chunk says, without our prefix: where its start and end are judged."""
        return self.body if self.body is not None else self.text


@dataclass(slots=True)
class DocumentChunks:
    """The chunks of one document, in order."""

    source: str
    chunks: list[ChunkView]
    source_text: str | None = None
    """The decoded source the chunks' offsets index, when the document was chunked here."""
    dropped_boxes: tuple[tuple[float, float, float, float, float], ...] = ()
    """PDF chunked here: boxes of the running headers, page numbers and contents entries
    the parser left out (the report hatches them)."""
    parents: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Chunked here with parents: each parent record's text and tokens, by id."""


def view_of_chunk(chunk: Chunk) -> ChunkView:
    """Our own record as a view (exact: nothing is guessed)."""
    return ChunkView(
        source=chunk.source,
        index=chunk.chunk_index,
        text=chunk.text,
        body=chunk.body,
        heading_path=tuple(chunk.heading_path),
        n_tokens=chunk.n_tokens,
        lines=_pair(chunk.lines),
        pages=tuple(chunk.pages) if chunk.pages else None,
        table_rows=_triple(chunk.table_rows),
        offsets=tuple((start, end) for start, end in chunk.offsets or []),
        boxes=_boxes(chunk.boxes),
        chunk_id=chunk.id,
        parent_id=chunk.parent_id,
    )


def _pair(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (value[0], value[1])
    return None


def _spans(value: Any) -> tuple[tuple[int, int], ...]:
    """A record's `offsets`, when it has well-formed ones."""
    if not isinstance(value, list):
        return ()
    pairs = [_pair(item) for item in value]
    return tuple(pair for pair in pairs if pair is not None)


def _boxes(value: Any) -> tuple[tuple[float, float, float, float, float], ...]:
    """A record's `boxes`, when it has well-formed ones."""
    if not isinstance(value, list):
        return ()
    found = []
    for box in value:
        if (
            isinstance(box, list | tuple)
            and len(box) == 5
            and all(isinstance(v, int | float) for v in box)
        ):
            found.append(
                (float(box[0]), float(box[1]), float(box[2]), float(box[3]), float(box[4]))
            )
    return tuple(found)


def _triple(value: Any) -> tuple[int, int, int] | None:
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return (value[0], value[1], value[2])
    return None


def _get(record: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = record
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _recorded_headings(record: dict[str, Any]) -> tuple[str, ...] | None:
    for path in HEADING_FIELDS:
        value = _get(record, path)
        if isinstance(value, list):
            return tuple(str(title) for title in value)
    metadata = record.get("metadata")
    if isinstance(metadata, dict):
        levels = sorted(
            (int(m.group(1)), str(v))
            for k, v in metadata.items()
            if (m := _HEADER_KEY.match(str(k))) and v
        )
        if levels:
            return tuple(title for _, title in levels)
    return None


def _text_heading(text: str) -> tuple[str, ...]:
    """A Markdown heading on the first line: the only heading a plain splitter keeps."""
    heading = _ATX_HEADING.match(text.lstrip().split("\n", 1)[0])
    return (heading.group(1),) if heading else ()


def _pages(record: dict[str, Any]) -> tuple[int, ...] | None:
    pages = record.get("pages")
    if isinstance(pages, list) and pages and all(isinstance(p, int) for p in pages):
        return tuple(pages)
    for path in (("metadata", "page"), ("metadata", "page_number")):
        page = _get(record, path)
        if isinstance(page, int):
            return (page,)
    return None


def record_source(record: dict[str, Any], default: str) -> str:
    """The document a record belongs to (`default` when the tool does not say)."""
    return next((str(v) for path in SOURCE_FIELDS if (v := _get(record, path))), default)


def view_of_record(
    record: dict[str, Any], source: str, index: int, count: Callable[[str], int], tokenizer: str
) -> ChunkView:
    """A view of any tool's JSONL record; raises KeyError when it has no text field."""
    text = next((record[f] for f in TEXT_FIELDS if isinstance(record.get(f), str)), None)
    if text is None:
        raise KeyError("no text field")
    body = record.get("body") if isinstance(record.get("body"), str) else None
    n_tokens = record.get("n_tokens")
    if not (isinstance(n_tokens, int) and record.get("tokenizer") == tokenizer):
        n_tokens = count(text)
    recorded = _recorded_headings(record)
    return ChunkView(
        source=source,
        index=index,
        text=text,
        body=body,
        heading_path=recorded if recorded is not None else _text_heading(text),
        n_tokens=n_tokens,
        headings_recorded=recorded is not None,
        lines=_pair(record.get("lines")),
        pages=_pages(record),
        table_rows=_triple(record.get("table_rows")),
        offsets=_spans(record.get("offsets")),
        boxes=_boxes(record.get("boxes")),
        chunk_id=record["id"] if isinstance(record.get("id"), str) else None,
    )


def _records(path: str) -> Iterable[tuple[int, dict[str, Any]]]:
    """(line or position, record) pairs: JSONL, or one JSON array (Unstructured's
    element JSON is written that way)."""
    if path.lower().endswith(".json"):
        yield from _array_records(path)
        return
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputError(f"line {number}: not JSON ({error.msg})", source=path) from None
            if not isinstance(record, dict):
                raise InputError(f"line {number}: not a JSON object", source=path)
            yield number, record


def _array_records(path: str) -> Iterable[tuple[int, dict[str, Any]]]:
    with open(path, encoding="utf-8") as handle:
        try:
            records = json.load(handle)
        except json.JSONDecodeError as error:
            raise InputError(f"not JSON ({error.msg}, line {error.lineno})", source=path) from None
    if not isinstance(records, list):
        raise InputError("not a JSON array of chunks (or use JSONL, one per line)", source=path)
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise InputError(f"item {number}: not a JSON object", source=path)
        yield number, record


def read_chunk_file(
    path: str | os.PathLike[str], count: Callable[[str], int], tokenizer: str
) -> list[DocumentChunks]:
    """The documents of a chunks JSONL file (ours or another tool's), in first-seen order.

    Tokens are recounted with `count` unless the record was written with `tokenizer`.
    Our parent records (`--parents`) are not chunks: they are left out.
    """
    name = os.fspath(path)
    documents: dict[str, DocumentChunks] = {}
    try:
        for number, record in _records(name):
            if record.get("record") == "parent":
                continue
            source = record_source(record, name)
            document = documents.setdefault(source, DocumentChunks(source, []))
            try:
                view = view_of_record(record, source, len(document.chunks), count, tokenizer)
            except KeyError:
                raise InputError(
                    f"line {number}: no chunk text (expected one of {', '.join(TEXT_FIELDS)})",
                    source=name,
                ) from None
            document.chunks.append(view)
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source=name) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source=name) from None
    return list(documents.values())
