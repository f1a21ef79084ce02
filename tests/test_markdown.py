"""The Markdown parser: every construct lands in the right place of the section tree."""

from __future__ import annotations

import pytest

from structchunk import ChunkOptions, chunk_text
from structchunk.document import Code, Document, ListBlock, Paragraph, Table
from structchunk.errors import ParseError
from structchunk.parsers import ParseSettings
from structchunk.parsers.markdown import parse

OPTIONS = ChunkOptions()


def tree(markdown: str | bytes) -> Document:
    data = markdown.encode("utf-8") if isinstance(markdown, str) else markdown
    return parse(data, "test.md", ParseSettings())


def paths(doc: Document) -> list[tuple[str, ...]]:
    return [s.path for s in doc.sections()]


def test_atx_and_setext_headings_of_all_levels_with_skipped_levels() -> None:
    doc = tree("Top\n===\n\nSub\n---\n\n#### Deep\n\ntext\n\n## Back\n\n###### Six\n")
    assert paths(doc) == [
        (),
        ("Top",),
        ("Top", "Sub"),
        ("Top", "Sub", "Deep"),
        ("Top", "Back"),
        ("Top", "Back", "Six"),
    ]
    assert [s.level for s in doc.sections()] == [0, 1, 2, 4, 2, 6]


def test_text_before_the_first_heading_belongs_to_the_root() -> None:
    doc = tree("Preface words.\n\n# Chapter\n\nBody.\n")
    assert isinstance(doc.root.blocks[0], Paragraph)
    assert doc.root.blocks[0].text == "Preface words."
    assert doc.root.path == ()


def test_front_matter_title_is_the_root_of_paths_and_never_text() -> None:
    doc = tree('---\ntitle: "The Guide"\nauthor: x\n---\n\nIntro.\n\n## Setup\n\nDo it.\n')
    assert doc.title == "The Guide"
    assert paths(doc) == [("The Guide",), ("The Guide", "Setup")]
    chunks = chunk_text("---\ntitle: The Guide\n---\n\nIntro.\n")
    assert [c.body for c in chunks] == ["Intro."]


def test_first_heading_repeating_the_title_is_not_repeated_in_paths() -> None:
    doc = tree("---\ntitle: API keys\n---\n# API keys\n\nx\n\n## Rotate\n\ny\n")
    assert paths(doc)[1:] == [("API keys",), ("API keys", "Rotate")]


def test_heading_attribute_lists_are_not_part_of_the_title() -> None:
    doc = tree("# First Steps { #first-steps }\n\ntext\n")
    assert doc.root.children[0].title == "First Steps"


def test_inline_markup_becomes_visible_text() -> None:
    doc = tree(
        "Use **bold**, *em*, ~~old~~, `code`s, [a link](http://x.io) and "
        "![an \\[image\\]](i.png), a&amp;b.<br>next <span>x</span>y\n"
    )
    block = doc.root.blocks[0]
    assert isinstance(block, Paragraph)
    assert block.text == "Use bold, em, old, codes, a link and an [image], a&b.\nnext xy"


def test_block_level_html_tags_inside_a_paragraph_separate_words() -> None:
    doc = tree("| a | b |\n|---|---|\n| <table><tr><td>one</td><td>two</td></tr></table> | z |\n")
    table = doc.root.blocks[0]
    assert isinstance(table, Table)
    assert table.rows[0][0].split() == ["one", "two"]


def test_nested_lists_keep_markers_and_depth() -> None:
    doc = tree("- a\n  - b\n    1. c\n    2. d\n- e\n\n3) x\n4) y\n")
    first, second = doc.root.blocks
    assert isinstance(first, ListBlock) and isinstance(second, ListBlock)
    assert [(i.marker, i.depth, i.text) for i in first.items] == [
        ("-", 0, "a"),
        ("-", 1, "b"),
        ("1.", 2, "c"),
        ("2.", 2, "d"),
        ("-", 0, "e"),
    ]
    assert [i.marker for i in second.items] == ["3)", "4)"]


def test_list_item_with_paragraphs_and_code_keeps_everything_in_order() -> None:
    doc = tree(
        "1. first para\n\n   second para\n\n   ```sh\n   ls\n   ```\n\n   - sub\n\n   after sub\n"
    )
    items = doc.root.blocks[0]
    assert isinstance(items, ListBlock)
    texts = [i.text for i in items.items]
    assert texts[0] == "first para\n\nsecond para\n\n```sh\nls\n```"
    assert texts[1:] == ["sub", "after sub"]
    assert items.items[2].marker.strip() == ""  # a continuation of item 1, not a new item


