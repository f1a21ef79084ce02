"""The HTML parser: structure into the section tree, boilerplate out, any bytes in."""

from __future__ import annotations

import os
import time

import pytest

from structchunk import ChunkOptions, chunk_text
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import Code, Document, ListBlock, Paragraph, Section, Table
from structchunk.errors import ParseError
from structchunk.parsers import ParseSettings
from structchunk.parsers.html import parse

OPTIONS = ChunkOptions()


def tree(html: str | bytes) -> Document:
    data = html.encode("utf-8") if isinstance(html, str) else html
    return parse(data, "test.html", ParseSettings())


def paths(doc: Document) -> list[tuple[str, ...]]:
    return [s.path for s in doc.sections()]


def blocks(doc: Document) -> list[object]:
    return [block for section in doc.sections() for block in section.blocks]


def texts(doc: Document) -> list[str]:
    return [b.text for b in blocks(doc) if isinstance(b, Paragraph)]


def bodies(html: str, **options: object) -> str:
    return "\n\n".join(c.body for c in chunk_text(html, format="html", **options))


def section(doc: Document, title: str) -> Section:
    return next(s for s in doc.sections() if s.title == title)


# -- headings and sections --------------------------------------------------------------


def test_headings_at_any_wrapper_depth_with_skipped_levels() -> None:
    doc = tree(
        "<body><div><section><h1>Guide</h1><p>a</p>"
        "<article><div><div><h3>Deep</h3><p>b</p></div></div></article></section>"
        "<div><h2>Back</h2><p>c</p><div><h6>Six</h6><p>d</p></div></div></div></body>"
    )
    assert paths(doc) == [
        (),
        ("Guide",),
        ("Guide", "Deep"),
        ("Guide", "Back"),
        ("Guide", "Back", "Six"),
    ]
    assert [s.level for s in doc.sections()] == [0, 1, 3, 2, 6]


def test_an_unclosed_heading_ends_where_the_next_begins_as_in_a_browser() -> None:
    """Before: lxml nests `<h1>A<h2>B` as h2 inside h1, and the page became one
    paragraph of every heading under no heading at all."""
    doc = tree("<body><h1>Guide<h2>Install<p>Run it.</p><h2>Use</h2><p>Call it.</p></body>")
    assert paths(doc) == [(), ("Guide",), ("Guide", "Install"), ("Guide", "Use")]
    assert section(doc, "Install").blocks[0].text == "Run it."  # type: ignore[attr-defined]


def test_ten_thousand_unclosed_headings_are_each_read_once() -> None:
    """Before: each heading's title was read with all the headings nested in it, so
    5 000 took 6 s here and 20 000 took 84 s; now the walk is linear."""
    count = 10_000
    page = "<body>" + "".join(f"<h{n % 6 + 1}>Heading {n}" for n in range(count)) + "</body>"
    doc = tree(page)
    titles = [s.title for s in doc.sections()][1:]
    assert titles == [f"Heading {n}" for n in range(count)]


def test_aria_headings_take_their_level_and_default_to_two() -> None:
    doc = tree(
        '<h1>Top</h1><div role="heading" aria-level="3">Three</div><p>x</p>'
        '<span role="heading">Two</span><p>y</p>'
    )
    assert paths(doc) == [(), ("Top",), ("Top", "Three"), ("Top", "Two")]
    assert section(doc, "Two").level == 2


def test_page_title_is_the_document_title_without_an_h1() -> None:
    doc = tree(
        "<html><head><title>Only a  title</title></head><body><p>Body text.</p>"
        "<h2>Part</h2><p>More.</p></body></html>"
    )
    assert doc.title == "Only a title"
    assert paths(doc) == [("Only a title",), ("Only a title", "Part")]


def test_page_title_is_not_used_when_the_page_has_an_h1() -> None:
    doc = tree("<title>Site | Page</title><h1>Page</h1><p>x</p>")
    assert doc.title == ""
    assert paths(doc) == [(), ("Page",)]


