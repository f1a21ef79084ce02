"""The `words` tokenizer in every script: Chinese and Japanese per character, Thai, Lao,
Khmer per base character, Hangul and the spaced scripts by spaces — and the budget then
holds against a real multilingual sub-word vocabulary (Tekken, from mistral-common)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import load_benchmark
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from structchunk import chunk_text
from structchunk.tokenizers import count_words

SAMPLES = Path(__file__).parent / "multilingual" / "udhr"
BYTE_FALLBACK = ("lo", "km")
"""Samples whose scripts the reference vocabulary spells in bytes (3-5 tokens a letter,
see docs/tokenizers.md): left out of the under-count bound."""
MAX_UNDERCOUNT = 4.0
"""No chunk's `n_tokens` under the `words` tokenizer is below the reference's count of
its text divided by this. Per sample the ratio is 0.38 (Hebrew) to 1.5 (Thai); short
chunks of numbers and punctuation go lower."""


@functools.cache
def reference() -> Callable[[str], int]:
    bench = load_benchmark("tokenizer_scripts")
    path = bench.tekken_file()
    if path is None:
        pytest.skip("mistral-common (a test extra) is not installed")
    count: Callable[[str], int] = bench.tekken(path)
    return count


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain English words", 3),
        ("Größe und Übermaß", 3),  # accented Latin: by spaces, as before
        ("模型很好。", 5),  # Han and full-width punctuation: one each
        ("すべての人間は", 7),  # kana and Han: one each
        ("GPT模型（v2）", 6),  # GPT + 模 + 型 + （ + v2 + ）
        ("สวัสดีครับ", 7),  # Thai: 7 base letters, 3 marks on them
        ("모든 인간은 태어날", 3),  # Hangul: by spaces
        ("", 0),
    ],
)
def test_words_count_every_script(text: str, expected: int) -> None:
    assert count_words(text) == expected


def test_chinese_paragraph_is_cut_to_the_budget() -> None:
    """The issue's case: a heading and a paragraph of 119 characters were one chunk of 3
    "tokens" under a 30-word budget."""
    body = (
        "鑑於對人類家庭所有成員的固有尊嚴及其平等的和不移的權利的承認乃是世界自由正義與和平的基礎"
        * 2
    )
    body += "鑑於對人權的無視和侮蔑已發展為野蠻暴行這些暴行沾污了人類的良心"
    chunks = chunk_text(f"# 世界人權宣言\n\n{body}\n", max_tokens=30)
    assert len(chunks) > 3
    assert all(c.n_tokens == count_words(c.text) <= 30 for c in chunks)
    assert "".join(c.body for c in chunks) == body


def test_english_counts_are_whitespace_words() -> None:
    text = (SAMPLES / "en.txt").read_text(encoding="utf-8")
    assert count_words(text) == len(text.split())


def _fragments() -> list[str]:
    pieces = []
    for path in sorted(SAMPLES.glob("*.txt")):
        if path.stem in BYTE_FALLBACK:
            continue
        for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
            pieces += [paragraph[i : i + 60] for i in range(0, len(paragraph), 60)]
    return [p.strip() for p in pieces if p.strip()]


FRAGMENTS = _fragments()


@st.composite
def mixed_documents(draw: st.DrawFn) -> str:
    """Markdown of headings and paragraphs whose sentences come from samples in every
    script, mixed within a paragraph."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        lines.append("# " + draw(st.sampled_from(FRAGMENTS))[:20])
        for _ in range(draw(st.integers(1, 3))):
            parts = draw(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8))
            lines.append(draw(st.sampled_from(["", " ", "。"])).join(parts))
    return "\n\n".join(lines) + "\n"


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mixed_documents(), max_tokens=st.integers(16, 200))
def test_mixed_script_budget_holds_against_a_multilingual_vocabulary(
    doc: str, max_tokens: int
) -> None:
    count = reference()
    for chunk in chunk_text(doc, max_tokens=max_tokens):
        assert chunk.n_tokens == count_words(chunk.text) <= max_tokens
        assert count(chunk.text) <= MAX_UNDERCOUNT * chunk.n_tokens, chunk.text


def test_no_chunk_is_a_lone_punctuation_mark() -> None:
    """A Chinese sentence one `，` over the budget was cut before the mark, which became
    a chunk of its own (no words, no offsets)."""
    for n in range(10, 60):
        chunks = chunk_text(f"# 题\n\n{'字' * n}，\n", max_tokens=20)
        assert all(any(char.isalnum() for char in c.body) for c in chunks), n
        assert "".join(c.body for c in chunks) == "字" * n + "，"


def test_strict_mode_accepts_chinese_sentences_cut_where_no_space_is() -> None:
    """`strict` checks that every whitespace word comes out; a Chinese paragraph is one
    such word, and cutting it between sentences leaves no space to find. The audit joins
    pieces the source has no gap between, as it joins a giant word cut apart (it raised
    "text lost" on pdfplumber issue 67's report)."""
    body = "".join(
        f"公司于2017年{month}月收到中国证券监督管理委员会的通知书。" for month in range(1, 13)
    )
    chunks = chunk_text(f"# 标题\n\n{body}\n", max_tokens=30, strict=True)
    assert len(chunks) > 1
    assert "".join(chunk.body for chunk in chunks) == body
