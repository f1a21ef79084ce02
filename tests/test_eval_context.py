"""`eval --context-budget`: contexts of N tokens filled from the ranked chunks, or from
their parents, and the answers wholly inside them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_eval import corpus, run_eval  # noqa: F401 - the fixture

from structchunk.quality.context import Item, fill, in_context, joined_tokens
from structchunk.quality.normalize import match_tokens


def _item(key: str, tokens: int, text: str = "") -> Item:
    return Item(key, tokens, joined_tokens(text or key))


def test_a_context_holds_whole_items_in_rank_order_each_once() -> None:
    a, b, c = _item("a", 60), _item("b", 50), _item("c", 30)
    assert fill([(a, None), (b, None), (c, None)], 100) == [a, c]  # b passed over
    assert fill([(a, None), (a, None)], 200) == [a]


def test_a_parent_takes_the_place_of_its_chunks_and_gives_way_when_too_large() -> None:
    chunk1, chunk2, chunk3 = _item("c1", 20), _item("c2", 20), _item("c3", 20)
    parent, big = _item("p", 50), _item("big", 500)
    ranked = [(chunk1, parent), (chunk2, parent), (chunk3, big)]
    assert fill(ranked, 100) == [parent, chunk3]  # chunk2 is in its parent already
    assert fill(ranked, 40) == [chunk1, chunk2]


def test_an_answer_is_in_the_context_when_one_item_holds_it_whole() -> None:
    context = [_item("x", 5, "Cats eat fish."), _item("y", 5, "Every morning they")]
    assert in_context(context, match_tokens("cats eat fish"))
    assert not in_context(context, match_tokens("fish every morning"))


def test_eval_reports_answers_in_context_for_chunks_and_parents(corpus: Path) -> None:  # noqa: F811
    args = [str(corpus / "corpus"), "--questions", str(corpus / "questions.jsonl")]
    plain = run_eval(*args, "--json", "--max-tokens", "8")
    result = run_eval(*args, "--json", "--max-tokens", "8", "--context-budget", "8,40")
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout)["runs"]
    (before,) = json.loads(plain.stdout)["runs"]
    assert "context@8" not in before  # without budgets the JSON is as it was
    assert {k: v for k, v in run.items() if k in before and k != "options"} == {
        k: v for k, v in before.items() if k != "options"
    }
    # "Cats eat fish every morning." is one 8-word chunk; its parent is the Cats section
    assert run["context@8"] == pytest.approx(1 / 3) and run["parent_context@8"] == run["context@8"]
    # "Dogs sleep twelve hours a day" is cut over two chunks (split): only its parent
    # holds it whole
    assert run["answer_split_rate"] == pytest.approx(2 / 3), run
    assert run["context@40"] == pytest.approx(1 / 3)
    assert run["parent_context@40"] == run["merged_context@40"] == pytest.approx(2 / 3)
    assert run["options"]["parent_max_tokens"] == 32
    table = run_eval(*args, "--max-tokens", "8", "--context-budget", "8,40")
    assert "ctx@8" in table.stdout and "parent@40" in table.stdout
    bad = run_eval(*args, "--context-budget", "0")
    assert bad.exit_code == 2 and "--context-budget" in bad.output


def test_a_parent_takes_the_place_of_its_chunks_from_the_second_on_when_merging() -> None:
    from structchunk.quality.context import fill_merging

    c1, c2, c3, other = _item("c1", 20), _item("c2", 20), _item("c3", 20), _item("o", 20)
    parent = _item("p", 50)
    ranked = [(c1, parent), (other, None), (c2, parent), (c3, parent)]
    assert fill_merging(ranked, 100) == [parent, other]  # c3 is in the parent already
    assert fill_merging(ranked, 60) == [c1, other, c2]  # no room for the parent
    assert fill_merging([(c1, parent)], 100) == [c1]  # one chunk stays a chunk
