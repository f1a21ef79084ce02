"""Ruled tables on scanned pages: the rules found in the image the page was OCRed from.

A scan has no drawing to read a table's rules off, so a ruled table on it would be read
only by the alignment of its words (a borderless table) or as loose lines. Here the
rules are looked for in the rendered image (engines/ocr.py): runs of ink along rows and
columns, long (`DEFAULT_RULE_MIN_LENGTH`) and thin (`DEFAULT_RULE_MAX_WIDTH`), the small
breaks of a scan or JPEG noise bridged, clear of ink on both sides (a text line's serifs,
which run along its baseline, are not); and the edges of shading, where a born-digital
page gives the table finder its filled rectangles' sides (Word's banded tables). They
become the edges, and the OCR words spread into characters, of the `GridPage` the
born-digital pages go through (grids.py `found_grids`), so a scanned grid is read and
judged (parsers/pdf/tables.py `kept_tables`) as a drawn one. The rules are painted out
of the image Tesseract reads (`erased`), which misreads or drops cells between them.
The search is numpy over whole arrays: 67 ms a page at 300 dpi against 1.9 s of
Tesseract, 15 ms at 150 dpi (benchmarks/ocr_tables.py, docs/pdf.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..types import Word
from .base import Box, RuledGrid
from .grids import GridPage, char_dict, found_grids, grid_boxes, line_edge
from .pdfium.ruling import TOLERANCE, Edge, could_hold_table

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray
    from PIL import Image

Segment = tuple[int, int, int, int]
"""A rule in pixels along an image's rows: its first row, the row after its last, its
first column and the column after its last."""

DEFAULT_INK = 160
"""Grey level (0-255) below which a pixel is ink: a 0.5-point rule scanned at 150 dpi can
fall across two pixels of about 120 each (the checklist of tests/test_pdf_ocr_tables.py),
which a threshold of 128 would lose."""
DEFAULT_RULE_MIN_LENGTH = 15.0
"""Points: the shortest run taken for a rule. The stems of body text (12 points: 9 tall)
stay below it, and a table's rules run across its width or down its rows."""
DEFAULT_RULE_MAX_WIDTH = 3.0
"""Points: the thickest rule (a heavy 2-point top rule and its blur). Thicker dark bands
are shading or pictures, not rules."""
DEFAULT_RULE_GAP = 1.0
"""Points of light bridged within a rule: a scanned line's breaks, and the white gaps
(three pixels at 300 dpi) between the cells of Word's banded tables, whose column edges
are otherwise a row high."""
DEFAULT_RULE_CONTRAST = 24
"""Grey levels between two sides of a shading's edge: Word's light table bands (225) on
paper (255) differ by 30."""
DEFAULT_RULE_REACH = 0.5
"""Points from an edge to the sides it is compared across (two pixels at 300 dpi): past
the blur of a letter's stroke, into the stroke."""
DEFAULT_ERASE_MARGIN = 0.5
"""Points around a rule painted over with it before OCR (its blur, lighter than ink)."""
DEFAULT_ERASE_ALONE = 36.0
"""Points from which a rule outside the page's grids is painted out too: the capitals of
50-point type are as tall, so a large title's stems stay below it. Left in, a report's
header rules made Tesseract skip a column of the table under them (pdfplumber's WARN
report: 27 of its 259 cells)."""
DEFAULT_RULE_CLEARANCE = 0.2
"""Share of a rule's length that may have ink just beside it, on either side (cell text
touching it, the rules crossing it). Measured on the test pages: drawn rules 0.01; the
baseline of Times-Roman text, whose serifs join into runs as long as a word, 0.3-0.6 on
the side its letters stand."""


