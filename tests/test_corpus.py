"""Real documents: everything converts, within budget, with nothing lost (`strict`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import LOCAL_CORPUS, corpus_params

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers import detect_format
from structchunk.tokenizers import count_words

BUDGETS = (64, 256)


def check_document(path: Path, budget: int) -> None:
    options = ChunkOptions(max_tokens=budget)
    data = path.read_bytes()
    chunks = list(
        iter_chunks_from_bytes(data, str(path), detect_format(path.name), options, strict=True)
    )  # strict: any lost word raises
    for chunk in chunks:
        assert chunk.n_tokens == count_words(chunk.text) <= budget
        assert chunk.body.strip()


LOCAL_FILES = sorted(p for p in LOCAL_CORPUS.rglob("*") if p.suffix in (".md", ".txt"))


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("path", LOCAL_FILES, ids=lambda p: p.name)
def test_local_real_documents(path: Path, budget: int) -> None:
    check_document(path, budget)


@pytest.mark.slow
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("path", corpus_params("markdown", "*.md") + corpus_params("text", "*.txt"))
def test_every_shared_corpus_document(path: Path, budget: int) -> None:
    check_document(path, budget)


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_params("robustness/markdown", "*.md"))
def test_robustness_markdown_converts(path: Path) -> None:
    check_document(path, 256)
