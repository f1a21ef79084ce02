"""Hostile and broken decks and workbooks: one clear line each, or a bounded conversion —
never a traceback, never a hang."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
from lxml import etree
from office_factory import (
    OLE_MAGIC,
    add_box,
    add_slide,
    deck,
    deck_bytes,
    encrypted_ole,
    rewrite_part,
    workbook_bytes,
    zip_bomb,
)

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import EncryptedDocumentError, ParseError, StructChunkError

ROOT = Path(__file__).resolve().parent.parent
CONTENT_TYPES = {
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
}
MAIN_PART = {"pptx": "ppt/presentation.xml", "xlsx": "xl/workbook.xml"}


def small_deck() -> bytes:
    presentation = deck("Deck")
    add_box(add_slide(presentation, "Slide"), "some text", 1, 2)
    return deck_bytes(presentation)


def small_workbook() -> bytes:
    def build(book: Any) -> None:
        sheet = book.create_sheet("Data")
        sheet.append(["a", "b"])
        sheet.append([1, 2])

    return workbook_bytes(build)


def small_document() -> bytes:
    document = docx.Document()
    document.add_paragraph("a letter")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


GOOD = {"pptx": small_deck, "xlsx": small_workbook}


def convert(data: bytes, kind: str) -> list[Any]:
    return list(iter_chunks_from_bytes(data, f"input.{kind}", None, ChunkOptions()))


def damage_compressed_data(data: bytes, member_suffix: str) -> bytes:
    """The package with one byte of a member's compressed data flipped."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    info = next(i for i in archive.infolist() if i.filename.endswith(member_suffix))
    damaged = bytearray(data)
    damaged[info.header_offset + 30 + len(info.filename) + len(info.extra) + 5] ^= 0xFF
    return bytes(damaged)