def test_tables_have_header_rows_body_rows_and_line_provenance() -> None:
    doc = tree("intro\n\n| h1 | h2 |\n|----|----|\n| a | b |\n| c \\| d | e |\n")
    table = doc.root.blocks[1]
    assert isinstance(table, Table)
    assert table.header == [["h1", "h2"]]
    assert table.rows == [["a", "b"], ["c | d", "e"]]
    assert table.prov.lines == (3, 6)
    assert [p.lines for p in table.row_provs] == [(5, 5), (6, 6)]


def test_fenced_and_indented_code_are_verbatim_with_language() -> None:
    doc = tree("```python title=x\ndef f():\n    return  1\n```\n\n    indented  code\n")
    fenced, indented = doc.root.blocks
    assert isinstance(fenced, Code) and isinstance(indented, Code)
    assert (fenced.language, fenced.text) == ("python", "def f():\n    return  1")
    assert (indented.language, indented.text) == ("", "indented  code")


def test_block_quotes_keep_their_text_and_headings_inside_are_not_sections() -> None:
    doc = tree("# A\n\n> quoted *text*\n>\n> # not a section\n")
    assert paths(doc) == [(), ("A",)]
    assert [b.text for b in doc.root.children[0].blocks if isinstance(b, Paragraph)] == [
        "quoted text",
        "not a section",
    ]


def test_pymdownx_block_fences_read_as_labels_and_closing_fences_go() -> None:
    doc = tree(
        "/// note | Technical Details\n\nYou could also use `Starlette`.\n\n///\n\n"
        "/// tip\nInline body.\n///\n\n//// tab | Python 3.10+\n\nCode here.\n\n////\n"
    )
    assert [b.text for b in doc.root.blocks if isinstance(b, Paragraph)] == [
        "Note: Technical Details",
        "You could also use Starlette.",
        "/// tip Inline body. ///",  # fences touching their text: left as written
        "Tab: Python 3.10+",
        "Code here.",
    ]


def test_slashes_that_are_not_block_fences_stay() -> None:
    doc = tree(
        "`///`\n\nUse `///` for doc comments.\n\n/// not a fence here\n\n"
        "```rust\n/// Adds one.\nfn f() {}\n///\n```\n"
    )
    assert [b.text for b in doc.root.blocks] == [
        "///",
        "Use /// for doc comments.",
        "/// not a fence here",
        "/// Adds one.\nfn f() {}\n///",
    ]


def test_html_blocks_keep_text_and_drop_tags_comments_and_scripts() -> None:
    doc = tree(
        '<div class="note">\n<p>Keep <b>this</b> &amp; that</p>\n'
        "<!-- hidden -->\n<script>var x = 1;</script>\n</div>\n"
    )
    assert [b.text for b in doc.root.blocks if isinstance(b, Paragraph)] == ["Keep this & that"]


def test_html_blocks_keep_what_a_reader_sees_of_a_tag() -> None:
    """The Rust book wraps each code listing in `<Listing caption="…">`: the caption was
    dropped with the tag, or, holding `Option<i32>`, the tag was not seen as one and stayed
    with its `<i32>` cut out."""
    doc = tree(
        '<Listing number="6-5" caption="A function that uses a `match` expression on an '
        '`Option<i32>`">\n\n```rust\nfn plus_one() {}\n```\n\n</Listing>\n\n'
        '<img src="img/trpl17-01.svg" class="center" alt="Two tasks &amp; their subtasks" />\n'
    )
    assert [b.text for b in doc.root.blocks if isinstance(b, Paragraph)] == [
        "A function that uses a match expression on an Option<i32>",
        "Two tasks & their subtasks",
    ]
    inline = tree('See <img src="x.png" alt="the diagram"> above.\n')
    assert [b.text for b in inline.root.blocks] == ["See the diagram above."]


def test_a_listing_caption_stays_with_its_code_however_long() -> None:
    """Captions over 12 words are no labels, so five of the Rust book's ended the chunk
    before their listing (`The output from running cargo build after adding the rand
    crate as a dependency`). The wrapping tag says what the caption titles."""
    caption = "Using the move keyword to force a closure to take ownership of the values it uses"
    filler = " ".join(["filler"] * 30) + "."
    markdown = (
        f"# Threads\n\n{filler}\n\n"
        f'<Listing number="16-5" file-name="src/main.rs" caption="{caption}">\n\n'
        "```rust\n" + "".join(f"let v{i} = vec![{i}];\n" for i in range(8)) + "```\n\n"
        "</Listing>\n"
    )
    blocks = [b for section in tree(markdown).sections() for b in section.blocks]
    (title,) = [b for b in blocks if isinstance(b, Paragraph) and b.text == caption]
    assert isinstance(title, Paragraph) and title.titles_next
    chunks = chunk_text(markdown, max_tokens=60)
    (with_code,) = [c for c in chunks if "code" in c.block_types]
    assert with_code.body.startswith(caption + "\n\n```rust")
    # a tag that only shows text (an image's alt) titles nothing
    (image,) = tree('<img src="a.svg" alt="Two tasks" />\n\n```\nx\n```\n').root.blocks[:1]
    assert isinstance(image, Paragraph) and not image.titles_next


