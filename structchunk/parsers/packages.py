"""Zip-based documents (DOCX, PPTX, XLSX, EPUB): what a file really is, opened within bounds.

Office files and e-books are zip packages. Before a parser (or the library it uses) reads
one, `open_package` checks three things and fails with one line naming the problem:

- the bytes are a zip of the expected kind — a renamed file, a `.docx` that is really a
  spreadsheet, or a zip of something else entirely says what it is instead;
- it is not a password-protected Office file (those are OLE compound files holding an
  `EncryptedPackage` stream, not zips) nor a legacy binary `.doc`/`.xls`/`.ppt`;
- its members' declared sizes stay under `DEFAULT_MAX_UNPACKED_BYTES` and their count
  under `DEFAULT_MAX_MEMBERS` (a zip bomb). Python's `zipfile` never inflates a member
  past its declared size, so this bound also holds for python-docx, python-pptx and
  openpyxl, which read the package through `zipfile`;
- in an Office package, no XML part declares a DTD (`REFUSES_DTD`): that is where
  external entities (XXE) and entity bombs live, and the packaging standard forbids them.

Every XML part is also parsed without entity expansion, DTD loading or network access
(`SAFE_XML`), and parts are only ever looked up among the zip's members, so nothing
outside the package is read.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import Literal

from lxml import etree

from ..errors import OPTION_SLOT, EncryptedDocumentError, OptionHint, ParseError
from .prologs import declares_dtd

PackageKind = Literal["docx", "pptx", "xlsx", "epub"]

DEFAULT_MAX_UNPACKED_BYTES = 1 << 30
"""Sum of the members' uncompressed sizes a package may declare (1 GiB). The largest
real documents seen are far below it: a 400-page DOCX report unpacks to about 40 MB, and
a 100 000-row XLSX sheet to about 60 MB; a bomb declares many gigabytes."""
DEFAULT_MAX_MEMBERS = 100_000
"""Members a package may hold: a long deck has a few thousand parts, an e-book a few
hundred; a zip of millions of empty members is an attack on the directory reader."""
DIRECTORY_BYTES_PER_MEMBER = 256
"""Central-directory bytes allowed per member (`DEFAULT_MAX_MEMBERS` of them) before the
directory is read: an entry is 46 bytes and its name, 80 to 150 in real packages.
`zipfile` builds an object for every entry before any check can count them (a million
entries took 8.5 s and 650 MB), so the directory's declared size is checked first."""
DEFAULT_MAX_MEMBER_RATIO = 1_000
"""Largest compression ratio allowed for a member over `_RATIO_FLOOR` bytes. XML
compresses up to about 100:1 (sheets of one repeated value reach 300:1); bombs are
1 000:1 and more."""
_RATIO_FLOOR = 16 << 20
DEFAULT_MAX_PACKAGE_RATIO = 200
"""Largest compression ratio of the whole package once it unpacks to over `_RATIO_FLOOR`
bytes: the members' declared sizes over their compressed sizes. The corpus's packages
unpack at 24:1 at most, and a large real package owes its size to images, which barely
compress (a sheet of one value repeated over 16 MB, at 300:1, is refused). A bomb split
into parts each under the floor passes the per-member check — 63 parts of 16 MiB made a
1 MiB deck that python-pptx read into 1 076 MB — and 3 MiB of identical paragraphs
unpack at 330:1 to a 1 GiB body (200 MB of it took 192 s and 1.86 GB to convert)."""
COMPRESSIONS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
"""The compression methods a package's members may use: Office and EPUB (OCF) write only
these. `zipfile` bounds a deflated member by its declared size as it inflates, but
hands a bzip2 or LZMA member's decompressor whole pieces of input: a 40 KB DOCX whose
bzip2 part claims 1 MB peaked at 8.4 GB."""
_OTHER_COMPRESSIONS = {9: "Deflate64", zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}

