"""Real Word documents (tests/corpus/docx): each converts within budget with nothing lost,
or — the hostile ones of Apache POI's test data — fails with its one-line error.

"Nothing lost" is checked twice: `strict` makes the packer fail on any word of the tree
missing from the chunks, and every word python-docx reads from the body's paragraphs
and table cells (an independent reader) must appear in the chunks.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import docx
import pytest
from conftest import LOCAL_CORPUS

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import EncryptedDocumentError, ParseError
from structchunk.tokenizers import count_words

FILES = sorted((LOCAL_CORPUS / "docx").rglob("*.docx"))
BUDGETS = (64, 256)
_WORD = re.compile(r"[^\W_]+")

EXPECTED_ERRORS = {
    "bug53475-password-is-pass.docx": (EncryptedDocumentError, "password-protected Word"),
    "truncated62886.docx": (ParseError, "damaged zip package"),
    "ExternalEntityInText.docx": (ParseError, "declares a DTD"),
    "clusterfuzz-testcase-minimized-POIXWPFFuzzer-4791943399604224.docx": (
        ParseError,
        "damaged zip package",
    ),
    "clusterfuzz-testcase-minimized-POIXWPFFuzzer-5166796835258368.docx": (
        ParseError,
        "damaged zip package",
    ),
}
"""Files that must fail, with the error and a piece of its message."""

NOT_READ_BY_PYTHON_DOCX = {"Strict.docx"}
"""python-docx reads only transitional documents; these are checked by `strict` alone."""


def python_docx_words(data: bytes) -> set[str]:
    document = docx.Document(io.BytesIO(data))
    texts = []
    for block in document.iter_inner_content():
        if isinstance(block, docx.text.paragraph.Paragraph):
            texts.append(block.text)
        else:
            texts.extend(cell.text for row in block.rows for cell in row.cells)
    return set(_WORD.findall(" ".join(texts).lower()))


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 50
    assert set(EXPECTED_ERRORS) <= {path.name for path in FILES}


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_real_word_document_converts_with_nothing_lost(path: Path, budget: int) -> None:
    data = path.read_bytes()
    options = ChunkOptions(max_tokens=budget, strict=True)  # strict: a lost word raises
    if path.name in EXPECTED_ERRORS:
        error, said = EXPECTED_ERRORS[path.name]
        with pytest.raises(error) as caught:
            list(iter_chunks_from_bytes(data, path.name, None, options))
        assert said in str(caught.value) and "\n" not in str(caught.value)
        return
    chunks = list(iter_chunks_from_bytes(data, path.name, None, options))
    for chunk in chunks:
        assert chunk.format == "docx"
        assert chunk.n_tokens == count_words(chunk.text) <= budget
        assert chunk.body.strip()
    if path.name not in NOT_READ_BY_PYTHON_DOCX:
        ours = set(_WORD.findall(" ".join(chunk.text for chunk in chunks).lower()))
        assert python_docx_words(data) <= ours


def test_a_strict_document_reads_like_its_transitional_twin() -> None:
    def bodies(name: str) -> list[tuple[list[str], str]]:
        data = (LOCAL_CORPUS / "docx" / "docling" / name).read_bytes()
        return [(c.heading_path, c.body) for c in iter_chunks_from_bytes(data, name, None)]

    assert bodies("Strict.docx") == bodies("Transitional.docx")
    assert bodies("Strict.docx")
