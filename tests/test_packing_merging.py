"""Packing step 4, merge small: tiny chunks join a neighbour in the section."""

from __future__ import annotations

from packing_helpers import room, texts, unit

from structchunk.packing.merging import merge_small


def test_without_a_floor_nothing_changes() -> None:
    groups = [[unit("a b c")], [unit("d")]]
    assert merge_small(groups, room(10), floor=0) is groups


def test_a_small_chunk_is_merged_into_its_predecessor_when_the_result_fits() -> None:
    groups = [[unit("a b c")], [unit("d")]]
    assert texts(merge_small(groups, room(10), floor=3)) == [["a b c", "d"]]


def test_the_head_counts_toward_the_floor() -> None:
    groups = [[unit("a b c")], [unit("d e")]]
    assert len(merge_small(groups, room(10, 2), floor=4)) == 2  # 2 + 2 is not below 4
    assert len(merge_small(groups, room(10, 2), floor=5)) == 1


def test_a_tiny_tail_takes_units_from_the_chunk_before_it_when_merging_cannot_fit() -> None:
    groups = [[unit("a b c"), unit("d e f"), unit("g h i")], [unit("j")]]
    merged = merge_small(groups, room(9), floor=3)
    assert texts(merged) == [["a b c", "d e f"], ["g h i", "j"]]


def test_rebalancing_never_leaves_the_previous_chunk_small() -> None:
    groups = [[unit("a b"), unit("c")], [unit("d")]]
    assert texts(merge_small(groups, room(3), floor=3)) == [["a b", "c"], ["d"]]
