"""How Office packages name their parts: the `.rels` reader DOCX and XLSX share."""

from __future__ import annotations

import io
import zipfile

from lxml import etree
from office_factory import workbook_bytes
from openpyxl import Workbook

from structchunk.parsers.packages import open_package
from structchunk.parsers.relationships import (
    Relationship,
    read_relationships,
    relationships_part,
)
from structchunk.parsers.xlsx.parts import relationships

RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def _rels(*lines: str) -> etree._Element:
    return etree.fromstring(f'<Relationships xmlns="{RELS}">{"".join(lines)}</Relationships>')


def test_each_part_keeps_its_relationships_beside_it() -> None:
    assert relationships_part("") == "_rels/.rels"
    assert relationships_part("word/document.xml") == "word/_rels/document.xml.rels"
    assert relationships_part("/xl/workbook.xml") == "xl/_rels/workbook.xml.rels"


def test_targets_are_resolved_and_read_as_forgivingly_as_office_reads_them() -> None:
    rels = _rels(
        f'<Relationship Id="r1" Type="{TYPE}styles" Target="styles.xml"/>',
        f'<Relationship Id="r2" Type="{TYPE}image" Target="https://x.test/a.png"'
        ' TargetMode="External"/>',
        f'<Relationship Id="r3" Type="{TYPE}footer/" Target="media\\footer1.xml"/>',
        f'<Relationship Id="r4" Type="{TYPE}numbering" Target=""/>',
        f'<Relationship Id="r5" Type="{TYPE}header" Target="/word/header1.xml"/>',
        f'<Relationship Id="r6" Type="{TYPE}theme" Target="../theme/theme1.xml"/>',
    )
    assert read_relationships(rels, "word/document.xml") == [
        ("r1", Relationship("styles", "word/styles.xml")),
        ("r3", Relationship("footer", "word/media/footer1.xml")),
        ("r5", Relationship("header", "word/header1.xml")),
        ("r6", Relationship("theme", "theme/theme1.xml")),
    ]


def test_a_workbook_whose_rels_part_is_named_in_other_case_is_read() -> None:
    """Part names are case-insensitive in OPC; the XLSX reader looked its `.rels` up by
    exact name (the DOCX reader did not), and found no sheets in such a workbook."""

    def build(book: Workbook) -> None:
        book.create_sheet("Keys")["A1"] = "Key"

    data = workbook_bytes(build)
    renamed = _rename(data, "xl/_rels/workbook.xml.rels", "xl/_rels/Workbook.xml.rels")
    package = open_package(renamed, "xlsx")
    found = relationships(package, "xl/workbook.xml")
    assert any(rel.type == "worksheet" for rel in found.values())


def _rename(data: bytes, old: str, new: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(new if info.filename == old else info.filename, source.read(info))
    return out.getvalue()
