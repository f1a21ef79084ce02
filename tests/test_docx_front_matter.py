"""Word's odd heading cases, decided by what Word's navigation pane and a reader both
show: a `CONTENTS` title, a `Heading 0` style, an empty table of figures, bold labels
with an outline level inside a numbered list — and drop caps. Built as pandoc's
`0_level_headers.docx`, `lists_level_override.docx` and `drop_cap.docx` are."""

from __future__ import annotations

import pytest
from docx_factory import (
    Doc,
    add_numbering,
    add_style,
    body_xml,
    new,
    numbered,
    outline,
    para,
    read,
    run,
    styled,
    texts,
)

from structchunk.document import ListBlock, Paragraph

BOLD = '<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{}</w:t></w:r>'
DIRECT_LEVEL_3 = '<w:outlineLvl w:val="2"/>'


def field(instruction: str, result: str) -> str:
    return (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        f'<w:r><w:instrText xml:space="preserve">{instruction}</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        f'{result}<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )


def front_matter() -> Doc:
    doc = new()
    add_style(doc, "Heading0", "Heading 0", "Heading1", '<w:outlineLvl w:val="7"/>')
    empty = BOLD.format("No table of figures entries found.")
    body_xml(
        doc,
        para(run("User’s Guide"))
        + para(run("CONTENTS"), styled("Title"))
        + para(field(' TOC \\o "1-6" \\h ', run("SECTION 1 Introduction\t2")), styled("TOC1"))
        + para(run("FIGURES"), styled("Heading0"))
        + para(field(' TOC \\c "Figure" ', empty))
        + para(run("TABLES"), styled("Heading0"))
        + para(field(' TOC \\c "Table" ', empty))
        + para(run("SECTION 1 Introduction"), styled("Heading1"))
        + para(run("Nothing to introduce, yet."))
        + para(run("Details"), styled("Heading2"))
        + para(run("More."))
        + para(run("APPENDIX"), styled("Heading0"))
        + para(run("The end.")),
    )
    return doc


def test_a_contents_title_does_not_root_every_path() -> None:
    tree = read(front_matter())
    assert tree.title == ""
    assert "CONTENTS" in tree.dropped
    assert all(path[0] != "CONTENTS" for _, path in outline(tree))


def test_heading_0_is_a_top_level_heading_beside_heading_1() -> None:
    """Its outline level (8) would nest APPENDIX under SECTION 1 > Details; its name
    puts it above Heading 1, as FIGURES and TABLES read beside SECTION 1."""
    assert outline(read(front_matter())) == [
        (1, ("FIGURES",)),
        (1, ("TABLES",)),
        (1, ("SECTION 1 Introduction",)),
        (2, ("SECTION 1 Introduction", "Details")),
        (1, ("APPENDIX",)),
    ]


def test_an_empty_table_of_figures_keeps_its_notice() -> None:
    tree = read(front_matter())
    notice = "No table of figures entries found."
    assert [s.blocks for s in tree.sections() if s.path == ("FIGURES",)] == [[Paragraph(notice)]]
    assert texts(tree).count(notice) == 2


def goals(last: str) -> Doc:
    doc = new()
    add_numbering(doc, 70, [("decimal", "%1.")])
    body_xml(
        doc,
        para(run("Initiatives"), styled("Heading1"))
        + para(run("State of Documentation"), numbered(70, 0))
        + para(BOLD.format("Goal: metrics tracking usefulness."), DIRECT_LEVEL_3)
        + para(run("Content Migration"), numbered(70, 0))
        + para(BOLD.format("Goal: content is accessible."), DIRECT_LEVEL_3)
        + last,
    )
    return doc


@pytest.mark.parametrize(
    "last",
    ["", para(run("Wiki"), numbered(70, 0)), para(run("Schedule"), styled("Heading1"))],
    ids=["document-ends", "list-goes-on", "next-heading"],
)
def test_a_bold_label_with_an_outline_level_inside_a_list_is_text(last: str) -> None:
    tree = read(goals(last))
    (initiatives,) = [s for s in tree.sections() if s.path == ("Initiatives",)]
    kinds = [type(block).__name__ for block in initiatives.blocks]
    assert kinds[:4] == ["ListBlock", "Paragraph", "ListBlock", "Paragraph"]
    assert texts(tree)[:2] == ["Goal: metrics tracking usefulness.", "Goal: content is accessible."]
    items = [i.text for b in initiatives.blocks if isinstance(b, ListBlock) for i in b.items]
    assert items[:2] == ["State of Documentation", "Content Migration"]


def test_a_direct_outline_level_after_a_list_still_heads_the_text_below_it() -> None:
    """Headings made by a direct outline level (as some tools write every heading) stay
    headings when they head text."""
    tree = read(goals(para(run("The plan starts in May."))))
    assert outline(tree)[-1] == (3, ("Initiatives", "Goal: content is accessible."))
    assert texts(tree)[-1] == "The plan starts in May."


@pytest.mark.parametrize("kind", ["drop", "margin"])
def test_a_drop_cap_joins_its_word(kind: str) -> None:
    frame = f'<w:framePr w:dropCap="{kind}" w:lines="3" w:wrap="around" w:vAnchor="text"/>'
    doc = new()
    body_xml(
        doc,
        para(run("D"), frame)
        + para(run("rop cap."))
        + para(run("Next paragraph."))
        + para(run("Drop cap (not really).")),
    )
    assert texts(read(doc)) == ["Drop cap.", "Next paragraph.", "Drop cap (not really)."]
