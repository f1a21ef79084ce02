"""Word documents: what becomes structure, what is dropped — on documents built here."""

from __future__ import annotations

import pytest
from docx.oxml import parse_xml
from docx_factory import (
    NAMESPACES,
    W,
    add_instance,
    add_notes,
    add_numbering,
    add_style,
    blocks,
    body_xml,
    new,
    note_ref,
    numbered,
    outline,
    para,
    read,
    run,
    styled,
    text_box,
    texts,
    to_bytes,
)

from structchunk import chunk_file
from structchunk.document import ListBlock, Table
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


# --- tables -------------------------------------------------------------------------------


def cell(text: str, props: str = "") -> str:
    return f"<w:tc><w:tcPr>{props}</w:tcPr>{para(run(text)) if text else para('')}</w:tc>"


def row(*cells: str, props: str = "") -> str:
    return f"<w:tr><w:trPr>{props}</w:trPr>{''.join(cells)}</w:tr>"


def table(*rows: str, props: str = "") -> str:
    return f"<w:tbl><w:tblPr>{props}</w:tblPr>{''.join(rows)}</w:tbl>"


def only_table(doc: object) -> Table:
    (block,) = blocks(read(doc))
    assert isinstance(block, Table)
    return block


def test_a_table_with_a_header_row_and_merged_cells_filled() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("Region"), cell("Sales", '<w:gridSpan w:val="2"/>')),
            row(cell("North", '<w:vMerge w:val="restart"/>'), cell("Q1"), cell("10")),
            row(cell("", "<w:vMerge/>"), cell("Q2"), cell("12")),
            row(cell("South"), cell("n/a", '<w:gridSpan w:val="2"/>')),
        ),
    )
    block = only_table(doc)
    assert block.header == [["Region", "Sales", "Sales"]]
    assert block.rows == [
        ["North", "Q1", "10"],
        ["North", "Q2", "12"],
        ["South", "n/a", "n/a"],
    ]


def test_repeated_header_rows_are_the_header() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("Name"), cell("Size"), props="<w:tblHeader/>"),
            row(cell("(text)"), cell("(bytes)"), props="<w:tblHeader/>"),
            row(cell("a.txt"), cell("10")),
            props='<w:tblCaption w:val="Files"/>',
        ),
    )
    block = only_table(doc)
    assert block.header == [["Name", "Size"], ["(text)", "(bytes)"]]
    assert block.rows == [["a.txt", "10"]]
    assert block.caption == "Files"


def test_python_docx_tables_read_with_their_first_row_as_header() -> None:
    doc = new()
    grid = doc.add_table(rows=3, cols=2)
    for r, values in enumerate([("k", "v"), ("a", "1"), ("b", "2")]):
        for c, value in enumerate(values):
            grid.cell(r, c).text = value
    a = grid.cell(1, 1).merge(grid.cell(2, 1))  # python-docx writes vMerge
    a.text = "same"
    block = only_table(doc)
    assert block.header == [["k", "v"]]
    assert block.rows == [["a", "same"], ["b", "same"]]


def test_a_group_row_spanning_the_table_keeps_its_text_once() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("A"), cell("B"), cell("C")),
            row(cell("Group one", '<w:gridSpan w:val="3"/>')),
            row(cell("1"), cell("2"), cell("3")),
        ),
    )
    assert only_table(doc).rows == [["Group one", "", ""], ["1", "2", "3"]]


def test_a_nested_table_is_flattened_into_its_cell() -> None:
    doc = new()
    inner = table(row(cell("x"), cell("y")), row(cell("1"), cell("2")))
    body_xml(
        doc,
        table(
            row(cell("Key"), cell("Value")),
            row(cell("coords"), f"<w:tc>{para(run('See:'))}{inner}{para('')}</w:tc>"),
        ),
    )
    assert only_table(doc).rows == [["coords", "See:\n| x | y |\n| 1 | 2 |"]]


def test_a_one_cell_table_is_a_box_of_paragraphs() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(
                "<w:tc>"
                + para(run("Note"), styled("Heading2"))
                + para(run("Keep the lid closed."))
                + "</w:tc>"
            )
        ),
    )
    tree = read(doc)
    assert outline(tree) == []  # a heading inside a box is text
    assert texts(tree) == ["Note", "Keep the lid closed."]


def test_deleted_rows_and_cells_are_left_out() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("h1"), cell("h2")),
            row(cell("gone"), cell("row"), props='<w:del w:id="1" w:author="A"/>'),
            row(cell("kept"), cell("x", '<w:cellDel w:id="2" w:author="A"/>'), cell("row")),
        ),
    )
    assert only_table(doc).rows == [["kept", "row"]]


