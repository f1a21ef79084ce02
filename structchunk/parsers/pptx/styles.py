"""The list styles a slide placeholder inherits, nearest first: what decides its bullets.

PowerPoint resolves a paragraph's properties through the placeholder on the slide's layout
(same `idx`), the master's placeholder of the same kind, then the master's text styles
(`p:titleStyle` for titles, `p:bodyStyle` for every other placeholder). Ordinary shapes
(text boxes, rectangles) inherit no bullets.
"""

from __future__ import annotations

from lxml import etree
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.shapes.base import BaseShape
from pptx.slide import Slide

from .shapes import TITLE_TYPES, placeholder_type
from .text import A, P


def _list_style(shape: BaseShape) -> etree._Element | None:
    return shape.element.find(f"{{{P}}}txBody/{{{A}}}lstStyle")


def _ph_idx(shape: BaseShape) -> int | None:
    try:
        return int(shape.placeholder_format.idx)
    except (ValueError, TypeError, KeyError):
        return None


def inherited_styles(shape: BaseShape, slide: Slide) -> list[etree._Element]:
    """The list styles `shape` inherits, nearest first ([] for an ordinary shape)."""
    kind = placeholder_type(shape)
    if kind is None:
        return []
    layout = slide.slide_layout
    master = layout.slide_master
    is_title = kind in TITLE_TYPES
    styles: list[etree._Element | None] = []
    idx = _ph_idx(shape)
    layout_placeholders = [shape for shape in layout.shapes if shape.is_placeholder]
    same = [ph for ph in layout_placeholders if _ph_idx(ph) == idx] or [
        ph for ph in layout_placeholders if placeholder_type(ph) == kind
    ]
    if same:
        styles.append(_list_style(same[0]))
    base = PP_PLACEHOLDER.TITLE if is_title else PP_PLACEHOLDER.BODY
    styles.extend(
        _list_style(shape)
        for shape in master.shapes
        if shape.is_placeholder and placeholder_type(shape) == base
    )
    text_styles = master.element.find(f"{{{P}}}txStyles")
    if text_styles is not None:
        styles.append(text_styles.find(f"{{{P}}}{'titleStyle' if is_title else 'bodyStyle'}"))
    return [style for style in styles if style is not None]