def test_title_only_page_gives_chunks_under_the_title() -> None:
    chunks = chunk_text("<title>Notes</title><p>First.</p><p>Second.</p>", format="html")
    assert [c.heading_path for c in chunks] == [["Notes"]]
    assert chunks[0].body == "First.\n\nSecond."


def test_article_title_above_main_heads_the_paths() -> None:
    page = (
        "<title>A post – Some Blog</title><body><nav><a href='/'>Home</a></nav>"
        "<h1>A post</h1><main><p>" + "Real words here. " * 20 + "</p>"
        "<h2>Part</h2><p>" + "More words. " * 20 + "</p></main></body>"
    )
    assert paths(tree(page)) == [("A post",), ("A post", "Part")]


def test_a_heading_repeating_its_sections_title_adds_no_level() -> None:
    """FastAPI's `# Classes as Dependencies` has a `## Classes as dependencies`: the path
    read `Classes as Dependencies > Classes as dependencies`."""
    chunks = chunk_text("# Classes as Dependencies\n\nx\n\n## Classes as dependencies\n\ny\n")
    assert [c.heading_path for c in chunks] == [["Classes as Dependencies"]] * 2


def test_permalink_glyphs_are_not_part_of_heading_titles() -> None:
    # Sphinx appends "¶", many blogs "#": decoration linking to the heading itself.
    doc = tree(
        '<h1>Guide<a class="headerlink" href="#guide" title="Permalink">¶</a></h1>'
        '<p>a</p><h2 id="setup">Set up <a href="#setup" class="bookmark">#</a></h2>'
        '<p>b</p><h2>Step <a href="#step-2">2</a> of <a href="/x">§ 3</a></h2><p>c</p>'
    )
    assert paths(doc) == [(), ("Guide",), ("Guide", "Set up"), ("Guide", "Step 2 of § 3")]


def test_mediawiki_edit_links_are_not_part_of_heading_titles() -> None:
    doc = tree(
        '<h1>Mozilla</h1><p>a</p><h2><span class="mw-headline">History</span>'
        '<span class="mw-editsection"><span class="mw-editsection-bracket">[</span>'
        '<a href="/w/index.php?action=edit&amp;section=1">edit</a>'
        '<span class="mw-editsection-bracket">]</span></span></h2><p>b</p>'
    )
    assert paths(doc) == [(), ("Mozilla",), ("Mozilla", "History")]


def test_heading_inside_a_list_item_or_quote_is_text() -> None:
    doc = tree(
        "<h1>T</h1><ul><li><h3>In list</h3>item</li></ul>"
        "<blockquote><h2>Quoted</h2><p>q</p></blockquote>"
    )
    assert paths(doc) == [(), ("T",)]
    assert texts(doc) == ["Quoted", "q"]


# -- blocks ----------------------------------------------------------------------------


def test_bare_text_in_divs_and_inline_markup_never_splits_a_paragraph() -> None:
    doc = tree(
        "<div>Some <b>bold</b>, <a href='#'>linked</a> and <span>spanned</span>"
        "<em>text</em><div>inner</div>tail <code>x()</code>s</div>"
    )
    assert texts(doc) == ["Some bold, linked and spannedtext", "inner", "tail x()s"]


def test_whitespace_collapses_as_a_browser_shows_it() -> None:
    doc = tree("<p>  one\n\t two   <span> three </span>\u00a0 four\r\n</p>")
    assert texts(doc) == ["one two three four"]


def test_br_is_a_line_break_and_two_of_them_a_paragraph_break() -> None:
    doc = tree("<p>line one<br>line two<br/><br> <br>next paragraph</p>")
    assert texts(doc) == ["line one\nline two", "next paragraph"]


def test_nested_lists_with_paragraphs_are_flattened_with_depth() -> None:
    doc = tree(
        "<ol start='3'><li><p>First para.</p><p>Second para.</p>"
        "<ul><li>inner <b>one</b></li><li>inner two</li></ul>tail</li>"
        "<li value='9'>nine</li><li>ten</li></ol>"
    )
    [block] = blocks(doc)
    assert isinstance(block, ListBlock)
    assert [(i.marker, i.depth, i.text) for i in block.items] == [
        ("3.", 0, "First para.\n\nSecond para."),
        ("-", 1, "inner one"),
        ("-", 1, "inner two"),
        ("  ", 0, "tail"),
        ("9.", 0, "nine"),
        ("10.", 0, "ten"),
    ]


