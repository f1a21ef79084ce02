"""Faint text: lines printed in light grey that Tesseract's page-wide threshold drops.

Tesseract splits a page into ink and paper at one grey level chosen over the whole page
(Otsu's). Black text on white paper puts that level near the middle, and a line printed
in light grey (a 10-Q's `PART I. FINANCIAL INFORMATION` in 56 % grey over black tables)
falls on the paper's side: it is read as nothing, and nothing says so. So after the page
is read, the page is halved (each pixel the median of a 2 x 2 block, which drops a
scan's single black specks), and the grey that is ink by a lenient measure (darker than
`DEFAULT_FAINT_LEVEL`) but paper by the page's threshold, outside every word read, and
running up and down as letters' stems do (a scan's grain does not), is gathered into
rows. A row of a line's height that the grey does not fill (a shading does) is cut out,
stretched to black on white, and read on its own; its words Tesseract is sure of that
overlap no word already read join the page. A page without faint rows costs a few numpy
passes (0.04 s a page at 300 dpi)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..types import Word

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray
    from PIL import Image

PixelBox = tuple[int, int, int, int]
"""(left, top, right, bottom) in pixels."""

DEFAULT_FAINT_LEVEL = 215
"""Grey levels (0 black, 255 white) below this are ink by the lenient measure: the 40-60 %
greys documents print secondary text in, under paper's white (a noisy scan's grain
reaches below it too, and is told apart by `_block_medians` and `_upright`)."""
DEFAULT_ROW_INK = 2.0
"""Points of faint ink a pixel row needs to be part of a line of text (a letter's stems
across one row; a speck of scanner noise is under half a point)."""
DEFAULT_MIN_HEIGHT = 4.0
DEFAULT_MAX_HEIGHT = 40.0
"""Heights in points a row of faint ink may have to be a line of text: a rule is
thinner, a picture or a shaded panel taller."""
DEFAULT_MAX_FILL = 0.8
"""Share of its box (less the words read in it) the faint ink of a row may fill: letters
fill under two thirds, bold capitals included, a shading or a band of colour all of it."""
DEFAULT_MIN_CONFIDENCE = 60.0
"""Tesseract's confidence (0-100) a word read in a faint row needs to be kept: the row
may be a drawing's grey, and only text read with confidence is taken from it."""
DEFAULT_MIN_LETTERS = 4
"""Letters a faint row must read with confidence to be taken: fewer are a drawing's
strokes or a speck read as a word."""
DEFAULT_MAX_ROWS = 12
"""Faint rows read again on one page at the most (each is one more Tesseract call)."""
DEFAULT_PAD = 1.0
"""Points around each read word counted as its own (its letters' anti-aliased edges)."""


def faint_rows(
    grey: NDArray[numpy.uint8], threshold: int, words: list[Word], scale: float
) -> list[PixelBox]:
    """The boxes of the rows of faint ink outside `words` (`scale`: points a pixel;
    `threshold`: the page's ink/paper level) that could be lines of text."""
    import numpy

    step = 2
    small = _block_medians(grey)
    scale *= step
    free = numpy.ones(small.shape, dtype=bool)
    pad = max(round(DEFAULT_PAD / scale), 1)
    for word in words:
        top, bottom = max(int(word.top / scale) - pad, 0), int(word.bottom / scale) + pad + 1
        left, right = max(int(word.x0 / scale) - pad, 0), int(word.x1 / scale) + pad + 1
        free[top:bottom, left:right] = False
    faint = _upright(((small < DEFAULT_FAINT_LEVEL) & (small >= threshold)) & free)
    height = small.shape[0]
    per_row = numpy.count_nonzero(faint, axis=1)
    lit = per_row >= DEFAULT_ROW_INK / scale
    rows: list[PixelBox] = []
    start = None
    for y in range(height + 1):
        if y < height and lit[y]:
            start = y if start is None else start
            continue
        if start is not None:
            box = _row_box(faint, free, (start, y), scale)
            if box is not None:
                left, top, right, bottom = box
                rows.append((left * step, top * step, right * step, bottom * step))
            start = None
    return rows[:DEFAULT_MAX_ROWS]


