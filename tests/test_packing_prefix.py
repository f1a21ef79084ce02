"""Packing step 1, prefix: the head every chunk of a section starts with."""

from __future__ import annotations

from structchunk.packing.prefix import ELLIPSIS, section_head
from structchunk.tokenizers import count_words


def test_the_prefix_is_the_heading_path_on_a_line_of_its_own() -> None:
    head = section_head(("Guide", "Keys", "Rotate a key"), True, 256, count_words)
    assert head.prefix == "Guide > Keys > Rotate a key"
    assert head.text == head.prefix + "\n\n"
    assert head.tokens == count_words(head.text) and not head.shortened


def test_without_prefixes_the_head_is_empty_and_costs_nothing() -> None:
    head = section_head(("Guide", "Keys"), False, 256, count_words)
    assert (head.prefix, head.text, head.tokens, head.shortened) == ("", "", 0, False)


def test_the_root_section_has_no_prefix() -> None:
    head = section_head((), True, 256, count_words)
    assert head.text == "" and not head.shortened


def test_a_path_over_half_the_budget_is_shortened_and_says_so() -> None:
    path = ("Root", "A middle level", "Another middle level", "The leaf title")
    head = section_head(path, True, 16, count_words)
    assert head.tokens <= 8 and head.shortened
    assert head.prefix.startswith("Root > " + ELLIPSIS) and head.prefix.endswith("The leaf title")


def test_a_head_that_cannot_hold_even_a_cut_title_is_empty_and_shortened() -> None:
    head = section_head(("Title",), True, 1, count_words)
    assert head.text == "" and head.shortened