def test_definition_lists_become_term_definition_items() -> None:
    doc = tree(
        "<dl><dt>TTL</dt><dd>How long a tile lives.</dd>"
        "<dt>Pin</dt><dt>Keep</dt><dd>Never evict.</dd><dd>Even when full.</dd></dl>"
    )
    [block] = blocks(doc)
    assert isinstance(block, ListBlock)
    assert [i.text for i in block.items] == [
        "TTL: How long a tile lives.",
        "Pin, Keep: Never evict.\n\nEven when full.",
    ]


def test_table_header_caption_and_spans_make_a_rectangle() -> None:
    doc = tree(
        "<table><caption>Sizes</caption><thead><tr><th rowspan=2>Name</th>"
        "<th colspan=2>Size</th></tr><tr><th>min</th><th>max</th></tr></thead>"
        "<tbody><tr><td rowspan=2>a</td><td>1</td><td>2</td></tr>"
        "<tr><td colspan=2>wide</td></tr><tr><td>b</td><td>3</td></tr></tbody></table>"
    )
    [table] = blocks(doc)
    assert isinstance(table, Table)
    assert table.caption == "Sizes"
    assert table.header == [["Name", "Size", "Size"], ["Name", "min", "max"]]
    assert table.rows == [["a", "1", "2"], ["a", "wide", ""], ["b", "3", ""]]


def test_leading_th_rows_are_the_header_without_thead() -> None:
    doc = tree("<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>")
    [table] = blocks(doc)
    assert isinstance(table, Table)
    assert (table.header, table.rows) == ([["k", "v"]], [["a", "1"]])


def test_nested_table_is_flattened_into_its_cell() -> None:
    doc = tree(
        "<table><thead><tr><th>Item</th><th>Parts</th></tr></thead>"
        "<tr><td>kit</td><td><table><tr><td>bolt</td><td>nut</td></tr></table></td>"
        "</tr></table>"
    )
    [table] = blocks(doc)
    assert isinstance(table, Table)
    assert table.rows == [["kit", "bolt nut"]]


def test_layout_table_is_walked_as_blocks() -> None:
    doc = tree(
        "<table role='presentation'><tr><td><h1>Title</h1><p>Para one.</p></td>"
        "<td><p>Para two.</p></td></tr></table>"
    )
    assert paths(doc) == [(), ("Title",)]
    assert texts(doc) == ["Para one.", "Para two."]


def test_pre_is_verbatim_with_its_language_and_inline_code_has_no_backticks() -> None:
    doc = tree(
        "<p>Call <code>open()</code>.</p><pre><code class='language-python'>"
        "def f(x):\n    return  x<br>  # done</code></pre>"
    )
    [paragraph, code] = blocks(doc)
    assert isinstance(paragraph, Paragraph) and paragraph.text == "Call open()."
    assert isinstance(code, Code)
    assert (code.language, code.text) == ("python", "def f(x):\n    return  x\n  # done")


def test_blockquote_and_figure_keep_their_text_as_paragraphs() -> None:
    doc = tree(
        "<blockquote><p>Quoted one.</p><p>Quoted two.</p></blockquote>"
        "<figure><img src='a.png' alt='alt text'><figcaption>A caption.</figcaption>"
        "</figure>"
    )
    assert texts(doc) == ["Quoted one.", "Quoted two.", "A caption."]


def test_chunk_bodies_hold_visible_text_only() -> None:
    body = bodies(
        "<h1>T</h1><p>See <a href='https://x.io/very/long'>the docs</a> and "
        "<code>run()</code> &amp; <img src='i.png' alt='icon'> more.</p>"
    )
    assert body == "See the docs and run() & more."


# -- boilerplate -----------------------------------------------------------------------

