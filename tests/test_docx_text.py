"""Word text built here: notes, text boxes, tracked changes, fields, content controls,
contents, headers and footers."""

from __future__ import annotations

from docx_factory import (
    add_notes,
    add_numbering,
    blocks,
    body_xml,
    cell,
    new,
    note_ref,
    numbered,
    outline,
    para,
    read,
    row,
    run,
    styled,
    table,
    text_box,
    texts,
)

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


def test_a_deleted_paragraph_mark_before_a_table_keeps_its_text_before_the_table() -> None:
    doc = new()
    body_xml(
        doc,
        para(run("Before the table"), '<w:rPr><w:del w:id="5" w:author="A"/></w:rPr>')
        + table(row(cell("h")), row(cell("v")))
        + para(run("After.")),
    )
    kinds = [(type(b).__name__, getattr(b, "text", "")) for b in blocks(read(doc))]
    assert kinds == [("Paragraph", "Before the table"), ("Table", ""), ("Paragraph", "After.")]


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