REFUSES_DTD: frozenset[PackageKind] = frozenset({"docx", "pptx", "xlsx"})
"""Package kinds whose XML parts may not declare a DTD: the Open Packaging Conventions
(ECMA-376 Part 2) forbid DTDs in a package's XML, and Office never writes one. An EPUB
may (an EPUB 2 NCX and XHTML 1.1 chapters declare theirs by the standard); its DTDs are
never loaded and its entities never expanded."""
_XML_PART_SUFFIXES = (".xml", ".rels")
"""The Office parts checked for a DTD: every XML part the readers (and python-pptx) read
by its usual name; a part's prolog only is read, so a big sheet costs nothing."""

SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
"""For a package's small XML parts: entities left unresolved, no network, lxml's default
limits on tree size."""

ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""An OLE compound file: legacy .doc/.xls/.ppt, or an encrypted OOXML package."""

NOT_A_ZIP = "not a zip package"
"""What `describe` says of bytes it does not recognise."""

_ENCRYPTED_STREAM = "EncryptedPackage".encode("utf-16-le")

KIND_NAMES: dict[PackageKind, str] = {
    "docx": "a Word document (.docx)",
    "pptx": "a PowerPoint presentation (.pptx)",
    "xlsx": "an Excel workbook (.xlsx)",
    "epub": "an EPUB e-book (.epub)",
}

_CONTENT_TYPES: tuple[tuple[PackageKind, re.Pattern[bytes]], ...] = (
    ("docx", re.compile(rb"wordprocessingml\.(?:document|template)\.main\+xml|ms-word\.")),
    (
        "pptx",
        re.compile(
            rb"presentationml\.(?:presentation|slideshow|template)\.main\+xml"
            rb"|ms-powerpoint\."
        ),
    ),
    ("xlsx", re.compile(rb"spreadsheetml\.(?:sheet|template)\.main\+xml|ms-excel\.")),
)
_CONTENT_TYPES_LIMIT = 1 << 20
"""`[Content_Types].xml` is a few kilobytes; read no more than this of it."""

_LEGACY_OLE: tuple[tuple[bytes, str], ...] = (
    ("WordDocument".encode("utf-16-le"), "a legacy Word document (.doc)"),
    ("Workbook".encode("utf-16-le"), "a legacy Excel workbook (.xls)"),
    ("PowerPoint Document".encode("utf-16-le"), "a legacy PowerPoint file (.ppt)"),
)


@dataclass(frozen=True)
class Package:
    """An open zip package whose kind and size were checked."""

    kind: PackageKind
    zip: zipfile.ZipFile
    data: bytes

    def names(self) -> list[str]:
        return self.zip.namelist()

    def read(self, name: str) -> bytes:
        """One member's bytes (at most its checked, declared size)."""
        try:
            return self.zip.read(name)
        except KeyError:
            raise ParseError(f"the package has no part {name!r}") from None
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as error:
            raise ParseError(f"the package's part {name!r} is damaged ({error})") from None

    def stream(self) -> io.BytesIO:
        """The package bytes as a file object, for libraries that open it themselves (a
        package whose part names had backslashes is written anew with slashes, which is
        how those libraries look parts up)."""
        if not any(info.orig_filename != info.filename for info in self.zip.infolist()):
            return io.BytesIO(self.data)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as copy:
            for info in self.zip.infolist():
                copy.writestr(info.filename, self.read(info.filename), info.compress_type)
        out.seek(0)
        return out


def describe(data: bytes) -> str:
    """What `data` looks like, in words for an error message ("a PDF", "an EPUB e-book …")."""
    head = data[:1024].lstrip()
    if not data:
        return "an empty file"
    if head.startswith(b"%PDF-") or b"%PDF-" in data[:1024]:
        return "a PDF"
    if data.startswith(OLE_MAGIC):
        return _describe_ole(data)
    if data.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC)):
        kind = _zip_kind(data)
        return KIND_NAMES[kind] if kind else "a zip archive of something else"
    if head[:1] == b"<":
        return "an HTML or XML file"
    return NOT_A_ZIP


