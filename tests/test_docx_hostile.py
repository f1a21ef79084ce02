"""Word files that are damaged, disguised, encrypted or built to hurt: one typed line each,
or a conversion that stays bounded."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from docx_factory import (
    NAMESPACES,
    add_style,
    blocks,
    body_xml,
    new,
    outline,
    para,
    read,
    run,
    styled,
    texts,
    to_bytes,
)

from structchunk.document import ListBlock
from structchunk.errors import EncryptedDocumentError, ParseError
from structchunk.parsers.packages import OLE_MAGIC


def with_part(data: bytes, name: str, content: bytes | None) -> bytes:
    """`data` with one part replaced (or removed, for None)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != name:
                target.writestr(info.filename, source.read(info.filename))
        if content is not None:
            target.writestr(name, content)
    return out.getvalue()


def with_body(body: str, prolog: str = "") -> bytes:
    """A Word package whose main document body is `body` (raw WordprocessingML)."""
    document = (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<w:document {NAMESPACES}>'
        f"<w:body>{body}<w:sectPr/></w:body></w:document>"
    )
    return with_part(to_bytes(new()), "word/document.xml", document.encode())


def one_line_error(data: bytes, kind: type[Exception] = ParseError) -> str:
    with pytest.raises(kind) as caught:
        read(data)
    message = str(caught.value)
    assert "\n" not in message and message
    return message


def test_a_truncated_file_is_one_line() -> None:
    data = to_bytes(new())
    assert "damaged zip package" in one_line_error(data[: len(data) // 2])


def test_a_damaged_main_part_is_one_line() -> None:
    data = bytearray(with_body("<w:p><w:r><w:t>" + "text " * 5000 + "</w:t></w:r></w:p>"))
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("word/document.xml")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + 40 : start + 80] = b"\xff" * 40  # corrupt the deflated stream
    message = one_line_error(bytes(data))
    assert "word/document.xml" in message


def test_a_renamed_workbook_says_what_it_is() -> None:
    book = openpyxl.Workbook()
    buffer = io.BytesIO()
    book.save(buffer)
    message = one_line_error(buffer.getvalue())
    assert "an Excel workbook (.xlsx), not a Word document (.docx)" in message


def test_a_password_protected_document_is_an_encryption_error() -> None:
    data = OLE_MAGIC + b"\0" * 504 + "EncryptedPackage".encode("utf-16-le") + b"\0" * 64
    assert "password-protected Word document" in one_line_error(data, EncryptedDocumentError)


def test_a_zip_bomb_is_refused_by_its_declared_size() -> None:
    data = bytearray(to_bytes(new()))
    entry = data.rfind(b"word/document.xml")  # its central directory entry comes last
    header = data.rfind(b"PK\x01\x02", 0, entry)
    data[header + 24 : header + 28] = struct.pack("<I", 0xFFFFFFF0)  # declares 4 GB
    assert "zip bomb" in one_line_error(bytes(data))


def test_a_document_without_a_main_part_is_one_line() -> None:
    data = with_part(to_bytes(new()), "word/document.xml", None)
    assert "no main document part" in one_line_error(data)


def test_malformed_xml_is_one_line() -> None:
    message = one_line_error(with_body("<w:p><w:r><w:t>unclosed</w:r></w:p>"))
    assert "'word/document.xml' is not well-formed XML" in message


def test_a_table_nested_5000_deep_is_refused_in_one_line() -> None:
    depth = 5000
    body = "<w:tbl><w:tr><w:tc>" * depth + "<w:p/>" + "</w:tc></w:tr></w:tbl>" * depth
    assert "nests its elements more than 256 deep" in one_line_error(with_body(body))


def test_tables_nested_as_deep_as_the_parser_allows_are_read() -> None:
    depth = 60  # 3 elements per level: within the 256-deep limit
    body = (
        "<w:tbl><w:tr><w:tc>" * depth
        + "<w:p><w:r><w:t>deepest</w:t></w:r></w:p>"
        + "</w:tc></w:tr></w:tbl>" * depth
    )
    tree = read(with_body(body))
    assert "deepest" in " ".join(texts(tree))


def test_list_levels_beyond_word_s_nine_are_clamped() -> None:
    items = "".join(
        f'<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="1"/></w:numPr>'
        f"</w:pPr><w:r><w:t>item{level}</w:t></w:r></w:p>"
        for level in range(5000)
    )
    (block,) = blocks(read(with_body(items)))
    assert isinstance(block, ListBlock)
    assert len(block.items) == 5000
    assert max(item.depth for item in block.items) == 8


def test_a_loop_of_based_on_styles_ends() -> None:
    doc = new()
    add_style(doc, "A", "A", based_on="B")
    add_style(doc, "B", "B", based_on="A")
    body_xml(doc, para(run("looped"), styled("A")))
    assert texts(read(doc)) == ["looped"]


@pytest.mark.parametrize(
    "entity",
    ['<!ENTITY e SYSTEM "file:///etc/passwd">', '<!ENTITY a "aaaa"><!ENTITY e "&a;&a;&a;&a;">'],
    ids=["external", "expanding"],
)
def test_a_part_declaring_a_dtd_is_refused(entity: str) -> None:
    data = with_body("<w:p><w:r><w:t>x&e;y</w:t></w:r></w:p>", f"<!DOCTYPE w:document [{entity}]>")
    assert "declares a DTD" in one_line_error(data)


def test_a_dtd_in_the_styles_part_is_refused_too() -> None:
    styles = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "e">]><w:styles xmlns:w="x"/>'
    data = with_part(to_bytes(new()), "word/styles.xml", styles)
    assert "'word/styles.xml' declares a DTD" in one_line_error(data)


def test_a_hostile_grid_span_is_capped() -> None:
    body = (
        '<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="999999999"/></w:tcPr>'
        "<w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc></w:tr>"
        "<w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    )
    tree = read(with_body(body))
    assert tree.sections()[0].blocks


def test_a_huge_document_converts_in_bounded_time() -> None:
    paragraph = "<w:p><w:r><w:t>" + "word " * 50 + "</w:t></w:r></w:p>"
    heading = '<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>Part</w:t></w:r></w:p>'
    body = (heading + paragraph * 99) * 200  # 20 000 paragraphs, 1 000 000 words
    data = with_body(body)
    started = time.perf_counter()
    tree = read(data)
    assert time.perf_counter() - started < 60
    assert len(outline(tree)) == 200


def test_the_cli_reports_a_corrupt_word_file_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.docx"
    path.write_bytes(to_bytes(new())[:300])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "structchunk",
            "convert",
            str(path),
            "-o",
            str(tmp_path / "o.jsonl"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    problem = [line for line in result.stderr.splitlines() if "broken.docx" in line]
    assert problem and "damaged zip package" in problem[0]
