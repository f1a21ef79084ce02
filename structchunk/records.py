"""The chunk record (pydantic), its JSONL line, the JSON Schema, and the views of it that
vector stores and RAG frameworks accept (flat metadata, a store's payload,
LangChain/LlamaIndex/Haystack documents).

The framework packages are optional extras, imported only inside the methods that need
them, so `import structchunk` never requires them."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal, overload

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .document import BOX_FIELDS, Box, page_ranges
from .errors import install_hint
from .markup import HEADING_SEPARATOR, PREFIX_JOINER

if TYPE_CHECKING:
    import haystack
    import langchain_core.documents
    import llama_index.core.schema

MetadataScalar = str | int | float | bool
"""The metadata values every common vector store takes: what ChromaDB, Pinecone,
LangChain's `filter_complex_metadata` and LlamaIndex's flat-metadata stores allow."""

MetadataValue = str | int | float | bool | list[str] | list[int]
"""Also non-empty, same-typed lists, for stores that filter on list members (ChromaDB 1.x,
Qdrant, LanceDB, Elasticsearch)."""

LLM_METADATA_KEYS = ("source", "pages")
"""Metadata a LlamaIndex node shows the LLM beside its text, so answers can cite where they
come from; the embedding sees `text` alone (it already starts with the heading path)."""

EXTRAS: dict[str, tuple[str, str]] = {
    "langchain_core": ("langchain", "langchain-core"),
    "llama_index": ("llamaindex", "llama-index-core"),
    "haystack": ("haystack", "haystack-ai"),
}
"""Top-level module → (structchunk extra, distribution that provides it)."""


def _provenance_view(
    pages: list[int] | None,
    lines: list[int] | None,
    offsets: list[list[int]] | None,
    boxes: list[Box] | None,
) -> dict[str, MetadataValue]:
    """Where a record comes from, as flat metadata (`Chunk.metadata`)."""
    view: dict[str, MetadataValue] = {}
    if pages:
        view.update(pages=page_ranges(pages), page_first=min(pages), page_last=max(pages))
    if lines:
        first, last = lines
        view.update(lines=f"{first}-{last}", line_first=first, line_last=last)
    if offsets:
        view["offsets"] = ",".join(f"{start}-{end}" for start, end in offsets)
        view.update(char_start=offsets[0][0], char_end=offsets[-1][1])
    if boxes:
        view["boxes"] = json.dumps(boxes, separators=(",", ":"))
    return view


def _list_view(
    heading_path: list[str], block_types: list[str], pages: list[int] | None
) -> dict[str, MetadataValue]:
    """The lists of `metadata(lists=True)`, each only when non-empty."""
    view: dict[str, MetadataValue] = {}
    for key, values in (("heading_path_list", heading_path), ("block_types_list", block_types)):
        if values:
            view[key] = list(values)
    if pages:
        view["pages_list"] = list(pages)
    return view


def _boxes_of_rows(cls: type[BaseModel], boxes: object) -> object:
    """A Parquet row's boxes are structs (`{"page": 1, "x0": …}`): read them as boxes."""
    if isinstance(boxes, list):
        return [
            tuple(box[name] for name in BOX_FIELDS) if isinstance(box, dict) else box
            for box in boxes
        ]
    return boxes