CHROME = """
<head><title>T</title><style>p {color: red}</style><script>var x = "script";</script></head>
<body>
<header><a href="/">Sitename</a></header>
<nav><ul><li><a href="/a">Menu entry</a></li></ul></nav>
<noscript>Enable javascript</noscript>
<template><p>Template text</p></template>
<svg><text>Svg text</text></svg>
<iframe src="x">Frame text</iframe>
<form><label>Name</label><input value="v"><select><option>Choice</option></select>
  <button>Send</button><textarea>Typed</textarea></form>
<aside>Aside text</aside>
<div hidden>Hidden attribute</div>
<div aria-hidden="true">Aria hidden</div>
<div style="color: red; display : none">Display none</div>
<div style="visibility:hidden">Invisible</div>
<div id="cookie-notice">We use cookies. <button>OK</button></div>
<h1>Kept heading</h1>
<p>Kept paragraph one.</p>
<p>Kept paragraph two.</p>
<footer>Copyright footer</footer>
</body>
"""


def test_boilerplate_elements_are_dropped() -> None:
    assert bodies(CHROME) == "Kept paragraph one.\n\nKept paragraph two."


def test_header_and_footer_inside_an_article_belong_to_it() -> None:
    lead = "A lead paragraph that sits in the article's own header, long enough to read. "
    note = "A closing note in the article's own footer, which readers should also see. "
    page = (
        f"<body><header>Site header</header><article><header><p>{lead * 2}</p></header>"
        "<p>" + "Story text. " * 30 + f"</p><footer><p>{note * 2}</p></footer>"
        "</article><footer>Site footer</footer></body>"
    )
    text = bodies(page)
    assert lead.strip() in text and note.strip() in text
    assert "Site header" not in text and "Site footer" not in text


def test_main_is_chunked_alone() -> None:
    page = (
        "<body><div class='top'><p>" + "Promo words here. " * 10 + "</p></div>"
        "<main><h1>Doc</h1><p>" + "Main words. " * 40 + "</p></main>"
        "<div><p>" + "Other words too. " * 10 + "</p></div></body>"
    )
    text = bodies(page)
    assert "Main words." in text
    assert "Promo" not in text and "Other" not in text


def test_a_single_dominant_article_is_chunked_alone_but_teasers_are_not_one() -> None:
    teasers = "".join(
        f"<article><h2>Teaser {n}</h2><p>Short teaser {n}.</p></article>" for n in range(3)
    )
    page = (
        "<body><nav><a href='/'>Home</a></nav><article><h1>Story</h1><p>"
        + "Story words. " * 60
        + "</p></article>"
        + teasers
        + "</body>"
    )
    text = bodies(page)
    assert "Story words." in text and "teaser" not in text.lower()


def test_furniture_named_blocks_inside_the_article_are_dropped() -> None:
    page = (
        "<article><h1>Story</h1><p>" + "Story words. " * 40 + "</p>"
        "<div class='share-buttons'><a href='#'>Share on X</a></div>"
        "<section class='comments'><p>" + "A long reader comment. " * 8 + "</p></section>"
        "<div class='relatedLinks'><a href='/x'>Another story</a></div>"
        "<pre class='comment'>code_kept = 1</pre></article>"
    )
    text = bodies(page)
    assert "Story words." in text and "code_kept" in text
    assert "Share" not in text and "comment" not in text and "Another" not in text


def test_main_content_is_found_among_navigation_lists() -> None:
    links = "".join(f"<li><a href='/{n}'>Section {n}</a></li>" for n in range(40))
    page = (
        f"<body><div id='menu'><ul>{links}</ul></div><div id='wrap'><div id='text'>"
        "<h1>Title</h1><p>" + "Actual article sentence, with commas. " * 30 + "</p>"
        "<p>" + "Second paragraph of the article. " * 20 + "</p></div>"
        f"<div id='more'><ul>{links}</ul></div></div><footer>x</footer></body>"
    )
    text = bodies(page)
    assert "Actual article sentence" in text and "Second paragraph" in text
    assert "Section 1" not in text


