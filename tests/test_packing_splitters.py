"""Packing step 2, units: a section's blocks whole when they fit, else cut."""

from __future__ import annotations

from packing_helpers import context, room, unit

from structchunk.document import ListBlock, ListItem, Paragraph, Table
from structchunk.packing.render import render_block
from structchunk.packing.splitters import resplit, section_units
from structchunk.packing.units import Joint


def test_blocks_that_fit_are_one_unit_each() -> None:
    blocks = [Paragraph("One two."), Paragraph("Three four.")]
    units = section_units(context(), blocks, [render_block(b) for b in blocks], room(10))
    assert [u.text for u in units] == ["One two.", "Three four."]
    assert all(u.joint == Joint.BLOCK for u in units)


def test_a_paragraph_too_big_alone_is_cut_between_sentences() -> None:
    block = Paragraph("First sentence is here. Second sentence is here.")
    units = section_units(context(), [block], [block.text], room(5))
    assert [u.text for u in units] == ["First sentence is here.", "Second sentence is here."]
    assert units[1].joint == Joint.SENTENCE


def test_a_short_colon_paragraph_before_a_list_is_kept_with_it() -> None:
    lead = Paragraph("The reserved names are:")
    items = ListBlock([ListItem("a"), ListItem("b")])
    units = section_units(
        context(), [lead, items], [render_block(lead), render_block(items)], room(50)
    )
    assert units[0].keep_with_next and not units[1].keep_with_next


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
    units = section_units(context(), [table], [render_block(table)], room(30))
    assert len(units) > 1
    for piece in units[:-1]:
        assert piece.text.rstrip().endswith("."), piece.text
