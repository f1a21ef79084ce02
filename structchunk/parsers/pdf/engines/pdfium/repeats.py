"""Double letters PDFium's text page drops as overprints, put back.

PDFium's text page leaves out a text object that repeats one of the five objects before
it: the same glyphs in the same font and size, ink boxes overlapping by half or more, and
an origin less than 0.9 of the glyph's width away — how fake bold is printed, a copy a
little to the side. It measures that width before the text matrix scales it: where type
is set at a scale (a filing sets 13.33-point type at 0.67, each glyph its own object), or
kerned close, the second letter of a double letter whose ink reaches past its advance
passes for a copy. A bold-italic `ff` lost its second `f` and the gap read as a space:
`Af ect`, `Suf ers`, `dif er`, `Ef ect` in a 10-Q's risk factors.

Here a left-out object is put back when its twin (the nearest of the five text objects
before it that was read or put back, in the same font and size, with the same matrix and
the same ink box about its origin) was one glyph, and the copy covers at most
`DEFAULT_REPEAT_OVERLAP` of that glyph's box: the next letter stands about one advance
on, a fake-bold copy a few hundredths of an em. Its characters are the twin's, moved by
the difference of their origins, put after the twin's.
"""

from __future__ import annotations

from ..words import SPACE, Char
from . import api
from .geometry import PageGeometry
from .objects import Matrix, PageObjects
from .text import PageText

DEFAULT_REPEAT_OVERLAP = 0.5
"""Share of a glyph's box (its advance across, one em high) a copy of it may cover and
still be the next letter: the second `f` of a kerned italic `ff` covers 5 %, a fake-bold
copy printed 0.02-0.05 em aside 95 % or more."""
LOOK_BACK = 5
"""Objects before a left-out one among which PDFium looks for what it repeats (its own
count takes in objects of every kind; text objects are all that are looked at here)."""
_SAME = 0.01
"""Points (or matrix entries) two values may differ by and be the same."""

Span = tuple[list[Char], int, int]
"""A character list and a slice of it."""


class _Restorer:
    def __init__(self, text: PageText, geometry: PageGeometry) -> None:
        self.placed = text.placed
        self.geometry = geometry
        self.glyphs: dict[int, tuple[list[Char], list[Char], int]] = {}
        """Object read or put back → its one glyph's characters, and the list and index
        after which a copy of it goes."""
        self.inserts: dict[int, tuple[list[Char], dict[int, list[Char]]]] = {}
        """id of a character list → the list, and the characters to put in at each index."""

    def holder(self, matrix: Matrix, texts: list[int]) -> None:
        """Put back the left-out repeats among one list's text objects."""
        placed = self.placed
        for k, obj in enumerate(texts):
            if obj in placed:
                continue
            bounds = api.bounds_of(obj)
            if bounds is None or bounds[2] - bounds[0] < _SAME:
                continue  # a space: PDFium leaves out objects without width
            for twin in reversed(texts[max(0, k - LOOK_BACK) : k]):
                glyph = self.glyph(twin)
                if glyph is not None and self.same(obj, bounds, twin):
                    self.restore(obj, twin, glyph, matrix)
                    break

    def glyph(self, obj: int) -> tuple[list[Char], list[Char], int] | None:
        """The characters of an object that was one glyph (pieces of a ligature share
        its box), where it was read or put back."""
        found = self.glyphs.get(obj)
        if found is None and obj in self.placed:
            chars, start, stop = self.placed[obj]
            pieces = [c for c in chars[start:stop] if c is not SPACE]
            if pieces and all(c[1:] == pieces[0][1:] for c in pieces):
                found = self.glyphs[obj] = (pieces, chars, stop)
        return found

    def same(self, obj: int, bounds: tuple[float, float, float, float], twin: int) -> bool:
        """The two objects draw the same glyphs alike: font, size, matrix, ink box."""
        other = api.bounds_of(twin)
        if other is None or api.text_font(obj) != api.text_font(twin):
            return False
        if abs(api.font_size_of(obj) - api.font_size_of(twin)) > _SAME:
            return False
        m, n = api.matrix_of(obj), api.matrix_of(twin)
        if any(abs(p - q) > _SAME for p, q in zip(m[:4], n[:4])):
            return False
        mine = (bounds[0] - m[4], bounds[1] - m[5], bounds[2] - m[4], bounds[3] - m[5])
        theirs = (other[0] - n[4], other[1] - n[5], other[2] - n[4], other[3] - n[5])
        return all(abs(p - q) <= _SAME for p, q in zip(mine, theirs))

    def restore(
        self, obj: int, twin: int, glyph: tuple[list[Char], list[Char], int], matrix: Matrix
    ) -> None:
        """Put `obj` back as a copy of `twin`'s glyph moved to its origin, unless the copy
        covers most of the glyph (an overprint)."""
        m, n = api.matrix_of(obj), api.matrix_of(twin)
        dx, dy = m[4] - n[4], m[5] - n[5]
        ux, uy = matrix[0] * dx + matrix[2] * dy, matrix[1] * dx + matrix[3] * dy
        (x, top), (x0, top0) = self.geometry.point(ux, uy), self.geometry.point(0.0, 0.0)
        px, py = x - x0, top - top0
        pieces, target, at = glyph
        first = pieces[0]
        width, height = first.x1 - first.x0, first.bottom - first.top
        if width <= 0 or height <= 0:
            return
        cover = max(0.0, width - abs(px)) * max(0.0, height - abs(py)) / (width * height)
        if cover > DEFAULT_REPEAT_OVERLAP:
            return
        copy = [Char(c.text, c.x0 + px, c.x1 + px, c.top + py, c.bottom + py) for c in pieces]
        self.glyphs[obj] = (copy, target, at)
        _, at_index = self.inserts.setdefault(id(target), (target, {}))
        at_index.setdefault(at, []).extend(copy)

    def apply(self) -> None:
        for target, at_index in self.inserts.values():
            for at in sorted(at_index, reverse=True):
                target[at:at] = at_index[at]


def restore_repeats(text: PageText, objects: PageObjects, geometry: PageGeometry) -> None:
    """Put back into `text` the double letters PDFium left out (see the module
    docstring); a page cut short at `MAX_CHARS_PER_PAGE` is left as it is."""
    if text.left_out or len(text.placed) >= sum(len(texts) for _, texts in objects.texts):
        return  # nothing was left out (the usual page)
    restorer = _Restorer(text, geometry)
    for matrix, texts in objects.texts:
        restorer.holder(matrix, texts)
    restorer.apply()
