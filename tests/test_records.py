"""Chunk records: every field of DESIGN.md, stable ids, JSONL and atomic writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from structchunk import Chunk, chunk_file
from structchunk.api import parse_document
from structchunk.batch.atomic import atomic_writer
from structchunk.options import ChunkOptions
from structchunk.packing import Packer
from structchunk.records import chunk_schema, has_shortened_prefix, read_jsonl, to_json_line

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DESIGN_FIELDS = [
    "id",
    "doc_id",
    "doc_hash",
    "source",
    "format",
    "chunk_index",
    "heading_path",
    "text",
    "body",
    "n_tokens",
    "tokenizer",
    "block_types",
    "language",
    "pages",
    "lines",
    "offsets",
    "boxes",
    "table_rows",
]


def test_schema_has_every_field_in_design_order() -> None:
    schema = chunk_schema()
    # ocr, ocr_confidence: written only for pages read by OCR (test_pdf_ocr.py);
    # parent_id: only with parents on (test_parents.py)
    assert list(schema["properties"]) == [*DESIGN_FIELDS, "ocr", "ocr_confidence", "parent_id"]  # type: ignore[call-overload]


def test_records_validate_against_the_model_and_round_trip(tmp_path: Path) -> None:
    chunks = chunk_file(SAMPLES / "rust-data-types.md", max_tokens=64)
    out = tmp_path / "out.jsonl"
    out.write_text("".join(to_json_line(c) for c in chunks), encoding="utf-8")
    for line, chunk in zip(out.read_text(encoding="utf-8").splitlines(), chunks):
        record = json.loads(line)
        assert list(record) == DESIGN_FIELDS
        assert Chunk.model_validate(record) == chunk  # constructed records are valid
    assert list(read_jsonl(out)) == chunks


def test_text_is_prefix_blank_line_body() -> None:
    for chunk in chunk_file(SAMPLES / "api-keys.md", max_tokens=64):
        assert chunk.text == " > ".join(chunk.heading_path) + "\n\n" + chunk.body


SAMPLE_FORMATS = {
    "api-keys.md": "markdown",
    "rust-data-types.md": "markdown",
    "docs-page.html": "html",
    "rust-data-types.pdf": "pdf",
    "hosting-agreement.docx": "docx",
}


@pytest.mark.parametrize("max_tokens", [8, 12, 40, 256])
@pytest.mark.parametrize("name", sorted(SAMPLE_FORMATS))
def test_a_records_prefix_shortened_is_the_packers_own(name: str, max_tokens: int) -> None:
    """`Chunk.prefix_shortened` is read from the record's fields, not guessed: for every
    chunk with a prefix it says what the packer decided, and never more."""
    options = ChunkOptions(max_tokens=max_tokens)
    document = parse_document((SAMPLES / name).read_bytes(), name, SAMPLE_FORMATS[name], options)
    packed = list(Packer(options).pack(document))
    prefixed = [chunk for chunk in packed if chunk.text != chunk.body]
    assert prefixed
    for chunk in prefixed:
        read = has_shortened_prefix(chunk.heading_path, chunk.text, chunk.body)
        assert read == chunk.prefix_shortened, (chunk.heading_path, chunk.text[:80])
    if max_tokens == 8 and name == "api-keys.md":
        assert any(chunk.prefix_shortened for chunk in prefixed)


def test_a_record_without_a_prefix_has_nothing_shortened() -> None:
    """Under --no-heading-prefix `text` is the body alone: no prefix, nothing shortened,
    however long the heading path (the batch summary once counted every such chunk)."""
    chunks = chunk_file(SAMPLES / "api-keys.md", max_tokens=8, heading_prefix=False)
    assert chunks and all(c.heading_path and c.text == c.body for c in chunks)
    assert not any(c.prefix_shortened for c in chunks)
    shortened = chunk_file(SAMPLES / "api-keys.md", max_tokens=8)
    assert any(c.prefix_shortened for c in shortened)
    assert not any(c.prefix_shortened for c in chunk_file(SAMPLES / "api-keys.md"))


def test_prefix_shortened_is_never_written_and_read_back_from_the_line() -> None:
    chunk = next(c for c in chunk_file(SAMPLES / "api-keys.md", max_tokens=8) if c.prefix_shortened)
    assert "prefix_shortened" not in to_json_line(chunk)
    assert "prefix_shortened" not in chunk_schema()["properties"]  # type: ignore[operator]
    assert Chunk.model_validate_json(to_json_line(chunk)).prefix_shortened


def test_ids_are_stable_and_unique() -> None:
    first = chunk_file(SAMPLES / "rust-data-types.md", max_tokens=64)
    second = chunk_file(SAMPLES / "rust-data-types.md", max_tokens=64)
    assert [c.id for c in first] == [c.id for c in second]
    assert len({c.id for c in first}) == len(first)
    assert len({c.doc_id for c in first}) == 1


def test_atomic_writer_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "chunks.jsonl"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_writer(target) as handle:
        handle.write("half a rec")
        raise RuntimeError("crash")
    assert target.read_text() == "old\n"
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left behind
    with atomic_writer(target) as handle:
        handle.write("new\n")
    assert target.read_text() == "new\n"


def test_outputs_get_the_usual_file_mode_not_mkstemps_0600(tmp_path: Path) -> None:
    import os

    target = tmp_path / "out.jsonl"
    with atomic_writer(target) as handle:
        handle.write("x\n")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