def _runs(
    ink: NDArray[numpy.bool_], min_length: int, gap: int
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The runs of ink along each row of `ink` at least `min_length` pixels long, gaps of
    up to `gap` pixels bridged: their rows, first and last-plus-one columns."""
    import numpy

    height, width = ink.shape
    padded = numpy.zeros((height, width + 2), dtype=numpy.int8)
    padded[:, 1:-1] = ink
    steps = numpy.diff(padded, axis=1).ravel()
    starts = numpy.flatnonzero(steps == 1)
    ends = numpy.flatnonzero(steps == -1)
    rows = starts // (width + 1)
    starts, ends = starts % (width + 1), ends % (width + 1)
    if len(starts) == 0:
        return rows, starts, ends
    joined = (rows[1:] == rows[:-1]) & (starts[1:] - ends[:-1] <= gap)
    first = numpy.flatnonzero(numpy.concatenate(([True], ~joined)))
    last = numpy.concatenate((first[1:], [len(starts)])) - 1
    rows, starts, ends = rows[first], starts[first], ends[last]
    long = ends - starts >= min_length
    return rows[long], starts[long], ends[long]


def _segments(
    rows: NDArray[Any], starts: NDArray[Any], ends: NDArray[Any], max_width: int
) -> list[Segment]:
    """The runs of neighbouring rows that overlap joined into segments (first row, last
    row plus one, start, end), across a row between them too (the two edges of a white
    line between shaded rows); those more than `max_width` rows thick are left out."""
    done: list[list[int]] = []
    open_: list[list[int]] = []
    for row, start, end in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
        still: list[list[int]] = []
        for segment in open_:
            (still if segment[1] >= row - 1 else done).append(segment)
        open_ = still
        for segment in open_:
            if row - 1 <= segment[1] <= row and start < segment[3] and end > segment[2]:
                segment[1] = row + 1
                segment[2], segment[3] = min(segment[2], start), max(segment[3], end)
                break
        else:
            open_.append([row, row + 1, start, end])
    done.extend(open_)
    return [(a, b, s, e) for a, b, s, e in done if b - a <= max_width]


def _candidates(ink: NDArray[numpy.bool_], min_length: int) -> NDArray[Any]:
    """The rows that could hold a run of `min_length` pixels: ink in two columns
    `min_length // 2` apart (a run that long covers two of every such pair), so most
    rows of text are never scanned."""
    import numpy

    sampled = ink[:, :: max(min_length // 2, 1)]
    return numpy.flatnonzero((sampled[:, 1:] & sampled[:, :-1]).any(axis=1))


def _clear(ink: NDArray[numpy.bool_], segment: Segment) -> bool:
    """Whether the rows just beside a segment are mostly free of ink."""
    first, after, start, end = segment
    height = ink.shape[0]
    for row in (first - 2, after + 1):
        if 0 <= row < height and ink[row, start:end].mean() > DEFAULT_RULE_CLEARANCE:
            return False
    return True


def _segments_along(ink: NDArray[numpy.bool_], scale: float) -> list[Segment]:
    """The rules along the rows of `ink` (`scale` points a pixel)."""
    min_length = max(int(DEFAULT_RULE_MIN_LENGTH / scale), 2)
    gap = max(round(DEFAULT_RULE_GAP / scale), 1)
    max_width = max(round(DEFAULT_RULE_MAX_WIDTH / scale), 1)
    candidates = _candidates(ink, min_length)
    rows, starts, ends = _runs(ink[candidates], min_length, gap)
    segments = _segments(candidates[rows], starts, ends, max_width)
    return [segment for segment in segments if _clear(ink, segment)]


@dataclass(frozen=True, slots=True)
class PageRules:
    """The rules found in a page image, as pixel `Segment`s: the horizontal ones along its
    rows, the vertical ones along its columns (rows and columns swapped)."""

    horizontal: list[Segment]
    vertical: list[Segment]
    scale: float
    """Points a pixel."""
    size: tuple[int, int]
    """The image's width and height in pixels."""

    def edges(self) -> tuple[list[Edge], list[Edge]]:
        """The rules in points, as (position, start, end)."""
        scale = self.scale
        horizontal, vertical = (
            [((a + b) / 2 * scale, start * scale, end * scale) for a, b, start, end in segments]
            for segments in (self.horizontal, self.vertical)
        )
        return horizontal, vertical


def _steps(
    gray: NDArray[numpy.uint8], ink: NDArray[numpy.bool_], reach: int, axis: int
) -> NDArray[numpy.bool_]:
    """The pixels whose neighbours `reach` away along `axis` (0: above and below, 1: left
    and right) differ by `DEFAULT_RULE_CONTRAST` or more, with no ink that near: where a
    shaded cell or band meets another or the paper, the edge a born-digital page's filled
    rectangle gives the table finder. (A letter's stroke, whose blurred side would be
    one too, is ink.) In the image's own layout, which is several times faster along
    columns than a transposed view."""
    import numpy

    def cut(array: NDArray[Any], start: int, stop: int | None) -> NDArray[Any]:
        return array[start:stop] if axis == 0 else array[:, start:stop]

    before, after = cut(gray, 0, -2 * reach), cut(gray, 2 * reach, None)
    step = numpy.zeros(gray.shape, dtype=bool)
    middle = cut(step, reach, -reach)
    middle[...] = (
        numpy.maximum(before, after) - numpy.minimum(before, after) >= DEFAULT_RULE_CONTRAST
    )
    near = ink.copy()
    for shift in range(1, reach + 2):
        cut(near, shift, None)[...] |= cut(ink, 0, -shift)
        cut(near, 0, -shift)[...] |= cut(ink, shift, None)
    middle &= ~cut(near, reach, -reach)
    return step


def find_rules(gray: NDArray[numpy.uint8], scale: float) -> PageRules:
    """The rules of a greyscale page image (`scale` points a pixel): lines of ink, and
    the edges of shading (`_steps`), each thin (a dark band's edges are rules where the
    band itself is none)."""
    ink = gray < DEFAULT_INK
    height, width = ink.shape
    reach = max(round(DEFAULT_RULE_REACH / scale), 1)
    horizontal = _segments_along(ink, scale) + _segments_along(_steps(gray, ink, reach, 0), scale)
    vertical = _segments_along(ink.T, scale) + _segments_along(_steps(gray, ink, reach, 1).T, scale)
    return PageRules(horizontal, vertical, scale, (width, height))


def table_rules(gray: NDArray[numpy.uint8], scale: float) -> PageRules | None:
    """The rules of a greyscale page image when they could hold a ruled table
    (pdfium/ruling.py, as for a born-digital page); `None` otherwise."""
    found = find_rules(gray, scale)
    return found if could_hold_table(*found.edges()) else None


def erased(image: Image.Image, rules: PageRules) -> Image.Image:
    """The page image with the rules of its grids painted over, for Tesseract: rules
    beside and between its letters make it misread a table's cells (`Tenge [S` for
    `Length | Signed`) or drop them. Each rule takes the lighter of the pixels on either
    side of it, so a rule between two shaded cells becomes shading, not a white gap that
    cuts the column into blocks Tesseract takes for pictures. Short rules outside the grids
    (a large title's stems) are left: painted out, they would be letters lost."""
    import numpy
    from PIL import Image

    boxes = grid_boxes(_grid_page(rules, []))
    if not boxes:
        return image
    pixels = numpy.array(image)
    margin = max(round(DEFAULT_ERASE_MARGIN / rules.scale), 1)
    for along, segments, vertical in (
        (pixels, rules.horizontal, False),
        (pixels.swapaxes(0, 1), rules.vertical, True),
    ):
        last = along.shape[0] - 1
        for first, after, start, end in segments:
            long = (end - start) * rules.scale >= DEFAULT_ERASE_ALONE
            if not long and not _in_grid((first, after, start, end), vertical, rules.scale, boxes):
                continue
            top, bottom = max(first - margin, 0), min(after + margin, last)
            lighter = numpy.maximum(along[max(top - 1, 0), start:end], along[bottom, start:end])
            along[top:bottom, start:end] = lighter
    return Image.fromarray(pixels)


def _in_grid(segment: Segment, vertical: bool, scale: float, boxes: list[Box]) -> bool:
    """Whether a rule lies in one of the grids' boxes (give or take the finder's
    tolerance)."""
    first, after, start, end = (value * scale for value in segment)
    x0, top, x1, bottom = (first, start, after, end) if vertical else (start, first, end, after)
    slack = TOLERANCE
    return any(
        x0 >= b0 - slack and x1 <= b1 + slack and top >= t - slack and bottom <= b + slack
        for b0, t, b1, b in boxes
    )


def _chars(words: list[Word]) -> list[dict[str, Any]]:
    """The OCR words' characters, spread evenly over each word's box."""
    out = []
    for word in words:
        step = (word.x1 - word.x0) / len(word.text)
        for index, letter in enumerate(word.text):
            x0 = word.x0 + index * step
            box: Box = (x0, word.top, x0 + step, word.bottom)
            out.append(char_dict(letter, box, word.size, True))
    return out


def _grid_page(rules: PageRules, chars: list[dict[str, Any]]) -> GridPage:
    """The rules' edges, and `chars`, as the table finder reads a page."""
    horizontal, vertical = rules.edges()
    edges = [line_edge(x0, y, x1, y, False) for y, x0, x1 in horizontal]
    edges.extend(line_edge(x, top, x, bottom, True) for x, top, bottom in vertical)
    width, height = rules.size
    return GridPage(edges, chars, (0.0, 0.0, width * rules.scale, height * rules.scale))


def ocr_grids(rules: PageRules, words: list[Word]) -> list[RuledGrid]:
    """The ruled grids of a scanned page: its rules' edges, its cells filled with the OCR
    words."""
    return found_grids(_grid_page(rules, _chars(words)))
