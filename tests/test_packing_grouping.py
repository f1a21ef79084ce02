"""Packing step 3, group: greedy chunks that step back to a block boundary."""

from __future__ import annotations

from packing_helpers import texts, unit

from structchunk.packing.grouping import group_units
from structchunk.packing.units import Joint, group_cost


def test_units_that_fit_together_are_one_group() -> None:
    units = [unit("one two"), unit("three four")]
    assert texts(group_units(units, 10)) == [["one two", "three four"]]


def test_a_chunk_closes_at_the_block_boundary_rather_than_mid_paragraph() -> None:
    first = unit("a b c d e")  # 5
    opening = unit("f g h")  # a paragraph's first sentence
    rest = unit("i j k", Joint.SENTENCE, sep=" ")  # its second
    groups = group_units([first, opening, rest], 10)
    assert texts(groups) == [["a b c d e"], ["f g h", "i j k"]]


def test_no_step_back_when_the_chunk_would_end_less_than_half_full() -> None:
    first = unit("a b")
    opening = unit("c d e f")
    rest = unit("g h i j k", Joint.SENTENCE, sep=" ")
    groups = group_units([first, opening, rest], 10)
    assert texts(groups) == [["a b", "c d e f"], ["g h i j k"]]


def test_a_trailing_lead_in_moves_to_the_chunk_of_what_it_introduces() -> None:
    body = unit("a b c d e f")
    lead_in = unit("The names are:")
    lead_in.keep_with_next = True
    items = unit("- x\n- y\n- z", kind="list")
    groups = group_units([body, lead_in, items], 10)
    assert texts(groups) == [["a b c d e f"], ["The names are:", "- x\n- y\n- z"]]


def test_a_trailing_run_of_labels_moves_on_as_far_as_it_fits() -> None:
    body = unit("a b c d e")
    section_label = unit("Performance Indicators")
    table_label = unit("KPI 1.6.2")
    for label in (section_label, table_label):
        label.keep_with_next = True
    table = unit("| x | y |", kind="table")
    groups = group_units([body, section_label, table_label, table], 10)
    assert texts(groups) == [["a b c d e"], ["Performance Indicators", "KPI 1.6.2", "| x | y |"]]
    big_table = unit("| x | y | z |", kind="table")  # 7 words: one label fits with it
    groups = group_units([body, section_label, table_label, big_table], 10)
    assert texts(groups) == [
        ["a b c d e", "Performance Indicators"],
        ["KPI 1.6.2", "| x | y | z |"],
    ]


def test_a_long_lead_in_moves_on_only_from_a_chunk_left_half_full() -> None:
    """A paragraph ending "…such things as:" moves to its list when the chunk before
    keeps half the budget; it stays when it would leave a section's title line alone."""
    lead_in = unit("p q r s t u v w x:")  # 9 of 20: more than a quarter of the budget
    lead_in.keep_with_next = True
    items = unit("- x y z\n- y z w", kind="list")
    body = unit("a b c d e f g h i j")  # 10 of 20: half full
    groups = group_units([body, lead_in, items], 20)
    assert texts(groups) == [["a b c d e f g h i j"], ["p q r s t u v w x:", "- x y z\n- y z w"]]
    title = unit("Embed justice into programs")
    groups = group_units([title, lead_in, items], 20)
    assert texts(groups) == [
        ["Embed justice into programs", "p q r s t u v w x:"],
        ["- x y z\n- y z w"],
    ]


def test_every_group_is_within_the_budget() -> None:
    units = [unit(" ".join(["w"] * n)) for n in (3, 1, 4, 1, 5, 9, 2, 6)]
    groups = group_units(units, 9)
    assert [u for g in groups for u in g] == units
    assert all(group_cost(g) <= 9 for g in groups)


def test_stepping_back_never_parts_a_label_from_what_it_names() -> None:
    """RDS's `To create an Oracle DB instance with Easy Create enabled` fitted with the
    first steps, but the chunk stepped back to the block joint before the steps, after
    their title, and ended with it."""
    intro = unit("a b c d e f g h")
    label = unit("To create it")
    label.keep_with_next = True
    first = unit("1. x y", kind="list")
    rest = [unit(f"1. step {i}", Joint.ITEM, sep="\n", kind="list") for i in range(3)]
    groups = group_units([intro, label, first, *rest], 14)
    assert texts(groups)[0] == ["a b c d e f g h"]
    assert texts(groups)[1][:2] == ["To create it", "1. x y"]
