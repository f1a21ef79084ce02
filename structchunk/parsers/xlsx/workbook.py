"""The workbook around the sheets: sheet list and states, shared strings, number formats.

Read directly from the package parts with lxml rather than through openpyxl's
`load_workbook`: in read-only mode that call parses every sheet without a `<dimension>`
to its end just to size it (openpyxl's own write-only output has none), and it parses
with defusedxml's pure-Python parser when defusedxml is installed; together that made a
100 000-row sheet take four times as long as the reading itself. openpyxl still supplies
the built-in number formats, the date-format test and the serial-date conversion.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from lxml import etree
from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format
from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH

from ...errors import ParseError
from ..packages import Package
from .parts import parse_part, related, relationships

MAIN_NAMESPACES = (
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",  # ISO 29500 Strict
)
R_NAMESPACES = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "http://purl.oclc.org/ooxml/officeDocument/relationships",
)
DC = "http://purl.org/dc/elements/1.1/"
_CUSTOM_FORMATS_FROM = 164
"""Number formats 0–163 are built in; a workbook defines its own from 164 up."""


@dataclass(frozen=True, slots=True)
class SheetEntry:
    """One sheet as the workbook lists it."""

    name: str
    path: str
    kind: str
    """`worksheet`, `chartsheet`, `dialogsheet` or `xlMacrosheet` (the relationship type)."""
    state: str
    """`visible`, `hidden` or `veryHidden`."""


@dataclass(slots=True)
class Workbook:
    """What every sheet of a workbook needs to turn its cells into text."""

    ns: str
    title: str = ""
    sheets: list[SheetEntry] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    """Number format code of each cell style (`cellXfs` entry), by style index."""
    epoch: dt.datetime = WINDOWS_EPOCH

    def date_styles(self) -> tuple[frozenset[int], frozenset[int]]:
        """Style indexes whose format shows a date or time, and those showing a duration."""
        dates = frozenset(i for i, code in enumerate(self.formats) if is_date_format(code))
        spans = frozenset(i for i in dates if is_timedelta_format(self.formats[i]))
        return dates, spans


def open_workbook(package: Package) -> Workbook:
    """The workbook's structure, strings and formats (`ParseError` when there is none)."""
    part = related(package, "", "officeDocument") or "xl/workbook.xml"
    root = parse_part(package, part)
    if root is None:
        raise ParseError(f"the workbook part {part!r} is missing or not XML")
    ns = etree.QName(root).namespace or MAIN_NAMESPACES[0]
    book = Workbook(ns, title=_core_title(package))
    properties = root.find(f"{{{ns}}}workbookPr")
    if properties is not None and properties.get("date1904") in ("1", "true"):
        book.epoch = MAC_EPOCH
    rels = relationships(package, part)
    for sheet in root.iterfind(f"{{{ns}}}sheets/{{{ns}}}sheet"):
        rel_id = next(
            (sheet.get(f"{{{r}}}id") for r in R_NAMESPACES if sheet.get(f"{{{r}}}id")), ""
        )
        rel = rels.get(rel_id or "")
        if rel is None or rel.target not in package.names():
            continue
        book.sheets.append(
            SheetEntry(sheet.get("name", ""), rel.target, rel.type, sheet.get("state", "visible"))
        )
    strings = next((r.target for r in rels.values() if r.type == "sharedStrings"), None)
    styles = next((r.target for r in rels.values() if r.type == "styles"), None)
    book.strings = shared_strings(package, strings, ns) if strings else []
    book.formats = style_formats(package, styles, ns) if styles else []
    return book


def shared_strings(package: Package, part: str, ns: str) -> list[str]:
    """The shared string table, streamed: each `si`'s text runs (phonetic guides left out)."""
    if part not in package.names():
        return []
    strings: list[str] = []
    phonetic = f"{{{ns}}}rPh"
    text_tag = f"{{{ns}}}t"
    with package.zip.open(part) as stream:
        for _, item in etree.iterparse(
            stream, tag=f"{{{ns}}}si", resolve_entities=False, huge_tree=False
        ):
            strings.append(
                "".join(
                    t.text or ""
                    for t in item.iter(text_tag)
                    if t.getparent() is None or t.getparent().tag != phonetic
                )
            )
            item.clear()
            while item.getprevious() is not None:
                del item.getparent()[0]
    return strings


def style_formats(package: Package, part: str, ns: str) -> list[str]:
    """The number format code of each cell style, in `cellXfs` order."""
    root = parse_part(package, part)
    if root is None:
        return []
    custom: dict[int, str] = {}
    for number_format in root.iterfind(f"{{{ns}}}numFmts/{{{ns}}}numFmt"):
        number = _int(number_format.get("numFmtId"))
        if number is not None:
            custom[number] = number_format.get("formatCode", "General")
    out = []
    for xf in root.iterfind(f"{{{ns}}}cellXfs/{{{ns}}}xf"):
        number = _int(xf.get("numFmtId")) or 0
        if number >= _CUSTOM_FORMATS_FROM or number in custom:
            out.append(custom.get(number, "General"))
        else:
            out.append(BUILTIN_FORMATS.get(number, "General"))
    return out


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _core_title(package: Package) -> str:
    part = related(package, "", "core-properties")
    root = parse_part(package, part) if part else None
    if root is None:
        return ""
    return " ".join((root.findtext(f"{{{DC}}}title") or "").split())
