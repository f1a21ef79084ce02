"""Chunk records: every field of DESIGN.md, stable ids, JSONL and atomic writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from structchunk import Chunk, chunk_file
from structchunk.batch.atomic import atomic_writer
from structchunk.records import chunk_schema, read_jsonl, to_json_line

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DESIGN_FIELDS = [
    "id",
    "doc_id",
    "source",
    "format",
    "chunk_index",
    "heading_path",
    "text",
    "body",
    "n_tokens",
    "tokenizer",
    "block_types",
    "pages",
    "lines",
    "offsets",
    "boxes",
    "table_rows",
]


def test_schema_has_every_field_in_design_order() -> None:
    schema = chunk_schema()
    assert list(schema["properties"]) == DESIGN_FIELDS  # type: ignore[call-overload]


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
