"""Word documents built here: headings, the title, lists, and the format end to end."""

from __future__ import annotations

import io
import zipfile

import pytest
from docx.oxml import parse_xml
from docx_factory import (
    NAMESPACES,
    W,
    add_instance,
    add_numbering,
    add_style,
    blocks,
    body_xml,
    new,
    numbered,
    outline,
    para,
    read,
    run,
    styled,
    texts,
    to_bytes,
)

from structchunk import chunk_file
from structchunk.document import ListBlock
from structchunk.parsers import detect_format

# --- headings and title -------------------------------------------------------------------


def test_heading_styles_open_sections_at_their_levels() -> None:
    doc = new()
    doc.add_heading("Install", 1)
    doc.add_paragraph("Run the installer.")
    doc.add_heading("On Linux", 2)
    doc.add_paragraph("Use the package.")
    doc.add_heading("Deep", 4)
    doc.add_heading("Usage", 1)
    tree = read(doc)
    assert outline(tree) == [
        (1, ("Install",)),
        (2, ("Install", "On Linux")),
        (4, ("Install", "On Linux", "Deep")),
        (1, ("Usage",)),
    ]
    assert texts(tree) == ["Run the installer.", "Use the package."]


def test_a_custom_style_based_on_a_heading_is_a_heading_of_that_level() -> None:
    doc = new()
    add_style(doc, "ChapterTitle", "Chapter Title", based_on="Heading1")
    add_style(doc, "MySub", "My Sub", based_on="Heading2")
    add_style(doc, "MySubSub", "My Sub Sub", based_on="MySub")  # two hops to Heading 2
    body_xml(
        doc,
        para(run("One"), styled("ChapterTitle"))
        + para(run("Two"), styled("MySub"))
        + para(run("Three"), styled("MySubSub")),
    )
    assert outline(read(doc)) == [(1, ("One",)), (2, ("One", "Two")), (2, ("One", "Three"))]


def test_outline_levels_on_a_style_or_a_paragraph_make_headings() -> None:
    doc = new()
    add_style(doc, "Chapter", "Chapter", props='<w:outlineLvl w:val="0"/>')
    body_xml(
        doc,
        para(run("Part A"), styled("Chapter"))
        + para(run("Section by direct formatting"), '<w:outlineLvl w:val="2"/>')
        + para(run("Body text"), '<w:outlineLvl w:val="9"/>'),
    )
    tree = read(doc)
    assert outline(tree) == [(1, ("Part A",)), (3, ("Part A", "Section by direct formatting"))]
    assert texts(tree) == ["Body text"]


def test_a_heading_based_style_set_to_body_text_is_text() -> None:
    doc = new()
    add_style(doc, "Quiet", "Quiet", based_on="Heading1", props='<w:outlineLvl w:val="9"/>')
    body_xml(doc, para(run("Not a heading"), styled("Quiet")))
    tree = read(doc)
    assert outline(tree) == []
    assert texts(tree) == ["Not a heading"]


def test_bold_large_text_without_an_outline_level_stays_text() -> None:
    doc = new()
    heading = doc.add_paragraph().add_run("Looks Like A Heading")
    heading.bold = True
    heading.font.size = 280000  # 22 pt in EMU
    doc.add_paragraph("Body.")
    tree = read(doc)
    assert outline(tree) == []
    assert texts(tree) == ["Looks Like A Heading", "Body."]


def test_heading_names_count_when_a_tool_left_out_the_outline_level() -> None:
    doc = new()
    add_style(doc, "Kop2", "heading 2")  # a localised style id, Word's built-in name
    body_xml(doc, para(run("Named"), styled("Kop2")))
    assert outline(read(doc)) == [(2, ("Named",))]


def test_the_title_style_is_the_document_title() -> None:
    doc = new()
    doc.core_properties.title = "Metadata title"
    doc.add_heading("The Real Title", 0)
    doc.add_paragraph("Intro.")
    doc.add_heading("Chapter", 1)
    tree = read(doc)
    assert tree.title == "The Real Title"
    assert outline(tree) == [(1, ("The Real Title", "Chapter"))]
    assert texts(tree) == ["Intro."]


