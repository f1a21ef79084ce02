"""Scans laid a little crooked: the page's skew measured and the image turned straight
before Tesseract reads it.

Tesseract follows a crooked line of text, but its page layout takes a crooked ruled
table for a picture and reads nothing of it (an Excel list turned 1.5° read 0 of its
465 words). The skew is the angle at which the page's rows of ink line up best: the
rows' ink counts, over a range of small angles, change most sharply from row to row
(lines of text and rules then fall each on few rows). The page is then read as
straightened: its words, rules and chunk `boxes` are those of the straightened image,
within the sine of the skew times half the page of where they stand on the scan (at
1.5°, under 0.1 inch at the corners of a letter page, none at its middle).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

DEFAULT_MAX_SKEW = 3.0
"""Largest skew looked for, in degrees: a page fed or laid crooked; more is a page
turned on purpose, which orientation detection handles (ocr_turn.py)."""
DEFAULT_SKEW_STEP = 0.1
"""Degrees between the angles tried."""
DEFAULT_MIN_SKEW = 0.3
"""A page skewed less than this is read as it is: a line of text drifts under a third
of a line over a page's width (0.3° over 7 inches is 0.04 inch)."""
DEFAULT_SIDE = 800
"""Pixels along the longer side of the page image the skew is measured on: enough for
rows of 8-point text (over two pixels high) and fast (a few milliseconds an angle)."""


def skew_angle(grey: NDArray[numpy.uint8], threshold: int) -> float:
    """Degrees to turn the page counter-clockwise (PIL's `rotate`) to set its rows level;
    0.0 when it is level within `DEFAULT_MIN_SKEW` or holds too little ink to tell."""
    import numpy
    from PIL import Image

    ink = grey < threshold
    if ink.sum() < 1000:
        return 0.0
    step = max(1, math.ceil(max(ink.shape) / DEFAULT_SIDE))
    small = Image.fromarray((ink[::step, ::step] * 255).astype(numpy.uint8), "L")

    def sharpness(angle: float) -> float:
        turned = numpy.asarray(small.rotate(angle, Image.Resampling.BILINEAR), dtype=numpy.float64)
        rows = turned.sum(axis=1)
        return float(numpy.square(numpy.diff(rows)).sum())

    count = round(DEFAULT_MAX_SKEW / DEFAULT_SKEW_STEP)
    angles = [i * DEFAULT_SKEW_STEP for i in range(-count, count + 1)]
    best = max(angles, key=sharpness)
    return best if abs(best) >= DEFAULT_MIN_SKEW else 0.0


def straightened(image: Any, angle: float) -> Any:
    """The page image turned by `angle` degrees counter-clockwise about its middle, the
    corners filled white, its size kept."""
    from PIL import Image

    return image.rotate(angle, Image.Resampling.BICUBIC, fillcolor="white")
