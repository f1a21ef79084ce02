"""One slide into its section: the title as heading, shapes as blocks, notes below.

Every block carries the slide number as its page, so records say which slide a chunk
comes from. Speaker notes become a "Notes" section one level under the slide (see
docs/pptx.md for why a section and not paragraphs of the slide). A shape that cannot be
read is left out with a warning naming the slide; the rest of the deck still converts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree
from pptx.exc import PythonPptxError
from pptx.shapes.base import BaseShape
from pptx.shapes.graphfrm import GraphicFrame
from pptx.slide import Slide

from ...document import Block, Provenance
from .graphics import chart_blocks, is_smartart, smartart_block, table_block
from .shapes import slide_shapes
from .styles import inherited_styles
from .text import P, text_blocks

NOTES_TITLE = "Notes"
"""The heading of a slide's speaker notes (PowerPoint's own name for them)."""

SHAPE_ERRORS = (
    PythonPptxError,
    KeyError,
    ValueError,
    IndexError,
    AttributeError,
    etree.LxmlError,
)
"""What python-pptx raises on a malformed part or a relationship to nowhere (it reaches
missing XML children as attributes of None): the shape is skipped with a warning."""


@dataclass(slots=True)
class SlideContent:
    """What one slide contributes: heading, blocks, notes, and what was left out."""

    number: int
    title: str = ""
    blocks: list[Block] = field(default_factory=list)
    notes: list[Block] = field(default_factory=list)
    furniture: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.title or self.blocks or self.notes)


def read_slide(slide: Slide, number: int) -> SlideContent:
    """The slide's title, blocks in reading order and notes (a slide without a title is
    headed "Slide N" by the caller)."""
    prov = Provenance(pages=(number,))
    shapes = slide_shapes(slide)
    content = SlideContent(number, shapes.title, furniture=shapes.furniture)
    for shape in shapes.shapes:
        try:
            content.blocks.extend(shape_blocks(shape, slide, prov))
        except SHAPE_ERRORS as error:
            content.problems.append(
                f"slide {number}: shape {shape.name!r} skipped ({one_line(error)})"
            )
    try:
        content.notes = notes_blocks(slide, prov)
    except SHAPE_ERRORS as error:
        content.problems.append(f"slide {number}: speaker notes skipped ({one_line(error)})")
    return content


def one_line(error: BaseException) -> str:
    """An exception's message on one line (lxml's and python-pptx's may span several)."""
    return " ".join(str(error).split()) or type(error).__name__


def shape_blocks(shape: BaseShape, slide: Slide, prov: Provenance) -> list[Block]:
    """The blocks of one leaf shape: its text, table, chart data or SmartArt."""
    if isinstance(shape, GraphicFrame):
        if shape.has_table:
            table = table_block(shape, prov)
            return [table] if table is not None else []
        if shape.has_chart:
            return chart_blocks(shape, prov)
        if is_smartart(shape):
            block = smartart_block(shape, prov)
            return [block] if block is not None else []
        return []  # OLE objects, media: no text of their own
    body = shape.element.find(f"{{{P}}}txBody")
    if body is None:
        return []  # pictures, connectors, ink
    return text_blocks(body, inherited_styles(shape, slide), prov)


def notes_blocks(slide: Slide, prov: Provenance) -> list[Block]:
    """The speaker notes' paragraphs and lists (the notes page's body placeholder only:
    its slide image and page number are not text)."""
    if not slide.has_notes_slide:
        return []
    placeholder = slide.notes_slide.notes_placeholder
    if placeholder is None:
        return []
    body = placeholder.element.find(f"{{{P}}}txBody")
    return text_blocks(body, [], prov) if body is not None else []
