"""An error names the option that fixes it in its caller's terms: a keyword for the
library (`pdf_password=`), a flag for the command line (`--password`)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, SHARED_CORPUS

from structchunk import chunk_file, chunk_text
from structchunk.cli import cli
from structchunk.errors import (
    EncryptedDocumentError,
    OptionHint,
    ParseError,
    UnsupportedFormatError,
    as_keyword,
)
from structchunk.options import ChunkOptions, as_flag, flag_name

PACKAGE = ROOT / "structchunk"
LIBRARY_AREAS = ("api.py", "parsers", "packing", "sentences", "tokenizers", "offsets", "records.py")
"""What a library call runs: its messages may not speak in command-line flags."""


def _encrypted_pdf() -> Path:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    path = SHARED_CORPUS / "robustness/pdf/pdfplumber/password-example.pdf"
    if not path.exists():
        pytest.skip("password-example.pdf is not in the corpus")
    return path


@pytest.mark.parametrize(
    ("hint", "keyword", "flag"),
    [
        (OptionHint("pdf_password"), "pdf_password=", "--password (or $STRUCTCHUNK_PDF_PASSWORD)"),
        (OptionHint("format"), "format=", "--format"),
        (OptionHint("format", "xlsx"), "format='xlsx'", "--format xlsx"),
        (
            OptionHint("pdf_engine", "pdfplumber"),
            "pdf_engine='pdfplumber'",
            "--pdf-engine pdfplumber",
        ),
    ],
)
def test_an_option_hint_reads_as_a_keyword_or_a_flag(
    hint: OptionHint, keyword: str, flag: str
) -> None:
    error = ParseError("use {option} here", source="a.pdf", hint=hint)
    assert str(error) == f"a.pdf: use {keyword} here"
    assert error.in_terms(as_flag) == f"a.pdf: use {flag} here"
    assert error.with_source("b.pdf") is error
    moved = ParseError("use {option} here", hint=hint).with_source("b.pdf")
    assert moved.in_terms(as_flag) == f"b.pdf: use {flag} here"
    assert as_keyword(hint.field, hint.value) == keyword


def test_an_error_from_a_worker_process_keeps_its_hint() -> None:
    error = EncryptedDocumentError("pass {option}", source="a.pdf", hint=OptionHint("pdf_password"))
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is EncryptedDocumentError and str(back) == str(error)
    assert back.in_terms(as_flag) == "a.pdf: pass --password (or $STRUCTCHUNK_PDF_PASSWORD)"


def test_a_message_without_a_hint_keeps_its_braces() -> None:
    assert str(ParseError("bad {option} {x}", source="a")) == "a: bad {option} {x}"


def test_chunk_file_on_an_encrypted_pdf_asks_for_the_keyword() -> None:
    path = _encrypted_pdf()
    with pytest.raises(EncryptedDocumentError) as missing:
        chunk_file(path)
    assert "pass its password with pdf_password=" in str(missing.value)
    assert "--password" not in str(missing.value)
    assert str(missing.value).startswith(str(path))
    with pytest.raises(EncryptedDocumentError) as wrong:
        chunk_file(path, pdf_password="nope")
    assert "pdf_password=" in str(wrong.value) and "--" not in str(wrong.value)
    assert chunk_file(path, pdf_password="test")  # the keyword the message names works


def test_the_cli_still_asks_for_the_flag(tmp_path: Path) -> None:
    path = _encrypted_pdf()
    result = CliRunner().invoke(cli, ["convert", str(path), "-o", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if "error" in line]
    assert len(errors) == 1
    assert "--password (or $STRUCTCHUNK_PDF_PASSWORD)" in errors[0]
    assert "pdf_password" not in errors[0]


def test_an_unknown_extension_names_the_keyword_or_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "notes.xyz"
    path.write_text("# Notes\n\nSome words.\n")
    with pytest.raises(UnsupportedFormatError) as raised:
        chunk_file(path)
    assert "(use format= to override)" in str(raised.value)
    assert chunk_file(path, format="markdown")
    result = CliRunner().invoke(cli, ["convert", str(path), "-o", str(tmp_path / "o.jsonl")])
    assert "(use --format to override)" in result.output
    assert "format=" not in result.output


def test_binary_text_names_the_keyword() -> None:
    with pytest.raises(ParseError, match=r"wrong extension\? use format=\)"):
        chunk_text("\x00\x01\x02\x03" * 200, format="text")


def _messages(path: Path) -> list[str]:
    """The string pieces of a module's code, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_library_messages_name_no_command_line_flag() -> None:
    flags = {flag_name(field) for field in ChunkOptions.model_fields}
    files = [
        file
        for area in LIBRARY_AREAS
        for file in ([PACKAGE / area] if area.endswith(".py") else (PACKAGE / area).rglob("*.py"))
    ]
    speaking_flags = [
        f"{file.relative_to(PACKAGE)}: {text!r}"
        for file in files
        for text in _messages(file)
        for flag in flags
        if flag in text.split() or f"{flag} " in text or text.endswith(flag)
    ]
    assert not speaking_flags, "say it with OptionHint and {option}"


def test_every_hint_names_an_option() -> None:
    hinted = {
        node.args[0].value
        for file in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "OptionHint"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    assert {"pdf_password", "format", "pdf_engine"} <= hinted
    assert hinted <= set(ChunkOptions.model_fields)
