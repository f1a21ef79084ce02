"""A slide's shapes in reading order, its title found and its furniture set aside.

Reading order is top to bottom, and left to right among shapes whose tops are within
`DEFAULT_ROW_TOLERANCE_EMU` of each other (two columns of text boxes side by side). A
group is read as one shape at its own place, its members in reading order among
themselves, walked with an explicit stack so a deep nest of groups cannot recurse.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from lxml import etree
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.shapes.base import BaseShape
from pptx.shapes.group import GroupShape
from pptx.slide import Slide

from .text import A, P, element_text

DEFAULT_ROW_TOLERANCE_EMU = 228_600
"""Shapes whose tops differ by less than a quarter inch (one line of 18-point text) are on
one row and read left to right; columns of text boxes are rarely aligned more exactly."""

TITLE_TYPES = frozenset(
    {PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.CENTER_TITLE, PP_PLACEHOLDER.VERTICAL_TITLE}
)
FURNITURE_TYPES = frozenset(
    {
        PP_PLACEHOLDER.DATE,
        PP_PLACEHOLDER.FOOTER,
        PP_PLACEHOLDER.SLIDE_NUMBER,
        PP_PLACEHOLDER.HEADER,
    }
)
"""Placeholders repeated on every slide from the master: dropped as page furniture."""


@dataclass(slots=True)
class SlideShapes:
    """What a slide shows, sorted: its title and the shapes to read, in order."""

    title: str = ""
    shapes: list[BaseShape] = field(default_factory=list)
    furniture: list[str] = field(default_factory=list)
    """Text of the footer, date and slide-number placeholders left out."""


def placeholder_type(shape: BaseShape) -> PP_PLACEHOLDER | None:
    """The shape's placeholder type, or None for an ordinary shape (or an unknown type)."""
    if not shape.is_placeholder:
        return None
    try:
        return shape.placeholder_format.type
    except (ValueError, KeyError):
        return None


def slide_shapes(slide: Slide) -> SlideShapes:
    """The slide's title (the first non-empty title placeholder) and the shapes to read."""
    found = SlideShapes()
    for shape in in_reading_order(slide.shapes):
        kind = placeholder_type(shape)
        if kind in FURNITURE_TYPES:
            found.furniture.extend(_lines(shape))
            continue
        if kind in TITLE_TYPES and not found.title:
            title = " ".join(_lines(shape))
            if title:
                found.title = title
                continue
        found.shapes.append(shape)
    return found


def _lines(shape: BaseShape) -> list[str]:
    body = shape.element.find(f"{{{P}}}txBody")
    if body is None:
        return []
    texts = (" ".join(element_text(p).split()) for p in body.iterfind(f"{{{A}}}p"))
    return [text for text in texts if text]


def in_reading_order(shapes: Iterable[BaseShape]) -> list[BaseShape]:
    """Leaf shapes in reading order, groups opened where they stand."""
    out: list[BaseShape] = []
    stack: list[Iterator[BaseShape]] = [iter(_sorted(shapes))]
    while stack:
        shape = next(stack[-1], None)
        if shape is None:
            stack.pop()
        elif isinstance(shape, GroupShape):
            stack.append(iter(_sorted(shape.shapes)))
        else:
            out.append(shape)
    return out


def _position(shape: BaseShape) -> tuple[int, int]:
    """(top, left) in EMU; a shape without a position (nor one inherited from its layout)
    counts as at the top left."""
    try:
        return int(shape.top or 0), int(shape.left or 0)
    except (ValueError, TypeError, etree.LxmlError):
        return 0, 0


def _sorted(shapes: Iterable[BaseShape]) -> list[BaseShape]:
    placed = sorted(((_position(shape), index, shape) for index, shape in enumerate(shapes)))
    rows: list[list[tuple[tuple[int, int], int, BaseShape]]] = []
    for item in placed:
        if rows and item[0][0] - rows[-1][0][0][0] < DEFAULT_ROW_TOLERANCE_EMU:
            rows[-1].append(item)
        else:
            rows.append([item])
    return [
        shape for row in rows for _, _, shape in sorted(row, key=lambda item: (item[0][1], item[1]))
    ]