def test_a_plain_document_loses_nothing_to_content_detection() -> None:
    page = (
        "<h1>Notes</h1><p>" + "A long paragraph of words. " * 30 + "</p><p>ok</p>"
        "<ul><li><a href='/a'>a link</a></li><li><a href='/b'>b link</a></li></ul>"
    )
    text = bodies(page)
    assert "ok" in text.split() and "a link" in text and "b link" in text


# -- encodings -------------------------------------------------------------------------

FRENCH = "<p>Le café a été fermé à Noël, déjà.</p>"


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + FRENCH.encode("utf-8"),
        b"\xff\xfe" + FRENCH.encode("utf-16-le"),
        b"\xfe\xff" + FRENCH.encode("utf-16-be"),
        FRENCH.encode("utf-16-le"),
        FRENCH.encode("utf-16-be"),
        b'<meta charset="windows-1252">' + FRENCH.encode("cp1252"),
        b'<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'
        + FRENCH.encode("latin-1"),
        b'<?xml version="1.0" encoding="windows-1252"?><html><body>' + FRENCH.encode("cp1252"),
        FRENCH.encode("cp1252"),
    ],
    ids=[
        "utf8-bom",
        "utf16le-bom",
        "utf16be-bom",
        "utf16le",
        "utf16be",
        "meta-cp1252",
        "http-equiv-latin1",
        "xml-declaration",
        "undeclared-cp1252",
    ],
)
def test_encodings_decode_without_mojibake(data: bytes) -> None:
    assert texts(tree(data)) == ["Le café a été fermé à Noël, déjà."]


JAPANESE = "<p>むかしむかし、ある村に正直なおじいさんとおばあさんが住んでいました。</p>"
CHINESE = "<p>宇航员在太空中生活和工作，需要面对许多挑战和困难。</p>"
TRADITIONAL = "<p>太空人在太空中生活與工作，需要面對許多挑戰與困難。</p>"


@pytest.mark.parametrize(
    ("text", "encoding", "declare"),
    [
        (JAPANESE, "shift_jis", True),
        (JAPANESE, "shift_jis", False),
        (JAPANESE, "euc_jp", False),
        (CHINESE, "gb18030", True),
        (CHINESE, "gb18030", False),
        (TRADITIONAL, "big5", False),
    ],
)
def test_east_asian_encodings_declared_or_detected(text: str, encoding: str, declare: bool) -> None:
    head = f'<meta charset="{encoding}">'.encode("ascii") if declare else b""
    assert texts(tree(head + text.encode(encoding))) == [text[3:-4]]


def test_invalid_utf8_bytes_become_replacement_characters() -> None:
    doc = tree(b'<meta charset="utf-8"><p>good \xff\xfe bytes</p>')
    assert texts(doc) == ["good \ufffd\ufffd bytes"]


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data", [b"", b"  \n\t \r\n", b"<html><body></body></html>", b"<!-- only a comment -->"]
)
def test_empty_pages_give_zero_chunks(data: bytes) -> None:
    assert list(iter_chunks_from_bytes(data, "empty.html", "html", OPTIONS)) == []


@pytest.mark.parametrize(
    "data",
    [
        os.urandom(4096),
        b"\x89PNG\r\n\x1a\n" + bytes(200),
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n",
    ],
)
def test_binary_data_is_a_one_line_parse_error(data: bytes) -> None:
    with pytest.raises(ParseError) as info:
        list(iter_chunks_from_bytes(data, "image.html", "html", OPTIONS))
    message = str(info.value)
    assert "\n" not in message and "image.html" in message and "binary" in message


def test_a_page_whose_text_looks_like_a_url_or_file_name_is_still_a_page() -> None:
    assert bodies("https://example.org/index.html") == "https://example.org/index.html"
    assert bodies("README.md") == "README.md"


def test_unclosed_tags_parse_leniently() -> None:
    doc = tree("<h1>Title<p>one<p>two<ul><li>a<li>b</ul><table><tr><td>x<td>y<tr><td>z")
    assert paths(doc) == [(), ("Title",)]
    assert texts(doc) == ["one", "two"]
    assert any(isinstance(b, ListBlock) and len(b.items) == 2 for b in blocks(doc))