def test_core_properties_title_without_a_title_paragraph() -> None:
    doc = new()
    doc.core_properties.title = "Quarterly report"
    doc.add_heading("Summary", 1)
    tree = read(doc)
    assert tree.title == "Quarterly report"
    assert outline(tree) == [(1, ("Quarterly report", "Summary"))]


def test_a_document_that_is_only_its_title_keeps_the_title_as_text() -> None:
    doc = new()
    doc.core_properties.title = "Metadata only"
    doc.add_heading("Lonely Title", 0)
    tree = read(doc)
    assert tree.title == ""
    assert texts(tree) == ["Lonely Title"]


def test_an_empty_document_has_no_title_and_no_blocks() -> None:
    doc = new()
    doc.core_properties.title = "Metadata only"
    tree = read(doc)
    assert tree.title == "" and blocks(tree) == []


def test_numbered_headings_carry_their_numbers() -> None:
    doc = new()
    add_numbering(doc, 50, [("decimal", "%1."), ("decimal", "%1.%2")])
    body_xml(
        doc,
        para(run("Scope"), styled("Heading1") + numbered(50, 0))
        + para(run("Terms"), styled("Heading2") + numbered(50, 1))
        + para(run("Design"), styled("Heading1") + numbered(50, 0)),
    )
    assert outline(read(doc)) == [
        (1, ("1. Scope",)),
        (2, ("1. Scope", "1.1 Terms")),
        (1, ("2. Design",)),
    ]


# --- lists --------------------------------------------------------------------------------


def test_list_nesting_and_markers_come_from_the_numbering_definitions() -> None:
    doc = new()
    add_numbering(doc, 60, [("decimal", "%1."), ("lowerLetter", "%2)"), ("bullet", "\uf0b7")])
    body_xml(
        doc,
        para(run("First"), numbered(60, 0))
        + para(run("Sub a"), numbered(60, 1))
        + para(run("Dot"), numbered(60, 2))
        + para(run("Sub b"), numbered(60, 1))
        + para(run("Second"), numbered(60, 0))
        + para(run("Sub again"), numbered(60, 1)),
    )
    (block,) = blocks(read(doc))
    assert isinstance(block, ListBlock)
    assert [(i.depth, i.marker, i.text) for i in block.items] == [
        (0, "1.", "First"),
        (1, "a)", "Sub a"),
        (2, "-", "Dot"),
        (1, "b)", "Sub b"),
        (0, "2.", "Second"),
        (1, "a)", "Sub again"),
    ]


def test_roman_and_multilevel_markers() -> None:
    doc = new()
    add_numbering(doc, 61, [("upperRoman", "%1."), ("decimal", "%1.%2.")])
    body_xml(
        doc,
        "".join(para(run(f"Item {n}"), numbered(61, 0)) for n in range(4))
        + para(run("Nested"), numbered(61, 1)),
    )
    (block,) = blocks(read(doc))
    assert isinstance(block, ListBlock)
    assert [i.marker for i in block.items] == ["I.", "II.", "III.", "IV.", "IV.1."]


def test_the_builtin_list_styles_of_word_nest_by_their_names() -> None:
    doc = new()
    doc.add_paragraph("Apples", style="List Bullet")
    doc.add_paragraph("Green ones", style="List Bullet 2")
    doc.add_paragraph("Pears", style="List Bullet")
    doc.add_paragraph("Step", style="List Number")
    (block,) = blocks(read(doc))
    assert isinstance(block, ListBlock)
    assert [(i.depth, i.marker, i.text) for i in block.items] == [
        (0, "-", "Apples"),
        (1, "-", "Green ones"),
        (0, "-", "Pears"),
        (0, "1.", "Step"),
    ]


def test_numbering_goes_on_after_an_interruption_and_restarts_when_told() -> None:
    doc = new()
    add_numbering(doc, 62, [("decimal", "%1.")])
    add_instance(doc, 63, 1062, restart=True)
    body_xml(
        doc,
        para(run("one"), numbered(62, 0))
        + para(run("two"), numbered(62, 0))
        + para(run("An interruption."))
        + para(run("three"), numbered(62, 0))
        + para(run("A new list."))
        + para(run("again one"), numbered(63, 0)),
    )
    first, between, second, _, third = blocks(read(doc))
    assert isinstance(first, ListBlock) and isinstance(second, ListBlock)
    assert isinstance(third, ListBlock)
    assert [i.marker for i in first.items] == ["1.", "2."]
    assert [i.marker for i in second.items] == ["3."]
    assert [i.marker for i in third.items] == ["1."]


