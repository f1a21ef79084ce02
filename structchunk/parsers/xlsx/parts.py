"""The workbook's package parts: relationships, and the defined tables of a sheet.

Parts are found the way Office finds them, through relationships (`_rels/*.rels`), not by
their usual names, so a workbook written by any tool is read. Every XML part is parsed
with entities unresolved and lxml's default limits (no huge trees).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree
from openpyxl.utils.cell import range_boundaries

from ...errors import ParseError
from ..packages import SAFE_XML, Package
from ..relationships import Relationship, find_part, read_relationships, relationships_part

_DEFAULT_NAME_PREFIX = "Table"
"""Excel names new tables Table1, Table2 …: such a name says nothing and is no caption."""


def parse_part(package: Package, name: str) -> etree._Element | None:
    """A small XML part parsed (None when absent or not XML)."""
    if name not in package.names():
        return None
    try:
        return etree.fromstring(package.read(name), SAFE_XML)
    except (etree.XMLSyntaxError, ParseError):
        return None


def relationships(package: Package, part: str) -> dict[str, Relationship]:
    """The relationships of `part` ("" for the package's own) by id, targets resolved."""
    name = find_part(package, relationships_part(part))
    root = parse_part(package, name) if name is not None else None
    return dict(read_relationships(root, part)) if root is not None else {}


def related(package: Package, part: str, kind: str) -> str | None:
    """The first part `part` relates to by a relationship of type `kind`."""
    for rel in relationships(package, part).values():
        if rel.type == kind and rel.target in package.names():
            return rel.target
    return None


@dataclass(frozen=True, slots=True)
class DefinedTable:
    """A defined table's place and header: rows and columns 1-based and inclusive."""

    top: int
    left: int
    bottom: int
    right: int
    header_rows: int
    name: str

    @property
    def caption(self) -> str:
        """The table's name when its author gave it one (not Excel's `Table3`)."""
        rest = self.name[len(_DEFAULT_NAME_PREFIX) :]
        return "" if self.name.startswith(_DEFAULT_NAME_PREFIX) and rest.isdigit() else self.name


def defined_tables(package: Package, sheet_path: str, rel_ids: list[str]) -> list[DefinedTable]:
    """The defined tables (Insert › Table) a sheet's `<tablePart r:id>`s point to.

    A defined table says exactly where a table is and how many header rows it has, which
    beats any guess from empty rows; unreadable table parts are skipped."""
    if not rel_ids:
        return []
    targets = relationships(package, sheet_path)
    tables = []
    for rel_id in rel_ids:
        rel = targets.get(rel_id)
        table = _read_table(package, rel.target) if rel else None
        if table is not None:
            tables.append(table)
    return tables


def _read_table(package: Package, part: str) -> DefinedTable | None:
    root = parse_part(package, part)
    if root is None:
        return None
    try:
        left, top, right, bottom = range_boundaries(root.get("ref", ""))
        header_rows = int(root.get("headerRowCount", "1"))
    except (ValueError, TypeError):
        return None
    if left is None or top is None or right is None or bottom is None:
        return None
    name = root.get("displayName") or root.get("name") or ""
    return DefinedTable(top, left, bottom, right, max(0, min(header_rows, 1)), name)
