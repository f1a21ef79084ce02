"""The parse under the HTML reader: lxml's element tree, text and tails, and the plain
Python tree a page too deep for libxml2 is read into."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_params

from structchunk.document import Document, Paragraph, Table
from structchunk.parsers import ParseSettings
from structchunk.parsers import html as html_parser
from structchunk.parsers.html import parse
from structchunk.parsers.html.encoding import decode_for_parsing
from structchunk.parsers.html.tree import Node, _parse_nodes, parse_tree

ROOT = Path(__file__).resolve().parent.parent
LIBXML2_MAX_DEPTH = 2048


def tree(page: str | bytes) -> Document:
    data = page.encode("utf-8") if isinstance(page, str) else page
    return parse(data, "test.html", ParseSettings())


def texts(doc: Document) -> list[str]:
    return [b.text for s in doc.sections() for b in s.blocks if isinstance(b, Paragraph)]


def outline(doc: Document) -> list[tuple[tuple[str, ...], list[object]]]:
    return [(section.path, list(section.blocks)) for section in doc.sections()]


# -- text and tails ----------------------------------------------------------------------


def test_text_after_a_dropped_or_skipped_element_stays_in_its_place() -> None:
    doc = tree(
        "<p>before<script>var x;</script> after <span hidden>not shown</span>kept"
        "<button>Click</button> last</p>"
    )
    assert texts(doc) == ["before after kept last"]


def test_comments_and_processing_instructions_leave_the_words_around_them() -> None:
    doc = tree("<p>one<!-- a comment -->two three <?php echo 1 ?> four</p><!-- x -->")
    assert texts(doc) == ["onetwo three four"]


def test_ruby_annotations_are_not_text_but_what_they_gloss_is() -> None:
    doc = tree("<p><ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby>です</p>")
    assert texts(doc) == ["漢字です"]


def test_nul_and_control_bytes_become_replacement_characters() -> None:
    doc = tree(b"<p>" + b"a\x00b " * 2 + b"ordinary words here to keep the page text</p>")
    assert texts(doc) == ["a\ufffdb a\ufffdb ordinary words here to keep the page text"]


def test_an_xml_declaration_in_a_utf8_page_is_no_problem() -> None:
    """lxml refuses a `str` that declares an encoding: the parser is given bytes."""
    page = '<?xml version="1.0" encoding="UTF-8"?><html><body><p>Grüße</p></body></html>'
    assert texts(tree(page)) == ["Grüße"]


def test_indentation_does_not_count_as_a_cell_s_text() -> None:
    """Before the fix: the whitespace between tags counted, so an indented infobox
    (Wikipedia's) read as a layout table and lost its rows."""
    spacer = "\n" + " " * 60
    cell = "".join(f"{spacer}<div>{spacer}<b>v{n}</b>{spacer}</div>" for n in range(12))
    page = (
        "<table><tr><th>Key</th><th>Value</th></tr>"
        f"<tr><td>first</td><td>{cell}{spacer}</td></tr>"
        "<tr><td>second</td><td>two</td></tr></table>"
    )
    assert len(cell) > 1200
    [table] = [b for s in tree(page).sections() for b in s.blocks]
    assert isinstance(table, Table)
    assert table.rows[1] == ["second", "two"]


def test_utf8_pages_reach_the_parser_without_a_copy() -> None:
    data = "<p>café</p>".encode()
    assert decode_for_parsing(data)[1] is data
    latin = "<p>café</p>".encode("cp1252")
    assert decode_for_parsing(latin) == ("<p>café</p>", "<p>café</p>".encode())


# -- several pages, and none ---------------------------------------------------------------


def test_each_joined_page_is_a_top_level_element() -> None:
    page = b"<html><body><p>one</p></body></html>\n<html><body><p>two</p></body></html>"
    roots = parse_tree(page)
    assert [root.tag for root in roots] == ["html", "html"]
    assert texts(tree(page)) == ["one", "two"]


@pytest.mark.parametrize("page", [b"<!-- only a comment -->", b"<?xml version='1.0'?>", b""])
def test_a_page_without_elements_has_no_tree(page: bytes) -> None:
    assert parse_tree(page) == []


# -- deeper than libxml2 builds ------------------------------------------------------------


def deep_page(levels: int) -> str:
    inner = (
        '<h2 xml:lang="en">Deep heading</h2><p hidden>not shown</p>'
        "<p>deep <b>text</b> tail</p><ul><li>one</li><li>two</li></ul>"
        "<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>"
    )
    return (
        "<html><head><title>T</title></head><body><h1>Top</h1><p>before</p>"
        + '<div class="wrap">' * levels
        + inner
        + "</div>" * levels
        + "<p>after</p></body></html>"
    )


def test_a_page_deeper_than_libxml2_builds_is_read_whole_by_the_same_parser() -> None:
    data = deep_page(LIBXML2_MAX_DEPTH + 100).encode()
    roots = parse_tree(data)
    assert all(isinstance(root, Node) for root in roots)
    doc = tree(data)
    shallow = tree(deep_page(50))
    assert outline(doc) == outline(shallow)
    assert texts(doc) == ["before", "deep text tail", "after"]


def _same_documents(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = parse(data, "page.html", ParseSettings())
    monkeypatch.setattr(html_parser, "parse_tree", _parse_nodes)
    assert outline(parse(data, "page.html", ParseSettings())) == outline(expected)


SNIPPETS = [
    (ROOT / "samples" / "docs-page.html").read_bytes(),
    deep_page(3).encode(),
    b"<h1>Guide<h2>Install<p>Run it.</p><h2>Use</h2><p>Call it.</p>",
    b"<table><tr><td>x<td>y<tr><td>z</table><dl><dt>a<dd>b</dl><pre>\n code</pre>",
    b"<html><body><p>one</p></body></html><html><body><nav>n</nav><p>two</p></body></html>",
]


@pytest.mark.parametrize("data", SNIPPETS)
def test_the_python_tree_reads_like_lxml_s(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    _same_documents(data, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_params("html", "*.html"))
def test_the_python_tree_reads_corpus_pages_like_lxml_s(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same_documents(path.read_bytes(), monkeypatch)
