"""One pdfplumber page read into a `PageReading`: words, ruled grids, bullets, tags.

The pdfplumber engine's page reader, and the ruled-grid reader both engines use
(`page_grids`: pdfplumber's `find_tables`, which the PDFium engine calls only on pages
whose drawing is too large to collect itself). The caller closes each page right after, so
memory stays one page deep. A page whose text runs up or down is turned into its reading
frame first, so the layout code only ever sees left-to-right lines stacked top to bottom.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...cleanup import font_name
from ...structure import page_tags
from ...types import MAX_CHARS_PER_PAGE, MAX_DRAWINGS, PageTags, Word
from ..base import Box, PageReading, RuledGrid, Shape, is_bullet_shape
from ..grids import TABLE_SETTINGS, ruled_grids
from ..words import DEFAULT_DUPLICATE_TOLERANCE, DEFAULT_WORD_GAP, frame

log = logging.getLogger("structchunk")

HIDDEN_TEXT_MAX_SIZE = 2.0
"""Points: white text smaller than this is invisible on the page (see `is_hidden_text`)."""
_WORD_OPTIONS: dict[str, Any] = {
    "x_tolerance_ratio": DEFAULT_WORD_GAP,
    "y_tolerance": 3,
    "keep_blank_chars": False,
    "use_text_flow": False,
    "extra_attrs": ["size", "fontname", "mcid", "tag"],
}


def is_hidden_text(obj: dict[str, Any]) -> bool:
    """A glyph no reader can see: white and under `HIDDEN_TEXT_MAX_SIZE` points.

    Some generators print ids (`_63ec12c0-c0c9-…`) in 1-point white type on every page;
    they would land in chunks as noise. White alone is not enough (white on a dark
    table header is visible), nor is small alone (a scaled-down table is still read).
    """
    if obj.get("object_type") != "char":
        return False
    size = obj.get("size") or 0.0
    return 0.0 < float(size) < HIDDEN_TEXT_MAX_SIZE and _is_white(obj.get("non_stroking_color"))


def _is_white(color: Any) -> bool:
    """Gray 1, RGB (1, 1, 1) or CMYK (0, 0, 0, 0); patterns and unknown spaces are not."""
    if isinstance(color, (int, float)):
        color = (color,)
    if not isinstance(color, (tuple, list)) or not color:
        return False
    if not all(isinstance(c, (int, float)) for c in color):
        return False
    if len(color) == 4:
        return all(c <= 0.01 for c in color)
    return len(color) in (1, 3) and all(c >= 0.99 for c in color)


def _orientation(chars: list[dict[str, Any]]) -> str:
    """`ltr` for ordinary pages; `ttb`/`btt` when most text runs down/up the page."""
    turned = Counter(
        "btt" if c["matrix"][1] > 0 else "ttb" for c in chars if not c.get("upright", True)
    )
    if sum(turned.values()) * 2 <= len(chars):
        return "ltr"
    return turned.most_common(1)[0][0]


def _words(page: Any, orientation: str, to_frame: Callable[[Box], Box]) -> list[Word]:
    options = dict(_WORD_OPTIONS)
    if orientation != "ltr":
        options["char_dir_rotated"] = orientation
        options["line_dir_rotated"] = "rtl" if orientation == "ttb" else "ltr"
    words = []
    seen: set[tuple[str, int, int]] = set()
    for raw in page.extract_words(**options):
        x0, top, x1, bottom = to_frame((raw["x0"], raw["top"], raw["x1"], raw["bottom"]))
        key = (
            raw["text"],
            round(x0 / DEFAULT_DUPLICATE_TOLERANCE),
            round(top / DEFAULT_DUPLICATE_TOLERANCE),
        )
        if key in seen:
            continue
        seen.add(key)
        words.append(
            Word(
                raw["text"],
                x0,
                x1,
                top,
                bottom,
                float(raw["size"] or 0.0),
                font_name(raw["fontname"]),
                raw.get("mcid"),
                raw.get("tag"),
            )
        )
    return words


def visible(page: Any) -> Any:
    """The page without its hidden text (see `is_hidden_text`)."""
    if any(is_hidden_text(c) for c in page.chars):
        return page.filter(lambda obj: not is_hidden_text(obj))
    return page


def page_grids(page: Any, to_frame: Callable[[Box], Box]) -> list[RuledGrid]:
    """The ruled grids of a pdfplumber page (hidden text left out), boxes in the frame."""
    if not (page.rects or page.lines or page.curves):
        return []
    return ruled_grids(page.find_tables(TABLE_SETTINGS), to_frame)


def _bullets(page: Any) -> list[Shape]:
    """Small square-ish drawn shapes (x0, top, x1, bottom, filled): list bullets."""
    shapes = []
    for obj in (*page.curves, *page.rects):
        if is_bullet_shape(obj["x1"] - obj["x0"], obj["bottom"] - obj["top"]):
            shapes.append((obj["x0"], obj["top"], obj["x1"], obj["bottom"], bool(obj.get("fill"))))
    return shapes


def _drawings(page: Any) -> list[Box]:
    """The boxes (x0, top, x1, bottom) of the page's drawn shapes and images."""
    kinds = (page.rects, page.lines, page.curves, page.images)
    return [(o["x0"], o["top"], o["x1"], o["bottom"]) for kind in kinds for o in kind][
        : MAX_DRAWINGS + 1
    ]


def _page_tags(page: Any) -> PageTags | None:
    try:
        return page_tags(page.pdf, page)
    except Exception as error:  # a broken tree only costs us its evidence
        log.debug("page %s: structure tree unreadable: %s", page.page_number, error)
        return None


def _first_chars(page: Any, chars: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """The page with only its first `MAX_CHARS_PER_PAGE` characters (in the order they
    are drawn), as the PDFium engine reads them."""
    kept = {id(char) for char in chars[:MAX_CHARS_PER_PAGE]}
    page = page.filter(lambda obj: obj.get("object_type") != "char" or id(obj) in kept)
    return page, page.chars


def read_page(page: Any, tagged: bool = False) -> PageReading:
    """What one pdfplumber page holds, for the page stages."""
    tagged_page = page
    page = visible(page)
    chars = page.chars
    left_out = max(0, len(chars) - MAX_CHARS_PER_PAGE)
    if left_out:
        page, chars = _first_chars(page, chars)
    orientation = _orientation(chars) if chars else "ltr"
    width, height = float(page.width), float(page.height)
    to_frame = frame(orientation, width, height)
    if orientation != "ltr":
        width, height = height, width
    reading = PageReading(
        page.page_number,
        width,
        height,
        orientation,
        len(chars),
        len(page.images),
        chars_left_out=left_out,
    )
    if chars:
        reading.tags = _page_tags(tagged_page) if tagged else None
        reading.grids = page_grids(page, to_frame)
        reading.words = _words(page, orientation, to_frame)
        reading.shapes = _bullets(page) if orientation == "ltr" else []
        reading.drawings = _drawings(page) if orientation == "ltr" else []
    return reading
