"""Titles split over several elements — `hgroup`, a `header` with marked titles, a heading
with its `role="doc-subtitle"` — read as one heading, in books and in web pages."""

from __future__ import annotations

import pytest
from epub_factory import Toc, make_epub

from structchunk.document import Document, Paragraph
from structchunk.parsers import ParseSettings
from structchunk.parsers.epub import parse as parse_epub
from structchunk.parsers.html import parse as parse_html

HGROUP = (
    '<section id="chapter-1" epub:type="chapter"><hgroup>'
    '<h2 epub:type="z3998:ordinal z3998:roman">I</h2>'
    '<p epub:type="title">A Letter with a <i>Postscript</i></p></hgroup>'
    "<p>First paragraph.</p><p>Second paragraph.</p></section>"
)


def outline(doc: Document) -> list[tuple[tuple[str, ...], list[str]]]:
    return [
        (s.path, [b.text for b in s.blocks if isinstance(b, Paragraph)])
        for s in doc.sections()
        if s.blocks
    ]


def book(chapters: list[tuple[str, str]], toc: list[Toc]) -> Document:
    return parse_epub(make_epub(chapters, title="Letters", toc=toc), "book.epub", ParseSettings())


@pytest.mark.parametrize("label", ["I: A Letter with a Postscript", "I"])
def test_a_chapter_title_in_an_hgroup_is_one_heading(label: str) -> None:
    """Standard Ebooks' chapters: the number in `h2`, the name in a paragraph beside it;
    the contents page names the chapter in full (or by its number only)."""
    doc = book(
        [("c1.xhtml", HGROUP), ("c2.xhtml", "<h2>II</h2><p>More.</p>")],
        [Toc(label, "c1.xhtml"), Toc("II", "c2.xhtml")],
    )
    assert outline(doc) == [
        (("Letters", "I: A Letter with a Postscript"), ["First paragraph.", "Second paragraph."]),
        (("Letters", "II"), ["More."]),
    ]


def test_a_part_and_its_chapters_in_hgroups_nest_like_the_contents() -> None:
    part = (
        '<section id="book-1" epub:type="part"><hgroup><h2><span epub:type="se:label">Book'
        '</span> <span epub:type="z3998:ordinal">the First</span></h2>'
        '<p epub:type="title">Recalled to Life</p></hgroup></section>'
    )
    chapter = HGROUP.replace("<h2", "<h3").replace("</h2>", "</h3>")
    doc = book(
        [("b1.xhtml", part), ("c1.xhtml", chapter)],
        [
            Toc(
                "Book the First: Recalled to Life",
                "b1.xhtml",
                (Toc("I: A Letter with a Postscript", "c1.xhtml"),),
            )
        ],
    )
    assert outline(doc) == [
        (
            ("Letters", "Book the First: Recalled to Life", "I: A Letter with a Postscript"),
            ["First paragraph.", "Second paragraph."],
        )
    ]


def test_a_contents_target_inside_the_group_is_found() -> None:
    chapters = (
        '<p>Opening words.</p><hgroup><h2 id="c2">II</h2><p epub:type="title">The Reply</p>'
        "</hgroup><p>Dear sir.</p>"
    )
    doc = book(
        [("c.xhtml", chapters)],
        [Toc("Opening", "c.xhtml"), Toc("II: The Reply", "c.xhtml#c2")],
    )
    assert outline(doc) == [
        (("Letters", "Opening"), ["Opening words."]),
        (("Letters", "II: The Reply"), ["Dear sir."]),
    ]


@pytest.mark.parametrize(
    "head",
    [
        '<header><h2 epub:type="title">The Reply</h2>'
        '<p epub:type="subtitle">Being a Second Letter</p></header>',
        '<h2>The Reply</h2><p role="doc-subtitle">Being a Second Letter</p>',
        '<header><h2>The Reply</h2><p role="doc-subtitle">Being a Second Letter</p>'
        '<blockquote epub:type="epigraph"><p>An epigraph.</p></blockquote></header>',
    ],
    ids=["header", "subtitle-after-heading", "header-with-epigraph"],
)
def test_a_heading_and_its_marked_subtitle_are_one_heading(head: str) -> None:
    doc = book([("c.xhtml", f"{head}<p>Dear sir.</p>")], [Toc("The Reply", "c.xhtml")])
    texts = ["An epigraph.", "Dear sir."] if "epigraph" in head else ["Dear sir."]
    assert outline(doc) == [(("Letters", "The Reply: Being a Second Letter"), texts)]


def test_a_header_of_headings_alone_is_not_a_group() -> None:
    """Without a marked title, `h2` then `h3` in a `header` are a heading and its
    subsection's, as anywhere else."""
    doc = book(
        [("c.xhtml", "<header><h2>Part</h2><h3>Chapter</h3></header><p>Text.</p>")],
        [Toc("Part", "c.xhtml")],
    )
    assert outline(doc) == [(("Letters", "Part", "Chapter"), ["Text."])]


def test_a_web_page_hgroup_is_one_heading() -> None:
    page = (
        "<html><body><main><hgroup><h1>Release notes</h1><p>Version 2.0, May 2024.</p>"
        "</hgroup><p>What changed.</p><h2>Fixes</h2><p>Many.</p></main></body></html>"
    )
    doc = parse_html(page.encode(), "page.html", ParseSettings())
    assert outline(doc) == [
        (("Release notes: Version 2.0, May 2024.",), ["What changed."]),
        (("Release notes: Version 2.0, May 2024.", "Fixes"), ["Many."]),
    ]


def test_what_comes_before_the_title_in_a_header_stays_before_it() -> None:
    page = (
        '<html><body><article><header><p>Kicker.</p><h1>Release notes</h1><p role="doc-subtitle">'
        "Version 2.0</p></header><p>What changed.</p></article></body></html>"
    )
    doc = parse_html(page.encode(), "page.html", ParseSettings())
    assert [b.text for s in doc.sections() for b in s.blocks if isinstance(b, Paragraph)] == [
        "Kicker.",
        "What changed.",
    ]
    assert [s.path for s in doc.sections() if s.blocks][-1] == ("Release notes: Version 2.0",)