HOSTILE: dict[str, tuple[Callable[[str], bytes], type[StructChunkError], str]] = {
    "empty": (lambda kind: b"", ParseError, "the file is empty"),
    "text": (lambda kind: b"just some words", ParseError, "the file is not a"),
    "truncated": (lambda kind: GOOD[kind]()[:1500], ParseError, "the file is a damaged zip"),
    "encrypted": (lambda kind: encrypted_ole(), EncryptedDocumentError, "the file is a password"),
    "legacy binary": (
        lambda kind: OLE_MAGIC + b"\0" * 504 + "Workbook".encode("utf-16-le"),
        ParseError,
        "the file is a legacy Excel workbook (.xls)",
    ),
    "a Word document renamed": (
        lambda kind: small_document(),
        ParseError,
        "the file is a Word document (.docx)",
    ),
    "zip bomb": (
        lambda kind: zip_bomb(CONTENT_TYPES[kind]),
        ParseError,
        "the package's part 'bomb.xml' inflates",
    ),
    "corrupt compressed data": (
        lambda kind: damage_compressed_data(GOOD[kind](), MAIN_PART[kind]),
        ParseError,
        "the ",
    ),
    "main part not XML": (
        lambda kind: rewrite_part(GOOD[kind](), MAIN_PART[kind], lambda xml: xml[: len(xml) // 2]),
        ParseError,
        "the ",
    ),
}


@pytest.mark.parametrize("kind", ["pptx", "xlsx"])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_bad_file_fails_with_one_typed_line(case: str, kind: str) -> None:
    make, error, start = HOSTILE[case]
    with pytest.raises(error) as raised:
        convert(make(kind), kind)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"input.{kind}: {start}"), message


def test_a_deck_renamed_as_a_workbook_says_what_it_is() -> None:
    with pytest.raises(ParseError, match=r"is a PowerPoint presentation \(\.pptx\), not an Excel"):
        convert(small_deck(), "xlsx")
    with pytest.raises(ParseError, match="rename it or pass format='xlsx'"):
        convert(small_workbook(), "pptx")


def test_the_command_line_reports_a_bad_file_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "report.pptx"
    bad.write_bytes(encrypted_ole())
    run = subprocess.run(
        [sys.executable, "-m", "structchunk", "convert", str(bad), "-o", str(tmp_path / "o.jsonl")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if "password-protected" in line]
    assert len(errors) == 1 and str(bad) in errors[0]


def test_merged_ranges_over_the_whole_grid_are_bounded() -> None:
    def build(book: Any) -> None:
        sheet = book.create_sheet("Merged")
        for row in range(1, 200):
            sheet.append([f"r{row}", row, row * 2])

    ranges = ["A1:XFD1048576"] + [f"A{row}:C1048576" for row in range(2, 200)]
    merges = "".join(f'<mergeCell ref="{ref}"/>' for ref in ranges)  # overlapping, as no
    data = rewrite_part(  # spreadsheet program writes (openpyxl would fill every cell)
        workbook_bytes(build),
        "xl/worksheets/sheet1.xml",
        lambda xml: xml.replace(
            b"</sheetData>", f"</sheetData><mergeCells>{merges}</mergeCells>".encode()
        ),
    )
    start = time.perf_counter()
    chunks = convert(data, "xlsx")
    assert time.perf_counter() - start < 30
    assert chunks[0].body.startswith("| r1 | 1 | 2 |")


def test_a_diagonal_of_values_is_not_drawn_as_a_grid_of_empty_cells() -> None:
    def build(book: Any) -> None:
        sheet = book.create_sheet("Diagonal")
        for i in range(1, 1001):
            sheet.cell(i, i, f"v{i}")

    data = workbook_bytes(build)
    start = time.perf_counter()
    chunks = convert(data, "xlsx")
    assert time.perf_counter() - start < 30
    bodies = "\n".join(chunk.body for chunk in chunks)
    assert bodies.count("v") == 1000
    assert "|  |" not in bodies  # each value a one-cell row: no empty cell is drawn


def _mutate(xml: bytes, rng: random.Random) -> bytes:
    """Random damage a buggy writer might do: elements dropped or repeated, attributes and
    texts replaced by out-of-range or malformed values."""
    try:
        root = etree.fromstring(xml)
    except etree.XMLSyntaxError:
        return xml
    elements = list(root.iter())
    for _ in range(rng.randint(1, 6)):
        element = rng.choice(elements)
        parent = element.getparent()
        action = rng.randrange(4)
        if action == 0 and parent is not None:
            parent.remove(element)
        elif action == 1 and element.attrib:
            name = rng.choice(sorted(element.attrib))
            element.set(name, rng.choice(["", "-1", "999999999", "x", "A0", "ZZZZ1", "1:1"]))
        elif action == 2:
            element.text = rng.choice(["", "-5", "abc", "99999999999999999999", "1e400"])
        elif action == 3 and parent is not None and len(element) < 50:
            parent.append(etree.fromstring(etree.tostring(element)))
    return etree.tostring(root)


CORPUS = ROOT / "tests" / "corpus"
MUTATED = [
    ("pptx", CORPUS / "pptx" / "python-pptx-shp-shapes.pptx"),
    ("pptx", ROOT / "samples" / "slides-sample.pptx"),
    ("pptx", CORPUS / "pptx" / "docling-pptx_chart.pptx"),
    ("xlsx", ROOT / "samples" / "regional-sales.xlsx"),
    ("xlsx", CORPUS / "xlsx" / "docling-xlsx_02_sample_sales_data.xlsm"),
]


@pytest.mark.parametrize(("kind", "path"), MUTATED, ids=lambda v: getattr(v, "name", v))
def test_damaged_parts_convert_or_fail_in_one_line(kind: str, path: Path) -> None:
    rng = random.Random(path.name)
    data = path.read_bytes()
    parts = [
        n for n in zipfile.ZipFile(io.BytesIO(data)).namelist() if n.endswith((".xml", ".rels"))
    ]
    for _ in range(40):
        damaged = rewrite_part(data, rng.choice(parts), lambda xml: _mutate(xml, rng))
        try:
            convert(damaged, kind)
        except StructChunkError as error:
            assert "\n" not in str(error)