class Chunk(BaseModel):
    """One retrieval-ready chunk: a JSONL line. Field meanings never change."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(
        description="Stable, content-addressed id: hash of (document key, heading_path, "
        "text, occurrence of that path and text before it in the document). The key is "
        "the `doc_key` option if given, else in a batch run the path relative to the "
        "run's root, else `source`; an edit elsewhere in the document leaves it unchanged."
    )
    doc_id: str = Field(description="Hash of the source bytes (the same value as doc_hash).")
    doc_hash: str = Field(description="Hash of the source bytes: whether the file changed.")
    source: str = Field(description="The input path as given, or `-` for stdin.")
    format: str = Field(description="markdown, html, pdf, docx, pptx, xlsx, epub or text.")
    chunk_index: int = Field(ge=0, description="0-based position within the document.")
    heading_path: list[str] = Field(
        description="Titles from the document root to the "
        "chunk's section, complete even when the prefix is "
        "shortened."
    )
    text: str = Field(
        description="Embedding-ready text: the heading path (`A > B > C`) on "
        "the first line, a blank line, then the body."
    )
    body: str = Field(description="The chunk content without the prefix.")
    n_tokens: int = Field(ge=0, description="Tokens in `text` under `tokenizer`.")
    tokenizer: str = Field(description="words, chars, tiktoken:<encoding>, hf:<name>, …")
    block_types: list[str] = Field(
        description="Kinds of blocks inside: paragraph, list, table, code, figure."
    )
    language: str | None = Field(
        None,
        description="ISO 639-1 code of the language the chunk's section was read as "
        "(detected unless the `language` option names one); null when undetermined.",
    )
    pages: list[int] | None = Field(None, description="PDF pages (1-based) the text comes from.")
    lines: list[int] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="Source line range [first, last], 1-based (Markdown, text).",
    )
    offsets: list[list[int]] | None = Field(
        None,
        description="Markdown, text, HTML: the [start, end) character spans of the "
        "decoded source text (`structchunk.decoded_source`) the body's words come from, "
        "in order; several when the body skips source text.",
    )
    boxes: list[Box] | None = Field(
        None,
        description="PDF: the boxes [page, x0, top, x1, bottom] of the lines the body's "
        "words are printed in, in order (PDF points from the page's top left, as "
        "pdfplumber measures; page 1-based, an integer).",
    )
    table_rows: list[int] | None = Field(
        None,
        min_length=3,
        max_length=3,
        description="For a piece of a split table: first and "
        "last body row (1-based) and the table's row count.",
    )
    ocr: bool | None = Field(
        None,
        description="PDF: true when any of the chunk's pages was read by OCR (a scan); "
        "left out of the JSONL line otherwise.",
    )
    ocr_confidence: float | None = Field(
        None,
        ge=0,
        le=100,
        description="With `ocr`: the OCR engine's mean word confidence (0-100) over the "
        "chunk's pages read by OCR; low values flag text to check.",
    )
    parent_id: str | None = Field(
        None,
        description="With parents on: the id of the parent record that holds this chunk "
        "(its section, or a window of its section's chunks). Left out of the JSONL line "
        "when null, so records without parents are as before.",
    )

    @model_validator(mode="before")
    @classmethod
    def _doc_hash_of_older_records(cls, record: object) -> object:
        """A record written before `doc_hash` existed has its value as `doc_id`."""
        if isinstance(record, dict) and "doc_hash" not in record and "doc_id" in record:
            return {**record, "doc_hash": record["doc_id"]}
        return record

    _boxes_from_table_rows = field_validator("boxes", mode="before")(_boxes_of_rows)

    @property
    def prefix_shortened(self) -> bool:
        """Whether the heading prefix in `text` shows less than `heading_path`
        (`has_shortened_prefix`). Read from the record's own fields, so it is never
        written out and a record read back from JSONL or Parquet knows it too."""
        return has_shortened_prefix(self.heading_path, self.text, self.body)

    @overload
    def metadata(self, lists: Literal[False] = False) -> dict[str, MetadataScalar]: ...
    @overload
    def metadata(self, lists: bool) -> dict[str, MetadataValue]: ...

    def metadata(self, lists: bool = False) -> dict[str, MetadataScalar] | dict[str, MetadataValue]:
        """The record as vector-store metadata: scalars only, no `None` (the key is left
        out) and no empty list, so ChromaDB, Qdrant, LanceDB and the frameworks' flat
        stores take it as is. `text` and `body` are left out: the store keeps the text
        (where it keeps only this, use `payload()`, which adds `text`).

        List fields become strings (`heading_path` joined with ` > `, `block_types` with
        `,`, `pages` as ranges `3-5,7`, `lines` as `12-30`, `offsets` as `37-288,301-340`,
        `boxes` as their compact JSON, `table_rows` as `3-10 of 42`); `pages`, `lines` and
        `offsets` also give their ends as integers (`page_first`, `page_last`,
        `line_first`, `line_last`, `char_start`, `char_end`) for range filters.
        `lists=True` adds the lists under `heading_path_list`, `block_types_list` and
        `pages_list` (each only when non-empty) for stores that filter on list members;
        no key changes type with it.
        """
        view: dict[str, MetadataValue] = {
            "id": self.id,
            "doc_id": self.doc_id,
            "doc_hash": self.doc_hash,
            "source": self.source,
            "format": self.format,
            "chunk_index": self.chunk_index,
            "heading_path": HEADING_SEPARATOR.join(self.heading_path),
            "n_tokens": self.n_tokens,
            "tokenizer": self.tokenizer,
            "block_types": ",".join(self.block_types),
        }
        if self.language:
            view["language"] = self.language
        view.update(_provenance_view(self.pages, self.lines, self.offsets, self.boxes))
        if self.table_rows:
            first, last, count = self.table_rows
            view["table_rows"] = f"{first}-{last} of {count}"
        if self.ocr:
            view["ocr"] = True
            if self.ocr_confidence is not None:
                view["ocr_confidence"] = self.ocr_confidence
        if self.parent_id:
            view["parent_id"] = self.parent_id
        if lists:
            view.update(_list_view(self.heading_path, self.block_types, self.pages))
        return view

    def payload(self) -> dict[str, MetadataValue]:
        """The record as the payload of a store that keeps nothing else beside the vector
        (Qdrant, LanceDB): `metadata(lists=True)` and `text`, so a query's hits carry the
        text to give an LLM. Stores that keep the text apart (Chroma's `documents`, the
        frameworks' documents) take `metadata()` and the text on its own."""
        return {**self.metadata(lists=True), "text": self.text}

    def to_langchain(self, lists: bool = False) -> langchain_core.documents.Document:
        """A LangChain `Document` (`page_content` = `text`, `id` = the chunk id, metadata
        = `metadata(lists)`), ready for any LangChain vector store; needs the
        `structchunk-rag[langchain]` extra."""
        with optional_extra("Chunk.to_langchain()"):
            from langchain_core.documents import Document
        return Document(page_content=self.text, metadata=self.metadata(lists), id=self.id)

    def to_llamaindex(self, lists: bool = False) -> llama_index.core.schema.TextNode:
        """A LlamaIndex `TextNode` with the chunk id as `id_`; its SOURCE is the file
        (`source`, with `doc_hash` as its hash), so `delete_ref_doc(source)` removes a
        file's chunks. The embedding sees `text` only; the LLM also sees
        LLM_METADATA_KEYS. Without its neighbours a node has no PREVIOUS/NEXT: use
        `structchunk.integrations.llamaindex.chunks_to_nodes` for a linked list."""
        return _text_node(self, self.metadata(lists), "Chunk.to_llamaindex()")

    def to_haystack(self, lists: bool = False) -> haystack.Document:
        """A Haystack `Document` (`content` = `text`, `id` = the chunk id, `meta` =
        `metadata(lists)`), so a document store's OVERWRITE policy replaces a re-run's
        chunks; needs the `structchunk-rag[haystack]` extra."""
        with optional_extra("Chunk.to_haystack()"):
            from haystack import Document
        return Document(id=self.id, content=self.text, meta=self.metadata(lists))


class Parent(BaseModel):
    """A parent record (small-to-big, `parents` on): the larger text a chunk's hit hands
    the model. Its JSONL line starts with `"record":"parent"`; chunk lines have no
    `record` field."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record: Literal["parent"] = Field(
        "parent", description='Always "parent": tells its JSONL line from a chunk\'s.'
    )
    id: str = Field(
        description="Content-addressed like a chunk's id (document key, heading_path, "
        "text, occurrence), under its own kind, so it never equals a chunk's."
    )
    doc_hash: str = Field(description="Hash of the source bytes: whether the file changed.")
    source: str = Field(description="The input path as given, or `-` for stdin.")
    format: str = Field(description="markdown, html, pdf, docx, pptx, xlsx, epub or text.")
    parent_index: int = Field(ge=0, description="0-based position among the document's parents.")
    heading_path: list[str] = Field(
        description="Titles from the document root to the parent's section."
    )
    text: str = Field(
        description="The heading path prefix (as its chunks have it), then its chunks' text "
        "in order, without what a chunk repeats of the one before, and each sub-section's "
        "heading path (relative to the parent's) on a line of its own."
    )
    body: str = Field(description="The parent's text without the prefix.")
    n_tokens: int = Field(ge=0, description="Tokens in `text` under `tokenizer`.")
    tokenizer: str = Field(description="words, chars, tiktoken:<encoding>, hf:<name>, …")
    block_types: list[str] = Field(description="Kinds of blocks inside, as in its chunks.")
    language: str | None = Field(
        None,
        description="The language most of its chunks were read as (the first on a tie); "
        "null when undetermined.",
    )
    pages: list[int] | None = Field(None, description="PDF pages (1-based) of its chunks.")
    lines: list[int] | None = Field(
        None, min_length=2, max_length=2, description="Source line range of its chunks."
    )
    offsets: list[list[int]] | None = Field(
        None,
        description="One [start, end) span of the decoded source: from its first chunk's "
        "first offset to its last chunk's last one.",
    )
    boxes: list[Box] | None = Field(None, description="PDF: its chunks' boxes, in order.")
    chunk_ids: list[str] = Field(description="The ids of its chunks, in order.")

    _boxes_from_table_rows = field_validator("boxes", mode="before")(_boxes_of_rows)

    def metadata(self, lists: bool = False) -> dict[str, MetadataValue]:
        """As `Chunk.metadata`: flat, no `None`, no empty list; `parent_index` and
        `n_chunks` where a chunk has `chunk_index` (its chunks' ids are `chunk_ids`)."""
        view: dict[str, MetadataValue] = {
            "id": self.id,
            "doc_hash": self.doc_hash,
            "source": self.source,
            "format": self.format,
            "parent_index": self.parent_index,
            "heading_path": HEADING_SEPARATOR.join(self.heading_path),
            "n_tokens": self.n_tokens,
            "tokenizer": self.tokenizer,
            "block_types": ",".join(self.block_types),
            "n_chunks": len(self.chunk_ids),
        }
        if self.language:
            view["language"] = self.language
        view.update(_provenance_view(self.pages, self.lines, self.offsets, self.boxes))
        if lists:
            view.update(_list_view(self.heading_path, self.block_types, self.pages))
        return view

    def to_langchain(self, lists: bool = False) -> langchain_core.documents.Document:
        """A LangChain `Document` (`page_content` = `text`, `id` = the parent id): what a
        docstore hands back for a child's `parent_id` (`MultiVectorRetriever`)."""
        with optional_extra("Parent.to_langchain()"):
            from langchain_core.documents import Document
        return Document(page_content=self.text, metadata=self.metadata(lists), id=self.id)

    def to_llamaindex(self, lists: bool = False) -> llama_index.core.schema.TextNode:
        """A LlamaIndex `TextNode` made as `Chunk.to_llamaindex()` makes a chunk's, with
        the parent id as `id_` (`integrations.llamaindex.records_to_nodes` links it to
        its chunks)."""
        return _text_node(self, self.metadata(lists), "Parent.to_llamaindex()")


def _text_node(
    record: Chunk | Parent, metadata: Mapping[str, MetadataValue], feature: str
) -> llama_index.core.schema.TextNode:
    """A record's `TextNode`: SOURCE the file (`source`, `doc_hash` as its hash); the
    embedding sees `text` only, the LLM also LLM_METADATA_KEYS."""
    with optional_extra(feature):
        from llama_index.core.schema import (
            NodeRelationship,
            ObjectType,
            RelatedNodeInfo,
            TextNode,
        )
    source = RelatedNodeInfo(
        node_id=record.source, node_type=ObjectType.DOCUMENT, hash=record.doc_hash
    )
    return TextNode(
        id_=record.id,
        text=record.text,
        metadata=dict(metadata),
        excluded_embed_metadata_keys=list(metadata),
        excluded_llm_metadata_keys=[k for k in metadata if k not in LLM_METADATA_KEYS],
        relationships={NodeRelationship.SOURCE: source},
    )


@contextmanager
def optional_extra(feature: str) -> Iterator[None]:
    """Turn a missing framework package into one ImportError that names the extra to
    install; any other import failure (a broken install) passes through unchanged."""
    try:
        yield
    except ModuleNotFoundError as error:
        top = (error.name or "").split(".")[0]
        if top not in EXTRAS:
            raise
        extra, distribution = EXTRAS[top]
        raise ImportError(
            f"{feature} needs {distribution}: {install_hint(extra)}",
            name=error.name,
        ) from None


def has_shortened_prefix(heading_path: Sequence[str], text: str, body: str) -> bool:
    """Whether `text` opens with a heading prefix that shows less than `heading_path` (the
    packer elides middle levels or cuts titles to keep it within half the budget).

    Exact for our records: `text` is either `body` alone (no prefix) or the prefix line,
    a blank line and `body`. A record without a prefix has nothing shortened, whether
    prefixes were off (`--no-heading-prefix`) or the budget could not hold even one cut
    title (the packer's `Head.shortened`, which the record cannot tell from the first)."""
    if not heading_path or text == body:
        return False
    return text != HEADING_SEPARATOR.join(heading_path) + PREFIX_JOINER + body


def chunk_schema() -> dict[str, object]:
    """The JSON Schema of a record (what `structchunk schema` prints)."""
    return Chunk.model_json_schema()


def parent_schema() -> dict[str, object]:
    """The JSON Schema of a parent record (`structchunk schema --record parent`)."""
    return Parent.model_json_schema()


def printable_path(path: str) -> str:
    """`path` as valid Unicode: bytes of a file name that are not UTF-8 (which Python
    carries as lone surrogates) are shown as `\\xNN`, so records and error files can be
    written, and the same name always reads the same."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return path


def to_json_line(record: Chunk | Parent) -> str:
    """One record as a JSONL line: fields in schema order, compact, non-ASCII kept as is
    (a chunk's `parent_id` only when it has one)."""
    if isinstance(record, Chunk):
        left_out = (NO_PARENT if record.parent_id is None else set()) | (
            NO_OCR if record.ocr is None else set()
        )
        if left_out:
            return record.model_dump_json(exclude=left_out) + "\n"
    return record.model_dump_json() + "\n"


NO_PARENT = {"parent_id"}
"""What a chunk's line leaves out without parents: the line is as it was before them."""

NO_OCR = {"ocr", "ocr_confidence"}
"""What a chunk's line leaves out when none of its pages was read by OCR."""

PARENT_LINE = '{"record":"parent"'
"""How a parent record's JSONL line starts (`record` is its first field)."""


def is_parent_line(line: str) -> bool:
    """Whether a JSONL line is a parent record (a chunk's has no `record` field)."""
    return line.startswith(PARENT_LINE)


def read_records(path: str | os.PathLike[str]) -> Iterator[Chunk | Parent]:
    """The chunks and parents of a JSONL file, in order."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if is_parent_line(line):
                yield Parent.model_validate_json(line)
            elif line.strip():
                yield Chunk.model_validate_json(line)


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[Chunk]:
    """The chunks of a JSONL file (its parent records, if any, skipped)."""
    return (record for record in read_records(path) if isinstance(record, Chunk))
