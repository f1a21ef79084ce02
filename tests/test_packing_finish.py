"""Packing step 7, finish: text, count, block kinds and provenance of a chunk; and the
whole-section shortcut."""

from __future__ import annotations

import tracemalloc

import pytest
from packing_helpers import WORDS, room, unit

from structchunk.document import Paragraph, Provenance, Section
from structchunk.errors import BudgetError
from structchunk.packing.finish import finish, whole_section
from structchunk.packing.prefix import Head

HEAD = Head("Guide > Keys", "Guide > Keys\n\n", 3, False)


def test_a_chunk_is_its_head_and_body_with_every_kind_and_page_it_holds() -> None:
    units = [
        unit("Intro:", prov=Provenance(pages=(2,))),
        unit("- a\n- b", kind="list", prov=Provenance(pages=(3,))),
        unit("More.", prov=Provenance(pages=(3,))),
    ]
    chunk = finish(
        ("Guide", "Keys"),
        HEAD,
        units,
        "Intro:\n\n- a\n- b\n\nMore.",
        tokenizer=WORDS,
        room=room(20, 3),
    )
    assert chunk.text == "Guide > Keys\n\nIntro:\n\n- a\n- b\n\nMore."
    assert chunk.n_tokens == WORDS.count(chunk.text)
    assert chunk.block_types == ["paragraph", "list"]
    assert chunk.prov.pages == (2, 3)
    assert chunk.heading_path == ("Guide", "Keys") and not chunk.prefix_shortened


def test_table_rows_are_recorded_only_for_a_single_piece_of_one_table() -> None:
    piece = unit("| a |", kind="table")
    piece.table_rows = (1, 4, 9)
    assert finish((), HEAD, [piece], "| a |", tokenizer=WORDS, room=room(20, 3)).table_rows == (
        1,
        4,
        9,
    )
    other = unit("| b |", kind="table")
    other.table_rows = (5, 9, 9)
    both = finish((), HEAD, [piece, other], "| a |\n\n| b |", tokenizer=WORDS, room=room(20, 3))
    assert both.table_rows is None


def test_a_chunk_over_its_limit_is_an_error_not_an_output() -> None:
    with pytest.raises(BudgetError, match="exceeds max_tokens 4"):
        finish((), HEAD, [unit("one two three")], "one two three", tokenizer=WORDS, room=room(4, 3))


def test_a_section_that_fits_is_one_chunk_of_all_its_blocks() -> None:
    section = Section("Keys", 1, [Paragraph("One."), Paragraph("Two.")], path=("Keys",))
    chunk = whole_section(section, HEAD, ["One.", "Two."], tokenizer=WORDS, room=room(10, 3))
    assert chunk is not None and chunk.body == "One.\n\nTwo."


def test_a_section_that_does_not_fit_goes_through_the_steps() -> None:
    section = Section("Keys", 1, [Paragraph("One two three.")], path=("Keys",))
    assert (
        whole_section(section, HEAD, ["One two three."], tokenizer=WORDS, room=room(5, 3)) is None
    )


def test_a_huge_section_is_given_up_without_being_joined_or_split_whole() -> None:
    """Before: a 50 MB HTML page (one section) peaked 550 MB above its tree here, the
    section joined twice and split into every word to be found over the budget."""
    paragraph = "Plenty of ordinary words in a sentence. " * 20
    texts = [paragraph] * 5000  # 4 MB, 700 000 words
    section = Section("Keys", 1, [Paragraph(text) for text in texts], path=("Keys",))
    tracemalloc.start()
    try:
        chunk = whole_section(section, HEAD, texts, tokenizer=WORDS, room=room(200, 3))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert chunk is None
    assert peak < 1 << 20, f"peak {peak >> 10} KB"
