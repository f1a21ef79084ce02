"""Real and malformed HTML from the shared corpus: everything converts, encodings decode,
and boilerplate removal keeps its measured quality (a gate, as trafilatura has one)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from conftest import SHARED_CORPUS, corpus_params, load_benchmark

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers.html.encoding import decode_html
from structchunk.tokenizers import count_words

BUDGETS = (64, 256)
EXTRACTION_RECALL_FLOOR = 0.95
EXTRACTION_PRECISION_FLOOR = 0.90
"""The targets of issue 4 (measured: see docs/html.md); a change that drops below fails."""


@pytest.mark.slow
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize(
    "path", corpus_params("html", "*.html") + corpus_params("robustness/html", "*.html")
)
def test_every_corpus_page_converts_within_budget_losing_nothing(path: Path, budget: int) -> None:
    options = ChunkOptions(max_tokens=budget)
    chunks = list(
        iter_chunks_from_bytes(path.read_bytes(), str(path), "html", options, strict=True)
    )  # strict: any lost word raises
    for chunk in chunks:
        assert chunk.n_tokens == count_words(chunk.text) <= budget
        assert chunk.body.strip()


ENCODED = {
    "lemonde-1.windows-1252.html": "approuvé",
    "lemonde-1.latin1-undeclared.html": "approuvé",
    "gmw.gb18030.html": "宇航员在太空中喝酒会怎么样",
    "v8-blog.utf-16le-bom.html": "Emscripten’s",
    "v8-blog.utf-8-bom.html": "Emscripten’s",
    "v8-blog.invalid-utf8-bytes.html": "Emscripten’s",
}


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_corpus_encodings_decode_to_the_right_characters(name: str) -> None:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    data = (SHARED_CORPUS / "robustness" / "html" / "encodings" / name).read_bytes()
    text = decode_html(data)
    assert ENCODED[name] in text
    assert "Ã" not in text and "â€" not in text  # UTF-8 read as Windows-1252
    if "invalid" not in name:
        assert "\ufffd" not in text


@pytest.mark.slow
def test_extraction_quality_stays_above_the_targets() -> None:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    bench = load_benchmark("html_extraction")
    expected_dir = SHARED_CORPUS / "html-expected" / "readability"
    rows = []
    for page in sorted((SHARED_CORPUS / "html" / "readability").glob("*.html")):
        reference = expected_dir / page.name
        if reference.exists():
            bodies, _ = bench.chunk_words(page)  # type: ignore[attr-defined]
            expected = bench.expected_words(reference)  # type: ignore[attr-defined]
            rows.append(bench.overlap(bodies, expected))  # type: ignore[attr-defined]
    assert rows
    recall = statistics.fmean(r for r, _ in rows)
    precision = statistics.fmean(p for _, p in rows)
    summary = json.dumps({"recall": round(recall, 3), "precision": round(precision, 3)})
    assert recall >= EXTRACTION_RECALL_FLOOR, summary
    assert precision >= EXTRACTION_PRECISION_FLOOR, summary
