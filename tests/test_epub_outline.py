"""How an EPUB's table of contents and its chapters' headings make one outline: the
navigation readers, the anchoring of entries, the level rule, and a property test that
one outline written as Markdown and as differently built EPUBs gives the same tree."""

from __future__ import annotations

import string

from epub_factory import Toc, make_epub, nav_document, ncx_document
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from structchunk.document import Document, Paragraph
from structchunk.parsers import ParseSettings
from structchunk.parsers.epub import parse as parse_epub
from structchunk.parsers.epub.anchors import Anchors, Title, labels_match
from structchunk.parsers.epub.levels import heading_levels
from structchunk.parsers.epub.navigation import NavEntry, nav_entries, ncx_entries
from structchunk.parsers.markdown import parse as parse_markdown

# -- navigation readers ----------------------------------------------------------------------


def test_nav_entries_with_depths_resolved_against_the_nav_document() -> None:
    toc = [
        Toc("Part", "text/p.xhtml", (Toc("Ch 1", "text/c1.xhtml#s"), Toc("Ch 2", "../c2.xhtml"))),
        Toc("Web", "https://example.com"),
        Toc("End", "e.xhtml"),
    ]
    assert nav_entries(nav_document(toc), "OEBPS/nav.xhtml") == [
        NavEntry("Part", "OEBPS/text/p.xhtml", "", 1),
        NavEntry("Ch 1", "OEBPS/text/c1.xhtml", "s", 2),
        NavEntry("Ch 2", "c2.xhtml", "", 2),
        NavEntry("End", "OEBPS/e.xhtml", "", 1),
    ]


def test_nav_labels_without_links_add_no_depth() -> None:
    toc = [
        Toc("Group", None, (Toc("A", "a.xhtml", (Toc("A1", "a.xhtml#1"),)),)),
        Toc("B", "b.xhtml"),
    ]
    assert [(e.label, e.depth) for e in nav_entries(nav_document(toc), "nav.xhtml")] == [
        ("A", 1),
        ("A1", 2),
        ("B", 1),
    ]


def test_the_toc_nav_is_chosen_over_landmarks() -> None:
    document = (
        b'<html xmlns:epub="http://www.idpf.org/2007/ops"><body>'
        b'<nav epub:type="landmarks"><ol><li><a href="cover.xhtml">Cover</a></li></ol></nav>'
        b'<nav epub:type="toc"><ol><li>'
        b'<a href="c.xhtml">Real &amp; entry&nbsp;one</a></li></ol></nav>'
        b"</body></html>"
    )
    assert nav_entries(document, "nav.xhtml") == [NavEntry("Real & entry one", "c.xhtml", "", 1)]


def test_ncx_entries_nest_by_navpoints() -> None:
    toc = [Toc("One", "c1.xhtml#a", (Toc("One.A", "c1.xhtml#b"),)), Toc("Two", "c2.xhtml")]
    assert ncx_entries(ncx_document(toc, "T"), "OPS/toc.ncx") == [
        NavEntry("One", "OPS/c1.xhtml", "a", 1),
        NavEntry("One.A", "OPS/c1.xhtml", "b", 2),
        NavEntry("Two", "OPS/c2.xhtml", "", 1),
    ]


# -- anchoring -------------------------------------------------------------------------------


def test_labels_match_on_runs_of_words() -> None:
    assert labels_match("Chapter 1", "CHAPTER 1: Loomings")
    assert labels_match("I. The Burial of the Dead", "The burial of the dead")
    assert not labels_match("Chapter 1", "Chapter 10")
    assert not labels_match("", "Anything")


def test_an_entry_waits_for_the_next_heading_or_names_the_text() -> None:
    entries = [NavEntry("Ch", "c.xhtml", "", 1), NavEntry("Later", "c.xhtml", "x", 2)]
    anchors = Anchors(entries)
    anchors.start("c.xhtml")
    anchors.heading(3, "Own title")
    anchors.add(Paragraph("a"))
    anchors.target("x")
    anchors.add(Paragraph("b"))
    anchors.target("x")  # an id repeated in the file arrives once
    anchors.heading(2, "Plain")
    assert anchors.items == [
        Title("Own title", 3, 1),
        Paragraph("a"),
        Title("Later", 0, 2),
        Paragraph("b"),
        Title("Plain", 2),
    ]


def test_entries_left_waiting_at_the_end_of_a_file_are_dropped() -> None:
    anchors = Anchors([NavEntry("Empty", "a.xhtml", "", 1)])
    anchors.start("a.xhtml")
    anchors.start("b.xhtml")
    anchors.add(Paragraph("text"))
    assert anchors.items == [Paragraph("text")]


# -- levels ----------------------------------------------------------------------------------


