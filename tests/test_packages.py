"""Zip packages (DOCX, PPTX, XLSX, EPUB) are recognised by content and opened within bounds."""

from __future__ import annotations

import contextlib
import io
import os
import re
import struct
import threading
import time
import zipfile
from pathlib import Path

import pytest
from package_inputs import (
    BASES,
    PARTS,
    many_members,
    package_members,
    with_entities,
    zip_package,
)

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import EncryptedDocumentError, ParseError, StructChunkError
from structchunk.options import as_flag
from structchunk.parsers import packages
from structchunk.parsers.packages import describe, open_package
from structchunk.parsers.prologs import declares_dtd

CONTENT_TYPES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
}


def ooxml_types(kind: str) -> str:
    """`[Content_Types].xml` saying `kind`."""
    return (
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/'
        f'2006/content-types"><Override PartName="/main.xml" ContentType="'
        f'{CONTENT_TYPES[kind]}"/></Types>'
    )


def ooxml(kind: str, extra: dict[str, bytes] | None = None) -> bytes:
    """A minimal package whose content types say `kind`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", ooxml_types(kind))
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def epub(with_mimetype: bool = True) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        if with_mimetype:
            archive.writestr("mimetype", "application/epub+zip")
        archive.writestr("META-INF/container.xml", "<container/>")
    return buffer.getvalue()


def ole(stream_name: str) -> bytes:
    """The start of an OLE compound file naming one stream in its directory."""
    return packages.OLE_MAGIC + b"\0" * 504 + stream_name.encode("utf-16-le") + b"\0" * 64


@pytest.mark.parametrize("kind", ["docx", "pptx", "xlsx"])
def test_an_office_package_is_known_by_its_content_types(kind: str) -> None:
    package = open_package(ooxml(kind), kind)  # type: ignore[arg-type]
    assert package.kind == kind
    assert "[Content_Types].xml" in package.names()


@pytest.mark.parametrize("with_mimetype", [True, False])
def test_an_epub_is_known_by_its_mimetype_or_container(with_mimetype: bool) -> None:
    assert open_package(epub(with_mimetype), "epub").kind == "epub"


def test_a_renamed_file_says_what_it_is_and_how_to_read_it() -> None:
    with pytest.raises(ParseError) as caught:
        open_package(ooxml("xlsx"), "docx")
    message = str(caught.value)
    assert "an Excel workbook (.xlsx), not a Word document (.docx)" in message
    assert "rename it or pass format='xlsx'" in message  # the library's terms
    assert caught.value.in_terms(as_flag).endswith("rename it or pass --format xlsx")
    assert "\n" not in message


def test_a_zip_of_something_else_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8")
    with pytest.raises(ParseError, match="a zip archive of something else, not a Word"):
        open_package(buffer.getvalue(), "docx")


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"", "empty"),
        (b"%PDF-1.7\n...", "a PDF, not a PowerPoint presentation.*format='pdf'"),
        (b"<html><body>hi</body></html>", "an HTML or XML file"),
        (b"plain words", "not a zip package"),
    ],
)
def test_what_is_not_a_zip_is_named(data: bytes, said: str) -> None:
    with pytest.raises(ParseError, match=said):
        open_package(data, "pptx")


def test_a_damaged_zip_is_one_parse_error() -> None:
    data = ooxml("docx")
    with pytest.raises(ParseError, match="damaged zip package"):
        open_package(data[: len(data) // 2], "docx")


def test_a_password_protected_office_file_is_an_encryption_error() -> None:
    with pytest.raises(EncryptedDocumentError, match="password-protected Excel workbook"):
        open_package(ole("EncryptedPackage"), "xlsx")


def test_a_legacy_binary_file_is_named() -> None:
    with pytest.raises(ParseError, match=r"legacy Word document \(\.doc\)"):
        open_package(ole("WordDocument"), "docx")
    assert describe(ole("PowerPoint Document")) == "a legacy PowerPoint file (.ppt)"


def test_a_zip_bomb_is_refused_by_its_declared_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packages, "DEFAULT_MAX_UNPACKED_BYTES", 1 << 20)
    data = ooxml("docx", {f"word/part{i}.xml": b"\0" * (600 << 10) for i in range(2)})
    with pytest.raises(ParseError, match="unpacks to 1 MB .*zip bomb"):
        open_package(data, "docx")


def test_a_member_compressed_past_any_real_ratio_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(packages, "_RATIO_FLOOR", 1 << 20)
    monkeypatch.setattr(packages, "DEFAULT_MAX_MEMBER_RATIO", 100)
    data = ooxml("docx", {"word/document.xml": b"\0" * (4 << 20)})
    with pytest.raises(ParseError, match="'word/document.xml' inflates .* zip bomb"):
        open_package(data, "docx")


def test_too_many_members_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packages, "DEFAULT_MAX_MEMBERS", 10)
    data = ooxml("pptx", {f"ppt/x{i}.xml": b"" for i in range(12)})
    with pytest.raises(ParseError, match="13 parts"):
        open_package(data, "pptx")


def test_reading_a_missing_part_is_a_parse_error() -> None:
    package = open_package(ooxml("docx"), "docx")
    with pytest.raises(ParseError, match="no part 'word/document.xml'"):
        package.read("word/document.xml")


def test_a_part_whose_compressed_data_is_corrupt_is_one_parse_error() -> None:
    """Before: zlib.error escaped `read` as a traceback."""
    data = bytearray(ooxml("docx", {"word/document.xml": b"<w:document>" * 2000}))
    local = data.index(b"word/document.xml") + len("word/document.xml")
    data[local + 20 : local + 60] = b"\xff" * 40  # inside the member's deflated bytes
    package = open_package(bytes(data), "docx")
    with pytest.raises(ParseError, match="'word/document.xml' is damaged"):
        package.read("word/document.xml")


OFFICE_PARTS = [(kind, part) for kind in ("docx", "pptx", "xlsx") for part in PARTS[kind]]


@pytest.mark.parametrize("attack", ["xxe", "laughs"])
@pytest.mark.parametrize(("kind", "part"), OFFICE_PARTS, ids=[f"{k}:{p}" for k, p in OFFICE_PARTS])
def test_a_dtd_in_any_office_part_is_refused_in_one_place(
    kind: str, part: str, attack: str
) -> None:
    """Before: refused in a Word document only; a workbook whose relationships held an
    entity bomb converted to nothing, and a deck or workbook with an external entity
    converted with it left out."""
    members = package_members(BASES[kind]())
    members[part] = with_entities(members[part], attack)
    with pytest.raises(ParseError, match=rf"part '{re.escape(part)}' declares a DTD"):
        open_package(zip_package(members), kind)  # type: ignore[arg-type]


def test_a_dtd_is_found_past_a_long_comment_and_in_utf16() -> None:
    dtd = '<!DOCTYPE r [<!ENTITY e "e">]>'
    assert declares_dtd(io.BytesIO(f"<?xml version='1.0'?><!--{'x' * 50_000}-->{dtd}<r/>".encode()))
    assert declares_dtd(
        io.BytesIO(f'<?xml version="1.0" encoding="utf-16"?>{dtd}<r/>'.encode("utf-16"))
    )
    assert not declares_dtd(io.BytesIO(b'<?xml version="1.0"?><r><![CDATA[<!DOCTYPE]]></r>'))
    assert not declares_dtd(io.BytesIO(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 100))


def test_an_epub_may_declare_a_dtd() -> None:
    """An EPUB 2 NCX declares its DTD by the standard: the book opens (nothing loaded)."""
    members = package_members(BASES["epub"]())
    members["OEBPS/toc.ncx"] = with_entities(members["OEBPS/toc.ncx"], "xxe")
    assert open_package(zip_package(members), "epub").kind == "epub"


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_part_compressed_other_than_by_deflate_is_refused(method: int) -> None:
    """Before: `zipfile` hands bzip2 and LZMA decompressors whole pieces of input, past a
    member's declared size; a 40 KB DOCX whose bzip2 part claimed 1 MB peaked at 8.4 GB."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", ooxml_types("docx"))
        archive.writestr("word/document.xml", b" " * 100_000, compress_type=method)
    with pytest.raises(ParseError, match="'word/document.xml' is compressed with (bzip2|LZMA)"):
        open_package(buffer.getvalue(), "docx")


