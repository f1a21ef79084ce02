"""Inputs by URL through fsspec (the `remote` extra), on fsspec's in-memory filesystem."""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import structchunk
from structchunk.cli import cli
from structchunk.errors import InputError, UnsupportedFormatError, install_hint

fsspec = pytest.importorskip("fsspec")

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture
def remote() -> Iterator[str]:
    """Two samples at `memory://docs/…`; the filesystem is emptied afterwards."""
    fs = fsspec.filesystem("memory")
    fs.pipe("/docs/guide/api-keys.md", (SAMPLES / "api-keys.md").read_bytes())
    fs.pipe("/docs/pdf/rust.pdf", (SAMPLES / "rust-data-types.pdf").read_bytes())
    yield "memory://docs"
    fs.rm("/docs", recursive=True)


@pytest.fixture
def no_fsspec(monkeypatch: pytest.MonkeyPatch) -> None:
    """`import fsspec` fails, as without the extra."""
    real_import = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "fsspec":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)


def test_chunk_file_reads_a_url_as_it_reads_the_file(remote: str) -> None:
    chunks = structchunk.chunk_file(f"{remote}/guide/api-keys.md", max_tokens=64)
    local = structchunk.chunk_file(SAMPLES / "api-keys.md", max_tokens=64)
    assert [(c.text, c.doc_hash) for c in chunks] == [(c.text, c.doc_hash) for c in local]
    assert {c.source for c in chunks} == {f"{remote}/guide/api-keys.md"}
    keyed = structchunk.chunk_file(f"{remote}/guide/api-keys.md", max_tokens=64, doc_key="k")
    local_keyed = structchunk.chunk_file(SAMPLES / "api-keys.md", max_tokens=64, doc_key="k")
    assert [c.id for c in keyed] == [c.id for c in local_keyed]  # ids keyed on the key alone


def test_a_missing_url_is_one_line_naming_it(remote: str) -> None:
    with pytest.raises(InputError, match=r"^memory://docs/nope\.md: no such file$"):
        structchunk.chunk_file(f"{remote}/nope.md")
    with pytest.raises(UnsupportedFormatError, match=r"^memory://docs/x\.zzz: "):
        structchunk.chunk_file(f"{remote}/x.zzz")


def test_convert_mirrors_urls_below_their_common_folder(remote: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [f"{remote}/guide/api-keys.md", f"{remote}/pdf/rust.pdf", "--out-dir", str(out)]
    result = CliRunner().invoke(cli, ["convert", *args, "-q"])
    assert result.exit_code == 0, result.output
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("[!.]*.jsonl"))
    assert written == ["guide/api-keys.md.jsonl", "pdf/rust.pdf.jsonl"]
    first = json.loads((out / "pdf" / "rust.pdf.jsonl").read_text().splitlines()[0])
    assert first["source"] == f"{remote}/pdf/rust.pdf" and first["format"] == "pdf"


def test_convert_reports_an_unreadable_url_as_a_failed_file(remote: str, tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    args = ["convert", f"{remote}/guide/api-keys.md", f"{remote}/gone.md", "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert "structchunk: error: memory://docs/gone.md: no such file" in result.stderr
    assert "structchunk: 2 files: 1 converted, 1 failed;" in result.stderr
    assert out.stat().st_size > 0


def test_the_loaders_read_urls(remote: str) -> None:
    pytest.importorskip("langchain_core", reason="pip install 'structchunk-rag[langchain]'")
    pytest.importorskip("llama_index.core", reason="pip install 'structchunk-rag[llamaindex]'")
    from structchunk.integrations.langchain import StructChunkLoader
    from structchunk.integrations.llamaindex import StructChunkReader

    url = f"{remote}/guide/api-keys.md"
    expected = [c.id for c in structchunk.chunk_file(url)]
    assert [d.id for d in StructChunkLoader(url).load()] == expected
    assert [d.id_ for d in StructChunkReader().load_data(url)] == expected


def test_without_the_extra_a_url_is_one_line_naming_it(no_fsspec: None, tmp_path: Path) -> None:
    hint = f"reading inputs by URL needs fsspec: {install_hint('remote')}"
    with pytest.raises(InputError, match=re.escape(hint)):
        structchunk.chunk_file("s3://bucket/report.pdf")
    args = ["convert", "s3://bucket/report.pdf", "-o", str(tmp_path / "o.jsonl")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr == f"structchunk: error: {hint}\n"
