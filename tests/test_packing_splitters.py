"""Packing step 2, units: a section's blocks whole when they fit, else cut; lead-ins."""

from __future__ import annotations

from packing_helpers import context, unit

from structchunk.document import Code, ListBlock, ListItem, Paragraph, Table
from structchunk.packing.render import render_block
from structchunk.packing.splitters import keeps_with_next, resplit, section_units
from structchunk.packing.units import Joint


def test_blocks_that_fit_are_one_unit_each() -> None:
    blocks = [Paragraph("One two."), Paragraph("Three four.")]
    units = section_units(context(), blocks, [render_block(b) for b in blocks], 10)
    assert [u.text for u in units] == ["One two.", "Three four."]
    assert all(u.joint == Joint.BLOCK for u in units)


def test_a_paragraph_too_big_alone_is_cut_between_sentences() -> None:
    block = Paragraph("First sentence is here. Second sentence is here.")
    units = section_units(context(), [block], [block.text], 5)
    assert [u.text for u in units] == ["First sentence is here.", "Second sentence is here."]
    assert units[1].joint == Joint.SENTENCE


def test_a_short_colon_paragraph_before_a_list_is_kept_with_it() -> None:
    lead = Paragraph("The reserved names are:")
    items = ListBlock([ListItem("a"), ListItem("b")])
    units = section_units(context(), [lead, items], [render_block(lead), render_block(items)], 50)
    assert units[0].keep_with_next and not units[1].keep_with_next


def _keeps(*blocks: Paragraph | Table | ListBlock | Code) -> list[bool]:
    return keeps_with_next(blocks, [render_block(block) for block in blocks])


def test_lead_ins_are_colon_paragraphs_before_a_structured_block() -> None:
    table = Table([["h"]], [["v"]])
    assert _keeps(Paragraph("As follows:"), table) == [True, False]
    assert _keeps(Paragraph("As follows:"), Paragraph("Text.")) == [False, False]
    # a long paragraph whose last sentence introduces the table is unfinished without it
    long_text = " ".join(["word"] * 80) + ". Those factors include:"
    assert _keeps(Paragraph(long_text), table) == [True, False]


def test_a_label_over_a_table_or_list_is_kept_with_it() -> None:
    """A plan's `KPI 1.6.2 Collaborators` over its table, a procedure's title over its
    steps: short one-line paragraphs that end like no sentence name what follows."""
    table = Table([["Description", "Target"]], [["Collaborations", "12"]])
    steps = ListBlock([ListItem("Open the console."), ListItem("Choose Alarms.")])
    assert _keeps(Paragraph("KPI 1.6.2 Collaborators"), table) == [True, False]
    assert _keeps(Paragraph("To set a CloudWatch alarm"), steps) == [True, False]
    assert _keeps(Paragraph("(In millions)"), table) == [True, False]


def test_a_caption_the_format_marks_is_kept_with_what_it_titles() -> None:
    code = Code("fn main() {}", "rust")
    caption = " ".join(["word"] * 20)  # too long for a label, ends like a title
    assert _keeps(Paragraph(caption, titles_next=True), code) == [True, False]
    assert _keeps(Paragraph(caption), code) == [False, False]
    assert _keeps(Paragraph(caption, titles_next=True), Paragraph("Text.")) == [False, False]


def test_a_run_of_labels_is_kept_with_the_block_it_heads() -> None:
    table = Table([["h"]], [["v"]])
    run = _keeps(Paragraph("Performance Indicators"), Paragraph("KPI 1.6.2 Collaborators"), table)
    assert run == [True, True, False]


def test_what_is_no_label_stays_where_it_falls() -> None:
    table = Table([["h"]], [["v"]])
    for text in (
        "The plan sets one target.",  # a sentence
        "As the plan says,",  # a clause
        "What is the net change? 15.28",  # a question and its answer
        "Figure 4-7: A string slice",  # a figure's caption names what is above it
        "Milford Sound is one of the most famous.[206]",  # a sentence, then its citation
        " ".join(["word"] * 13),  # too long for a title
    ):
        assert _keeps(Paragraph(text), table) == [False, False], text
    # before a paragraph a short line may close the text above it (a form's answer)
    assert _keeps(Paragraph("Yes ☒ No ☐"), Paragraph("Indicate by check mark.")) == [False, False]


def test_a_resplit_piece_keeps_the_table_rows_it_came_from() -> None:
    row = unit("| one two three four five six |", kind="table")
    row.table_rows = (3, 3, 7)
    pieces = resplit(context(), row, 3)
    assert len(pieces) > 1 and all(p.table_rows == (3, 3, 7) for p in pieces)


def test_a_table_row_too_big_alone_is_cut_between_the_sentences_of_its_cell() -> None:
    """A performance report's `| Data Source | … |` row holds a paragraph of prose; cut
    between words, its chunk ended `…System users include FIS Federal and contractor`."""
    cell = (
        "The report shows cases closed for a timeframe. Data for this report comes from "
        "the processing system. The system houses the index used for scheduling."
    )
    table = Table([["Field", "Description"]], [["Data Source", cell]])
    units = section_units(context(), [table], [render_block(table)], 30)
    assert len(units) > 1
    for piece in units[:-1]:
        assert piece.text.rstrip().endswith("."), piece.text
