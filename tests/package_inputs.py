"""Hostile zip packages (DOCX, PPTX, XLSX, EPUB) written to a path, for the hostile-input
gate and the unit tests: entities in any part, bombs, huge member counts, e-books
pointing out of the package (large workbooks: workbook_inputs.py). The large ones are
streamed through `ZipStream`, so building them costs the test process a few megabytes.
"""

from __future__ import annotations

import bz2
import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import docx
from epub_factory import Toc, make_epub
from office_factory import add_box, add_slide, deck, deck_bytes
from workbook_inputs import REL, small_workbook
from zip_stream import ZipStream

MARK = "HOSTILEMARK"
"""A word written into every text a base package has, where an entity reference goes."""

XXE_DTD = (
    '<!DOCTYPE {root} SYSTEM "{target}" ['
    '<!ENTITY % ext SYSTEM "{target}">'
    '<!ENTITY xxe SYSTEM "{target}">'
    "]>"
)
"""An external subset, an external parameter entity and an external general entity, all
naming a file outside the package."""
LAUGHS_DTD = (
    "<!DOCTYPE {root} ["
    '<!ENTITY l0 "ha">'
    + "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10))
    + "]>"
)
"""Billion laughs: `&l9;` is 10⁹ copies of "ha" (2 GB) when expanded."""

KINDS = ("docx", "pptx", "xlsx", "epub")
PARTS: dict[str, tuple[str, ...]] = {
    "docx": (
        "[Content_Types].xml",
        "_rels/.rels",
        "word/document.xml",
        "word/_rels/document.xml.rels",
        "word/styles.xml",
        "docProps/core.xml",
    ),
    "pptx": (
        "[Content_Types].xml",
        "_rels/.rels",
        "ppt/presentation.xml",
        "ppt/_rels/presentation.xml.rels",
        "ppt/slides/slide1.xml",
        "docProps/core.xml",
    ),
    "xlsx": (
        "[Content_Types].xml",
        "_rels/.rels",
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
        "xl/worksheets/sheet1.xml",
        "xl/sharedStrings.xml",
        "xl/styles.xml",
        "docProps/core.xml",
    ),
    "epub": (
        "META-INF/container.xml",
        "OEBPS/content.opf",
        "OEBPS/nav.xhtml",
        "OEBPS/toc.ncx",
        "OEBPS/c1.xhtml",
    ),
}
"""The parts of each kind's base package that entities are put in, one at a time."""


# --- small sound packages -----------------------------------------------------------


def _docx() -> bytes:
    document = docx.Document()
    document.core_properties.title = MARK
    document.add_heading(MARK, 1)
    document.add_paragraph(f"a paragraph {MARK}")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _pptx() -> bytes:
    presentation = deck(MARK)
    add_box(add_slide(presentation, MARK), f"a box {MARK}", 1, 2)
    return deck_bytes(presentation)


def _xlsx() -> bytes:
    return small_workbook(MARK)


def _epub() -> bytes:
    chapter = f"<h1>{MARK}</h1><p>text {MARK}</p>"
    with_nav = make_epub([("c1.xhtml", chapter)], title=MARK, toc=[Toc(MARK, "c1.xhtml")])
    with_ncx = make_epub([("c1.xhtml", chapter)], title=MARK, toc=[Toc(MARK, "c1.xhtml")], ncx=True)
    members = package_members(with_nav)
    members["OEBPS/toc.ncx"] = package_members(with_ncx)["OEBPS/toc.ncx"]
    members["OEBPS/content.opf"] = members["OEBPS/content.opf"].replace(
        b"</manifest>",
        b'<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/></manifest>',
    )
    return zip_package(members)


BASES: dict[str, Callable[[], bytes]] = {
    "docx": _docx,
    "pptx": _pptx,
    "xlsx": _xlsx,
    "epub": _epub,
}


