"""Tags, bookmarks and the title through PDFium, for the PDFium engine.

The same evidence parsers/pdf/structure.py reads through pdfminer, read in C: PDFium builds a page's
structure tree from its ParentTree entry (only the elements with content on the page,
and their ancestors; marked-content kids of other pages left out), so `tags_of` walks
the same elements pdfplumber's page tree gives. pdfplumber's per-page tree costs up to a
third of a second a page on a large tagged filing (it flattens the whole ParentTree for
each page); PDFium's, a millisecond.
"""

from __future__ import annotations

import ctypes
import logging
from ctypes import c_float, c_int, c_ulong, c_void_p
from typing import Any

import pypdfium2.raw as raw

from ...structure import DEFAULT_MAX_OUTLINE, OutlineEntry, tags_of
from ...types import PageTags
from .api import _bind

log = logging.getLogger("structchunk")

MAX_ELEMENTS = 50_000
"""Structure elements read per page at most (a hostile tree can be far larger)."""
MAX_DEPTH = 100
"""Nesting followed at most, in the structure tree and in bookmarks."""
_SPANS = ("ColSpan", "RowSpan")
_CELLS = frozenset(("TH", "TD"))

_P = c_void_p
_tree_for_page = _bind("FPDF_StructTree_GetForPage", c_void_p, _P)
_tree_close = _bind("FPDF_StructTree_Close", None, _P)
_tree_count = _bind("FPDF_StructTree_CountChildren", c_int, _P)
_tree_child = _bind("FPDF_StructTree_GetChildAtIndex", c_void_p, _P, c_int)
_element_type = _bind("FPDF_StructElement_GetType", c_ulong, _P, _P, c_ulong)
_element_count = _bind("FPDF_StructElement_CountChildren", c_int, _P)
_element_child = _bind("FPDF_StructElement_GetChildAtIndex", c_void_p, _P, c_int)
_child_mcid = _bind("FPDF_StructElement_GetChildMarkedContentID", c_int, _P, c_int)
_attribute_count = _bind("FPDF_StructElement_GetAttributeCount", c_int, _P)
_attribute_at = _bind("FPDF_StructElement_GetAttributeAtIndex", c_void_p, _P, c_int)
_attribute_value = _bind("FPDF_StructElement_Attr_GetValue", c_void_p, _P, ctypes.c_char_p)
_value_type = _bind("FPDF_StructElement_Attr_GetType", c_int, _P)
_number_value = _bind("FPDF_StructElement_Attr_GetNumberValue", c_int, _P, ctypes.POINTER(c_float))


_BUFFER = ctypes.create_string_buffer(256)
_TYPES: dict[bytes, str] = {}


def _element_kind(handle: int) -> str:
    """An element's type (role-mapped by PDFium), decoded once per distinct name."""
    size = _element_type(handle, _BUFFER, len(_BUFFER))
    if size <= 2 or size > len(_BUFFER):
        return ""
    raw_name = ctypes.string_at(_BUFFER, size - 2)
    kind = _TYPES.get(raw_name)
    if kind is None:
        kind = _TYPES[raw_name] = raw_name.decode("utf-16-le", "replace")
    return kind


def _spans(element: int) -> dict[str, Any]:
    """A cell's `ColSpan`/`RowSpan` (the only attributes the table reading uses)."""
    found: dict[str, Any] = {}
    number = c_float()
    for index in range(max(_attribute_count(element), 0)):
        attribute = _attribute_at(element, index)
        if not attribute:
            continue
        for name in _SPANS:
            value = _attribute_value(attribute, name.encode())
            if (
                value
                and _value_type(value) == raw.FPDF_OBJECT_NUMBER
                and _number_value(value, ctypes.byref(number))
            ):
                found[name] = number.value
    return found


class _Budget:
    """Elements read so far on a page (a hostile tree can be far larger than a page)."""

    def __init__(self) -> None:
        self.read = 0


class PdfiumElement:
    """A structure element as `tags_of` walks it (the shape of pdfplumber's). Its
    marked-content ids and attributes are asked of PDFium only when the walk needs them:
    most elements are neither in a heading nor in a table cell."""

    __slots__ = ("_attributes", "_content", "_handle", "budget", "children", "depth", "type")

    def __init__(self, handle: int, depth: int, budget: _Budget) -> None:
        budget.read += 1
        self._handle, self.depth, self.budget = handle, depth, budget
        self.type = _element_kind(handle)
        self.children: list[PdfiumElement] = []
        self._attributes: dict[str, Any] | None = None
        self._content: list[int] = []
        """Indexes of the kids that are not elements (marked content, objects)."""
        for index in range(max(_element_count(handle), 0)):
            child = _element_child(handle, index)
            if not child:
                self._content.append(index)
            elif depth < MAX_DEPTH and budget.read < MAX_ELEMENTS:
                self.children.append(PdfiumElement(child, depth + 1, budget))

    @property
    def mcids(self) -> list[int]:
        found = [_child_mcid(self._handle, index) for index in self._content]
        return [mcid for mcid in found if mcid >= 0]

    @property
    def attributes(self) -> dict[str, Any]:
        if self._attributes is None:
            self._attributes = _spans(self._handle) if self.type in _CELLS else {}
        return self._attributes


def pdfium_page_tags(page: int) -> PageTags | None:
    """The heading and table-cell marked content of one PDFium page; None when the page
    has no structure tree."""
    tree = _tree_for_page(page)
    if not tree:
        return None
    try:
        count = _tree_count(tree)
        if count <= 0:
            return None
        budget = _Budget()
        tops = []
        for index in range(count):
            element = _tree_child(tree, index)
            if element and budget.read < MAX_ELEMENTS:
                tops.append(PdfiumElement(element, 1, budget))
        return tags_of(tops)
    finally:
        _tree_close(tree)


def _view_top(dest: Any, height: float) -> float | None:
    """Top of a destination (`XYZ`, `FitH`, `FitBH`), from the top of the page."""
    mode, values = dest.get_view()
    index = {raw.PDFDEST_VIEW_XYZ: 1, raw.PDFDEST_VIEW_FITH: 0, raw.PDFDEST_VIEW_FITBH: 0}.get(mode)
    if index is None or len(values) <= index:
        return None
    value = values[index]
    return height - float(value) if value == value else None  # NaN: "keep the current top"


def pdfium_outline(document: Any, heights: Any) -> list[OutlineEntry]:
    """The bookmarks in order with their level, page and top (`heights(page_index)` gives a
    page's height for positions); as parsers/pdf/structure.py reads them through pdfminer."""
    entries: list[OutlineEntry] = []
    for bookmark in document.get_toc(max_depth=MAX_DEPTH):
        if len(entries) >= DEFAULT_MAX_OUTLINE:
            break
        text = " ".join((bookmark.get_title() or "").split())
        if not text:
            continue
        page_number, top = None, None
        dest = bookmark.get_dest()
        if dest is not None:
            index = dest.get_index()
            if index is not None and 0 <= index < len(document):
                page_number = index + 1
                top = _view_top(dest, heights(index))
        entries.append(OutlineEntry(bookmark.level + 1, text, page_number, top))
    return entries
