"""Chunk ids: content-addressed, so an edit elsewhere in a document keeps them (issue #44)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from structchunk import Chunk, chunk_file, chunk_text
from structchunk.batch.inputs import expand_inputs
from structchunk.batch.run import BatchConfig, run_batch
from structchunk.cli import cli
from structchunk.errors import OptionsError
from structchunk.ids import chunk_id
from structchunk.options import ChunkOptions
from structchunk.records import read_jsonl, to_json_line

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DATA_TYPES = SAMPLES / "rust-data-types.md"
"""The Rust book's ch03-02-data-types.md, the issue's example."""


def test_an_edit_to_one_paragraph_keeps_the_ids_of_the_unchanged_chunks() -> None:
    """Before: two words added to one paragraph kept 0 of 18 ids (they hashed the bytes)."""
    text = DATA_TYPES.read_text(encoding="utf-8")
    words = "the language’s most primitive alphabetic type"
    assert text.count(words) == 1
    edited = text.replace(words, "the language’s simplest and most primitive alphabetic type")
    before = chunk_text(text, source="ch03-02-data-types.md")
    after = chunk_text(edited, source="ch03-02-data-types.md")
    assert len(before) == len(after) == 18
    changed = [a for a, b in zip(after, before) if a.text != b.text]
    assert len(changed) == 1 and "simplest and most primitive" in changed[0].text
    kept = {c.id for c in before} & {c.id for c in after}
    assert len(kept) == 17
    assert all(a.id == b.id for a, b in zip(after, before) if a.text == b.text)
    assert after[0].doc_hash != before[0].doc_hash  # the file did change


def test_identical_chunks_in_one_section_get_distinct_ids() -> None:
    markdown = (
        "# A\n\n" + "Five same words here again.\n\n" * 3 + "# B\n\nFive same words here again.\n"
    )
    chunks = chunk_text(markdown, max_tokens=8)
    same = [c for c in chunks if c.body == "Five same words here again."]
    assert len(same) == 4 and len({c.id for c in same}) == 4
    first, second, third = (c for c in same if c.heading_path == ["A"])
    assert first.id == chunk_id("-", ["A"], first.text, 0)
    assert third.id == chunk_id("-", ["A"], third.text, 2)
    # deleting a copy renumbers the rest: the ids left are a subset, nothing to re-embed
    fewer = chunk_text(markdown.replace("Five same words here again.\n\n", "", 1), max_tokens=8)
    assert {c.id for c in fewer} < {c.id for c in chunks}


def test_the_same_bytes_twice_give_identical_records() -> None:
    once = [to_json_line(c) for c in chunk_file(DATA_TYPES, max_tokens=64, overlap_tokens=8)]
    again = [to_json_line(c) for c in chunk_file(DATA_TYPES, max_tokens=64, overlap_tokens=8)]
    assert once == again


def test_options_that_do_not_change_the_text_do_not_change_the_ids() -> None:
    plain = chunk_file(DATA_TYPES, max_tokens=64)
    assert [c.id for c in chunk_file(DATA_TYPES, max_tokens=64, offsets=False)] == [
        c.id for c in plain
    ]
    smaller = chunk_file(DATA_TYPES, max_tokens=48)  # other chunks: other texts, other ids
    assert {c.id for c in smaller} != {c.id for c in plain}


def _batch_ids(folder: Path, out: Path) -> list[tuple[str, str, str]]:
    items, problems = expand_inputs([str(folder)], None)
    assert not problems
    report = run_batch(items, ChunkOptions(max_tokens=64), BatchConfig(out=str(out)))
    assert report.failed == 0
    return [(c.source, c.id, c.text) for c in read_jsonl(out)]


def test_moving_the_input_folder_keeps_the_ids(tmp_path: Path) -> None:
    """A DAG's workers see the checkout at different absolute paths: a batch run keys ids
    on each file's path below the folder it was given."""
    for checkout in ("worker-1/repo", "elsewhere/clone"):
        shutil.copytree(SAMPLES, tmp_path / checkout / "docs")
    here = _batch_ids(tmp_path / "worker-1" / "repo" / "docs", tmp_path / "one.jsonl")
    there = _batch_ids(tmp_path / "elsewhere" / "clone" / "docs", tmp_path / "two.jsonl")
    assert [r[0] for r in here] != [r[0] for r in there]  # `source` is the path as given
    assert [r[1:] for r in here] == [r[1:] for r in there]
    assert len({r[1] for r in here}) == len(here)


def test_a_doc_key_overrides_the_source(tmp_path: Path) -> None:
    copy = tmp_path / "moved" / "types.md"
    copy.parent.mkdir()
    shutil.copy(DATA_TYPES, copy)
    keyed = chunk_file(DATA_TYPES, doc_key="rust/data-types")
    assert [c.id for c in chunk_file(copy, doc_key="rust/data-types")] == [c.id for c in keyed]
    assert {c.id for c in chunk_file(copy)}.isdisjoint(c.id for c in keyed)
    stdin = CliRunner().invoke(
        cli,
        ["convert", "-", "--format", "markdown", "--doc-key", "rust/data-types", "-q"],
        input=DATA_TYPES.read_bytes(),
    )
    assert stdin.exit_code == 0, stdin.output
    assert [json.loads(line)["id"] for line in stdin.stdout.splitlines()] == [c.id for c in keyed]


def test_a_doc_key_names_one_document(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["convert", str(SAMPLES), "--doc-key", "k", "-q"])
    assert result.exit_code == 2 and "--doc-key names one document" in result.stderr
    items, _ = expand_inputs([str(SAMPLES)], None)
    with pytest.raises(OptionsError, match="doc_key names one document"):
        run_batch(items, ChunkOptions(doc_key="k"), BatchConfig(out=str(tmp_path / "o.jsonl")))


def test_a_record_written_before_doc_hash_reads_with_it() -> None:
    record = json.loads(to_json_line(chunk_text("# A\n\nWords.\n")[0]))
    del record["doc_hash"]
    assert Chunk.model_validate(record).doc_hash == record["doc_id"]
