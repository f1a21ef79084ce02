"""The text the PDF reader kept, line by line, with the box each line is printed in.

A chunk's `boxes` are found the way Markdown offsets are (structchunk/offsets/): its
body's words are aligned with this text, and the boxes of the lines they fall in are
the chunk's. Lines are joined in reading order — the order the blocks were written in —
so each chunk's words follow one another here; furniture and contents entries are not
in it, and neither is a heading a bookmark supplied (it is printed nowhere).
"""

from __future__ import annotations

from ...document import Box
from .types import Item, Line, PageContent, PageTable

BOX_DECIMALS = 1
"""Box coordinates to a tenth of a point: finer than any glyph, and short in JSON."""


def page_box(page: PageContent, x0: float, top: float, x1: float, bottom: float) -> Box:
    """A reading-frame box as `(page, x0, top, x1, bottom)` in the page's own
    coordinates (PDF points from the top left, as pdfplumber gives them)."""
    if page.orientation == "ttb":  # the frame was (top, width - x1, bottom, width - x0)
        x0, top, x1, bottom = page.height - bottom, x0, page.height - top, x1
    elif page.orientation == "btt":  # the frame was (height - bottom, x0, height - top, x1)
        x0, top, x1, bottom = top, page.width - x1, bottom, page.width - x0
    elif page.orientation == "rtl":  # upside down (a scan): the frame was turned a half
        x0, top, x1, bottom = (
            page.width - x1,
            page.height - bottom,
            page.width - x0,
            page.height - top,
        )
    return (
        page.number,
        round(x0, BOX_DECIMALS),
        round(top, BOX_DECIMALS),
        round(x1, BOX_DECIMALS),
        round(bottom, BOX_DECIMALS),
    )


def placed_text(pages: list[PageContent]) -> tuple[str, list[tuple[int, Box]]]:
    """The kept lines and tables of `pages` as one text, with the box of each."""
    parts: list[str] = []
    boxes: list[tuple[int, Box]] = []
    at = 0
    for page in pages:
        for item in page.items:
            text = _text(item)
            x0 = item.x0  # a list marker, kept or taken back into the text, is left of it
            if isinstance(item, Line) and 0 < item.marker_x < item.x0:
                x0 = item.marker_x
            boxes.append((at, page_box(page, x0, item.top, item.x1, item.bottom)))
            parts.append(text)
            at += len(text) + 1
    return "\n".join(parts), boxes


def dropped_boxes(pages: list[PageContent], dropped: list[Item]) -> list[Box]:
    """The boxes of lines left out as furniture or contents entries (the report hatches
    them), in page order."""
    by_number = {page.number: page for page in pages}
    boxes = [
        page_box(by_number[item.page], item.x0, item.top, item.x1, item.bottom)
        for item in dropped
        if item.page in by_number
    ]
    return sorted(boxes)


def _text(item: Item) -> str:
    if isinstance(item, PageTable):
        return "\n".join(" | ".join(row) for row in item.rows)
    return item.printed()