def open_package(data: bytes, expected: PackageKind) -> Package:
    """The package in `data`, checked to be `expected` and within bounds.

    Raises `EncryptedDocumentError` for a password-protected Office file and
    `ParseError` for anything else that is not a sound package of that kind.
    """
    if data.startswith(OLE_MAGIC):
        if _ENCRYPTED_STREAM in data:
            raise EncryptedDocumentError(
                f"the file is a password-protected {_KIND_WORD[expected]}; "
                "remove the password (save an unprotected copy) and convert that"
            )
        raise ParseError(
            f"the file is {_describe_ole(data)}, not {KIND_NAMES[expected]}; "
            "save it in the current format first"
        )
    archive = _open_zip(data, expected)
    kind = _kind_of(archive)
    if kind != expected:
        what = KIND_NAMES[kind] if kind else "a zip archive of something else"
        advice = f"; rename it or pass {OPTION_SLOT}" if kind else ""
        raise ParseError(
            f"the file is {what}, not {KIND_NAMES[expected]}{advice}",
            hint=OptionHint("format", kind) if kind else None,
        )
    _check_bounds(archive)
    if expected in REFUSES_DTD:
        _refuse_dtds(archive)
    return Package(kind=expected, zip=archive, data=data)


_KIND_WORD: dict[PackageKind, str] = {
    "docx": "Word document",
    "pptx": "PowerPoint presentation",
    "xlsx": "Excel workbook",
    "epub": "e-book",
}


def slash_names(archive: zipfile.ZipFile) -> zipfile.ZipFile:
    """`archive` with every member named with `/` between folders: some writers store
    `xl\\workbook.xml` (a Windows path), which Office, .NET and Java readers open; the
    name a member was stored under is kept for checking its local header."""
    infos = archive.infolist()
    if not any("\\" in info.filename for info in infos):
        return archive
    for info in infos:
        info.filename = info.filename.replace("\\", "/")
    archive.NameToInfo = {}
    for info in infos:
        archive.NameToInfo.setdefault(info.filename, info)
    return archive


def _describe_ole(data: bytes) -> str:
    if _ENCRYPTED_STREAM in data:
        return "a password-protected Office file"
    for marker, name in _LEGACY_OLE:
        if marker in data:
            return name
    return "an OLE compound file (a legacy Office format)"


def _open_zip(data: bytes, expected: PackageKind) -> zipfile.ZipFile:
    if not data:
        raise ParseError(f"the file is empty, not {KIND_NAMES[expected]}")
    if not data.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC)):
        what = describe(data)
        if what == NOT_A_ZIP:
            raise ParseError(
                f"the file is not {KIND_NAMES[expected]}: it is not a zip package, as "
                f"every {KIND_NAMES[expected].rsplit(' ', 1)[-1].strip('()')} file is"
            )
        pdf = what == "a PDF"
        advice = f"; rename it or pass {OPTION_SLOT}" if pdf else ""
        raise ParseError(
            f"the file is {what}, not {KIND_NAMES[expected]}{advice}",
            hint=OptionHint("format", "pdf") if pdf else None,
        )
    _check_directory(data)
    try:
        return slash_names(zipfile.ZipFile(io.BytesIO(data)))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
        raise ParseError(
            f"the file is a damaged zip package ({error}), not a readable {_KIND_WORD[expected]}"
        ) from None


def _check_directory(data: bytes) -> None:
    """Refuse a zip whose end record declares more members, or a bigger central
    directory, than a package may have, before `zipfile` reads the directory."""
    entries, size = _declared_directory(data)
    if entries > DEFAULT_MAX_MEMBERS:
        raise ParseError(_too_many(entries))
    if size > DEFAULT_MAX_MEMBERS * DIRECTORY_BYTES_PER_MEMBER:
        raise ParseError(
            f"the package's directory takes {size / (1 << 20):,.0f} MB, room for more than "
            f"{DEFAULT_MAX_MEMBERS:,} parts; refused as a possible zip bomb"
        )


