"""Lead-ins and labels: which blocks introduce what follows them, and how much room they
may take (the rule steps 2, 3 and 6 share)."""

from __future__ import annotations

from packing_helpers import unit

from structchunk.document import Code, ListBlock, ListItem, Paragraph, Table
from structchunk.packing.lead_ins import (
    MAX_LEAD_IN_ROOM,
    ends_with_lead_in_of,
    keeps_with_next,
    within_lead_in_room,
)
from structchunk.packing.render import render_block
from structchunk.packing.units import Joint


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


def test_a_run_is_short_up_to_its_share_of_the_budget() -> None:
    assert MAX_LEAD_IN_ROOM == 0.25
    assert within_lead_in_room(25, 100) and not within_lead_in_room(26, 100)
    assert within_lead_in_room(0, 1) and not within_lead_in_room(1, 3)


def test_a_chunk_ends_with_a_lead_in_of_the_list_table_or_code_the_next_opens_with() -> None:
    lead = unit("Keep these in mind:")
    for kind in ("list", "table", "code"):
        assert ends_with_lead_in_of(lead, unit("- one", kind=kind))
    assert not ends_with_lead_in_of(lead, unit("Next paragraph."))
    assert not ends_with_lead_in_of(lead, unit("- three", Joint.ITEM, sep="\n", kind="list"))
    assert not ends_with_lead_in_of(unit("No colon."), unit("- one", kind="list"))
    assert not ends_with_lead_in_of(unit("- a list:", kind="list"), unit("- one", kind="list"))