def test_one_hundred_thousand_nested_divs_keep_their_text() -> None:
    depth = 100_000
    page = "<p>before</p>" + "<div>" * depth + "<p>deep text</p>" + "</div>" * depth
    start = time.perf_counter()
    assert bodies(page + "<p>after</p>") == "before\n\ndeep text\n\nafter"
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize(
    "element",
    ["ul><li", "blockquote", "table><tr><td", "span", "pre", "ol><li><p", "dl><dd", "section"],
)
def test_deeply_nested_elements_of_every_kind_convert(element: str) -> None:
    opening = f"<{element}>x "
    closing = "".join(f"</{name.split()[0]}>" for name in reversed(element.split("><")))
    page = opening * 5000 + closing * 5000
    chunks = chunk_text(page, format="html")
    assert sum(c.body.split().count("x") for c in chunks) == 5000


def test_a_multi_megabyte_page_converts() -> None:
    paragraph = "<p>" + "Plenty of ordinary words in a sentence. " * 20 + "</p>\n"
    page = "<h1>Big</h1>" + paragraph * 8000  # about 6.5 MB
    chunks = chunk_text(page, format="html", max_tokens=512)
    assert sum(c.body.count("Plenty") for c in chunks) == 8000 * 20


@pytest.mark.slow
def test_a_fifty_megabyte_page_converts() -> None:
    paragraph = "<div><p>" + "Plenty of ordinary words in a sentence. " * 20 + "</p></div>\n"
    page = ("<title>Huge</title>" + paragraph * 62_000).encode()
    assert len(page) > 50_000_000
    count = sum(
        c.body.count("Plenty") for c in iter_chunks_from_bytes(page, "huge.html", "html", OPTIONS)
    )
    assert count == 62_000 * 20


def test_a_page_of_headings_and_images_keeps_its_headings() -> None:
    """Before: sections holding only a heading produced no chunk, so this page had none."""
    page = (
        "<html><body><h1>Gallery</h1><h2>Sunrise</h2><img src='a.png' alt=''>"
        "<h2>Sunset</h2><img src='b.png'></body></html>"
    )
    (chunk,) = chunk_text(page, format="html", strict=True)
    assert chunk.heading_path == ["Gallery"] and chunk.body == "Sunrise\n\nSunset"


def _page(title: str, words: int) -> str:
    nav = "".join(f"<li><a href='/{i}'>Menu entry {i}</a></li>" for i in range(12))
    text = " ".join(f"{title.lower()}{i}" for i in range(words))
    return (
        f"<html><head><title>{title}</title></head><body><nav><ul>{nav}</ul></nav>"
        f"<article><h1>{title}</h1><p>{text}.</p></article></body></html>"
    )


def test_a_file_joining_several_pages_keeps_every_page() -> None:
    """Before: only the first `body` was read, so a file of twelve joined corpus pages
    gave 13 chunks (one page's) and dropped the rest without a word."""
    joined = "\n".join(_page(title, 60) for title in ("Alpha", "Beta", "Gamma"))
    chunks = chunk_text(joined, format="html", strict=True)
    assert [c.heading_path for c in chunks] == [["Alpha"], ["Beta"], ["Gamma"]]
    assert all("Menu entry" not in c.text for c in chunks)  # each page's nav still goes


def test_a_page_that_loses_most_of_its_text_to_boilerplate_says_so() -> None:
    from structchunk.parsers import ParseSettings
    from structchunk.parsers.html import parse

    links = "".join(
        f"<li><a href='/{i}'>Related story {i} about things</a></li>" for i in range(150)
    )
    page = (
        f"<html><body><article><h1>Story</h1><p>{'A short article sentence. ' * 8}</p>"
        f"</article><div class='related'><ul>{links}</ul></div></body></html>"
    )
    document = parse(page.encode(), "page.html", ParseSettings())
    (warning,) = document.warnings
    assert "% of the page's text was left out" in warning
    assert int(warning.split("%")[0]) > 80
    assert parse(_page("Quiet", 400).encode(), "p.html", ParseSettings()).warnings == []
