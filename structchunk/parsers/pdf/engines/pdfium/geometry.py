"""Where PDFium's characters and drawing go on the page: user space to pdfplumber's frame.

PDFium gives positions in PDF user space (origin bottom left, before `/Rotate`);
pdfplumber, and so the layout code, measures from the top left of the page as displayed.
`PageGeometry` maps one to the other the way pdfminer and pdfplumber do (their MediaBox
quirks included), so both engines place words alike; `placer` makes the function that
boxes each glyph of a run, a fast one for the common case of upright text on an upright
page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..words import Char

Place = Callable[[str, float, float, float], Char]
"""(text, origin x, origin y, advance in thousandths of the font size) → the glyph's box."""


@dataclass(frozen=True, slots=True)
class PageGeometry:
    """How a page's user space maps to pdfplumber's top-left coordinates."""

    rotation: int
    """`/Rotate` in degrees: 0, 90, 180 or 270."""
    x0: float
    y0: float
    x1: float
    y1: float
    """The MediaBox."""

    @property
    def width(self) -> float:
        return self.y1 - self.y0 if self.rotation in (90, 270) else self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.x1 - self.x0 if self.rotation in (90, 270) else self.y1 - self.y0

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A user-space point as (x, top); pdfminer's rotation matrix, then pdfplumber's
        MediaBox offsets (which for an offset box are not the displayed page's)."""
        if self.rotation == 90:
            return y, x - 2 * self.x0
        if self.rotation == 180:
            return self.x1 - x + self.x0, y - 2 * self.y0
        if self.rotation == 270:
            return self.y1 - y + self.y0, self.x1 - x - self.x0
        return x, self.height - y

    def box(self, left: float, bottom: float, right: float, top: float) -> Char:
        """A user-space box as a `Char` box (text left empty)."""
        ax, ay = self.point(left, bottom)
        bx, by = self.point(right, top)
        return Char("", min(ax, bx), max(ax, bx), min(ay, by), max(ay, by))

    def direction(self, a: float, b: float, c: float, d: float) -> str:
        """`ltr`, `ttb` or `btt` for a character matrix, after `/Rotate` (pdfminer's
        `upright` test on the matrix as it would see it)."""
        if self.rotation == 90:
            a, b, c, d = b, -a, d, -c
        elif self.rotation == 180:
            a, b, c, d = -a, -b, -c, -d
        elif self.rotation == 270:
            a, b, c, d = -b, a, -d, c
        if a * d > 0 and b * c <= 0:
            return "ltr"
        return "btt" if b > 0 else "ttb"


def placer(
    geometry: PageGeometry,
    matrix: tuple[float, float, float, float],
    low: float,
    high: float,
    horizontal: bool,
) -> Place:
    """The function boxing each glyph of a run: its advance across, descent to descent
    plus one em up (pdfminer's box), from text space — u along the baseline, v up, in
    thousandths of the font size, `matrix` scaled to match — to the page."""
    a, b, c, d = matrix
    new = tuple.__new__
    if horizontal and geometry.rotation == 0 and a > 0 and d > 0:
        page_height, top, bottom = geometry.height, high * d, low * d

        def upright(text: str, ox: float, oy: float, end: float) -> Char:
            y = page_height - oy
            return new(Char, (text, ox, ox + end * a, y - top, y - bottom))

        return upright

    def turned(text: str, ox: float, oy: float, end: float) -> Char:
        xs = [ox + u * a + v * c for u in (0.0, end) for v in (low, high)]
        ys = [oy + u * b + v * d for u in (0.0, end) for v in (low, high)]
        box = geometry.box(min(xs), min(ys), max(xs), max(ys))
        return new(Char, (text, box.x0, box.x1, box.top, box.bottom))

    return turned