def _block_medians(grey: NDArray[numpy.uint8]) -> NDArray[numpy.float32]:
    """The image halved, each pixel the median of its 2 x 2 block: a scan's grain (grey
    specks, single black pixels) goes, a letter's stroke (three pixels or more at
    300 dpi, two at 150) keeps its grey."""
    import numpy

    height, width = (side // 2 * 2 for side in grey.shape)
    corners = [
        grey[row:height:2, column:width:2].astype(numpy.int16)
        for row in (0, 1)
        for column in (0, 1)
    ]
    total = corners[0] + corners[1] + corners[2] + corners[3]
    highest = numpy.maximum(numpy.maximum(corners[0], corners[1]), numpy.maximum(*corners[2:]))
    lowest = numpy.minimum(numpy.minimum(corners[0], corners[1]), numpy.minimum(*corners[2:]))
    middle: NDArray[numpy.float32] = (total - highest - lowest).astype(numpy.float32) / 2
    return middle  # the mean of the two middle values of four


def _upright(faint: NDArray[numpy.bool_]) -> NDArray[numpy.bool_]:
    """The faint pixels with faint pixels above and below them: the stems of letters,
    not a scan's grain, whose specks stand alone (the scanned sets' noise on blank paper
    leaves one pixel in 460 faint after `_block_medians`, and none with both
    neighbours)."""
    kept: NDArray[numpy.bool_] = faint.copy()
    kept[1:-1] &= faint[:-2] & faint[2:]
    kept[0] = kept[-1] = False
    return kept


def _row_box(
    faint: NDArray[numpy.bool_], free: NDArray[numpy.bool_], rows: tuple[int, int], scale: float
) -> PixelBox | None:
    """The box of the faint ink in pixel rows `rows` (from, to), when it has a line of
    text's height and does not fill the part of its box no word read covers (`free`);
    None otherwise."""
    import numpy

    top, bottom = rows
    if not DEFAULT_MIN_HEIGHT <= (bottom - top) * scale <= DEFAULT_MAX_HEIGHT:
        return None
    band = faint[top:bottom]
    columns = numpy.flatnonzero(band.any(axis=0))
    left, right = int(columns[0]), int(columns[-1]) + 1
    if numpy.count_nonzero(band) > DEFAULT_MAX_FILL * numpy.count_nonzero(
        free[top:bottom, left:right]
    ):
        return None
    margin = bottom - top
    return (
        max(left - margin, 0),
        max(top - margin // 2, 0),
        min(right + margin, faint.shape[1]),
        min(bottom + margin // 2, faint.shape[0]),
    )


def stretched(crop: Image.Image) -> Image.Image:
    """A faint row as black on white: its greys stretched so its darkest is black."""
    from PIL import ImageOps

    return ImageOps.autocontrast(crop.convert("L"), cutoff=1)


def new_words(found: list[list[Word]], read: list[Word]) -> list[list[Word]]:
    """The lines of a faint row's words that Tesseract is sure of and that overlap no word
    already `read`; nothing when the words it is sure of hold under
    `DEFAULT_MIN_LETTERS` letters or under half the letters read in the row (a drawing's
    grey read as `Sy IF`)."""
    words = [word for line in found for word in line]
    letters = sum(_letters(word) for word in words)
    if sum(_letters(word) for word in words if _sure(word)) < max(DEFAULT_MIN_LETTERS, letters / 2):
        return []
    lines = [
        [word for word in line if _sure(word) and not any(_overlap(word, o) for o in read)]
        for line in found
    ]
    return [line for line in lines if line]


def _letters(word: Word) -> int:
    return sum(ch.isalnum() for ch in word.text)


def _sure(word: Word) -> bool:
    return (word.confidence or 0.0) >= DEFAULT_MIN_CONFIDENCE


def _overlap(a: Word, b: Word) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.top < b.bottom and b.top < a.bottom


def moved(lines: list[list[Word]], dx: float, dy: float) -> list[list[Word]]:
    """The lines with their words' boxes moved by (`dx`, `dy`) points."""
    for line in lines:
        for word in line:
            word.x0 += dx
            word.x1 += dx
            word.top += dy
            word.bottom += dy
    return lines