class OpenedProbe:
    """A named pipe that records whether anyone opened it to read: a reader's open blocks
    until a writer comes, so the probe, trying to open it for writing until `close`, sees
    every reader (and lets it go with an empty read)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self.opened = False
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.is_set():
            try:
                descriptor = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader has it open
                time.sleep(0.001)
                continue
            self.opened = True
            os.close(descriptor)

    def close(self) -> bool:
        self.done.set()
        self.thread.join()
        return self.opened


def _outside_epub(target: Path) -> bytes:
    members = package_members(BASES["epub"]())
    members["META-INF/container.xml"] = members["META-INF/container.xml"].replace(
        b"<rootfiles>", f'<rootfiles><rootfile full-path="{target}"/>'.encode()
    )
    item = f'<item id="out" href="../../../../{target}" media-type="application/xhtml+xml"/>'
    opf = members["OEBPS/content.opf"].replace(b"</manifest>", f"{item}</manifest>".encode())
    members["OEBPS/content.opf"] = opf.replace(b"</spine>", b'<itemref idref="out"/></spine>')
    return zip_package(members)


ALL_PARTS = [(kind, part) for kind in PARTS for part in PARTS[kind]]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize(("kind", "part"), [*ALL_PARTS, ("epub", "paths")], ids=str)
def test_nothing_outside_the_package_is_ever_opened(kind: str, part: str, tmp_path: Path) -> None:
    """External entities in every part, and an e-book's paths to a file outside it."""
    probe = OpenedProbe(tmp_path / "outside")
    if part == "paths":
        data = _outside_epub(probe.path)
    else:
        members = package_members(BASES[kind]())
        members[part] = with_entities(members[part], "xxe", probe.path.as_uri())
        data = zip_package(members)
    with contextlib.suppress(StructChunkError):  # refused in one line: fine, if unopened
        list(iter_chunks_from_bytes(data, f"input.{kind}", kind, ChunkOptions()))  # type: ignore[arg-type]
    assert not probe.close()


