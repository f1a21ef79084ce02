"""A worksheet's cells, merged ranges and table parts, read in one streaming pass.

The sheet's XML is streamed with lxml's `iterparse`, row by row, each row cleared once
read, so memory holds only the cells that have a value — never the sheet's declared
size (a sheet may declare `A1:XFD1048576` and hold three cells; openpyxl's read-only
rows would be padded out to that width). Merged ranges and table parts come after the
cells in the XML and are collected on the way. A formula cell without a cached value
(`<f>` and no `<v>`) is counted: a workbook written by a library and never opened in a
spreadsheet program has formulas but no results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree
from openpyxl.utils.cell import range_boundaries

from ...errors import ParseError
from ..packages import Package
from .values import CellText
from .workbook import R_NAMESPACES

DEFAULT_MAX_CELLS = 3_000_000
"""Non-empty cells a workbook may hold before it is refused, so one file stays within the
hostile-input bar (60 s and 1 GiB, docs/limits.md). Converting costs 175 to 260 bytes of
memory a cell at its peak (110 to read the sheet, the rest to pack it) and about 7 s a
million cells: a million rows of three cells took 44 s and 784 MB on a loaded 2-core
machine, a million rows of ten 66 s and 1.75 GB. A larger export is better split or
chunked as CSV."""

DEFAULT_SHARED_TEXTS = 200_000
"""Distinct cell texts remembered per sheet so repeats share one string (categories,
dates, regions repeat down their columns): 18 % less memory for the 100 000-row
benchmark sheet, whose ids and notes are all distinct. Past this many, new texts are
kept as they come, so the table of them stays small (about 20 MB)."""

Rows = dict[int, dict[int, str]]
"""Row number → column number → cell text (1-based, non-empty cells only)."""

_COORDINATE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d+)$")


@dataclass(slots=True)
class SheetCells:
    """What one worksheet holds: its non-empty cells and what shapes them into tables."""

    rows: Rows = field(default_factory=dict)
    typed_rows: set[int] = field(default_factory=set)
    """Rows holding a number, date or boolean (a header row holds none, usually)."""
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)
    """Merged ranges as (first row, first column, last row, last column)."""
    table_parts: list[str] = field(default_factory=list)
    """Relationship ids of the sheet's defined tables (`<tablePart r:id>`)."""
    uncached_formulas: int = 0
    """Formula cells without a cached value (never calculated by a spreadsheet program)."""
    cells: int = 0


class _Columns:
    """Column letters to numbers (`A` → 1, `XFD` → 16384), remembered."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}

    def number(self, letters: str) -> int:
        found = self.known.get(letters)
        if found is None:
            found = 0
            for letter in letters.upper():
                found = found * 26 + ord(letter) - 64
            self.known[letters] = found
        return found


def read_sheet(package: Package, path: str, ns: str, texts: CellText, budget: int) -> SheetCells:
    """Stream one worksheet part into `SheetCells`, refusing more than `budget` cells."""
    tags = [f"{{{ns}}}row", f"{{{ns}}}mergeCell", f"{{{ns}}}tablePart"]
    found = SheetCells()
    reader = _RowReader(ns, texts)
    with package.zip.open(path) as stream:
        for _, element in etree.iterparse(
            stream, tag=tags, resolve_entities=False, huge_tree=False
        ):
            if element.tag == tags[0]:
                number, row, typed = reader.row(element)
                if row:
                    found.rows.setdefault(number, {}).update(row)
                    found.cells += len(row)
                    if typed:
                        found.typed_rows.add(number)
                    if found.cells > budget:
                        raise ParseError(
                            f"the workbook holds more than {DEFAULT_MAX_CELLS:,} non-empty "
                            "cells; split it (or export its sheets to CSV) and convert the parts"
                        )
            elif element.tag == tags[1]:
                _add_merge(found.merges, element.get("ref", ""))
            else:
                ids = [element.get(f"{{{r}}}id") for r in R_NAMESPACES]
                found.table_parts.extend(rel_id for rel_id in ids if rel_id)
            element.clear()
            parent = element.getparent()
            while element.getprevious() is not None and parent is not None:
                del parent[0]
    found.uncached_formulas = reader.uncached
    return found


class _RowReader:
    """Turns `<row>` elements into {column: text}, tracking positions as Excel does: a
    row or cell without `r` follows the previous one."""

    def __init__(self, ns: str, texts: CellText) -> None:
        self.cell_tag = f"{{{ns}}}c"
        self.value_tag = f"{{{ns}}}v"
        self.formula_tag = f"{{{ns}}}f"
        self.inline_tag = f"{{{ns}}}is"
        self.text_tag = f"{{{ns}}}t"
        self.phonetic_tag = f"{{{ns}}}rPh"
        self.texts = texts
        self.columns = _Columns()
        self.number = 0
        self.uncached = 0
        self.shared: dict[str, str] = {}
        """Texts seen in this sheet, so a value repeated down a column is kept once."""

    def row(self, element: etree._Element) -> tuple[int, dict[int, str], bool]:
        """The row's number, its non-empty cells' texts, and whether any is typed."""
        self.number = _positive(element.get("r"), self.number + 1)
        column = 0
        out: dict[int, str] = {}
        typed = False
        for cell in element.iterchildren(self.cell_tag):
            column = self._column(cell.get("r"), column + 1)
            raw, has_value = self._raw(cell)
            if not has_value:
                continue
            style = cell.get("s")
            try:
                text, is_typed = self.texts.text(cell.get("t"), raw, int(style) if style else 0)
            except (ValueError, IndexError):
                text, is_typed = raw.strip(), False
            if text:
                if len(self.shared) < DEFAULT_SHARED_TEXTS:
                    text = self.shared.setdefault(text, text)
                out[column] = text
                typed = typed or is_typed
        return self.number, out, typed

    def _column(self, reference: str | None, following: int) -> int:
        if not reference:
            return following
        letters = reference.rstrip("0123456789")
        if letters.isalpha() and len(letters) <= 3 and len(letters) < len(reference):
            return self.columns.number(letters)
        match = _COORDINATE.match(reference)  # `$A$1`, or damaged
        return self.columns.number(match.group(1)) if match else following

    def _raw(self, cell: etree._Element) -> tuple[str, bool]:
        """The cell's value text and whether it has one (`<v>`, or an inline string).

        A formula with no `<v>`, or an empty one that is not a text result (openpyxl
        writes `<v></v>`), was never calculated: it is counted."""
        if len(cell) == 1 and cell[0].tag == self.value_tag:  # the usual cell: `<v>` only
            value = cell[0].text
            return (value, True) if value else ("", False)
        value = None
        formula = False
        for child in cell:
            if child.tag == self.value_tag:
                value = child.text or ""
            elif child.tag == self.formula_tag:
                formula = True
            elif child.tag == self.inline_tag:
                value = "".join(
                    t.text or ""
                    for t in child.iter(self.text_tag)
                    if t.getparent() is None or t.getparent().tag != self.phonetic_tag
                )
        if formula and not value and (value is None or cell.get("t") != "str"):
            self.uncached += 1
        return (value, True) if value else ("", False)


def _positive(text: str | None, default: int) -> int:
    try:
        number = int(text) if text is not None else default
    except ValueError:
        return default
    return number if number > 0 else default


def _add_merge(merges: list[tuple[int, int, int, int]], reference: str) -> None:
    try:
        left, top, right, bottom = range_boundaries(reference)
    except (ValueError, TypeError):
        return
    if left is None or top is None or right is None or bottom is None:
        return
    merges.append((top, left, bottom, right))