def test_rows_in_content_controls_and_legacy_horizontal_merges() -> None:
    doc = new()
    body_xml(
        doc,
        table(
            row(cell("a"), cell("b"), cell("c")),
            "<w:sdt><w:sdtContent>"
            + row(cell("wide", '<w:hMerge w:val="restart"/>'), cell("", "<w:hMerge/>"), cell("z"))
            + "</w:sdtContent></w:sdt>",
        ),
    )
    assert only_table(doc).rows == [["wide", "wide", "z"]]


# --- notes, boxes, changes, fields --------------------------------------------------------


def test_footnotes_follow_their_paragraph_and_endnotes_too() -> None:
    doc = new()
    add_notes(doc, "footnote", {1: para(run("See the manual.")), 2: para(run("Second."))})
    add_notes(doc, "endnote", {1: para(run("An endnote."))})
    body_xml(
        doc,
        para(run("Claim") + note_ref("footnote", 1) + run(" and more") + note_ref("endnote", 1))
        + para(run("Next paragraph") + note_ref("footnote", 2)),
    )
    assert texts(read(doc)) == [
        "Claim[1] and more[i]",
        "[1] See the manual.",
        "[i] An endnote.",
        "Next paragraph[2]",
        "[2] Second.",
    ]


def test_notes_in_list_items_and_cells_follow_the_list_and_the_table() -> None:
    doc = new()
    add_numbering(doc, 70, [("bullet", "o")])
    add_notes(doc, "footnote", {1: para(run("On the item.")), 2: para(run("On the cell."))})
    body_xml(
        doc,
        para(run("item") + note_ref("footnote", 1), numbered(70, 0))
        + para(run("item two"), numbered(70, 0))
        + table(row(cell("h")), row(f"<w:tc>{para(run('v') + note_ref('footnote', 2))}</w:tc>")),
    )
    kinds = [(type(b).__name__, getattr(b, "text", "")) for b in blocks(read(doc))]
    assert kinds == [
        ("ListBlock", ""),
        ("Paragraph", "[1] On the item."),
        ("Table", ""),
        ("Paragraph", "[2] On the cell."),
    ]


def test_tracked_changes_read_as_accepted() -> None:
    doc = new()
    body_xml(
        doc,
        para(
            run("The fee is ")
            + '<w:del w:id="1" w:author="A"><w:r><w:delText>ten</w:delText></w:r></w:del>'
            + '<w:ins w:id="2" w:author="A">'
            + run("twelve")
            + "</w:ins>"
            + run(" euros")
            + '<w:moveFrom w:id="3" w:author="A">'
            + run(" (moved away)")
            + "</w:moveFrom>"
            + '<w:moveTo w:id="4" w:author="A">'
            + run(" per month")
            + "</w:moveTo>"
        )
        + para(run("First half of a"), '<w:rPr><w:del w:id="5" w:author="A"/></w:rPr>')
        + para(run("joined paragraph.")),
    )
    assert texts(read(doc)) == [
        "The fee is twelve euros per month",
        "First half of a joined paragraph.",
    ]


def test_a_text_box_is_read_once_after_its_paragraph() -> None:
    doc = new()
    box = para(run("Boxed heading"), styled("Heading1")) + para(run("Inside the box."))
    body_xml(doc, para(run("Anchor text.") + text_box(box)) + para(run("After.")))
    tree = read(doc)
    assert texts(tree) == ["Anchor text.", "Boxed heading", "Inside the box.", "After."]
    assert outline(tree) == []


def test_fields_read_as_their_results() -> None:
    doc = new()

    def field(instruction: str, result: str) -> str:
        return (
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve">{instruction}</w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            + run(result)
            + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
        )

    body_xml(
        doc,
        para(run("See ") + field(' HYPERLINK "https://example.org" ', "the site") + run("."))
        + para(run("Page ") + field(" PAGE ", "7") + run(" of ") + field(" NUMPAGES ", "9"))
        + para(
            '<w:fldSimple w:instr=" DATE ">'
            + run("1 May")
            + "</w:fldSimple>"
            + '<w:hyperlink r:id="rId99">'
            + run(" link text")
            + "</w:hyperlink>"
        ),
    )
    assert texts(read(doc)) == ["See the site.", "Page 7 of 9", "1 May link text"]