def test_the_probe_sees_a_reader(tmp_path: Path) -> None:
    probe = OpenedProbe(tmp_path / "outside")
    assert probe.path.read_bytes() == b""
    assert probe.close()


def _no_zipfile(*args: object) -> None:
    raise AssertionError("the directory was read")


def test_too_many_members_are_refused_before_the_directory_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: `zipfile` made an object per entry first (a million: 8.5 s, 650 MB)."""
    monkeypatch.setattr(packages, "DEFAULT_MAX_MEMBERS", 10)
    data = ooxml("pptx", {f"ppt/x{i}.xml": b"" for i in range(12)})
    monkeypatch.setattr(packages.zipfile, "ZipFile", _no_zipfile)
    with pytest.raises(ParseError, match="13 parts"):
        open_package(data, "pptx")


def test_a_directory_bigger_than_its_declared_count_needs_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An end record may understate the count; `zipfile` reads the directory's bytes."""
    monkeypatch.setattr(packages, "DEFAULT_MAX_MEMBERS", 10)
    data = bytearray(ooxml("pptx", {f"ppt/{'x' * 400}{i}.xml": b"" for i in range(9)}))
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<HH", 1, 1)  # "one member"
    monkeypatch.setattr(packages.zipfile, "ZipFile", _no_zipfile)
    with pytest.raises(ParseError, match="directory takes .* room for more than 10 parts"):
        open_package(bytes(data), "pptx")


def test_a_zip64_directory_is_judged_by_its_zip64_record(tmp_path: Path) -> None:
    path = tmp_path / "many.xlsx"
    many_members(path, "xlsx", count=70_000)  # past 65 535: a zip64 end record
    expected = len(package_members(BASES["xlsx"]())) + 70_000
    assert packages._declared_directory(path.read_bytes())[0] == expected


def test_a_bomb_split_into_parts_under_the_floor_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: each part passed the per-member check, being under its floor."""
    monkeypatch.setattr(packages, "_RATIO_FLOOR", 1 << 20)
    data = ooxml("pptx", {f"ppt/media/image{i}.png": b"\0" * (900 << 10) for i in range(4)})
    with pytest.raises(ParseError, match=r"unpack to 3,686,\d+, more than 200:1"):
        open_package(data, "pptx")
