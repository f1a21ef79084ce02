"""The PDFium calls the PDFium engine makes, bound once with plain C types.

pypdfium2's own bindings wrap every pointer a call returns in a ctypes object and check
each argument's type, which costs more than the call itself when it is made for every
character of a page (measured: 2.5 µs against 1.0 µs for `FPDFText_GetTextObject`).
Here the calls made per character or per page object take and return plain integers
and floats; handles are addresses (`int`), as `handle()` reads them off pypdfium2's
objects. Everything else (opening documents, pages, bookmarks) goes through pypdfium2.
"""

from __future__ import annotations

import ctypes
import threading
from ctypes import POINTER, c_char, c_double, c_float, c_int, c_uint, c_ulong, c_void_p
from typing import Any

import pypdfium2.raw as raw

LOCK = threading.RLock()
"""PDFium may not be called from two threads at once, not even for two documents: every
use of it here holds this lock (one page read at a time per process)."""


def _library() -> Any:
    """The loaded PDFium shared library (pypdfium2 loads it on import)."""
    from pypdfium2_raw import bindings

    return bindings._libs["pdfium"]


def _bind(name: str, restype: Any, *argtypes: Any) -> Any:
    return ctypes.CFUNCTYPE(restype, *argtypes)((name, _library()))


def handle(obj: Any) -> int:
    """The address behind a pypdfium2 object (document, page, text page)."""
    return ctypes.cast(obj.raw, c_void_p).value or 0


class FSRect(ctypes.Structure):
    """`FS_RECTF`: left, top, right, bottom (PDF user space, y up)."""

    _fields_ = [("left", c_float), ("top", c_float), ("right", c_float), ("bottom", c_float)]


class FSMatrix(ctypes.Structure):
    """`FS_MATRIX`: a b c d e f."""

    _fields_ = [(name, c_float) for name in "abcdef"]


_P = c_void_p
_PF = POINTER(c_float)

# Text page, per character
count_chars = _bind("FPDFText_CountChars", c_int, _P)
unicode_of = _bind("FPDFText_GetUnicode", c_uint, _P, c_int)
loose_box = _bind("FPDFText_GetLooseCharBox", c_int, _P, c_int, _P)
char_box = _bind("FPDFText_GetCharBox", c_int, _P, c_int, _P, _P, _P, _P)
text_object = _bind("FPDFText_GetTextObject", c_void_p, _P, c_int)
is_generated = _bind("FPDFText_IsGenerated", c_int, _P, c_int)
has_map_error = _bind("FPDFText_HasUnicodeMapError", c_int, _P, c_int)
char_matrix = _bind("FPDFText_GetMatrix", c_int, _P, c_int, _P)
char_origin = _bind("FPDFText_GetCharOrigin", c_int, _P, c_int, _P, _P)
char_font_size = _bind("FPDFText_GetFontSize", c_double, _P, c_int)

# Page objects
count_objects = _bind("FPDFPage_CountObjects", c_int, _P)
page_object = _bind("FPDFPage_GetObject", c_void_p, _P, c_int)
form_count = _bind("FPDFFormObj_CountObjects", c_int, _P)
form_object = _bind("FPDFFormObj_GetObject", c_void_p, _P, c_ulong)
object_type = _bind("FPDFPageObj_GetType", c_int, _P)
object_matrix = _bind("FPDFPageObj_GetMatrix", c_int, _P, _P)
object_bounds = _bind("FPDFPageObj_GetBounds", c_int, _P, _P, _P, _P, _P)
fill_color = _bind("FPDFPageObj_GetFillColor", c_int, _P, _P, _P, _P, _P)
text_font = _bind("FPDFTextObj_GetFont", c_void_p, _P)
base_font_name = _bind("FPDFFont_GetBaseFontName", ctypes.c_size_t, _P, _P, ctypes.c_size_t)
glyph_width = _bind("FPDFFont_GetGlyphWidth", c_int, _P, c_uint, c_float, _P)
font_descent = _bind("FPDFFont_GetDescent", c_int, _P, c_float, _P)
render_mode = _bind("FPDFTextObj_GetTextRenderMode", c_int, _P)
object_font_size = _bind("FPDFTextObj_GetFontSize", c_int, _P, _P)
marked_content_id = _bind("FPDFPageObj_GetMarkedContentID", c_int, _P)
count_marks = _bind("FPDFPageObj_CountMarks", c_int, _P)
get_mark = _bind("FPDFPageObj_GetMark", c_void_p, _P, c_ulong)
mark_name = _bind("FPDFPageObjMark_GetName", c_int, _P, _P, c_ulong, POINTER(c_ulong))
count_segments = _bind("FPDFPath_CountSegments", c_int, _P)
path_segment = _bind("FPDFPath_GetPathSegment", c_void_p, _P, c_int)
segment_point = _bind("FPDFPathSegment_GetPoint", c_int, _P, _P, _P)
segment_type = _bind("FPDFPathSegment_GetType", c_int, _P)
segment_closes = _bind("FPDFPathSegment_GetClose", c_int, _P)
draw_mode = _bind("FPDFPath_GetDrawMode", c_int, _P, POINTER(c_int), POINTER(c_int))

