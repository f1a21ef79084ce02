"""Plain text: paragraphs by blank lines, MediaWiki and underlined headings, line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_params

from structchunk import chunk_file, chunk_text
from structchunk.document import Document, Paragraph
from structchunk.parsers import ParseSettings
from structchunk.parsers.text import parse

WIKITEXT = "\n".join(
    line + " "
    for line in [  # WikiText-103 ends every line with a space
        " = Valkyria Chronicles III =",
        "",
        " Valkyria Chronicles III is a tactical role @-@ playing game .",
        "",
        " = = Gameplay = =",
        "",
        " As with previous games , battles are turn based .",
        " = = = Music = = =",
        " The music was composed by Hitoshi Sakimoto .",
        "",
        " = Tower Building of the Little Rock Arsenal =",
        "",
        " The building is in Little Rock .",
    ]
)


def tree(text: str) -> Document:
    return parse(text.encode("utf-8"), "test.txt", ParseSettings())


def paths(doc: Document) -> list[tuple[str, ...]]:
    return [s.path for s in doc.sections()]


def paragraphs(doc: Document) -> list[str]:
    return [b.text for s in doc.sections() for b in s.blocks if isinstance(b, Paragraph)]


def test_wikitext_headings_nest_by_their_equals_signs() -> None:
    doc = tree(WIKITEXT)
    valkyria = ("Valkyria Chronicles III",)
    assert paths(doc) == [
        (),
        valkyria,
        valkyria + ("Gameplay",),
        valkyria + ("Gameplay", "Music"),
        ("Tower Building of the Little Rock Arsenal",),
    ]
    assert paragraphs(doc) == [
        "Valkyria Chronicles III is a tactical role @-@ playing game .",
        "As with previous games , battles are turn based .",
        "The music was composed by Hitoshi Sakimoto .",
        "The building is in Little Rock .",
    ]


def test_mediawiki_headings_may_touch_their_text() -> None:
    doc = tree("== History ==\nFounded in 1998.\n=== Early days ===\nSmall team.\n")
    assert paths(doc) == [(), ("History",), ("History", "Early days")]
    assert paragraphs(doc) == ["Founded in 1998.", "Small team."]


@pytest.mark.parametrize(
    "line",
    [
        "== unbalanced =",
        "= =",
        "x = y = z",
        "== a = b ==",
        "======= seven =======",
        "=== ===",
    ],
)
def test_lines_that_only_look_like_wiki_headings_stay_text(line: str) -> None:
    doc = tree(f"{line}\n\nafter\n")
    assert paths(doc) == [()]
    assert paragraphs(doc) == [line.strip(), "after"]


def test_underlined_titles_are_headings() -> None:
    doc = tree("User guide\n==========\n\nIntro.\n\nInstalling\n----------\nRun it.\n")
    assert paths(doc) == [(), ("User guide",), ("User guide", "Installing")]
    assert paragraphs(doc) == ["Intro.", "Run it."]


@pytest.mark.parametrize(
    "text",
    [
        "A first line\nA second line\n------------\n",  # the rule closes a paragraph
        "ok\n----------------------------------------\n",  # a separator, not an underline
        ("word " * 40).strip() + "\n" + "=" * 199 + "\n",  # a long paragraph with a rule
    ],
)
def test_rules_under_paragraphs_stay_text(text: str) -> None:
    doc = tree(text)
    assert paths(doc) == [()]


def test_markdown_syntax_is_text_in_a_text_file() -> None:
    doc = tree("# Not a heading\n\n1. not a list\n")
    assert paths(doc) == [()]
    assert paragraphs(doc) == ["# Not a heading", "1. not a list"]


def test_chunks_carry_heading_paths_and_source_lines() -> None:
    chunks = chunk_text(WIKITEXT, format="text", max_tokens=32)
    assert [(c.heading_path, c.lines) for c in chunks] == [
        (["Valkyria Chronicles III"], [3, 3]),
        (["Valkyria Chronicles III", "Gameplay"], [7, 7]),
        (["Valkyria Chronicles III", "Gameplay", "Music"], [9, 9]),
        (["Tower Building of the Little Rock Arsenal"], [13, 13]),
    ]
    assert chunks[2].text.startswith("Valkyria Chronicles III > Gameplay > Music\n\n")


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_params("text", "wikitexts.txt"))
def test_the_wikitext_corpus_file_gets_one_section_per_article(path: Path) -> None:
    chunks = chunk_file(path, max_tokens=200)
    roots = {c.heading_path[0] for c in chunks if c.heading_path}
    assert len(roots) >= 10
    assert all(c.heading_path for c in chunks)
