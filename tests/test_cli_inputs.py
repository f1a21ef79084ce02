"""`convert`'s inputs: where `--out-dir` writes them, unknown formats, stdin, URLs."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from structchunk.batch.inputs import expand_inputs
from structchunk.cli import cli


def _md(path: Path, title: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {title}\n\nSome words about {title}.\n", encoding="utf-8")
    return path


def _outputs(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("[!.]*.jsonl"))


def test_out_dir_mirrors_absolute_files_from_their_common_folder(tmp_path: Path) -> None:
    """Before: `/home/me/a/x.md` was written as `OUT/home/me/a/x.md.jsonl`."""
    first = _md(tmp_path / "in" / "a" / "x.md", "X")
    second = _md(tmp_path / "in" / "b" / "deep" / "y.md", "Y")
    out = tmp_path / "out"
    args = ["convert", str(first), str(second), "--out-dir", str(out), "--no-manifest", "-q"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert _outputs(out) == ["a/x.md.jsonl", "b/deep/y.md.jsonl"]
    (record,) = [json.loads(line) for line in (out / "a" / "x.md.jsonl").read_text().splitlines()]
    assert record["source"] == str(first)  # the record still names the input as given


def test_one_absolute_file_is_written_at_the_top_of_the_out_dir(tmp_path: Path) -> None:
    source = _md(tmp_path / "deep" / "er" / "NARA2022.md", "N")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["convert", str(source), "--out-dir", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert _outputs(out) == ["NARA2022.md.jsonl"]


def test_relative_inputs_and_directories_keep_their_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _md(tmp_path / "docs" / "a" / "x.md", "X")
    _md(tmp_path / "tree" / "sub" / "z.md", "Z")
    absolute_glob = str(tmp_path / "docs" / "*" / "*.md")
    monkeypatch.chdir(tmp_path)
    items, problems = expand_inputs(["docs/a/x.md", str(tmp_path / "tree")], None)
    assert not problems and [i.key for i in items] == ["docs/a/x.md", "sub/z.md"]
    items, _ = expand_inputs([absolute_glob], None)
    assert [i.key for i in items] == ["x.md"]


def test_the_same_file_named_relatively_and_absolutely_is_converted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _md(tmp_path / "a" / "x.md", "X")
    _md(tmp_path / "b" / "y.md", "Y")
    monkeypatch.chdir(tmp_path)
    items, _ = expand_inputs(
        ["a/x.md", str(tmp_path / "a" / "x.md"), str(tmp_path / "b/y.md")], None
    )
    assert [i.key for i in items] == ["a/x.md", "b/y.md"]
    assert [i.path for i in items] == ["a/x.md", str(tmp_path / "b/y.md")]


def test_an_unsupported_file_is_not_counted_as_missing(tmp_path: Path) -> None:
    """Before: `notes.xyz` got its own error but the summary read "1 input not found"."""
    odd = tmp_path / "notes.xyz"
    odd.write_text("hello\n")
    good = _md(tmp_path / "a.md", "A")
    args = [
        "convert",
        str(odd),
        str(good),
        str(tmp_path / "gone.md"),
        "-o",
        str(tmp_path / "o.jsonl"),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1  # a bad input named on the command line fails the run
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 2
    assert f"{odd}: unsupported file extension '.xyz'" in errors[0]
    assert "--format" in errors[0] and ".pdf" in errors[0]
    summary = result.stderr.splitlines()[-1]
    assert summary.startswith(
        "structchunk: 1 input not found, 1 input not of a supported format, 1 file: 1 converted;"
    )


def test_a_directory_scan_counts_the_files_it_skips(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: files of unknown formats in a directory were skipped without a word."""
    _md(tmp_path / "in" / "a.md", "A")
    for name in ("data.bin", "sub/notes.xyz", "sub/Makefile"):
        (tmp_path / "in" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / name).write_text("x\n")
    args = ["convert", str(tmp_path / "in"), "-o", str(tmp_path / "o.jsonl")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0  # skipping what a folder also holds is not a failure
    summary = result.stderr.splitlines()[-1]
    assert summary.startswith(
        "structchunk: 1 file: 1 converted, 3 files skipped: not a supported format;"
    )
    with caplog.at_level(logging.INFO, logger="structchunk"):  # what -v shows
        CliRunner().invoke(cli, ["-v", *args])
    skipped = [r.getMessage() for r in caplog.records if "skipped, not a" in r.getMessage()]
    assert [line.rsplit(os.sep, 1)[-1] for line in skipped] == ["data.bin", "Makefile", "notes.xyz"]


SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _records(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(
    ("sample", "fmt"),
    [
        ("rust-data-types.pdf", "pdf"),
        ("hosting-agreement.docx", "docx"),
        ("slides-sample.pptx", "pptx"),
        ("regional-sales.xlsx", "xlsx"),
        ("the-waste-land.epub", "epub"),
    ],
)
def test_stdin_that_says_its_format_needs_no_format_flag(sample: str, fmt: str) -> None:
    """Before: `convert -` without --format was a usage error, even for a PDF."""
    data = (SAMPLES / sample).read_bytes()
    result = CliRunner().invoke(cli, ["convert", "-", "-q"], input=data)
    assert result.exit_code == 0, result.output
    from_stdin = _records(result.stdout)
    named = CliRunner().invoke(cli, ["convert", str(SAMPLES / sample), "-q"])
    from_file = _records(named.stdout)
    assert {r["format"] for r in from_stdin} == {fmt} and {r["source"] for r in from_stdin} == {"-"}
    assert [r["text"] for r in from_stdin] == [r["text"] for r in from_file]
    assert [r["doc_hash"] for r in from_stdin] == [r["doc_hash"] for r in from_file]
    keyed = CliRunner().invoke(cli, ["convert", "-", "--doc-key", sample, "-q"], input=data)
    assert [r["id"] for r in _records(keyed.stdout)] == [r["id"] for r in from_file]


def test_stdin_of_a_text_format_still_needs_format_or_a_name(tmp_path: Path) -> None:
    markdown = (SAMPLES / "api-keys.md").read_bytes()
    result = CliRunner().invoke(cli, ["convert", "-"], input=markdown)
    assert result.exit_code == 2
    assert "needs --format" in result.stderr and "--source-name" in result.stderr
    named = CliRunner().invoke(
        cli, ["convert", "-", "--source-name", "guide/api-keys.md", "-q"], input=markdown
    )
    forced = CliRunner().invoke(cli, ["convert", "-", "--format", "markdown", "-q"], input=markdown)
    assert named.exit_code == 0 and forced.exit_code == 0
    named_records, forced_records = _records(named.stdout), _records(forced.stdout)
    assert {r["source"] for r in named_records} == {"guide/api-keys.md"}
    assert {r["source"] for r in forced_records} == {"-"}  # as before
    assert [r["text"] for r in named_records] == [r["text"] for r in forced_records]
    assert {r["id"] for r in named_records}.isdisjoint(r["id"] for r in forced_records)
    out = tmp_path / "out"
    args = ["convert", "-", "--source-name", "guide/api-keys.md", "--out-dir", str(out), "-q"]
    assert CliRunner().invoke(cli, args, input=markdown).exit_code == 0
    assert _outputs(out) == ["guide/api-keys.md.jsonl"]


def test_source_name_without_stdin_is_a_usage_error(tmp_path: Path) -> None:
    source = _md(tmp_path / "a.md", "A")
    result = CliRunner().invoke(cli, ["convert", str(source), "--source-name", "b.md"])
    assert result.exit_code == 2 and "give - as an input" in result.stderr


def test_stdin_named_like_a_file_is_not_taken_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _md(tmp_path / "a.md", "A")
    monkeypatch.chdir(tmp_path)
    args = ["convert", "-", "a.md", "--source-name", "a.md", "--out-dir", "out"]
    result = CliRunner().invoke(cli, args, input=b"# B\n\nother\n")
    assert result.exit_code == 2 and "would both be written as 'a.md'" in result.stderr