def test_a_definition_that_defers_to_a_numbering_style_uses_its_levels() -> None:
    doc = new()
    add_numbering(doc, 65, [("upperLetter", "%1.")])  # abstract 1065, instance 65
    doc.styles.element.append(
        parse_xml(
            f'<w:style {NAMESPACES} w:type="numbering" w:styleId="Outline">'
            '<w:name w:val="Outline"/><w:pPr><w:numPr><w:numId w:val="65"/></w:numPr></w:pPr>'
            "</w:style>"
        )
    )
    doc.part.numbering_part.element.find(f"{{{W}}}num").addprevious(
        parse_xml(
            f'<w:abstractNum {NAMESPACES} w:abstractNumId="2066">'
            '<w:numStyleLink w:val="Outline"/></w:abstractNum>'
        )
    )
    add_instance(doc, 66, 2066)
    body_xml(doc, para(run("linked"), numbered(66, 0)) + para(run("again"), numbered(66, 0)))
    (block,) = blocks(read(doc))
    assert isinstance(block, ListBlock)
    assert [i.marker for i in block.items] == ["A.", "B."]


def test_empty_paragraphs_between_items_do_not_split_a_list() -> None:
    doc = new()
    add_numbering(doc, 64, [("bullet", "o")])
    body_xml(doc, para(run("a"), numbered(64, 0)) + para("") + para(run("b"), numbered(64, 0)))
    (block,) = blocks(read(doc))
    assert isinstance(block, ListBlock) and len(block.items) == 2


def test_num_id_zero_switches_a_style_list_off() -> None:
    doc = new()
    body_xml(doc, para(run("Plain after all"), styled("ListBullet") + numbered(0, 0)))
    assert texts(read(doc)) == ["Plain after all"]


# --- the format end to end ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["report.docx", "macro.DOCM", "template.dotx"])
def test_word_extensions_are_detected(name: str) -> None:
    assert detect_format(name) == "docx"


@pytest.mark.parametrize(
    "content_type",
    [
        "application/vnd.ms-word.document.macroEnabled.main+xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    ],
    ids=["docm", "dotx"],
)
def test_macro_enabled_documents_and_templates_are_read(content_type: str) -> None:
    doc = new()
    doc.add_heading("Inside", 1)
    data = to_bytes(doc)
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            part = source.read(info.filename)
            if info.filename == "[Content_Types].xml":
                main = b"application/vnd.openxmlformats-officedocument.wordprocessingml"
                part = part.replace(main + b".document.main+xml", content_type.encode())
                assert content_type.encode() in part
            target.writestr(info.filename, part)
    assert outline(read(out.getvalue())) == [(1, ("Inside",))]


def test_chunk_file_reads_a_word_document(tmp_path: object) -> None:
    from pathlib import Path

    doc = new()
    doc.add_heading("Guide", 1)
    doc.add_paragraph("Everything in one place.")
    path = Path(str(tmp_path)) / "guide.docx"
    path.write_bytes(to_bytes(doc))
    (chunk,) = chunk_file(path, max_tokens=64)
    assert chunk.format == "docx"
    assert chunk.heading_path == ["Guide"]
    assert chunk.body == "Everything in one place."
    assert chunk.pages is None and chunk.lines is None and chunk.offsets is None


def test_a_haystack_bytestream_of_a_word_document_is_known_by_its_mime_type() -> None:
    pytest.importorskip("haystack")
    from haystack.dataclasses import ByteStream

    from structchunk.integrations.haystack import StructChunkConverter

    doc = new()
    doc.add_heading("Guide", 1)
    doc.add_paragraph("From a stream.")
    mime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    stream = ByteStream(data=to_bytes(doc), mime_type=mime)
    (document,) = StructChunkConverter(max_tokens=64).run(sources=[stream])["documents"]
    assert document.meta["format"] == "docx"
    assert document.meta["heading_path"] == "Guide"