def test_deeply_nested_quotes_and_lists_lose_no_text() -> None:
    quote = ">" * 500 + " deep quote\n"
    listing = "".join("  " * i + f"- level {i}\n" for i in range(200))
    doc = tree("# Q\n\n" + quote + "\n# L\n\n" + listing)
    text = " ".join(c.body for c in chunk_text("# Q\n\n" + quote + "\n# L\n\n" + listing))
    assert "deep quote" in text
    assert all(f"level {i}" in text for i in range(200))
    assert paths(doc) == [(), ("Q",), ("L",)]


@pytest.mark.parametrize(
    "encoded",
    [
        "# Tätigkeit\n\n“Quotes” — dash\n".encode("utf-8-sig"),
        "# Tätigkeit\n\n“Quotes” — dash\n".encode("utf-16"),
        "# Tätigkeit\r\n\r\n“Quotes” — dash\r\n".encode("cp1252"),
    ],
    ids=["utf8-bom", "utf16-bom", "cp1252-crlf"],
)
def test_encodings_and_line_endings(encoded: bytes) -> None:
    doc = tree(encoded)
    assert paths(doc) == [(), ("Tätigkeit",)]
    block = doc.root.children[0].blocks[0]
    assert isinstance(block, Paragraph)
    assert block.text == "“Quotes” — dash"


def test_nul_bytes_become_replacement_characters() -> None:
    doc = tree(b"# T\n\nbefore\x00after\n")
    block = doc.root.children[0].blocks[0]
    assert isinstance(block, Paragraph)
    assert block.text == "before\ufffdafter"


def test_binary_data_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ParseError, match="binary data"):
        tree(bytes(range(256)) * 20)


def test_an_empty_document_gives_no_chunks() -> None:
    assert chunk_text("") == []
    assert chunk_text("\n\n   \n") == []


def test_headings_with_nothing_under_them_reach_a_chunk() -> None:
    """Before: a page of headings gave no chunk at all, and --strict did not notice."""
    (only,) = chunk_text("# Only\n\n## Headings\n", strict=True)
    assert only.heading_path == ["Only"] and only.body == "Headings"
    assert only.text == "Only\n\nHeadings"
    (single,) = chunk_text("# Title\n", strict=True)
    assert single.heading_path == [] and single.text == "Title"
    chunks = chunk_text(
        "# T\n\nIntro.\n\n## Empty\n\n## Full\n\nBody.\n\n## Last\n\n## Also last\n",
        strict=True,
    )
    assert [(c.heading_path, c.body) for c in chunks] == [
        (["T"], "Intro.\n\nEmpty"),  # right after its parent's text: joins it
        (["T", "Full"], "Body."),
        (["T"], "Last\n\nAlso last"),  # a run of bare headings is one chunk, in place
    ]
    assert chunks[0].lines == [3, 5] and chunks[2].lines == [11, 13]


def test_random_bytes_named_md_are_refused_not_chunked_as_mojibake() -> None:
    import random

    noise = random.Random(7).randbytes(3000)
    with pytest.raises(ParseError, match="binary data"):
        tree(noise)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("---\nA setext heading\n---\n\nText.\n", (["A setext heading"], "Text.")),
        ("---\nJust a line between two breaks.\n\n---\n", ([], "Just a line between two breaks.")),
        ("---\ntitle: Kept out\ntags:\n  - a\n- b\n---\n\nText.\n", (["Kept out"], "Text.")),
        ("---\n# a comment\nlayout: post\n---\n\nText.\n", ([], "Text.")),
    ],
)
def test_front_matter_is_a_yaml_mapping_and_anything_else_is_content(
    source: str, expected: tuple[list[str], str]
) -> None:
    """Before: CommonMark example 96 (a thematic break, then a setext heading) was read as
    front matter and dropped without a word."""
    (chunk,) = chunk_text(source, strict=True)
    assert (chunk.heading_path, chunk.body) == expected


def test_links_keep_their_text_and_unsafe_targets_stay_text() -> None:
    """The parser leaves link targets unnormalised (it never keeps them); markdown-it's
    check still reads a `javascript:` link as the text it was written as."""
    doc = tree(
        '# Links\n\n[the guide](<https://example.com/ä b?q=1> "Title") and '
        "[run](JavaScript:alert(1)) and <https://example.com/x>.\n"
    )
    (paragraph,) = doc.sections()[1].blocks
    assert isinstance(paragraph, Paragraph)
    assert paragraph.text == ("the guide and [run](JavaScript:alert(1)) and https://example.com/x.")
