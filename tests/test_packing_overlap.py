"""Packing step 6, overlap: whole trailing sentences of the previous chunk, repeated."""

from __future__ import annotations

from packing_helpers import context, unit

from structchunk.packing.overlap import overlap_bodies
from structchunk.packing.units import Joint


def test_without_overlap_bodies_are_the_joined_units() -> None:
    groups = [[unit("One. Two.")], [unit("Three.")]]
    assert overlap_bodies(groups, "", 0, 100, context()) == ["One. Two.", "Three."]


def test_the_next_chunk_repeats_the_last_whole_sentence_that_fits_the_overlap() -> None:
    groups = [[unit("First sentence here. Second one.")], [unit("Third sentence.")]]
    bodies = overlap_bodies(groups, "", 2, 100, context())
    assert bodies == ["First sentence here. Second one.", "Second one.\n\nThird sentence."]


def test_sentences_cut_from_one_paragraph_continue_it_with_their_own_joiner() -> None:
    first = [unit("Alpha beta."), unit("Gamma delta.", Joint.SENTENCE, sep=" ")]
    second = [unit("Epsilon zeta.", Joint.SENTENCE, sep=" ")]
    bodies = overlap_bodies([first, second], "", 2, 100, context())
    assert bodies[1] == "Gamma delta. Epsilon zeta."


def test_no_overlap_from_a_list_table_or_code() -> None:
    groups = [[unit("- one\n- two", kind="list")], [unit("Next paragraph.")]]
    assert overlap_bodies(groups, "", 5, 100, context())[1] == "Next paragraph."


def test_no_overlap_that_would_push_the_chunk_over_its_limit() -> None:
    groups = [[unit("One two. Three four.")], [unit("Five six seven.")]]
    assert overlap_bodies(groups, "Head\n\n", 2, 4, context())[1] == "Five six seven."