def test_levels_kept_when_headings_nest_like_the_contents() -> None:
    items = [Title("Part", 1, 1), Title("Ch", 2, 2), Title("Sub", 4), Title("Label", 0, 2)]
    assert heading_levels(list(items)) == [1, 2, 4, 2]


def test_levels_from_the_contents_when_headings_are_flat() -> None:
    items = [
        Title("Front", 2),
        Title("Part", 1, 1),
        Title("Ch", 1, 2),
        Title("Sub", 2),
        Title("Sub-sub", 3),
        Title("Label", 0, 2),
        Title("After label", 1),
    ]
    assert heading_levels(list(items)) == [2, 1, 2, 3, 4, 2, 3]


def test_a_label_with_no_room_above_its_own_headings_switches_to_the_contents() -> None:
    items = [Title("Part", 1, 1), Title("Label", 0, 2), Title("Section", 2)]
    assert heading_levels(list(items)) == [1, 2, 4]


def test_levels_stay_between_one_and_six() -> None:
    items = [Title("A", 6, 1), Title("B", 1), Title("C", 1, 9), Title("D", 6)]
    assert heading_levels(list(items)) == [1, 1, 6, 6]


# -- one outline, many books -----------------------------------------------------------------

WORD = st.text(string.ascii_lowercase, min_size=3, max_size=8)


@st.composite
def outlines(
    draw: st.DrawFn,
) -> list[tuple[str, list[str], list[tuple[str, list[str], list[str]]]]]:
    """Parts, each with its intro words and chapters; a chapter has words and sections."""
    counter = iter(range(10_000))

    def title(kind: str) -> str:
        return f"{kind} {draw(WORD).title()} {next(counter)}"

    def words() -> list[str]:
        return draw(st.lists(WORD, min_size=1, max_size=6))

    parts = []
    for _ in range(draw(st.integers(1, 3))):
        chapters = []
        for _ in range(draw(st.integers(1, 3))):
            sections = [title("Section") for _ in range(draw(st.integers(0, 2)))]
            chapters.append((title("Chapter"), words(), sections))
        parts.append((title("Part"), words(), chapters))
    return parts


Outline = list[tuple[str, list[str], list[tuple[str, list[str], list[str]]]]]


def as_markdown(outline: Outline) -> bytes:
    lines = []
    for part, intro, chapters in outline:
        lines += [f"# {part}", "", " ".join(intro), ""]
        for chapter, text, sections in chapters:
            lines += [f"## {chapter}", "", " ".join(text), ""]
            for number, section in enumerate(sections):
                lines += [f"### {section}", "", f"section text {number}", ""]
    return "\n".join(lines).encode()


def as_epub(outline: Outline, style: str) -> bytes:
    """`flat`: every file starts with an `h1` and the contents nest; `nested`: `h1`–`h3`
    with a flat contents; `labels`: chapters without a heading, named by the contents;
    `ncx`: the `flat` book with an EPUB 2 NCX."""
    files: list[tuple[str, str | bytes]] = []
    toc: list[Toc] = []
    flat: list[Toc] = []
    for p, (part, intro, chapters) in enumerate(outline):
        files.append((f"p{p}.xhtml", f"<h1>{part}</h1><p>{' '.join(intro)}</p>"))
        children = []
        flat.append(Toc(part, f"p{p}.xhtml"))
        for c, (chapter, text, sections) in enumerate(chapters):
            name = f"p{p}c{c}.xhtml"
            top, sub = {"nested": ("h2", "h3"), "labels": ("", "h2")}.get(style, ("h1", "h2"))
            heading = f"<{top}>{chapter}</{top}>" if top else ""
            body = heading + f"<p>{' '.join(text)}</p>"
            for number, section in enumerate(sections):
                body += f"<{sub}>{section}</{sub}><p>section text {number}</p>"
            files.append((name, body))
            children.append(Toc(chapter, name))
            flat.append(Toc(chapter, name))
        toc.append(Toc(part, f"p{p}.xhtml", tuple(children)))
    return make_epub(
        files, title="Book", toc=flat if style == "nested" else toc, ncx=style == "ncx"
    )


def sections_of(doc: Document, root: tuple[str, ...]) -> list[tuple[tuple[str, ...], list[str]]]:
    return [
        (s.path[len(root) :], [b.text for b in s.blocks if isinstance(b, Paragraph)])
        for s in doc.sections()
        if s.blocks
    ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(outlines())
def test_one_outline_gives_one_tree_however_the_book_is_built(outline: Outline) -> None:
    expected = sections_of(parse_markdown(as_markdown(outline), "b.md", ParseSettings()), ())
    for style in ("flat", "nested", "labels", "ncx"):
        book = parse_epub(as_epub(outline, style), "b.epub", ParseSettings())
        assert sections_of(book, ("Book",)) == expected, style
