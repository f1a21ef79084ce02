"""A page's drawn objects through PDFium: ruling lines, small bullet shapes, images.

One walk over the page objects, into form XObjects with their matrices, answers what
the PDFium engine needs besides characters:

- **Ruling.** The horizontal and vertical pieces of every path, for the test whether
  they could hold a ruled table (ruling.py) before pdfplumber is asked for it.
- **Bullets**: small square-ish shapes, as browsers draw list discs and squares.
- **Images**: how many, for the scan warnings.
- **Drawings**: the box of every path and image (up to `MAX_DRAWINGS`), where a chart's
  plot may be (parsers/pdf/figures.py).
- **Marked content of forms**: a form XObject drawn inside a marked-content sequence
  passes its id to the text drawn in it (pdfminer's reading does; PDFium keeps the id on
  the form object).
- **Text objects in order**: where each stands among its page's (or form's) objects, for
  the glyphs PDFium's text page drops as overprints (repeats.py).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

from ...types import MAX_DRAWINGS
from ..base import Box, Shape, is_bullet_shape
from . import api
from .geometry import PageGeometry
from .ruling import MAX_EDGES, Edge, could_hold_table

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

EDGE_SLANT = 1.0
"""Points a horizontal edge's ends may differ in height (and a vertical's in x); the
snapping tolerance of `find_tables` is 3 points, so this errs on the side of asking."""
MAX_OBJECTS = 200_000
"""Page objects walked at most (a hostile page can hold millions)."""
MAX_SEGMENTS = 500_000
"""Path segments read at most per page (a map or a chart can hold hundreds of thousands;
the corpus's busiest page about 20 000)."""

MAX_FORM_DEPTH = 12
"""Nested form XObjects followed at most."""


@dataclass(slots=True)
class PageObjects:
    """What the page's drawing says (see the module docstring)."""

    horizontal: list[Edge] = field(default_factory=list)
    vertical: list[Edge] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    images: int = 0
    drawings: list[Box] = field(default_factory=list)
    inherited: dict[int, int] = field(default_factory=dict)
    """Text object address → marked-content id of the form it is drawn in."""
    texts: list[tuple[Matrix, list[int]]] = field(default_factory=list)
    """Per list of objects (the page's, each form's): its matrix to user space, and its
    text objects in order."""

    @property
    def ruled(self) -> bool:
        """The ruling could hold a table (ruling.py)."""
        return could_hold_table(self.horizontal, self.vertical)

    @property
    def crowded(self) -> bool:
        """More edges than are worth collecting: the page goes to pdfplumber as it is."""
        return len(self.horizontal) > MAX_EDGES or len(self.vertical) > MAX_EDGES


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """`m` then `n` (row vectors, as PDF matrices compose)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t,
            e * q + f * s + u)  # fmt: skip


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


class _Walk:
    def __init__(self, geometry: PageGeometry, tagged: bool) -> None:
        self.geometry = geometry
        self.tagged = tagged
        self.found = PageObjects()
        self.seen = 0
        self.segments = 0
        self.x, self.y = ctypes.c_float(), ctypes.c_float()
        self.x_at, self.y_at = ctypes.addressof(self.x), ctypes.addressof(self.y)

    def objects(self, items: list[int], matrix: Matrix, mcid: int, depth: int) -> None:
        texts: list[int] = []
        self.found.texts.append((matrix, texts))
        for obj in items:
            self.seen += 1
            if self.seen > MAX_OBJECTS:
                return
            kind = api.object_type(obj)
            if kind == api.OBJ_PATH:
                self.path(obj, matrix)
            elif kind == api.OBJ_IMAGE:
                self.found.images += 1
                self.image(obj, matrix)
            elif kind == api.OBJ_TEXT:
                texts.append(obj)
                if mcid >= 0:
                    self.found.inherited[obj] = mcid
            elif kind == api.OBJ_FORM and depth < MAX_FORM_DEPTH:
                inner = _multiply(api.matrix_of(obj), matrix)
                own = api.marked_content_id(obj) if self.tagged else -1
                children = [api.form_object(obj, i) for i in range(max(api.form_count(obj), 0))]
                self.objects([c for c in children if c], inner, own if own >= 0 else mcid,
                             depth + 1)  # fmt: skip

    def path(self, obj: int, outer: Matrix) -> None:
        matrix = _multiply(api.matrix_of(obj), outer)
        count = max(api.count_segments(obj), 0)
        if self.found.crowded or self.segments + count > MAX_SEGMENTS:
            corners = self.corners(obj, outer)
            if corners:
                self.drawn(obj, [(x, y, False) for x, y in corners])
            return
        self.segments += count
        points = self.points(obj, matrix, count)
        if points:
            self.edges(points)
            self.drawn(obj, points)

    def corners(self, obj: int, outer: Matrix) -> list[tuple[float, float]]:
        """The corners of an object's bounds, in user space (PDFium gives them in the
        form's space, whose matrix is `outer`)."""
        bounds = api.bounds_of(obj)
        if bounds is None:
            return []
        return [_apply(outer, x, y) for x in bounds[0::2] for y in bounds[1::2]]

    def image(self, obj: int, outer: Matrix) -> None:
        corners = self.corners(obj, outer)
        if corners and len(self.found.drawings) <= MAX_DRAWINGS:
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            box = self.geometry.box(min(xs), min(ys), max(xs), max(ys))
            self.found.drawings.append((box.x0, box.top, box.x1, box.bottom))

    def drawn(self, obj: int, points: list[tuple[float, float, bool]]) -> None:
        """Keep the path's box among the drawings, and as a bullet candidate when it is
        small and square-ish."""
        xs = [x for x, _, _ in points]
        ys = [y for _, y, _ in points]
        left, bottom, right, top = min(xs), min(ys), max(xs), max(ys)
        bullet = is_bullet_shape(right - left, top - bottom)
        if not bullet and len(self.found.drawings) > MAX_DRAWINGS:
            return
        box = self.geometry.box(left, bottom, right, top)
        if len(self.found.drawings) <= MAX_DRAWINGS:
            self.found.drawings.append((box.x0, box.top, box.x1, box.bottom))
        if bullet:
            mode, stroke = ctypes.c_int(), ctypes.c_int()
            api.draw_mode(obj, ctypes.byref(mode), ctypes.byref(stroke))
            self.found.shapes.append((box.x0, box.top, box.x1, box.bottom, mode.value != 0))

    def points(self, obj: int, matrix: Matrix, count: int) -> list[tuple[float, float, bool]]:
        """The path's points in user space, each with whether it starts a subpath."""
        out: list[tuple[float, float, bool]] = []
        x, y = self.x, self.y
        for index in range(count):
            segment = api.path_segment(obj, index)
            if not segment or not api.segment_point(segment, self.x_at, self.y_at):
                continue
            px, py = _apply(matrix, x.value, y.value)
            out.append((px, py, api.segment_type(segment) == api.SEGMENT_MOVETO))
            if api.segment_closes(segment):
                start = next((p for p in reversed(out) if p[2]), out[0])
                out.append((start[0], start[1], False))
        return out

    def edges(self, points: list[tuple[float, float, bool]]) -> None:
        """Count the straight horizontal and vertical pieces of a path, as `find_tables`
        would see them (a rectangle gives two of each)."""
        for (x0, y0, _), (x1, y1, starts) in zip(points, points[1:]):
            if starts:
                continue
            if abs(y1 - y0) <= EDGE_SLANT:
                self.found.horizontal.append(((y0 + y1) / 2, min(x0, x1), max(x0, x1)))
            elif abs(x1 - x0) <= EDGE_SLANT:
                self.found.vertical.append(((x0 + x1) / 2, min(y0, y1), max(y0, y1)))


def page_objects(page: int, geometry: PageGeometry, tagged: bool) -> PageObjects:
    """One walk over the page's objects (see the module docstring)."""
    walk = _Walk(geometry, tagged)
    count = max(api.count_objects(page), 0)
    items = [api.page_object(page, i) for i in range(min(count, MAX_OBJECTS))]
    walk.objects([obj for obj in items if obj], IDENTITY, -1, 0)
    return walk.found