OBJ_TEXT = raw.FPDF_PAGEOBJ_TEXT
OBJ_PATH = raw.FPDF_PAGEOBJ_PATH
OBJ_IMAGE = raw.FPDF_PAGEOBJ_IMAGE
OBJ_FORM = raw.FPDF_PAGEOBJ_FORM
SEGMENT_MOVETO = raw.FPDF_SEGMENT_MOVETO
RENDER_INVISIBLE = raw.FPDF_TEXTRENDERMODE_INVISIBLE
RENDER_CLIP = raw.FPDF_TEXTRENDERMODE_CLIP


_FLOAT = c_float()
_FLOAT_AT = ctypes.addressof(_FLOAT)


def advance(font: int, code: int) -> float:
    """The advance width of the glyph PDFium maps `code` (Unicode) to, in thousandths of
    the font size (the width PDFium itself positions glyphs with); 0 when unknown."""
    if not glyph_width(font, code, 1000.0, _FLOAT_AT):
        return 0.0
    return _FLOAT.value


def font_size_of(obj: int) -> float:
    """A text object's font size (`Tf`, before its matrix scales it); 0 when unknown."""
    if not object_font_size(obj, _FLOAT_AT):
        return 0.0
    return _FLOAT.value


def descent(font: int) -> float:
    """The font's descent (negative) in thousandths of the font size."""
    if not font_descent(font, 1000.0, _FLOAT_AT):
        return 0.0
    return _FLOAT.value


def innermost_mark(obj: int) -> int:
    """The innermost marked-content sequence an object is drawn in (0: none)."""
    count = count_marks(obj)
    return get_mark(obj, count - 1) or 0 if count > 0 else 0


def mark_name_of(mark: int) -> str:
    """A marked-content sequence's tag (`Span`, `P`, `Artifact`, …)."""
    length = c_ulong(0)
    buffer = (c_char * 256)()
    if mark_name(mark, buffer, 256, ctypes.byref(length)) and length.value >= 2:
        return bytes(buffer)[: length.value - 2].decode("utf-16-le", "replace")
    return ""


_RGBA = (c_uint * 4)()
_RGBA_AT = [ctypes.addressof(_RGBA) + i * ctypes.sizeof(c_uint) for i in range(4)]


def colour(obj: int) -> tuple[int, int, int]:
    """An object's fill colour as RGB 0-255 (PDFium converts Gray and CMYK); (-1, -1, -1)
    when it has none PDFium can tell."""
    if not fill_color(obj, *_RGBA_AT):
        return (-1, -1, -1)
    return (_RGBA[0], _RGBA[1], _RGBA[2])


def font_name_of(font: int) -> str:
    """A font's base name as the file gives it (subset prefix included)."""
    size = base_font_name(font, None, 0)
    if size <= 1:
        return ""
    buffer = ctypes.create_string_buffer(size)
    base_font_name(font, buffer, size)
    return buffer.value.decode("utf-8", "replace")


def matrix_of(obj: int) -> tuple[float, float, float, float, float, float]:
    """A page object's matrix (a, b, c, d, e, f); identity when PDFium has none."""
    m = FSMatrix()
    if not object_matrix(obj, ctypes.byref(m)):
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


_BOUNDS = (c_float * 4)()
_BOUNDS_AT = [ctypes.addressof(_BOUNDS) + i * ctypes.sizeof(c_float) for i in range(4)]


def bounds_of(obj: int) -> tuple[float, float, float, float] | None:
    """An object's bounding box (left, bottom, right, top) in its stream's space."""
    if not object_bounds(obj, *_BOUNDS_AT):
        return None
    return (_BOUNDS[0], _BOUNDS[1], _BOUNDS[2], _BOUNDS[3])
