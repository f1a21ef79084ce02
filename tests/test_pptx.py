"""PowerPoint decks: slides as sections, reading order, bullet levels, tables, charts,
notes, furniture and hidden slides, checked on decks the tests build with python-pptx."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from office_factory import (
    LAYOUT_BLANK,
    LAYOUT_TITLE_AND_CONTENT,
    add_box,
    add_furniture,
    add_notes,
    add_slide,
    deck,
    deck_bytes,
    hide,
    mark_bullets,
    rewrite_part,
    set_levels,
)
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.util import Inches

from structchunk import Chunk, ChunkOptions, chunk_file
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import Document, ListBlock, Paragraph, Section, Table
from structchunk.parsers import ParseSettings
from structchunk.parsers.pptx import parse
from structchunk.parsers.pptx.text import number_marker

ROOT = Path(__file__).resolve().parent.parent


def read(data: bytes) -> Document:
    return parse(data, "deck.pptx", ParseSettings())


def section(document: Document, *path: str) -> Section:
    found = [s for s in document.sections() if s.path == path]
    assert found, f"no section {path}: {[s.path for s in document.sections()]}"
    return found[0]


def texts(section: Section) -> list[str]:
    out: list[str] = []
    for block in section.blocks:
        if isinstance(block, ListBlock):
            out.extend(item.text for item in block.items)
        elif isinstance(block, Table):
            out.extend(cell for row in block.header + block.rows for cell in row)
        else:
            out.append(block.text)
    return out


def test_each_slide_is_a_section_under_the_deck_title() -> None:
    presentation = deck("Quarterly review")
    add_slide(presentation, "Results")
    add_box(add_slide(presentation, layout=LAYOUT_BLANK), "A slide without a title", 1, 1)
    document = read(deck_bytes(presentation))
    assert document.title == "Quarterly review"
    assert [s.path for s in document.root.children] == [
        ("Quarterly review", "Results"),
        ("Quarterly review", "Slide 2"),
    ]
    assert [s.level for s in document.root.children] == [1, 1]


@pytest.mark.parametrize("tool_title", ["PowerPoint Presentation", "Presentation", ""])
def test_a_title_written_by_a_tool_is_not_a_heading(tool_title: str) -> None:
    presentation = deck(tool_title)
    add_slide(presentation, "Only slide")
    assert [s.path for s in read(deck_bytes(presentation)).root.children] == [("Only slide",)]


def test_shapes_are_read_top_to_bottom_then_left_to_right() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Layout")
    add_box(slide, "bottom right", 6, 5)
    add_box(slide, "top left", 1, 2)
    add_box(slide, "middle", 3, 3.5)
    add_box(slide, "top right, a little lower", 5, 2.1)
    assert texts(section(read(deck_bytes(presentation)), "Layout")) == [
        "top left",
        "top right, a little lower",
        "middle",
        "bottom right",
    ]


def test_a_group_is_read_where_it_stands_its_members_in_order() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Groups")
    add_box(slide, "below the group", 1, 5)
    group = slide.shapes.add_group_shape()
    inner = group.shapes.add_group_shape()
    inner.shapes.add_textbox(Inches(4), Inches(2), Inches(2), Inches(1)).text_frame.text = "right"
    group.shapes.add_textbox(Inches(1), Inches(2), Inches(2), Inches(1)).text_frame.text = "left"
    assert texts(section(read(deck_bytes(presentation)), "Groups")) == [
        "left",
        "right",
        "below the group",
    ]


def test_bullet_levels_of_a_content_placeholder_become_a_nested_list() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Plan", LAYOUT_TITLE_AND_CONTENT)
    body = slide.placeholders[1].text_frame
    set_levels(body, [(0, "Goals"), (1, "Grow"), (2, "North first"), (1, "Hire"), (0, "Risks")])
    (block,) = section(read(deck_bytes(presentation)), "Plan").blocks
    assert isinstance(block, ListBlock)
    assert [(i.depth, i.text, i.marker) for i in block.items] == [
        (0, "Goals", "-"),
        (1, "Grow", "-"),
        (2, "North first", "-"),
        (1, "Hire", "-"),
        (0, "Risks", "-"),
    ]


def test_a_paragraph_marked_without_bullet_stays_a_paragraph_in_a_list_placeholder() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Intro", LAYOUT_TITLE_AND_CONTENT)
    body = slide.placeholders[1].text_frame
    set_levels(body, [(0, "Let us start with a list:"), (0, "one"), (0, "two")])
    body.paragraphs[0]._p.get_or_add_pPr().insert(0, _element("buNone"))
    blocks = section(read(deck_bytes(presentation)), "Intro").blocks
    assert isinstance(blocks[0], Paragraph) and blocks[0].text == "Let us start with a list:"
    assert isinstance(blocks[1], ListBlock) and [i.text for i in blocks[1].items] == ["one", "two"]


def _element(name: str) -> object:
    from lxml import etree

    return etree.Element(f"{{http://schemas.openxmlformats.org/drawingml/2006/main}}{name}")


def test_text_box_paragraphs_are_paragraphs_unless_they_set_a_bullet() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Boxes")
    add_box(slide, "plain line one\nplain line two", 1, 2)
    numbered = add_box(slide, "first\nsecond\nthird", 1, 4)
    mark_bullets(numbered.text_frame, "buAutoNum", type="alphaLcParenR")
    blocks = section(read(deck_bytes(presentation)), "Boxes").blocks
    assert [type(b).__name__ for b in blocks] == ["Paragraph", "Paragraph", "ListBlock"]
    assert isinstance(blocks[2], ListBlock)
    assert [(i.marker, i.text) for i in blocks[2].items] == [
        ("a)", "first"),
        ("b)", "second"),
        ("c)", "third"),
    ]


def test_numbering_restarts_under_each_shallower_item() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Steps")
    box = add_box(slide, "x", 1, 2)
    set_levels(box.text_frame, [(0, "A"), (1, "a1"), (1, "a2"), (0, "B"), (1, "b1")])
    mark_bullets(box.text_frame, "buAutoNum", type="arabicPeriod")
    (block,) = section(read(deck_bytes(presentation)), "Steps").blocks
    assert isinstance(block, ListBlock)
    assert [i.marker for i in block.items] == ["1.", "1.", "2.", "2.", "1."]


@pytest.mark.parametrize(
    ("scheme", "number", "marker"),
    [
        ("arabicPeriod", 3, "3."),
        ("arabicParenR", 2, "2)"),
        ("romanUcPeriod", 4, "IV."),
        ("romanLcParenBoth", 9, "(ix)"),
        ("alphaUcPeriod", 27, "AA."),
        ("arabicPlain", 5, "5"),
    ],
)
def test_number_markers_follow_powerpoint(scheme: str, number: int, marker: str) -> None:
    assert number_marker(scheme, number) == marker


def test_a_table_has_its_first_row_as_header_and_merged_cells_filled() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Sales")
    shape = slide.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(6), Inches(2))
    table = shape.table
    for (r, c), text in {
        (0, 0): "Region",
        (0, 1): "Sales",
        (1, 0): "North",
        (1, 1): "10",
        (1, 2): "20",
        (2, 1): "30",
        (2, 2): "40",
    }.items():
        table.cell(r, c).text = text
    table.cell(0, 1).merge(table.cell(0, 2))
    table.cell(1, 0).merge(table.cell(2, 0))
    (block,) = section(read(deck_bytes(presentation)), "Sales").blocks
    assert isinstance(block, Table)
    assert block.header == [["Region", "Sales", "Sales"]]
    assert block.rows == [["North", "10", "20"], ["North", "30", "40"]]


def test_chart_data_becomes_a_table_captioned_with_the_chart_title() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Ducks")
    data = CategoryChartData()
    data.categories = ["2019", "2020"]
    data.add_series("Freshwater", (120.0, 0.1 + 0.2))
    data.add_series("Saltwater", (80, 95.5))
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6), Inches(4), data
    )
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Ducks counted"
    (block,) = section(read(deck_bytes(presentation)), "Ducks").blocks
    assert isinstance(block, Table)
    assert block.caption == "Ducks counted"
    assert block.header == [["", "Freshwater", "Saltwater"]]
    assert block.rows == [["2019", "120", "80"], ["2020", "0.3", "95.5"]]


def test_speaker_notes_are_a_notes_section_under_their_slide() -> None:
    presentation = deck("Deck")
    slide = add_slide(presentation, "Findings")
    add_box(slide, "Revenue grew.", 1, 2)
    add_notes(slide, "Mention the one-off contract.\nThen take questions.")
    document = read(deck_bytes(presentation))
    notes = section(document, "Deck", "Findings", "Notes")
    assert notes.level == 2
    assert texts(notes) == ["Mention the one-off contract.", "Then take questions."]
    assert texts(section(document, "Deck", "Findings")) == ["Revenue grew."]


def test_footer_date_and_slide_number_are_dropped() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Body", LAYOUT_TITLE_AND_CONTENT)
    slide.placeholders[1].text_frame.text = "Kept text"
    add_furniture(slide, PP_PLACEHOLDER.FOOTER, "Confidential draft")
    add_furniture(slide, PP_PLACEHOLDER.DATE, "12 March 2024")
    add_furniture(slide, PP_PLACEHOLDER.SLIDE_NUMBER, "7")
    data = deck_bytes(presentation)
    document = read(data)
    assert texts(section(document, "Body")) == ["Kept text"]
    assert sorted(document.dropped) == ["12 March 2024", "7", "Confidential draft"]
    chunks = list(iter_chunks_from_bytes(data, "deck.pptx", None, ChunkOptions(), strict=True))
    assert not any("Confidential" in chunk.text for chunk in chunks)


def test_hidden_slides_are_left_out_with_a_warning() -> None:
    presentation = deck()
    add_slide(presentation, "Shown")
    hide(add_slide(presentation, "Backup numbers"))
    add_slide(presentation, "Also shown")
    document = read(deck_bytes(presentation))
    assert [s.title for s in document.root.children] == ["Shown", "Also shown"]
    assert [s.prov.pages for s in document.root.children] == [(1,), (3,)]
    assert document.warnings == [
        "hidden slides left out: 2 (unhide them in PowerPoint to include them)"
    ]


def test_a_deck_of_pictures_only_gives_no_records_and_a_warning() -> None:
    presentation = deck("Holiday photos")
    add_slide(presentation, layout=LAYOUT_BLANK)
    document = read(deck_bytes(presentation))
    assert not document.has_headings() and document.title == ""
    assert document.warnings == ["the presentation has no text (pictures only?)"]


def test_every_record_carries_its_slide_number_from_the_command_line(tmp_path: Path) -> None:
    presentation = deck("Deck")
    for number in range(1, 4):
        slide = add_slide(presentation, f"Slide title {number}")
        add_box(slide, " ".join(f"word{number}x{i}" for i in range(60)), 1, 2, width=8)
        add_notes(slide, f"notes of slide {number}")
    source = tmp_path / "deck.pptx"
    source.write_bytes(deck_bytes(presentation))
    out = tmp_path / "out.jsonl"
    run = subprocess.run(
        [sys.executable, "-m", "structchunk", "convert", str(source), "-o", str(out)]
        + ["--max-tokens", "40"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["format"] for r in records} == {"pptx"}
    for record in records:
        number = int(record["heading_path"][1].rsplit(" ", 1)[1])
        assert record["pages"] == [number]
        assert record["offsets"] is None and record["lines"] is None
    assert len({tuple(r["heading_path"]) for r in records}) == 6  # 3 slides + 3 notes


def test_the_python_api_reads_a_deck(tmp_path: Path) -> None:
    presentation = deck()
    add_box(add_slide(presentation, "Hello"), "World", 1, 2)
    path = tmp_path / "hello.pptx"
    path.write_bytes(deck_bytes(presentation))
    (chunk,) = chunk_file(path)
    assert chunk.heading_path == ["Hello"] and chunk.body == "World" and chunk.pages == [1]


def test_groups_nested_deeply_are_read_without_recursion() -> None:
    presentation = deck()
    slide = add_slide(presentation, "Deep")
    group = slide.shapes.add_group_shape()
    for _ in range(100):
        group = group.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(2), Inches(2), Inches(1)).text_frame.text = "core"
    assert texts(section(read(deck_bytes(presentation)), "Deep")) == ["core"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=12))
def test_list_depths_follow_paragraph_levels(levels: list[int]) -> None:
    presentation = deck()
    slide = add_slide(presentation, "Levels", LAYOUT_TITLE_AND_CONTENT)
    items = [(level, f"item {n}") for n, level in enumerate(levels)]
    set_levels(slide.placeholders[1].text_frame, items)
    (block,) = section(read(deck_bytes(presentation)), "Levels").blocks
    assert isinstance(block, ListBlock)
    base = min(levels)
    assert [(i.depth, i.text) for i in block.items] == [(lv - base, t) for lv, t in items]


PRESENTATION_MAIN = (
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
)


@pytest.mark.parametrize(
    ("content_type", "suffix"),
    [
        ("application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml", "ppsx"),
        ("application/vnd.openxmlformats-officedocument.presentationml.template.main+xml", "potx"),
        ("application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml", "pptm"),
    ],
)
def test_slide_shows_templates_and_macro_decks_are_read_like_decks(
    content_type: str, suffix: str
) -> None:
    presentation = deck()
    add_box(add_slide(presentation, "Opening"), "Welcome", 1, 2)
    data = rewrite_part(
        deck_bytes(presentation),
        "[Content_Types].xml",
        lambda xml: xml.replace(PRESENTATION_MAIN.encode(), content_type.encode()),
    )
    assert content_type.encode() in zipfile.ZipFile(io.BytesIO(data)).read("[Content_Types].xml")
    (chunk,) = iter_chunks_from_bytes(data, f"show.{suffix}")
    assert (chunk.heading_path, chunk.body) == (["Opening"], "Welcome")


def _words_across(chunks: list[Chunk], text: str) -> list[str]:
    """The chunks' body words in order, a word cut between two chunks joined again where
    `text` has no space at the cut: a word of Chinese or Japanese characters, which the
    words tokenizer counts one a character, may alone outgrow a chunk's room and be cut
    by characters, as a giant word is."""
    joined = ""
    for chunk in chunks:
        body = " ".join(chunk.body.split())
        spaced = f"{joined} {body}" if joined else body
        joined = spaced if text.startswith(spaced) else joined + body
    return joined.split()


_WORDS = st.lists(
    st.text(st.characters(categories=("L", "N")), min_size=1, max_size=10), min_size=1, max_size=30
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_WORDS, _WORDS), min_size=1, max_size=5))
def test_every_slide_title_is_a_heading_path_and_every_word_is_kept(
    slides: list[tuple[list[str], list[str]]],
) -> None:
    presentation = deck()
    titles = [[f"S{n} " + " ".join(title)] for n, (title, _) in enumerate(slides, start=1)]
    for (heading,), (_, body) in zip(titles, slides):
        add_box(add_slide(presentation, heading), " ".join(body), 1, 2, width=8)
    chunks = list(
        iter_chunks_from_bytes(
            deck_bytes(presentation), "deck.pptx", None, ChunkOptions(max_tokens=16), strict=True
        )
    )
    paths = [chunk.heading_path for chunk in chunks]
    assert [path for i, path in enumerate(paths) if i == 0 or path != paths[i - 1]] == titles
    expected = [word for _, body in slides for word in body]
    assert _words_across(chunks, " ".join(expected)) == expected
    assert all(chunk.pages == [titles.index(chunk.heading_path) + 1] for chunk in chunks)
