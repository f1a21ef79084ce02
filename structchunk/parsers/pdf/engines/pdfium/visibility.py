"""Which invisible text (render mode 3, `Tr 3`) to read: the OCR layer, not duplicates.

OCR tools lay the recognised text over the page image in invisible type: on a scan it is
the only text there is. Born-digital files sometimes print invisible text too, mostly a
copy of what is visible (a search layer over a vector page). PDFium reports the render
mode; pdfminer does not, so the pdfplumber engine reads all of it. Here invisible
characters are kept unless a visible character is printed where they are: an OCR
layer over an image stays, an invisible copy of visible text goes.
"""

from __future__ import annotations

from ..words import SPACE, Char, Style

Run = tuple[Style, list[Char]]

GRID = 16.0
"""Points: the side of the cells visible characters are filed under for the lookup."""


def _cells(char: Char) -> list[tuple[int, int]]:
    return [
        (x, y)
        for x in range(int(char.x0 // GRID), int(char.x1 // GRID) + 1)
        for y in range(int(char.top // GRID), int(char.bottom // GRID) + 1)
    ]


def _covered(char: Char, grid: dict[tuple[int, int], list[Char]]) -> bool:
    """A visible character's box holds this one's centre."""
    cx, cy = (char.x0 + char.x1) / 2, (char.top + char.bottom) / 2
    for other in grid.get((int(cx // GRID), int(cy // GRID)), ()):
        if other.x0 <= cx <= other.x1 and other.top <= cy <= other.bottom:
            return True
    return False


def visible_runs(runs: list[Run], invisible: list[Run]) -> list[Run]:
    """`runs` with the invisible characters no visible one covers (see the docstring)."""
    if not invisible:
        return runs
    if not runs:
        return invisible
    grid: dict[tuple[int, int], list[Char]] = {}
    for _, chars in runs:
        for char in chars:
            if char is not SPACE and char.x1 - char.x0 < 4 * GRID:
                for cell in _cells(char):
                    grid.setdefault(cell, []).append(char)
    kept = list(runs)
    for style, chars in invisible:
        left = [c for c in chars if c is SPACE or not _covered(c, grid)]
        if any(c is not SPACE for c in left):
            kept.append((style, left))
    return kept
