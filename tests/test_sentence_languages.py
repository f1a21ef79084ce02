"""Sentences in German, French, Spanish, Italian, Portuguese, Dutch, Russian, Chinese and
Japanese: sentencex's rules and our post-pass, full-width stops, and the packer cutting
unspaced text between sentences without adding spaces."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from structchunk import chunk_text, split_sentences
from structchunk.sentences import get_segmenter

GOLDEN = Path(__file__).parent / "multilingual" / "sbd"
FLOORS = {"de": 33, "es": 34, "fr": 11, "it": 38, "ja": 9, "nl": 7, "pt": 10, "ru": 44, "zh": 7}
"""Cases of tests/multilingual/sbd/<lang>.jsonl split exactly right (docs/sentences.md)."""


def _ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("language", sorted(FLOORS))
def test_golden_rules_pass_rate_floor_per_language(language: str) -> None:
    segmenter = get_segmenter("bundled", language)
    passed = 0
    for line in (GOLDEN / f"{language}.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        got = [_ws(s) for s in segmenter.split(case["text"]) if _ws(s)]
        passed += got == [_ws(s) for s in case["sentences"] if _ws(s)]
    assert passed >= FLOORS[language]


def test_german_abbreviations_and_dates_do_not_end_the_sentence() -> None:
    """The issue's case: English Punkt cut after `Okt.`."""
    text = "Die Firma z. B. hat am 3. Okt. 2023 ca. 5 Mio. Euro investiert. Das war viel."
    assert get_segmenter("bundled", "de").split(text) == [
        "Die Firma z. B. hat am 3. Okt. 2023 ca. 5 Mio. Euro investiert.",
        "Das war viel.",
    ]


def test_full_width_stops_end_sentences_with_no_space_after() -> None:
    """Also with the English model: before, `。！？` were never boundaries."""
    text = "服务器正在重启。请稍候！完成了吗？"
    assert split_sentences(text) == ["服务器正在重启。", "请稍候！", "完成了吗？"]


def test_a_japanese_quotation_goes_on_after_its_closing_bracket() -> None:
    text = "彼は「明日行きます。」と言った。そして帰った。"
    for segmenter in (get_segmenter(), get_segmenter("bundled", "ja")):
        assert segmenter.split(text) == ["彼は「明日行きます。」と言った。", "そして帰った。"]


def test_sentencex_model_spec() -> None:
    assert get_segmenter("sentencex:de").language == "de"


def test_chinese_paragraph_is_cut_between_sentences_without_added_spaces() -> None:
    sentences = ["鑑於對人類家庭所有成員的固有尊嚴及其平等的和不移的權利的承認。"] * 6
    body = "".join(sentences)
    chunks = chunk_text(f"# 宣言\n\n{body}\n", max_tokens=70)
    assert len(chunks) > 1
    assert "".join(c.body for c in chunks) == body
    assert all(c.body.endswith("。") for c in chunks)


_PIECES = st.sampled_from(
    ["Hallo", "z.", "B.", "3.", "Okt.", "。", "！", "？", "「", "」", "《", "》", "模型",
     "です", "と", ".", "!", "?", '"', "•", "M.", "Dupont", "etc.", "1.000,50", "Сервер"]
)  # fmt: skip
_GAPS = st.sampled_from(["", " ", "\n", "\n\n", "\u3000", "\t"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_PIECES | st.text(max_size=3), _GAPS), max_size=40),
    st.sampled_from(["de", "fr", "zh", "ja", "ru", None]),
)
def test_spans_are_ordered_disjoint_and_cover_every_non_space_in_every_language(
    parts: list[tuple[str, str]], language: str | None
) -> None:
    text = "".join(piece + gap for piece, gap in parts)
    segmenter = get_segmenter("bundled", language)
    position = 0
    for start, end in segmenter.spans(text):
        assert position <= start < end <= len(text)
        assert not text[position:start].strip()
        assert not text[start].isspace() and not text[end - 1].isspace()
        position = end
    assert not text[position:].strip()
