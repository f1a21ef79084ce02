"""The multilingual retrieval set stays what its README says: every question's excerpt is
in its page's visible text, inside one block, read with the per-script tokens the scorer
uses (`benchmarks/retrieval-multilingual/script_tokens.py`), and every page is named with
its source and licence.

`check_questions.py` imports the shared bench's normalisation, so it runs where the bench
is (beside the shared corpus)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHARED_CORPUS

SET = ROOT / "benchmarks" / "retrieval-multilingual"
LANGUAGES = ("de", "es", "ja", "ko", "zh")
BENCH = next(
    (
        bench
        for bench in (
            ROOT.parent / "shared" / "bench",
            *([SHARED_CORPUS.parent / "bench"] if SHARED_CORPUS else []),
        )
        if (bench / "common.py").is_file()
    ),
    None,
)
needs_bench = pytest.mark.skipif(BENCH is None, reason="the shared bench is not here")


def check(folder: Path) -> subprocess.CompletedProcess[str]:
    """The set's checker (it reuses the development set's, beside it) run over `folder`."""
    return subprocess.run(
        [sys.executable, str(SET / "check_questions.py"), str(folder), "--bench", str(BENCH)],
        capture_output=True,
        text=True,
        check=False,
    )


@needs_bench
def test_every_multilingual_question_is_found_where_it_says() -> None:
    result = check(SET)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "total: 180 questions, 180 pass, 0 fail" in result.stdout
    for lang in LANGUAGES:
        assert f"fastapi-{lang}.jsonl: 36 questions, 36 pass, 0 fail" in result.stdout


@needs_bench
def test_the_checker_fails_an_excerpt_that_is_not_on_the_page(tmp_path: Path) -> None:
    copy = tmp_path / "set"
    shutil.copytree(SET, copy)
    qa = copy / "qa" / "fastapi-zh.jsonl"
    rows = [json.loads(line) for line in qa.read_text(encoding="utf-8").splitlines()]
    rows[0]["answer"] = rows[0]["answer"].replace("数据模型", "数据的模型")
    qa.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    result = check(copy)
    assert result.returncode == 1
    assert "total: 180 questions, 179 pass, 1 fail" in result.stdout


@needs_bench
def test_chinese_and_japanese_are_read_one_character_a_token() -> None:
    sys.path.insert(0, str(SET))
    try:
        import script_tokens
    finally:
        sys.path.remove(str(SET))
    assert script_tokens.match_tokens("**TLS 证书** 与域名相关联") == [
        "tls", "证", "书", "与", "域", "名", "相", "关", "联",
    ]  # fmt: skip
    assert script_tokens.match_tokens("[**Pydantic**](https://pydantic.dev/)을 `x`의") == [
        "pydantic을",
        "x의",
    ]
    assert "域名" in script_tokens.bm25_terms("与域名相关联")
    assert {"fastapi는", "fastapi"} <= set(script_tokens.bm25_terms("FastAPI는"))
    assert {"빠릅니다", "빠릅", "릅니", "니다"} == set(script_tokens.bm25_terms("빠릅니다"))


def test_every_page_is_a_named_copy_and_every_language_has_its_questions() -> None:
    sources = (SET / "SOURCES.md").read_text(encoding="utf-8")
    assert "MIT" in sources and "c3f316b7e814667e8ee81e03a7330d00ee61e45c" in sources
    assert "| FastAPI docs" in (SET / "LICENSES.md").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        pages = sorted(p.relative_to(SET / "markdown" / f"fastapi-{lang}").as_posix()
                       for p in (SET / "markdown" / f"fastapi-{lang}").rglob("*.md"))  # fmt: skip
        assert len(pages) == 5, lang
        for page in pages:
            assert f"`{page}`" in sources, page
        rows = (SET / "qa" / f"fastapi-{lang}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(rows) >= 30
        assert {json.loads(r)["language"] for r in rows} == {lang}
