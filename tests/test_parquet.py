"""Parquet output: the JSONL's records as a table, and output names that mean something.

Before: `convert … -o x.parquet` exited 0 and wrote JSONL into the `.parquet` file, and
any other extension was silently JSONL too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_cli import run

import structchunk
from structchunk.batch.parquet import arrow_row, chunk_arrow_schema, save_parquet
from structchunk.document import BOX_FIELDS
from structchunk.records import Chunk

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_one_parquet_file_holds_exactly_the_jsonl_records(tmp_path: Path) -> None:
    table_path, lines_path = tmp_path / "chunks.parquet", tmp_path / "chunks.jsonl"
    assert run("convert", "samples", "-o", str(table_path), "-q").returncode == 0
    assert run("convert", "samples", "-o", str(lines_path), "-q").returncode == 0
    table = pq.read_table(table_path)
    assert table.schema.names == [name for name in Chunk.model_fields if name != "parent_id"]
    rows = table.to_pylist()
    assert [arrow_row(record) for record in jsonl(lines_path)] == rows
    assert [Chunk.model_validate(row) for row in rows] == [
        Chunk.model_validate(record) for record in jsonl(lines_path)
    ]
    pdf_rows = [row for row in rows if row["format"] == "pdf"]
    assert pdf_rows and all(row["lines"] is None and row["pages"] for row in pdf_rows)


def test_a_box_page_is_an_integer_in_the_table(tmp_path: Path) -> None:
    """Before: boxes were lists of doubles, so `pages[box[0] - 1]` raised TypeError."""
    chunks = structchunk.chunk_file(SAMPLES / "rust-data-types.pdf")
    save_parquet(chunks, tmp_path / "c.parquet")
    boxes = pq.read_table(tmp_path / "c.parquet").schema.field("boxes").type.value_type
    assert [boxes.field(name).name for name in range(boxes.num_fields)] == list(BOX_FIELDS)
    assert str(boxes.field("page").type) == "int64"
    first = pq.read_table(tmp_path / "c.parquet").to_pylist()[0]["boxes"][0]
    assert isinstance(first["page"], int) and first["page"] == chunks[0].pages[0]
    assert tuple(first.values()) == chunks[0].boxes[0]


def test_out_dir_writes_one_table_per_input_and_reruns_skip_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # records name their source as given: samples/…
    out = tmp_path / "out"
    first = run("convert", "samples", "--out-dir", str(out), "--output-format", "parquet")
    assert first.returncode == 0, first.stderr
    tables = sorted(p.name for p in out.glob("*.parquet"))
    assert "api-keys.md.parquet" in tables and not list(out.glob("*.md.jsonl"))
    # a batch keys ids on the path below the directory given: as `doc_key` in a library call
    chunks = structchunk.chunk_file("samples/api-keys.md", doc_key="api-keys.md")
    expected = [arrow_row(c.model_dump(exclude={"parent_id"})) for c in chunks]
    assert pq.read_table(out / "api-keys.md.parquet").to_pylist() == expected
    again = run("convert", "samples", "--out-dir", str(out), "--output-format", "parquet")
    assert "0 converted" in again.stderr and "unchanged" in again.stderr
    as_jsonl = run("convert", "samples", "--out-dir", str(out))  # another format: converted
    assert "0 converted" not in as_jsonl.stderr and (out / "api-keys.md.jsonl").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-o", "{tmp}/chunks.csv"],
            "structchunk writes .jsonl (or .ndjson) and .parquet files, not .csv",
        ),
        (["-o", "{tmp}/chunks"], "not a name without an extension"),
        (["-o", "{tmp}/out/"], "is a directory; give a file name, or --out-dir"),
        (
            ["-o", "{tmp}/c.jsonl", "--output-format", "parquet"],
            "names jsonl output, but --output-format is parquet",
        ),
        (["--output-format", "parquet"], "Parquet cannot go to stdout"),
    ],
)
def test_output_names_that_cannot_be_honoured_are_refused_before_any_work(
    args: list[str], message: str, tmp_path: Path
) -> None:
    result = run("convert", "samples/api-keys.md", *[a.format(tmp=tmp_path) for a in args])
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_without_pyarrow_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from structchunk.cli import app

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    result = CliRunner().invoke(
        app.cli, ["convert", str(SAMPLES / "api-keys.md"), "-o", str(tmp_path / "c.parquet")]
    )
    assert result.exit_code == 2
    assert "pip install 'structchunk-rag[parquet]'" in result.output


def test_library_callers_save_chunks_as_parquet(tmp_path: Path) -> None:
    chunks = structchunk.chunk_file(SAMPLES / "rust-data-types.pdf")
    assert save_parquet(chunks, tmp_path / "c.parquet") == len(chunks)
    table = pq.read_table(tmp_path / "c.parquet")
    assert table.schema.equals(chunk_arrow_schema())
    assert [Chunk.model_validate(row) for row in table.to_pylist()] == chunks
    assert save_parquet([], tmp_path / "empty.parquet") == 0
    assert pq.read_table(tmp_path / "empty.parquet").num_rows == 0


def test_parents_go_to_a_second_table_beside_the_chunks(tmp_path: Path) -> None:
    table_path, lines_path = tmp_path / "chunks.parquet", tmp_path / "chunks.jsonl"
    for path in (table_path, lines_path):
        assert run("convert", "samples", "--parents", "-o", str(path), "-q").returncode == 0
    records = jsonl(lines_path)
    chunks = [arrow_row(r) for r in records if "record" not in r]
    parents = [arrow_row(r) for r in records if r.get("record") == "parent"]
    assert parents and pq.read_table(table_path).to_pylist() == chunks
    assert pq.read_table(tmp_path / "chunks.parents.parquet").to_pylist() == parents
    assert all(row["parent_id"] for row in chunks)