def _declared_directory(data: bytes) -> tuple[int, int]:
    """(members, central directory bytes) the zip's end record declares, its zip64 record
    when there is one; (0, 0) when there is no end record (`zipfile` then says so)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - (1 << 16) - 22))
    if end < 0 or end + 22 > len(data):
        return 0, 0
    entries, size = struct.unpack_from("<HI", data, end + 10)
    locator = end - 20
    if locator >= 56 and data[locator : locator + 4] == b"PK\x06\x07":
        record = locator - 56  # the zip64 end record comes just before its locator
        if data[record : record + 4] == b"PK\x06\x06":
            entries, size = struct.unpack_from("<QQ", data, record + 32)
    return entries, size


def _too_many(count: int) -> str:
    return (
        f"the package holds {count:,} parts (more than {DEFAULT_MAX_MEMBERS:,}); "
        "refused as a possible zip bomb"
    )


def package_kind(data: bytes) -> PackageKind | None:
    """The kind of an Office or EPUB zip package, by its parts; None for other bytes."""
    return _zip_kind(data) if data.startswith(ZIP_MAGIC) else None


def _zip_kind(data: bytes) -> PackageKind | None:
    try:
        return _kind_of(slash_names(zipfile.ZipFile(io.BytesIO(data))))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        return None


def _kind_of(archive: zipfile.ZipFile) -> PackageKind | None:
    """The package kind by its parts: OOXML's content types, or EPUB's `mimetype`."""
    names = set(archive.namelist())
    if "[Content_Types].xml" in names:
        types = _read_small(archive, "[Content_Types].xml")
        for kind, pattern in _CONTENT_TYPES:
            if pattern.search(types):
                return kind
    if "mimetype" in names and _read_small(archive, "mimetype").strip() == (
        b"application/epub+zip"
    ):
        return "epub"
    if "META-INF/container.xml" in names:
        return "epub"  # an e-book zipped without its mimetype member still opens in readers
    return None


def _read_small(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        with archive.open(name) as member:
            return member.read(_CONTENT_TYPES_LIMIT)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return b""


def _check_bounds(archive: zipfile.ZipFile) -> None:
    infos = archive.infolist()
    if len(infos) > DEFAULT_MAX_MEMBERS:
        raise ParseError(_too_many(len(infos)))
    total = compressed = 0
    for info in infos:
        if info.compress_type not in COMPRESSIONS:
            method = _OTHER_COMPRESSIONS.get(info.compress_type, f"method {info.compress_type}")
            raise ParseError(
                f"the package's part {info.filename!r} is compressed with {method}, which "
                "Office and EPUB packages never use (a zip bomb?); refused"
            )
        total += info.file_size
        compressed += info.compress_size
        if info.file_size > _RATIO_FLOOR and info.file_size > DEFAULT_MAX_MEMBER_RATIO * max(
            info.compress_size, 1
        ):
            raise ParseError(
                f"the package's part {info.filename!r} inflates {info.compress_size:,} bytes "
                f"to {info.file_size:,} (a zip bomb?); refused"
            )
    if total > DEFAULT_MAX_UNPACKED_BYTES:
        raise ParseError(
            f"the package unpacks to {total / (1 << 20):,.0f} MB (more than "
            f"{DEFAULT_MAX_UNPACKED_BYTES >> 20:,} MB); refused as a possible zip bomb"
        )
    if total > _RATIO_FLOOR and total > DEFAULT_MAX_PACKAGE_RATIO * max(compressed, 1):
        raise ParseError(
            f"the package's {compressed:,} compressed bytes unpack to {total:,}, more than "
            f"{DEFAULT_MAX_PACKAGE_RATIO}:1 (a zip bomb?); refused"
        )


def _refuse_dtds(archive: zipfile.ZipFile) -> None:
    for info in archive.infolist():
        if not info.filename.lower().endswith(_XML_PART_SUFFIXES) or not info.file_size:
            continue
        try:
            with archive.open(info) as member:
                found = declares_dtd(member)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError):
            continue  # a damaged part is reported by the reader that needs it, if any
        if found:
            raise ParseError(
                f"the document part {info.filename!r} declares a DTD, which Office files "
                "never do; refused"
            )
