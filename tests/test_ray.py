"""Scale-out on Ray: the same chunks as a local run, failures as rows, the CLI engine."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SHARED_CORPUS

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers import detect_format
from structchunk.records import Chunk

pytestmark = pytest.mark.slow  # a local Ray cluster takes a while to start

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'structchunk-rag[ray]')")

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = ChunkOptions(max_tokens=128)


@pytest.fixture(scope="module")
def ray_cluster() -> object:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def mixed_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Markdown, HTML and PDF (from the shared corpus when present) and one corrupt PDF."""
    folder = tmp_path_factory.mktemp("mixed")
    shutil.copy(ROOT / "samples" / "api-keys.md", folder / "api-keys.md")
    for sample in (ROOT / "samples").iterdir():
        if sample.suffix in (".html", ".pdf"):
            shutil.copy(sample, folder / sample.name)
    if SHARED_CORPUS is not None:
        shutil.copy(SHARED_CORPUS / "markdown" / "rust-book" / "ch03-02-data-types.md", folder)
        shutil.copy(SHARED_CORPUS / "html" / "readability" / "v8-blog.html", folder)
        shutil.copy(SHARED_CORPUS / "pdf" / "fastapi" / "tutorial-cors.pdf", folder)
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 200)
    return folder


def local_records(folder: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(folder.iterdir()):
        try:
            out[str(path)] = [
                c.model_dump_json()
                for c in iter_chunks_from_bytes(
                    path.read_bytes(), str(path), detect_format(path.name), OPTIONS
                )
            ]
        except Exception:
            continue
    return out


def test_chunk_dataset_matches_the_local_run_and_reports_errors(
    ray_cluster: object, mixed_folder: Path
) -> None:
    from structchunk.ray import chunk_dataset

    paths = [str(p) for p in sorted(mixed_folder.iterdir())]
    files = ray.data.read_binary_files(paths, include_paths=True)
    result = chunk_dataset(files, OPTIONS)
    rows = sorted(result.chunks.take_all(), key=lambda r: (r["source"], r["chunk_index"]))
    got: dict[str, list[Chunk]] = {}
    for row in rows:  # a row's boxes are structs, its page an int: read back as the record
        got.setdefault(row["source"], []).append(Chunk.model_validate(row))
    expected = local_records(mixed_folder)
    assert got.keys() == expected.keys()
    for source, records in expected.items():
        assert got[source] == [Chunk.model_validate_json(r) for r in records]
    errors = result.errors.take_all()
    assert [(Path(e["path"]).name, e["kind"]) for e in errors] == [("corrupt.pdf", "parse")]


def test_cli_engine_ray_writes_what_the_local_engine_writes(
    ray_cluster: object, mixed_folder: Path, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from structchunk.cli import cli

    runner = CliRunner()
    local = runner.invoke(
        cli,
        [
            "convert",
            str(mixed_folder),
            "-o",
            str(tmp_path / "l.jsonl"),
            "--max-tokens",
            "128",
            "--errors",
            str(tmp_path / "le.jsonl"),
        ],
    )
    on_ray = runner.invoke(
        cli,
        [
            "convert",
            str(mixed_folder),
            "-o",
            str(tmp_path / "r.jsonl"),
            "--max-tokens",
            "128",
            "--engine",
            "ray",
            "--errors",
            str(tmp_path / "re.jsonl"),
        ],
    )
    assert local.exit_code == on_ray.exit_code == 1  # the corrupt file
    assert (tmp_path / "l.jsonl").read_bytes() == (tmp_path / "r.jsonl").read_bytes()
    assert (tmp_path / "le.jsonl").read_bytes() == (tmp_path / "re.jsonl").read_bytes()


def test_a_memory_limit_is_refused_on_ray_rather_than_ignored(tmp_path: Path) -> None:
    from structchunk.batch import BatchConfig
    from structchunk.batch.inputs import expand_inputs
    from structchunk.batch.ray_engine import run_batch_on_ray
    from structchunk.errors import OptionsError

    items, _ = expand_inputs([str(ROOT / "samples" / "api-keys.md")], None)
    config = BatchConfig(out=str(tmp_path / "o.jsonl"), max_memory_mb=1024)
    with pytest.raises(OptionsError, match="not supported on Ray"):
        run_batch_on_ray(items, OPTIONS, config)


def test_chunk_dataset_plans_the_changes_from_the_previous_ids(
    ray_cluster: object, tmp_path: Path
) -> None:
    """Any id rule: the adds are the new ids not there before, the deletes the old ids
    gone (a removed file's included), and the next run starts from `ids`."""
    from structchunk.ray import chunk_dataset

    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("fastapi-cors.md", "rust-publishing.md"):
        shutil.copy(ROOT / "tests" / "corpus" / "markdown" / name, docs / name)
    shutil.copy(ROOT / "samples" / "api-keys.md", docs / "api-keys.md")

    def chunked(previous: dict[str, list[str]]) -> tuple[dict[str, list[str]], list[dict]]:
        files = ray.data.read_binary_files(
            [str(p) for p in sorted(docs.iterdir())], include_paths=True
        )
        result = chunk_dataset(files, OPTIONS, previous_ids=previous)
        assert result.changes is not None and result.ids is not None
        records = {row["id"] for row in result.chunks.take_all()}
        assert records == {i for v in result.ids.values() for i in v}
        return result.ids, result.changes.take_all()

    first, plan = chunked({})
    assert {row["op"] for row in plan} == {"add"}
    text = (docs / "rust-publishing.md").read_text()
    (docs / "rust-publishing.md").write_text(text.replace("\n\n", "\n\nAn added line.\n\n", 1))
    (docs / "api-keys.md").unlink()
    second, plan = chunked(first)
    old = {i for v in first.values() for i in v}
    new = {i for v in second.values() for i in v}
    by_op = {op: {row["id"] for row in plan if row["op"] == op} for op in ("add", "delete", "keep")}
    assert by_op == {"add": new - old, "delete": old - new, "keep": old & new}
    assert by_op["delete"] >= set(first[str(tmp_path / "docs" / "api-keys.md")])
    files = ray.data.read_binary_files([str(docs / "fastapi-cors.md")], include_paths=True)
    assert chunk_dataset(files, OPTIONS).changes is None  # no previous ids: no plan


def test_a_doc_key_is_refused_for_a_dataset_of_files() -> None:
    """One key for every file would give two files' identical chunks one id."""
    from structchunk.errors import OptionsError
    from structchunk.ray import chunk_dataset

    with pytest.raises(OptionsError, match="doc_key names one document"):
        chunk_dataset(None, OPTIONS, doc_key="k")  # type: ignore[arg-type]


def test_parents_are_a_dataset_of_their_own(ray_cluster: object, tmp_path: Path) -> None:
    from structchunk.api import iter_records_from_bytes
    from structchunk.ray import chunk_dataset
    from structchunk.records import Parent

    path = ROOT / "samples" / "api-keys.md"
    files = ray.data.read_binary_files([str(path)], include_paths=True)
    result = chunk_dataset(files, OPTIONS, parents=True)
    assert result.parents is not None
    options = OPTIONS.model_copy(update={"parents": True})
    local = list(iter_records_from_bytes(path.read_bytes(), str(path), "markdown", options))
    parents = [Parent.model_validate(row) for row in result.parents.take_all()]
    chunks = [Chunk.model_validate(row) for row in result.chunks.take_all()]
    assert parents == [r for r in local if isinstance(r, Parent)]
    assert chunks == [r for r in local if isinstance(r, Chunk)]
    assert all(chunk.parent_id for chunk in chunks)
