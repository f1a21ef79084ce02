"""Workbooks written part by part for the hostile-input gate (see package_inputs.py): a
million rows, a million shared strings, a cell at the grid's far corner. Sheets and string
tables are streamed through `ZipStream`, so building them stays small."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

from zip_stream import ZipStream

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_TYPES = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_CORE_REL = (
    b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/'
    b'relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>'
)


def _rels(*targets: tuple[str, str, str]) -> bytes:
    return (
        f'<?xml version="1.0"?><Relationships xmlns="{_PACKAGE_REL}">'
        + "".join(
            f'<Relationship Id="{ident}" Type="{REL}/{kind}" Target="{target}"/>'
            for ident, kind, target in targets
        )
        + "</Relationships>"
    ).encode()


def _workbook_parts(title: str = "") -> dict[str, bytes]:
    """A workbook's parts but its sheet and shared strings: content types, relationships,
    the workbook, number formats (style 1 is a percent) and a core part with `title`."""
    return {
        "[Content_Types].xml": (
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/'
            '2006/content-types"><Default Extension="rels" ContentType="application/'
            'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
            f'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
            f'ContentType="{_TYPES}.sheet.main+xml"/></Types>'
        ).encode(),
        "_rels/.rels": _rels(("rId1", "officeDocument", "xl/workbook.xml")).replace(
            b"</Relationships>", _CORE_REL
        ),
        "docProps/core.xml": (
            '<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.'
            'org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/'
            f'1.1/"><dc:title>{title}</dc:title></cp:coreProperties>'
        ).encode(),
        "xl/styles.xml": (
            f'<?xml version="1.0"?><styleSheet xmlns="{_MAIN}"><cellXfs count="2">'
            '<xf numFmtId="0"/><xf numFmtId="9"/></cellXfs></styleSheet>'
        ).encode(),
        "xl/workbook.xml": (
            f'<?xml version="1.0"?><workbook xmlns="{_MAIN}" xmlns:r="{REL}"><sheets>'
            '<sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ).encode(),
        "xl/_rels/workbook.xml.rels": _rels(
            ("rId1", "worksheet", "worksheets/sheet1.xml"),
            ("rId2", "sharedStrings", "sharedStrings.xml"),
            ("rId3", "styles", "styles.xml"),
        ),
    }


def _sheet(rows: Iterator[bytes], after: bytes = b"", dimension: str = "") -> Iterator[bytes]:
    """A worksheet part in pieces: `rows` (batches of `<row>` elements), then `after`."""
    ref = f'<dimension ref="{dimension}"/>' if dimension else ""
    yield f'<?xml version="1.0"?><worksheet xmlns="{_MAIN}">{ref}<sheetData>'.encode()
    yield from rows
    yield b"</sheetData>" + after + b"</worksheet>"


def _write_workbook(path: Path, sheet: Iterator[bytes], strings: Iterator[bytes]) -> None:
    with ZipStream(path) as archive:
        for name, data in _workbook_parts().items():
            archive.add(name, data)
        archive.add_pieces("xl/worksheets/sheet1.xml", sheet)
        archive.add_pieces("xl/sharedStrings.xml", strings)


def _strings(count: int) -> Iterator[bytes]:
    yield f'<?xml version="1.0"?><sst xmlns="{_MAIN}" uniqueCount="{count}">'.encode()
    for start in range(0, count, 10_000):
        stop = min(start + 10_000, count)
        yield "".join(f"<si><t>text {n}</t></si>" for n in range(start, stop)).encode()
    yield b"</sst>"


def million_rows(path: Path, rows: int = 1_000_000) -> None:
    """One sheet of `rows` rows of ten cells, as an export writes them: ids, labels,
    amounts, dates and flags (10 million cells; rows and cells without `r`, placed one
    after another as Excel reads them, to keep the build quick)."""

    def batches() -> Iterator[bytes]:
        yield b'<row><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row>'
        for start in range(2, rows + 1, 10_000):
            yield "".join(
                f'<row><c><v>{n}</v></c><c t="inlineStr"><is><t>item {n % 977}</t></is></c>'
                f'<c><v>{n * 1.5}</v></c><c><v>{40000 + n % 3000}</v></c><c t="b"><v>{n % 2}'
                f'</v></c><c><v>{n % 7}</v></c><c t="inlineStr"><is><t>region {n % 13}</t>'
                f"</is></c><c><v>{n % 101}</v></c><c><v>{n / 8}</v></c><c><v>{n * 3}</v></c>"
                "</row>"
                for n in range(start, min(start + 10_000, rows + 1))
            ).encode()

    _write_workbook(path, _sheet(batches()), _strings(2))


def million_strings(path: Path, count: int = 1_000_000) -> None:
    """A shared-string table of `count` distinct strings under a sheet of three cells."""
    cells = [0, count // 2, count - 1]
    row = "".join(
        f'<row r="{i}"><c r="A{i}" t="s"><v>{s}</v></c></row>' for i, s in enumerate(cells, 1)
    )
    _write_workbook(path, _sheet(iter([row.encode()])), _strings(count))


def far_cell(path: Path) -> None:
    """Cells at the grid's four corners, up to XFD1048576, one merge and a dimension
    over the whole grid."""
    corners = (
        b'<row r="1"><c r="A1" t="inlineStr"><is><t>first</t></is></c>'
        b'<c r="XFD1" t="inlineStr"><is><t>top right</t></is></c></row>'
        b'<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>bottom left</t></is></c>'
        b'<c r="XFD1048576" t="inlineStr"><is><t>last</t></is></c></row>'
    )
    merge = b'<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>'
    _write_workbook(path, _sheet(iter([corners]), merge, "A1:XFD1048576"), _strings(0))


def small_workbook(mark: str) -> bytes:
    """A workbook of one sheet: a header row and a row holding `mark` and a percent."""
    members = _workbook_parts(mark)
    members["xl/worksheets/sheet1.xml"] = b"".join(
        _sheet(
            iter(
                [
                    b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
                    b'<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>1</v></c></row>'
                ]
            )
        )
    )
    members["xl/sharedStrings.xml"] = (
        f'<?xml version="1.0"?><sst xmlns="{_MAIN}"><si><t>name</t></si><si><t>value</t>'
        f"</si><si><t>{mark}</t></si></sst>"
    ).encode()
    return zip_members(members)


def zip_members(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()
