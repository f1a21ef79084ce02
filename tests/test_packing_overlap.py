"""Packing step 6, overlap: whole trailing sentences of the previous chunk, repeated."""

from __future__ import annotations

from packing_helpers import context, room, unit

from structchunk.packing.overlap import overlap_bodies
from structchunk.packing.units import Joint, Unit
from structchunk.tokenizers import count_words


def test_without_overlap_bodies_are_the_joined_units() -> None:
    groups = [[unit("One. Two.")], [unit("Three.")]]
    assert overlap_bodies(groups, "", room(100), context()) == ["One. Two.", "Three."]


def test_the_next_chunk_repeats_the_last_whole_sentence_that_fits_the_overlap() -> None:
    groups = [[unit("First sentence here. Second one.")], [unit("Third sentence.")]]
    bodies = overlap_bodies(groups, "", room(100), context(), overlap_tokens=2)
    assert bodies == ["First sentence here. Second one.", "Second one.\n\nThird sentence."]


def test_sentences_cut_from_one_paragraph_continue_it_with_their_own_joiner() -> None:
    first = [unit("Alpha beta."), unit("Gamma delta.", Joint.SENTENCE, sep=" ")]
    second = [unit("Epsilon zeta.", Joint.SENTENCE, sep=" ")]
    bodies = overlap_bodies([first, second], "", room(100), context(), overlap_tokens=2)
    assert bodies[1] == "Gamma delta. Epsilon zeta."


def test_no_overlap_from_a_list_table_or_code() -> None:
    groups = [[unit("- one\n- two", kind="list")], [unit("Next paragraph.")]]
    assert (
        overlap_bodies(groups, "", room(100), context(), overlap_tokens=5)[1] == "Next paragraph."
    )


def test_no_overlap_that_would_push_the_chunk_over_its_limit() -> None:
    groups = [[unit("One two. Three four.")], [unit("Five six seven.")]]
    assert (
        overlap_bodies(groups, "Head\n\n", room(4, 1), context(), overlap_tokens=2)[1]
        == "Five six seven."
    )


def _lead_in_groups() -> list[list[Unit]]:
    lead = unit("Alpha beta gamma. Keep these in mind:")
    return [[unit("Opening words."), lead], [unit("- one\n- two", kind="list")]]


def test_a_list_opening_a_chunk_repeats_the_lead_in_sentence_that_ended_the_one_before() -> None:
    bodies = overlap_bodies(_lead_in_groups(), "", room(100), context(), repeat_lead_ins=True)
    assert bodies[1] == "Keep these in mind:\n\n- one\n- two"
    assert bodies[0] == "Opening words.\n\nAlpha beta gamma. Keep these in mind:"


def test_lead_ins_are_not_repeated_when_turned_off() -> None:
    bodies = overlap_bodies(_lead_in_groups(), "", room(100), context(), repeat_lead_ins=False)
    assert bodies[1] == "- one\n- two"


def test_a_lead_in_is_not_repeated_before_a_paragraph_or_the_rest_of_a_split_list() -> None:
    lead = [unit("Keep these in mind:")]
    paragraph = [unit("Next paragraph.")]
    later_items = [unit("- three", Joint.ITEM, sep="\n", kind="list")]
    for group in (paragraph, later_items):
        bodies = overlap_bodies([lead, group], "", room(100), context(), repeat_lead_ins=True)
        assert bodies[1] == group[0].text


def test_a_lead_in_is_not_repeated_past_the_limit_or_when_it_is_long() -> None:
    items = "\n".join(f"- item {n} of six" for n in range(6))
    groups = [[unit("Keep these in mind:")], [unit(items, kind="list")]]
    needed = 3 + 4 + count_words(items)  # a 3-word head, the lead-in, the list
    assert (
        overlap_bodies(groups, "A B C\n\n", room(needed - 1, 3), context(), repeat_lead_ins=True)[1]
        == items
    )
    assert overlap_bodies(groups, "A B C\n\n", room(needed, 3), context(), repeat_lead_ins=True)[
        1
    ] == ("Keep these in mind:\n\n" + items)
    long_lead = unit("Opening. " + " ".join(["word"] * 30) + " as follows:")
    groups = [[long_lead], [unit("- one\n- two", kind="list")]]
    # 32 words are over a quarter of a 100-word room
    assert overlap_bodies(groups, "", room(100), context(), repeat_lead_ins=True)[1] == (
        "- one\n- two"
    )


def test_overlap_that_already_repeats_the_lead_in_is_not_doubled() -> None:
    bodies = overlap_bodies(
        _lead_in_groups(), "", room(100), context(), overlap_tokens=4, repeat_lead_ins=True
    )
    assert bodies[1] == "Keep these in mind:\n\n- one\n- two"
