"""The command line as a user runs it: files, directories, stdin, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from structchunk import __version__
from structchunk.cli import cli
from structchunk.records import read_jsonl

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def run(*args: str, input: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console entry point, exactly as a user would call it."""
    return subprocess.run(
        [sys.executable, "-m", "structchunk", *args],
        capture_output=True,
        text=True,
        input=input,
        cwd=ROOT,
        timeout=120,
    )


def records(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_convert_a_file_to_a_jsonl_file(tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    result = run("convert", "samples/api-keys.md", "-o", str(out), "--max-tokens", "64")
    assert result.returncode == 0, result.stderr
    chunks = records(out.read_text(encoding="utf-8"))
    assert chunks[0]["source"] == "samples/api-keys.md"
    assert all(c["n_tokens"] <= 64 for c in chunks)  # type: ignore[operator]
    assert result.stdout == ""
    summary = result.stderr.strip().splitlines()[-1]
    assert summary.startswith("structchunk: 1 file: 1 converted; 7 chunks, ")
    assert "median" in summary and "p95" in summary and "(budget 64 words)" in summary


def test_convert_to_stdout_and_from_stdin() -> None:
    result = run("convert", "-", "--format", "markdown", "-q", input="# T\n\nhello\n")
    assert result.returncode == 0 and result.stderr == ""
    (chunk,) = records(result.stdout)
    assert chunk["source"] == "-" and chunk["text"] == "T\n\nhello"


def test_stdin_without_format_is_a_usage_error() -> None:
    result = run("convert", "-", input="# T\n")
    assert result.returncode == 2
    assert "needs --format" in result.stderr


def test_a_directory_is_searched_recursively_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.md").write_text("# Z\n\nzed\n")
    (tmp_path / "a.txt").write_text("plain\n")
    (tmp_path / "skip.bin").write_bytes(b"\x00\x01")
    result = CliRunner().invoke(cli, ["convert", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    assert [c["body"] for c in records(result.stdout)] == ["plain", "zed"]


def test_a_failing_file_is_reported_and_the_others_are_still_written(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_bytes(bytes(range(256)) * 10)
    out = tmp_path / "out.jsonl"
    result = run(
        "convert", str(bad), "samples/api-keys.md", str(tmp_path / "missing.md"), "-o", str(out)
    )
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 2 and all(len(e) < 300 for e in errors)
    assert any(f"{bad}: binary data" in e for e in errors)
    assert any("missing.md: no such file" in e for e in errors)
    assert "Traceback" not in result.stderr
    sources = {c["source"] for c in records(out.read_text(encoding="utf-8"))}
    assert sources == {"samples/api-keys.md"}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_document_warnings_read_the_same_from_worker_processes(tmp_path: Path, jobs: str) -> None:
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes((SAMPLES / "rust-data-types.pdf").read_bytes()[:-1000])
    result = run(
        "convert",
        str(damaged),
        "samples/api-keys.md",
        "-o",
        str(tmp_path / "out.jsonl"),
        "--jobs",
        jobs,
        "--no-manifest",
    )
    assert result.returncode == 0
    assert f"structchunk: WARNING: {damaged}: damaged file: repaired" in result.stderr


def test_unknown_extension_and_bad_options() -> None:
    result = run("convert", "pyproject.toml")
    assert result.returncode == 1 and "unsupported file extension '.toml'" in result.stderr
    result = run("convert", "samples/api-keys.md", "--max-tokens", "3")
    assert result.returncode == 2 and "--max-tokens 3" in result.stderr
    result = run("convert", "samples/api-keys.md", "--tokenizer", "nope")
    assert result.returncode == 2 and "unknown tokenizer 'nope'" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--max-tokens", "3"], "--max-tokens 3: must be at least 8"),
        (["--min-tokens", "-1"], "--min-tokens -1: must be at least 0"),
        (
            ["--overlap-tokens", "500"],
            "--overlap-tokens (500) must be at most half of --max-tokens (256)",
        ),
        (
            ["--max-tokens", "10", "--min-tokens", "20"],
            "--min-tokens (20) must be below --max-tokens (10)",
        ),
    ],
)
def test_option_errors_name_the_flag_not_the_field(flags: list[str], message: str) -> None:
    """Before: `invalid options: max_tokens: Input should be greater than or equal to 8`."""
    result = run("convert", "samples/api-keys.md", *flags)
    assert result.returncode == 2
    assert result.stderr == f"structchunk: error: {message}\n"


def test_inputs_that_are_missing_are_counted_and_nothing_read_writes_nothing(
    tmp_path: Path,
) -> None:
    """Before: "0 files: 0 converted" and an empty chunks.jsonl when every input was
    missing, and a summary that did not count the missing ones."""
    out = tmp_path / "chunks.jsonl"
    result = run("convert", str(tmp_path / "a.md"), str(tmp_path / "b.md"), "-o", str(out))
    assert result.returncode == 1 and not out.exists()
    assert "2 inputs not found, 0 files: 0 converted" in result.stderr
    result = run("convert", "samples/api-keys.md", str(tmp_path / "a.md"), "-o", str(out))
    assert result.returncode == 1 and out.stat().st_size > 0
    assert "1 input not found, 1 file: 1 converted" in result.stderr


def test_one_output_file_leaves_no_hidden_state_unless_asked(tmp_path: Path) -> None:
    """Before: a plain `-o chunks.jsonl` left `.chunks.jsonl.manifest.jsonl` and a
    `.chunks.jsonl.parts/` folder larger than the output, keeping parts of earlier inputs."""
    out = tmp_path / "chunks.jsonl"
    assert run("convert", "samples", "-o", str(out), "-q").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunks.jsonl"]
    docs, state = tmp_path / "docs", tmp_path / "state" / "chunks.manifest.jsonl"
    docs.mkdir()
    for name in ("api-keys.md", "docs-page.html"):
        (docs / name).write_bytes((SAMPLES / name).read_bytes())
    incremental = ("convert", str(docs), "-o", str(out), "--manifest", str(state))
    assert run(*incremental, "-q").returncode == 0
    parts = tmp_path / "state" / "chunks.parts"

    def held() -> list[str]:  # the parts, beside the lock of the run writing them
        return sorted(p.name for p in parts.iterdir() if p.name != ".structchunk-lock")

    assert held() == ["api-keys.md.jsonl", "docs-page.html.jsonl"]
    (docs / "docs-page.html").unlink()
    again = run(*incremental)
    assert "0 converted, 1 unchanged" in again.stderr and "removed" not in again.stderr
    assert held() == ["api-keys.md.jsonl"]  # never outgrows the run


def test_strict_mode_succeeds_on_real_documents() -> None:
    result = run("convert", "samples", "--strict", "--max-tokens", "40", "-q")
    assert result.returncode == 0, result.stderr
    assert records(result.stdout)


def test_output_is_deterministic(tmp_path: Path) -> None:
    outs = []
    for name in ("one.jsonl", "two.jsonl"):
        run("convert", "samples", "-o", str(tmp_path / name), "-q")
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1] and outs[0]


def test_schema_and_version() -> None:
    runner = CliRunner()
    schema = json.loads(runner.invoke(cli, ["schema"]).stdout)
    assert schema["title"] == "Chunk" and "heading_path" in schema["properties"]
    assert __version__ in runner.invoke(cli, ["--version"]).stdout


@pytest.mark.parametrize("flag", ["--no-heading-prefix"])
def test_no_heading_prefix_flag(flag: str) -> None:
    result = CliRunner().invoke(cli, ["convert", "samples/api-keys.md", flag, "-q"])
    assert all(c["text"] == c["body"] for c in records(result.stdout))


def test_the_summary_counts_no_shortened_prefix_where_there_is_no_prefix(
    tmp_path: Path,
) -> None:
    """Before: under --no-heading-prefix every chunk with a heading path counted as one
    ("4 heading prefixes shortened" for samples/api-keys.md, whose chunks have none)."""
    out = tmp_path / "b.jsonl"
    for budget in ("256", "8"):
        args = ("-o", str(out), "--no-manifest", "--max-tokens", budget)
        plain = run("convert", "samples/api-keys.md", *args, "--no-heading-prefix")
        assert plain.returncode == 0, plain.stderr
        assert "shortened" not in plain.stderr
    prefixed = run(
        "convert", "samples/api-keys.md", "-o", str(out), "--no-manifest", "--max-tokens", "8"
    )
    shortened = sum(chunk.prefix_shortened for chunk in read_jsonl(out))
    assert shortened and f"; {shortened} heading prefixes shortened;" in prefixed.stderr


# -- output faults: one line naming the output, never a traceback -------------------------


def test_o_naming_a_directory_is_refused_before_any_work(tmp_path: Path) -> None:
    """Before: every file was converted, then renaming onto the directory raised
    IsADirectoryError with a traceback."""
    result = run("convert", "samples/api-keys.md", "-o", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"structchunk: error: -o {tmp_path}: is a directory; give a file name, "
        f"or --out-dir {tmp_path} for one JSONL per input"
    ]


def _disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import structchunk.batch.atomic as atomic

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)


@pytest.mark.parametrize("destination", ["-o", "--out-dir"])
def test_a_full_disk_ends_the_run_in_one_line_not_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, destination: str
) -> None:
    """Before: every file reported "internal error … please report it" and the manifest
    step ended in a traceback; then one line per file and exit 1, though no other file
    could be written either. Now the first output that meets the full disk ends the run:
    one line, exit 2 (the worker that meets it is forked, so it inherits the patch)."""
    _disk_full(monkeypatch)
    target = tmp_path / ("all.jsonl" if destination == "-o" else "out")
    result = CliRunner().invoke(
        cli,
        ["convert", str(SAMPLES / "api-keys.md"), destination, str(target), "--jobs", "1"],
    )
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("structchunk: error:") and "No space left on device" in line
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert not list(tmp_path.rglob("*.tmp"))  # nothing half-written is left behind


