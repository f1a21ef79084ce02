"""Lines OCR is unsure of (types.py `unsure`): a drawing's strokes read as letters come
with low confidence, and a line of them is kept as text but never made a heading."""

from __future__ import annotations

from structchunk.parsers.pdf.types import DEFAULT_UNSURE_CONFIDENCE, OCR_FONT, Word, unsure


def _word(text: str, confidence: float | None) -> Word:
    return Word(text, 0.0, 10.0, 0.0, 10.0, 10.0, OCR_FONT, confidence=confidence)


def test_a_line_read_with_little_confidence_is_unsure() -> None:
    assert unsure([_word("LJ", 24.0)])
    assert not unsure([_word("Findings", 96.0)])


def test_confidence_is_weighed_by_letters() -> None:
    below = DEFAULT_UNSURE_CONFIDENCE - 20
    assert not unsure([_word("Introduction", 90.0), _word("|", below)])
    assert unsure([_word("a", 95.0), _word("ssssssssssss", below)])


def test_words_off_a_text_layer_are_sure() -> None:
    assert not unsure([_word("Title", None)])
    assert not unsure([])
