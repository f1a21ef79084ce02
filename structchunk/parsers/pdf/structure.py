"""The two kinds of heading evidence a PDF may carry besides typography: tags and bookmarks.

Tagged PDFs have a structure tree whose `H1`…`H6` elements point, through marked-content
ids, at the characters of each heading, and whose `Table`/`TR`/`TH`/`TD` elements do the
same for table cells: `page_tags` maps both per page. Bookmarks (the
outline) give titles, levels and destinations: `outline_entries` resolves each to a page
and, when the destination says so, a vertical position.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from pdfminer.pdftypes import PDFObjRef, resolve1
from pdfminer.psparser import PSLiteral
from pdfplumber.structure import PDFStructTree, StructTreeMissing

from .types import CellPlace, PageTags

log = logging.getLogger("structchunk")

_HEADING_ROLE = re.compile(r"^H([1-6])?$")
DEFAULT_MAX_OUTLINE = 5000
"""Bookmarks read at most (a generated outline can list every paragraph)."""
MAX_CELL_SPAN = 100
"""Largest `ColSpan`/`RowSpan` taken as written (a hostile span must not reserve
millions of grid places)."""


class Element(Protocol):
    """A structure element as both engines give it (pdfplumber's `PDFStructElement`)."""

    @property
    def type(self) -> str: ...
    @property
    def mcids(self) -> list[int]: ...
    @property
    def attributes(self) -> dict[str, Any]: ...
    @property
    def children(self) -> Sequence[Element]: ...


def has_structure(pdf: Any) -> bool:
    try:
        return "StructTreeRoot" in pdf.doc.catalog
    except Exception:  # a catalog that cannot be read has no usable tree either
        return False


@dataclass(frozen=True, slots=True)
class _Context:
    """Where a structure element sits: in which heading, table, row and cell."""

    sections: int = 0
    heading: tuple[int, int] | None = None
    cell: CellPlace | None = None
    """The enclosing table cell: its text is a cell, never a heading."""
    table: int = 0
    row: int = 0
    header: bool = False


class _TreeWalk:
    """One pass over a page's structure tree collecting heading and table-cell ids."""

    def __init__(self) -> None:
        self.tags = PageTags()
        self.elements = 0
        self.rows: dict[int, int] = {}
        self.next_column: dict[tuple[int, int], int] = {}
        self.taken: dict[tuple[int, int], set[int]] = {}
        """Grid places of a (table, row) covered by cells of rows above (`RowSpan`)."""

    def enter(self, element: Element, context: _Context) -> _Context:
        kind = element.type
        if kind == "Sect":
            context = replace(context, sections=context.sections + 1)
        if kind == "Table":
            self.elements += 1
            context = replace(context, table=self.elements, row=0, cell=None, header=False)
        elif kind == "THead":
            context = replace(context, header=True)
        elif kind == "TR" and context.table:
            row = self.rows[context.table] = self.rows.get(context.table, 0) + 1
            context = replace(context, row=row)
        elif kind in ("TH", "TD") and context.row:
            context = replace(context, cell=self.place(element, context))
        match = _HEADING_ROLE.match(kind)
        if match and context.heading is None and not context.table:
            self.elements += 1
            level = int(match.group(1) or max(1, context.sections))
            context = replace(context, heading=(self.elements, level))
        if context.cell is None and context.heading is None:
            return context  # its marked content is neither a heading nor a cell
        for mcid in element.mcids:
            if context.cell is not None:
                self.tags.cells[mcid] = context.cell
            elif context.heading is not None:
                self.tags.headings[mcid] = context.heading
        return context

    def place(self, element: Element, context: _Context) -> CellPlace:
        """The cell's grid column: after the cells before it in its row, their spans, and
        the places cells of earlier rows cover — as a table's columns are laid out."""
        key = (context.table, context.row)
        taken = self.taken.get(key, set())
        column = self.next_column.get(key, 1)
        while column in taken:
            column += 1
        span, rows = _span(element, "ColSpan"), _span(element, "RowSpan")
        covered = range(column, column + span)
        for below in range(context.row + 1, context.row + rows):
            self.taken.setdefault((context.table, below), set()).update(covered)
        self.next_column[key] = column + span
        header = element.type == "TH" or context.header
        return CellPlace(context.table, context.row, column, header, span)


def _span(element: Element, name: str) -> int:
    value = (element.attributes or {}).get(name, 1)
    try:
        return max(1, min(int(value), MAX_CELL_SPAN))
    except (TypeError, ValueError, OverflowError):
        return 1


def page_tags(pdf: Any, page: Any) -> PageTags:
    """The heading and table-cell marked content of one page.

    The page's own structure tree (through its ParentTree) is exact about which
    marked-content ids are on this page; the whole-document tree is not, for elements
    that run over two pages (a table header repeated on the next page).
    """
    try:
        elements = list(PDFStructTree(pdf, page))
    except StructTreeMissing:
        return PageTags()
    return tags_of(elements)


def tags_of(elements: Sequence[Element]) -> PageTags:
    """The heading and table-cell marked content under a page's top structure elements."""
    walk = _TreeWalk()
    stack = [(element, _Context()) for element in reversed(elements)]
    while stack:
        element, context = stack.pop()
        inner = walk.enter(element, context)
        stack.extend((child, inner) for child in reversed(element.children))
    return walk.tags


@dataclass(slots=True)
class OutlineEntry:
    """One bookmark: its level (1 = top), title, page (1-based) and position."""

    level: int
    title: str
    page: int | None
    top: float | None
    """Distance from the top of the page, when the destination gives one."""


def _destination(pdf: Any, dest: Any, action: Any) -> Any:
    if dest is None and action is not None:
        action = resolve1(action)
        if isinstance(action, dict) and _name(action.get("S")) == "GoTo":
            dest = action.get("D")
    dest = resolve1(dest)
    if isinstance(dest, (str, bytes, PSLiteral)):
        name = dest.name if isinstance(dest, PSLiteral) else dest
        dest = resolve1(pdf.doc.get_dest(name))
    if isinstance(dest, dict):
        dest = resolve1(dest.get("D"))
    return dest if isinstance(dest, list) else None


def _name(value: Any) -> str:
    value = resolve1(value)
    return str(value.name) if isinstance(value, PSLiteral) else str(value or "")


def _position(dest: list[Any], height: float) -> float | None:
    """Top of the destination, in pdfplumber's top-down coordinates."""
    kind = _name(dest[1]) if len(dest) > 1 else ""
    index = {"XYZ": 3, "FitH": 2, "FitBH": 2}.get(kind)
    if index is None or len(dest) <= index:
        return None
    value = resolve1(dest[index])
    return height - float(value) if isinstance(value, (int, float)) else None


def outline_entries(pdf: Any) -> list[OutlineEntry]:
    """The bookmarks in order, each resolved to a page where possible."""
    if "Outlines" not in pdf.doc.catalog:
        return []
    pages = {page.page_obj.pageid: page for page in pdf.pages}
    entries: list[OutlineEntry] = []
    for level, title, dest, action, _ in pdf.doc.get_outlines():
        if len(entries) >= DEFAULT_MAX_OUTLINE:
            break
        page_number, top = None, None
        try:
            target = _destination(pdf, dest, action)
        except Exception:  # an unresolvable destination: the title may still match text
            target = None
        if target:
            ref = target[0]
            page = pages.get(ref.objid) if isinstance(ref, PDFObjRef) else None
            if page is not None:
                page_number = page.page_number
                top = _position(target, float(page.height))
        text = " ".join(str(title or "").split())
        if text:
            entries.append(OutlineEntry(max(1, int(level)), text, page_number, top))
    return entries


def read_outline(pdf: Any, warnings: list[str]) -> list[OutlineEntry]:
    """`outline_entries`, or nothing (with a warning) when the outline is broken."""
    try:
        return outline_entries(pdf)
    except Exception as error:  # a broken outline only costs us its evidence
        warnings.append(
            f"bookmarks unreadable, headings from layout instead ({type(error).__name__})"
        )
        return []