def test_a_file_name_that_is_not_utf8_converts_and_is_shown_escaped(tmp_path: Path) -> None:
    """Before: `café.md` named in Latin-1 failed with an internal error (its records
    could not be serialised) and `--errors` ended in a UnicodeEncodeError traceback."""
    import os

    folder = os.fsencode(tmp_path / "in")
    os.makedirs(folder)
    with open(os.path.join(folder, b"caf\xe9.md"), "wb") as handle:
        handle.write(b"# T\n\nText.\n")
    with open(os.path.join(folder, b"bad\xff.html"), "wb") as handle:
        handle.write(b"\x00\x01\x02 binary")
    out, errors = tmp_path / "all.jsonl", tmp_path / "errors.jsonl"
    result = run("convert", str(tmp_path / "in"), "-o", str(out), "--errors", str(errors))
    assert result.returncode == 1  # the binary file fails, the other converts
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert "bad\\xff.html: binary data" in result.stderr
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record["source"].endswith("caf\\xe9.md") and record["body"] == "Text."
    (failure,) = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    assert failure["path"].endswith("bad\\xff.html") and failure["kind"] == "parse"
    again = run("convert", str(tmp_path / "in"), "--out-dir", str(tmp_path / "o"))
    again = run("convert", str(tmp_path / "in"), "--out-dir", str(tmp_path / "o"))
    assert "1 unchanged" in again.stderr  # the manifest keeps the name exactly
