"""Bold on scanned pages: each OCR line's stroke weight measured in the rendered image.

Tesseract names no font, so a bold heading at body size (a filing's `PART I — FINANCIAL
INFORMATION`) would read as plain text. Here each word's strokes are measured where it
was read: inside its box, ink is the pixels darker than the page's Otsu threshold, and
its mean stroke width is twice the ink's area over its outline (a stroke of width w and
length L has area wL and outline 2L; the outline is counted as ink/paper changes along
rows and columns). A line pools its words, and its width over its size (the line height
Tesseract gives) is its weight. The page's body weight is the median of its lines' by
characters, and a line at least `DEFAULT_BOLD_WEIGHT` times heavier is bold: its words
get the font name `OCR-Bold`, which the typography stages read as bold at body size
(cleanup.py `is_bold`). Comparing with the page's own lines, not a fixed width, keeps the
rule to the page's resolution, its ink and its noise. Numpy, a few slices per word.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..types import OCR_FONT, Word

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

BOLD_FONT = f"{OCR_FONT}-Bold"
"""The font name of OCR words measured bold (`is_bold` reads the `Bold`)."""
DEFAULT_BOLD_WEIGHT = 1.3
"""A line this many times the page's body weight (stroke width over size) is bold.
Helvetica-Bold's and Times-Bold's stems are 1.5-1.7 times the regular's. On the 33
corpus pages of benchmarks/ocr.py's two sets scanned clean at 300 dpi
(benchmarks/ocr_weight.py), lines in a bold font weigh 1.23 times their page's body
or more, but for Microsoft's 10-Q's table figures and column heads (0.95-1.03, no
headings); lines in a regular font weigh at most 1.14, but for the formulas, figures
and headings of a French textbook whose heavy face is not named bold (1.26-2.27).
Checked again over the wide set's twenty documents of eleven more producers (2 672
weighed lines of 37 documents): 1.3 misreads the fewest lines, 25 bold read as regular
and 21 regular as bold (1.25: 19 and 33; 1.2: 16 and 52; 1.35: 46 and 16)."""
DEFAULT_BODY_MIN_CHARS = 200
"""Characters of measured lines a page needs for a body weight: fewer (a title page, a
figure's labels) and no line is marked bold."""
DEFAULT_MAX_INK_SHARE = 0.6
"""Share of a word's box above which it is not weighed: its ink is a band or a shading
it is printed on (an agency plan's running header, white on grey), not its strokes
(a black bold word covers under half its box)."""
DEFAULT_BODY_BAND = 1.15
"""Lines up to this many times the page's most common size are weighed against that
size rather than their own: one style's lines differ a little in the size read off
the image with the letters they hold (a 10-Q's 8.1-point `PART I — FINANCIAL
INFORMATION` in capitals reads 8.0 points beside 8.1-point lines read 8.3-8.7; by
Tesseract's `x_size` alone, as an earlier version read sizes, 6.9 over 7.5-7.7), which
would read as weight."""
DEFAULT_MIN_LINE_CHARS = 3
"""Letters a line needs to be measured: one or two are too few strokes to weigh."""


def otsu(grey: NDArray[numpy.uint8]) -> int:
    """The grey level best splitting the page into ink and paper (Otsu's criterion on its
    histogram)."""
    import numpy

    counts = numpy.bincount(grey[::2, ::2].ravel(), minlength=256).astype(numpy.float64)
    levels = numpy.arange(256, dtype=numpy.float64)
    below = numpy.cumsum(counts)
    below_sum = numpy.cumsum(counts * levels)
    total, total_sum = below[-1], below_sum[-1]
    above = total - below
    with numpy.errstate(divide="ignore", invalid="ignore"):
        mean_below = below_sum / below
        mean_above = (total_sum - below_sum) / above
        spread = below * above * (mean_below - mean_above) ** 2
    return int(numpy.nanargmax(spread))


def stroke(ink: NDArray[numpy.bool_]) -> tuple[int, int]:
    """(ink pixels, ink/paper changes along rows and columns) of a word's box, the box's
    edges counted as paper."""
    import numpy

    padded = numpy.pad(ink, 1)
    across = numpy.count_nonzero(padded[:, 1:] != padded[:, :-1])
    down = numpy.count_nonzero(padded[1:, :] != padded[:-1, :])
    return int(numpy.count_nonzero(ink)), int(across + down)


def line_weights(
    grey: NDArray[numpy.uint8], lines: list[list[Word]], scale: float
) -> list[float | None]:
    """Each line's stroke width over its size (None when too short to measure); `scale`
    is points per pixel. Lines up to `DEFAULT_BODY_BAND` times the page's most common
    size are measured over that size, so lines of one style whose sizes differ a little
    compare by their strokes alone."""
    threshold = otsu(grey)
    height, width = grey.shape
    chars = [sum(len(word.text) for word in words) for words in lines]
    sizes = [words[0].size if words else 0.0 for words in lines]
    common = weighted_median(list(zip(sizes, chars)))
    out: list[float | None] = []
    for words, size in zip(lines, sizes):
        area = edges = letters = 0
        for word in words:
            top, bottom = max(int(word.top / scale), 0), min(int(word.bottom / scale) + 1, height)
            left, right = max(int(word.x0 / scale), 0), min(int(word.x1 / scale) + 1, width)
            if bottom <= top or right <= left:
                continue
            ink, changes = stroke(grey[top:bottom, left:right] < threshold)
            if ink > DEFAULT_MAX_INK_SHARE * (bottom - top) * (right - left):
                continue  # light letters on a dark band: the band is no stroke
            area += ink
            edges += changes
            letters += sum(ch.isalnum() for ch in word.text)
        measure = (size if size > DEFAULT_BODY_BAND * common else common) / scale
        if letters < DEFAULT_MIN_LINE_CHARS or not edges or measure <= 0:
            out.append(None)
        else:
            out.append(2 * area / edges / measure)
    return out


def weighted_median(weighted: list[tuple[float, int]]) -> float:
    """The value at half the weight (a median by characters); 0 for nothing."""
    ordered = sorted(weighted)
    total = sum(weight for _value, weight in ordered)
    seen = 0
    for value, weight in ordered:
        seen += weight
        if 2 * seen >= total:
            return value
    return 0.0


def body_weight(weights: list[float | None], chars: list[int]) -> float | None:
    """The weight of most of the page's letters (the median by characters), or None
    when the page has too few measured ones."""
    measured = [(w, c) for w, c in zip(weights, chars) if w is not None]
    total = sum(c for _w, c in measured)
    if total < DEFAULT_BODY_MIN_CHARS:
        return None
    return weighted_median(measured)


def weighed(grey: NDArray[numpy.uint8], lines: list[list[Word]], scale: float) -> list[Word]:
    """The lines' words, those of lines `DEFAULT_BOLD_WEIGHT` times heavier than the
    page's body in `BOLD_FONT`."""
    weights = line_weights(grey, lines, scale)
    chars = [sum(len(word.text) for word in words) for words in lines]
    body = body_weight(weights, chars)
    out: list[Word] = []
    for words, weight in zip(lines, weights):
        bold = body is not None and weight is not None and weight >= DEFAULT_BOLD_WEIGHT * body
        out.extend(replace(word, font=BOLD_FONT) if bold else word for word in words)
    return out
