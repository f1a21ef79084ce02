"""A long Markdown document parsed a piece at a time reads exactly as the whole would."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from structchunk import ChunkOptions
from structchunk.api import chunks_of_document
from structchunk.parsers import ParseSettings
from structchunk.parsers import markdown as markdown_parser
from structchunk.parsers.markdown_pieces import cut_points, pieces

CORPUS = Path(__file__).resolve().parent / "corpus" / "markdown"
OPTIONS = ChunkOptions(max_tokens=64)


def records(text: str, piece_chars: int | None, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every chunk record of `text`, parsed in pieces of `piece_chars` (None: whole)."""
    size = piece_chars or len(text) + 1
    monkeypatch.setattr(markdown_parser, "pieces", lambda t: pieces(t, size))
    data = text.encode("utf-8")
    document = markdown_parser.parse(data, "doc.md", ParseSettings())
    return [chunk.model_dump() for chunk in chunks_of_document(document, data, "doc.md", OPTIONS)]


def test_a_heading_inside_a_fence_or_html_block_is_no_cut() -> None:
    text = (
        "intro\n\n# One\n\ntext\n\n```\n\n# not a heading\n```\n\n"
        "<!--\n\n# not either\n-->\n\n<pre>\n\n# nor this\n</pre>\n\n"
        "~~~~\n\n# code\n~~~\n\n# still code\n~~~~\n\n# Two\n\nend\n"
    )
    cuts = [text[at : text.index("\n", at)] for at in cut_points(text)]
    assert cuts == ["# One", "text", "# Two", "end"]


def test_a_paragraph_after_a_blank_line_is_a_cut_but_no_list_item_or_indented_line() -> None:
    """A document without headings (a fuzzed block pasted over and over) is cut too:
    before an unindented line opening with a letter, which ends every list and quote."""
    text = (
        "Intro.\n\nPara one\nwrapped.\n\n- item\n\n  still the item\n\n1. step\n\n"
        "> quote\n\n    code\n\n\tcode too\n\n| a | b |\n|---|---|\n\nÉté ends it.\n"
    )
    cuts = [text[at : text.index("\n", at)] for at in cut_points(text)]
    assert cuts == ["Para one", "Été ends it."]


def test_a_heading_right_after_a_paragraph_table_or_html_block_is_no_cut() -> None:
    text = "para\n# A\n\n| a |\n|---|\n| 1 |\n# B\n\n<div>\n# C\n</div>\n\n# D\n"
    assert [text[at : at + 3] for at in cut_points(text)] == ["# D"]


def test_a_fence_that_never_closes_allows_no_cut_after_it() -> None:
    assert list(cut_points("a\n\n# A\n\n```\n\n# B\n\n# C\n")) == [3]


def test_pieces_are_at_least_the_size_asked_and_cover_the_text() -> None:
    text = "".join(f"# H{i}\n\n{'word ' * 50}\n\n" for i in range(40))
    parts = list(pieces(text, 1000))
    assert len(parts) > 5
    assert "".join(piece for _, piece in parts) == text
    assert all(len(piece) >= 1000 for _, piece in parts[:-1])
    assert [first for first, _ in parts] == [
        text[: text.index(piece)].count("\n") for _, piece in parts
    ]


@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.md")), ids=lambda p: p.name)
def test_a_document_in_pieces_gives_the_same_chunks(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same text, heading paths, lines and offsets (the corpus files cut every ~1 KB)."""
    text = path.read_text(encoding="utf-8")
    whole = records(text, None, monkeypatch)
    assert records(text, 1000, monkeypatch) == whole


def test_a_link_defined_in_a_later_piece_is_still_a_link(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "# A\n\nSee [the guide][guide].\n\n" + "# B\n\nfiller\n\n" * 30 + "[guide]: /g\n"
    chunks = records(text, 100, monkeypatch)
    assert "See the guide." in chunks[0]["body"]  # type: ignore[index]
    assert chunks == records(text, None, monkeypatch)


BLOCKS = st.sampled_from(
    [
        "Some words here.",
        "# Title",
        "## Sub",
        "- item\n- item two\n  continued",
        "> quoted\n> more",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "```\n# in code\n\n# more code\n```",
        "<!-- a comment\n\n# in comment\n-->",
        "<div>\n# in html\n</div>",
        "    indented code\n# after",
        "para\n# heading after para",
        "[ref]: /target",
        "Uses [x][ref] here.",
        "1. one\n\n   # nested?\n2. two",
        "- item\n\n  more of the item",
        "Lazy\n> quote line\nlazy continuation",
        "Setext title\n===",
        "Name | Value\n--- | ---\nkey | 1",
        "text\n    not code: a continuation",
        "<p>\nhtml block\n\nafter it</p>",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(BLOCKS, min_size=1, max_size=30), st.integers(min_value=1, max_value=200))
def test_any_document_in_pieces_gives_the_same_chunks(blocks: list[str], size: int) -> None:
    text = "\n\n".join(blocks) + "\n"
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert records(text, size, monkeypatch) == records(text, None, monkeypatch)
