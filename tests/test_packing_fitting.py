"""Packing step 5, fit: every final text recounted and cut until it is within the limit."""

from __future__ import annotations

import pytest
from packing_helpers import context, joins_cost_a_token, room, unit

from structchunk.errors import BudgetError
from structchunk.packing.fitting import fit
from structchunk.packing.prefix import Head
from structchunk.packing.room import Room
from structchunk.packing.units import join_units

NO_HEAD = Head("", "", 0, False)


def test_exact_counts_that_fit_are_not_recounted() -> None:
    group = [unit("a b c"), unit("d e")]
    assert fit(group, NO_HEAD, room(10), context()) == [group]


def test_an_undercounted_group_is_cut_until_its_real_count_fits() -> None:
    tokenizer = joins_cost_a_token()
    group = [unit("a b"), unit("c d"), unit("e f"), unit("g h")]  # 8 words + 3 joins
    pieces = fit(group, NO_HEAD, room(10), context(tokenizer))
    assert [u for piece in pieces for u in piece] == group
    assert all(tokenizer.count(join_units(piece)) <= 10 for piece in pieces)
    assert len(pieces) == 2


def test_the_head_counts_toward_the_limit() -> None:
    tokenizer = joins_cost_a_token()
    head = Head("Title", "Title\n\n", 2, False)
    pieces = fit([unit("a b c"), unit("d e f")], head, room(8, 2), context(tokenizer))
    assert all(tokenizer.count(head.text + join_units(p)) <= 8 for p in pieces)


def test_one_unit_that_cannot_fit_even_alone_is_a_budget_error() -> None:
    tokenizer = joins_cost_a_token()
    head = Head("Title", "Title\n\n", 2, False)
    with pytest.raises(BudgetError, match="cannot fit"):
        fit([unit("word")], head, Room(limit=2, head=2, content=1), context(tokenizer))
