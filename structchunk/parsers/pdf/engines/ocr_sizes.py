"""Font sizes on scanned pages: one size for the lines of one style, as a text layer has.

Tesseract gives each line its height (`x_size`: ascenders to descenders) and its
x-height. The height jitters with the letters a line holds (a line of capitals, or one
without descenders, is lower: a 10-Q's 8.1-point `PART I — FINANCIAL INFORMATION` reads
6.9 points over body lines of 7.5-7.7), so a body-size heading reads smaller than the
body and one style reads two sizes; and short headings, which seldom hold descenders,
read smaller against the body than they are (NTSB's 18-point title over 12-point text:
17.0 over 11.8). The x-height does not depend on which letters a line holds (the NTSB
report's 12-point lines: heights 11.0-12.0 points, x-heights 6.2-6.5). So the page's
lines are grouped by x-height, most common first, and a group's size is its x-height
times the page's ratio of height to x-height: body text keeps Tesseract's height, and
other sizes stand to it as their x-heights do. Lines Tesseract measured no x-height in
(figures, capitals) keep their height. Last, every size is scaled so that the body
lands on the half-point grid the typography stage rounds sizes to.
"""

from __future__ import annotations

from dataclasses import replace

from ..types import Word

DEFAULT_XHEIGHT_TOLERANCE = 0.08
"""x-heights within this share of a group's are one size. At 300 dpi one style's lines
spread 5% (NTSB's 12-point text) to 11% (the 10-Q's 8.1-point text, 4.3-4.8 points), and
neighbouring sizes differ 10-20%; at 0.10 NARA's 12-point `Make Access Happen` over
10-point text was no heading any more (benchmarks/ocr.py --structchunk)."""
DEFAULT_XHEIGHT_PIXELS = 1.0
"""...or this many pixels, the x-height's own rounding (at 150 dpi a body x-height is
10-13 pixels, so one pixel is 8-10%)."""


DEFAULT_MIN_XHEIGHT_PIXELS = 14.0
"""Pixels the body's x-height must span for sizes to be told by x-height. Below it
Tesseract's x-heights jump between lines of one style (an agency report's 11-point text
at 150 dpi, 10 pixels high: x-heights of 10, 11 and 15 pixels), and steadying sizes on
them lost headings: on benchmarks/ocr.py's two sets scanned at 150 dpi (body x-heights
8-13 pixels) heading F1 fell from 0.85 to 0.81 and from 0.59 to 0.49. At 300 dpi body
x-heights are 17-26 pixels."""
DEFAULT_SIZE_GRID = 2
"""Sizes per point the typography stage rounds to (typography.py `body_style`): the
page's body size is put on this grid and every size scaled with it, so a line's ratio to
the body stays Tesseract's (a 9.1-point line over an 8.2-point body is 1.11 times it,
not 9.0 over 8.0, 1.125, which would make it a heading)."""


def steady_sizes(lines: list[list[Word]], heights: list[float], scale: float) -> list[list[Word]]:
    """`lines` with each word's size its line group's. Groups are taken most common
    first: the x-height (`heights`, points) most characters are printed at, and every
    line within `DEFAULT_XHEIGHT_TOLERANCE` of it (or a pixel, `scale` points), then the
    most common of the rest, so a group centres on a style's x-height rather than
    chaining into the next size. A group's size is its median x-height times the page's
    ratio of line height to x-height (both medians by characters), so body text keeps
    the height Tesseract gives it, and then every size is scaled by the one factor
    that puts the body on the `DEFAULT_SIZE_GRID`. A line without an x-height keeps its
    size (so scaled). A page whose body x-height spans fewer than
    `DEFAULT_MIN_XHEIGHT_PIXELS` keeps Tesseract's line heights."""
    chars = [sum(len(word.text) for word in line) for line in lines]
    left = {i for i, height in enumerate(heights) if height > 0}
    ratio = _median([(lines[i][0].size / heights[i], chars[i]) for i in left])
    sizes = [line[0].size if line else 0.0 for line in lines]
    body = 0.0
    while left:
        peak = max(left, key=lambda i: (_chars_near(heights[i], left, heights, chars, scale), -i))
        group = [i for i in left if _near(heights[i], heights[peak], scale)]
        x_height = _median([(heights[i], chars[i]) for i in group])
        if not body and x_height < DEFAULT_MIN_XHEIGHT_PIXELS * scale:
            return lines  # too few pixels to tell sizes by x-height
        size = ratio * x_height
        body = body or size
        for i in group:
            sizes[i] = size
        left -= set(group)
    grid = round(body * DEFAULT_SIZE_GRID) / DEFAULT_SIZE_GRID / body if body else 1.0
    return [[replace(word, size=size * grid) for word in line] for line, size in zip(lines, sizes)]


def _near(height: float, centre: float, scale: float) -> bool:
    return abs(height - centre) <= max(
        DEFAULT_XHEIGHT_TOLERANCE * centre, DEFAULT_XHEIGHT_PIXELS * scale
    )


def _chars_near(
    centre: float, left: set[int], heights: list[float], chars: list[int], scale: float
) -> int:
    """Characters of the lines left whose x-height is near `centre`."""
    return sum(chars[i] for i in left if _near(heights[i], centre, scale))


def _median(weighted: list[tuple[float, int]]) -> float:
    """The value most of the weight is at or below half of (a median by weight)."""
    ordered = sorted(weighted)
    total = sum(weight for _value, weight in ordered)
    seen = 0
    for value, weight in ordered:
        seen += weight
        if 2 * seen >= total:
            return value
    return ordered[-1][0] if ordered else 0.0