def test_breaks_tabs_and_special_characters() -> None:
    doc = new()
    body_xml(
        doc,
        para(
            "<w:r><w:t>Name:</w:t><w:tab/><w:t>Ada</w:t><w:br/><w:t>Born:</w:t>"
            "<w:tab/><w:t>1815</w:t><w:cr/><w:t>non</w:t><w:noBreakHyphen/><w:t>stop "
            "hy</w:t><w:softHyphen/><w:t>phen</w:t>"
            '<w:sym w:font="Symbol" w:char="F0B7"/><w:t xml:space="preserve"> </w:t>'
            '<w:sym w:font="Arial" w:char="2192"/></w:r>'
        ),
    )
    assert texts(read(doc)) == ["Name: Ada\nBorn: 1815\nnon-stop hyphen \u2192"]


def test_hidden_text_and_comments_are_left_out() -> None:
    doc = new()
    paragraph = doc.add_paragraph("Visible text")
    doc.add_comment(paragraph.runs, text="A reviewer's remark", author="R")
    body_xml(doc, para("<w:r><w:rPr><w:vanish/></w:rPr><w:t>secret</w:t></w:r>" + run("shown")))
    assert texts(read(doc)) == ["Visible text", "shown"]


def test_headers_and_footers_are_dropped_as_furniture() -> None:
    doc = new()
    doc.sections[0].header.paragraphs[0].text = "ACME Confidential"
    doc.sections[0].footer.paragraphs[0].text = "Page footer"
    doc.add_paragraph("Body.")
    tree = read(doc)
    assert texts(tree) == ["Body."]
    assert tree.dropped == ["ACME Confidential", "Page footer"]


def test_content_controls_are_read_and_a_contents_control_is_dropped() -> None:
    doc = new()
    toc = (
        '<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/>'
        "</w:docPartObj></w:sdtPr><w:sdtContent>"
        + para(run("Contents"), styled("TOCHeading"))
        + para(run("Intro\t1"))
        + "</w:sdtContent></w:sdt>"
    )
    control = (
        '<w:sdt><w:sdtPr><w:alias w:val="Client"/></w:sdtPr><w:sdtContent>'
        + para(run("Client: ") + "<w:sdt><w:sdtContent>" + run("ACME") + "</w:sdtContent></w:sdt>")
        + "</w:sdtContent></w:sdt>"
    )
    doc.add_heading("Intro", 1)
    body_xml(doc, toc + control)
    tree = read(doc)
    assert texts(tree) == ["Client: ACME"]
    assert tree.dropped == ["Contents", "Intro 1"]


def test_a_contents_field_is_dropped_but_what_follows_it_is_kept() -> None:
    doc = new()
    begin = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText> TOC \\o "1-3" \\h </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    )
    end = '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    body_xml(
        doc,
        para(begin + run("Overview\t2"), styled("TOC1"))
        + para(run("Details\t3"), styled("TOC2"))
        + para(end)
        + para(run("Overview"), styled("Heading1"))
        + para(run("Text.")),
    )
    tree = read(doc)
    assert outline(tree) == [(1, ("Overview",))]
    assert texts(tree) == ["Text."]
    assert tree.dropped == ["Overview 2", "Details 3"]


def test_a_contents_field_ending_inside_the_next_paragraph_keeps_that_paragraph() -> None:
    doc = new()
    begin = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    )
    end = '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    body_xml(
        doc,
        para(begin + run("Entry\t4"), styled("TOC1"))
        + para(run("Pages ") + run("5") + end + run("Preface text after the contents.")),
    )
    tree = read(doc)
    assert texts(tree) == ["Preface text after the contents."]
    assert tree.dropped == ["Entry 4", "Pages 5"]


def test_an_unclosed_contents_field_does_not_swallow_the_document() -> None:
    doc = new()
    begin = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    )
    body_xml(
        doc,
        para(begin + run("Entry 1"), styled("TOC1"))
        + para(run("Chapter"), styled("Heading1"))
        + para(run("Kept.")),
    )
    tree = read(doc)
    assert outline(tree) == [(1, ("Chapter",))]
    assert texts(tree) == ["Kept."]


def test_equations_keep_their_text() -> None:
    doc = new()
    body_xml(
        doc,
        para(
            run("Energy: ") + "<m:oMath><m:r><m:t>E=m</m:t></m:r><m:sSup><m:e><m:r><m:t>c"
            "</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath>"
        ),
    )
    assert texts(read(doc)) == ["Energy: E=mc2"]


# --- the format end to end ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["report.docx", "macro.DOCM", "template.dotx"])
def test_word_extensions_are_detected(name: str) -> None:
    assert detect_format(name) == "docx"


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