def package_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zip_package(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            stored = name == "mimetype"
            archive.writestr(name, data, zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


# --- entities -----------------------------------------------------------------------

_ROOT = re.compile(rb"<(?![?!])([^\s/>]+)([^>]*?)(/?)>")
_DOCTYPE = re.compile(rb"<!DOCTYPE[^>\[]*>", re.IGNORECASE)


def with_entities(xml: bytes, attack: str, target: str = "file:///etc/passwd") -> bytes:
    """`xml` with a DTD declaring the `attack` ("xxe": entities naming the file `target`,
    or "laughs") and references to it in the root's text, in every text holding `MARK`,
    and (laughs) in a root attribute."""
    xml = _DOCTYPE.sub(b"", xml, count=1)
    found = _ROOT.search(xml)
    assert found, "no root element"
    name, attributes, closed = found.groups()
    dtd = (XXE_DTD if attack == "xxe" else LAUGHS_DTD).format(root=name.decode(), target=target)
    ref = b"&xxe;" if attack == "xxe" else b"&l9;"
    extra = b' laughs="&l9;"' if attack == "laughs" else b""
    start = b"<" + name + attributes + extra + b">" + ref
    if closed:
        start += b"</" + name + b">"
    body = xml[found.end() :].replace(MARK.encode(), MARK.encode() + ref)
    return xml[: found.start()] + dtd.encode() + start + body


def entity_package(path: Path, kind: str, part: str, attack: str) -> None:
    """The base package of `kind` with entities (`attack`) in one `part`."""
    members = package_members(BASES[kind]())
    members[part] = with_entities(members[part], attack)
    if part.endswith(".ncx"):  # the NCX is read only when there is no EPUB 3 nav
        opf = members["OEBPS/content.opf"]
        members["OEBPS/content.opf"] = opf.replace(b' properties="nav"', b"")
    path.write_bytes(zip_package(members))


def nested_tables(path: Path, depth: int = 2_000) -> None:
    """A Word document whose body is one table nested `depth` tables deep."""
    members = package_members(BASES["docx"]())
    main = members["word/document.xml"]
    start = main.index(b"<w:body>") + len(b"<w:body>")
    nest = b"<w:tbl><w:tr><w:tc>" * depth + b"<w:p/>" + b"</w:tc></w:tr></w:tbl>" * depth
    members["word/document.xml"] = main[:start] + nest + main[start:]
    path.write_bytes(zip_package(members))


# --- zip-level hostility ------------------------------------------------------------

BOMB_PARAGRAPH = b"<w:p><w:r><w:t>bomb</w:t></w:r></w:p>"
BOMB_SIZE = 1 << 30


def docx_bomb(
    path: Path, declared: int | None = None, size: int = BOMB_SIZE, dense: bool = False
) -> None:
    """A Word package of about 1 MiB whose `word/document.xml` inflates to `size`
    (1 GiB): a paragraph and a mebibyte of spaces, over and over (`dense`: paragraphs
    only, 3 MiB). It declares that size, or `declared` (a lie)."""
    members = package_members(BASES["docx"]())
    main = members.pop("word/document.xml")
    head = main[: main.index(b"<w:body>") + len(b"<w:body>")]
    tail = b"</w:body></w:document>"
    piece = BOMB_PARAGRAPH + b" " * ((1 << 20) - len(BOMB_PARAGRAPH))
    if dense:
        piece = BOMB_PARAGRAPH * ((1 << 20) // len(BOMB_PARAGRAPH))
    count = (size - len(head) - len(tail)) // len(piece)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = compressor.compress(head) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(piece) + compressor.flush(zlib.Z_FULL_FLUSH)
    last = compressor.compress(tail) + compressor.flush()
    crc = zlib.crc32(head)
    for _ in range(count):
        crc = zlib.crc32(piece, crc)
    crc = zlib.crc32(tail, crc)
    size = len(head) + count * len(piece) + len(tail)

    def deflated() -> Iterator[bytes]:
        yield first
        for _ in range(count):
            yield repeated
        yield last

    with ZipStream(path) as archive:
        for name, data in members.items():
            archive.add(name, data)
        archive.add_compressed("word/document.xml", deflated(), crc, declared or size)


def _zeros(size: int) -> tuple[list[bytes], int]:
    """`size` zero bytes as raw deflate pieces (a mebibyte each, compressed once) and
    their CRC."""
    whole, rest = divmod(size, 1 << 20)
    pieces, crc = [], 0
    for length, times in ((1 << 20, whole), (rest, 1)):
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        block = compressor.compress(b"\0" * length) + compressor.flush(zlib.Z_FULL_FLUSH)
        pieces += [block] * times
        for _ in range(times):
            crc = zlib.crc32(b"\0" * length, crc)
    return [*pieces, zlib.compressobj(9, zlib.DEFLATED, -15).flush()], crc


def split_deck_bomb(path: Path, parts: int = 63) -> None:
    """A 1 MiB deck whose slide shows `parts` pictures of 16 MiB - 1 of zeros each (each
    part under the per-member ratio check's 16 MiB floor; 1 GiB in all)."""
    members = package_members(BASES["pptx"]())
    links = "".join(
        f'<Relationship Id="rIdBomb{n}" Type="{REL}/image" Target="../media/bomb{n}.png"/>'
        for n in range(parts)
    )
    rels = "ppt/slides/_rels/slide1.xml.rels"
    members[rels] = members[rels].replace(b"</Relationships>", links.encode() + b"</Relationships>")
    types = members["[Content_Types].xml"]
    if b'Extension="png"' not in types:
        png = b'<Default Extension="png" ContentType="image/png"/>'
        members["[Content_Types].xml"] = types.replace(b"</Types>", png + b"</Types>")
    size = (16 << 20) - 1
    pieces, crc = _zeros(size)
    with ZipStream(path) as archive:
        for name, data in members.items():
            archive.add(name, data)
        for n in range(parts):
            archive.add_compressed(f"ppt/media/bomb{n}.png", pieces, crc, size)


def bzip2_bomb(path: Path, size: int = BOMB_SIZE // 2) -> None:
    """A 40 KB Word package whose `word/document.xml` is `size` (512 MiB) of spaces
    compressed with bzip2 (to 1 KB), declaring 1 MiB."""
    members = package_members(BASES["docx"]())
    main = members.pop("word/document.xml")
    compressor = bz2.BZ2Compressor(9)
    pieces = [compressor.compress(main[: main.index(b"<w:body>") + len(b"<w:body>")])]
    spaces = b" " * (64 << 20)
    pieces.extend(compressor.compress(spaces) for _ in range(size // len(spaces)))
    pieces.append(compressor.compress(b"</w:body></w:document>") + compressor.flush())
    with ZipStream(path) as archive:
        for name, data in members.items():
            archive.add(name, data)
        archive.add_compressed("word/document.xml", pieces, 0, 1 << 20, zipfile.ZIP_BZIP2)


def many_members(path: Path, kind: str, count: int = 200_000) -> None:
    """The base package of `kind` with `count` more (empty) members."""
    with ZipStream(path) as archive:
        for name, data in package_members(BASES[kind]()).items():
            archive.add(name, data, deflate=name != "mimetype")
        for number in range(count):
            archive.add(f"extra/m{number:06d}.xml", b"", deflate=False)


def long_directory(path: Path, kind: str, count: int = 2_000_000) -> None:
    """The base package of `kind` whose directory lists `count` more members (all of
    them the first member's data: 120 MB of directory, no more)."""
    with ZipStream(path) as archive:
        for name, data in package_members(BASES[kind]()).items():
            archive.add(name, data, deflate=name != "mimetype")
        for number in range(count):
            archive.add_listing(f"extra/m{number:07d}.xml")


def truncated(path: Path, kind: str) -> None:
    """The base package cut in half (no central directory)."""
    data = BASES[kind]()
    path.write_bytes(data[: len(data) // 2])


def not_a_zip(path: Path) -> None:
    """Text under an Office or EPUB name."""
    path.write_bytes(b"These are words, not a zip package.\n" * 100)


# --- e-books ------------------------------------------------------------------------

OUTSIDE = ("../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "../../../../../etc/passwd")


def _container(*paths: str) -> bytes:
    rootfiles = "".join(
        f'<rootfile full-path="{path}" media-type="application/oebps-package+xml"/>'
        for path in paths
    )
    return (
        '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
        f'opendocument:xmlns:container"><rootfiles>{rootfiles}</rootfiles></container>'
    ).encode()


def epub_container_outside(path: Path) -> None:
    """A book whose container names package documents outside the package only (and
    which holds no .opf of its own to fall back on)."""
    members = package_members(BASES["epub"]())
    del members["OEBPS/content.opf"]
    members["META-INF/container.xml"] = _container(*OUTSIDE)
    path.write_bytes(zip_package(members))


def epub_manifest_outside(path: Path) -> None:
    """A book whose manifest, spine and contents also point outside the package."""
    members = package_members(BASES["epub"]())
    items = "".join(
        f'<item id="out{n}" href="{href}" media-type="application/xhtml+xml"/>'
        for n, href in enumerate(OUTSIDE)
    )
    refs = "".join(f'<itemref idref="out{n}"/>' for n in range(len(OUTSIDE)))
    opf = members["OEBPS/content.opf"].replace(b"</manifest>", items.encode() + b"</manifest>")
    members["OEBPS/content.opf"] = opf.replace(b"</spine>", refs.encode() + b"</spine>")
    links = "".join(f'<li><a href="{href}">out</a></li>' for href in OUTSIDE)
    members["OEBPS/nav.xhtml"] = members["OEBPS/nav.xhtml"].replace(
        b"</ol>", links.encode() + b"</ol>"
    )
    path.write_bytes(zip_package(members))


def epub_repeated_spine(path: Path, times: int = 50_000) -> None:
    """A book whose spine lists its one chapter `times` times."""
    chapter = "<h1>Only</h1><p>The one chapter, listed over and over.</p>"
    path.write_bytes(make_epub([("c1.xhtml", chapter)], spine=["c1.xhtml"] * times))


def epub_without_container(path: Path) -> None:
    """A book without `META-INF/container.xml` (its package document still there)."""
    members = package_members(BASES["epub"]())
    del members["META-INF/container.xml"]
    path.write_bytes(zip_package(members))
