"""Small EPUBs written by the tests themselves: chapters, a table of contents, and any
damage a test needs, so the expected tree is known exactly.

    make_epub([("c1.xhtml", "<h1>One</h1><p>text</p>")], toc=[Toc("One", "c1.xhtml")])

A chapter given as `str` is a body wrapped in an XHTML document; `bytes` are written
as they are. The table of contents is an EPUB 3 navigation document, or with
`ncx=True` an EPUB 2 NCX (and the package says version 2.0).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr


@dataclass(frozen=True)
class Toc:
    """An entry of the table of contents; `href=None` writes a label without a link."""

    label: str
    href: str | None = None
    children: tuple[Toc, ...] = ()


def xhtml(body: str, title: str = "chapter", head: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
        f"<head><title>{escape(title)}</title>{head}</head><body>{body}</body></html>"
    ).encode()


def _nav_list(entries: Sequence[Toc]) -> str:
    items = []
    for entry in entries:
        label = (
            f"<a href={quoteattr(entry.href)}>{escape(entry.label)}</a>"
            if entry.href is not None
            else f"<span>{escape(entry.label)}</span>"
        )
        inner = _nav_list(entry.children) if entry.children else ""
        items.append(f"<li>{label}{inner}</li>")
    return f"<ol>{''.join(items)}</ol>"


def nav_document(entries: Sequence[Toc]) -> bytes:
    return xhtml(f'<nav epub:type="toc"><h1>Contents</h1>{_nav_list(entries)}</nav>', "Contents")


def _nav_points(entries: Sequence[Toc], counter: Iterator[int]) -> str:
    points = []
    for entry in entries:
        number = next(counter)
        inner = _nav_points(entry.children, counter)
        points.append(
            f'<navPoint id="p{number}" playOrder="{number}"><navLabel><text>'
            f"{escape(entry.label)}</text></navLabel><content src={quoteattr(entry.href or '')}/>"
            f"{inner}</navPoint>"
        )
    return "".join(points)


def ncx_document(entries: Sequence[Toc], title: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">'
        f"<head/><docTitle><text>{escape(title)}</text></docTitle>"
        f"<navMap>{_nav_points(entries, iter(range(1, 1 << 20)))}</navMap></ncx>"
    ).encode()


NONLINEAR = ' linear="no"'


def package_document(
    title: str,
    items: Sequence[tuple[str, str, str]],
    spine: Sequence[str],
    nonlinear: Sequence[str] = (),
    version: str = "3.0",
) -> bytes:
    """An OPF: `items` are (id, href, media type + properties attributes), `spine` ids."""
    manifest = "".join(
        f"<item id={quoteattr(ident)} href={quoteattr(href)} {attributes}/>"
        for ident, href, attributes in items
    )
    refs = "".join(
        f"<itemref idref={quoteattr(ident)}{NONLINEAR if ident in nonlinear else ''}/>"
        for ident in spine
    )
    toc = ' toc="ncx"' if version.startswith("2") else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<package xmlns="http://www.idpf.org/2007/opf" version="{version}" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">urn:test</dc:identifier><dc:title>{escape(title)}</dc:title>'
        "<dc:language>en</dc:language></metadata>"
        f"<manifest>{manifest}</manifest><spine{toc}>{refs}</spine></package>"
    ).encode()


def container(opf_path: str) -> bytes:
    return (
        '<?xml version="1.0"?><container version="1.0" '
        'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
        f'<rootfile full-path="{opf_path}" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    ).encode()


def zip_members(members: Mapping[str, bytes], mimetype: bool = True) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if mimetype:
            archive.writestr("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def make_epub(
    chapters: Sequence[tuple[str, str | bytes]],
    *,
    title: str = "A Book",
    toc: Sequence[Toc] = (),
    ncx: bool = False,
    nonlinear: Sequence[str] = (),
    spine: Sequence[str] | None = None,
    extra: Mapping[str, bytes] | None = None,
    folder: str = "OEBPS",
) -> bytes:
    """A whole book; `spine` (chapter file names) overrides the chapters' order."""
    prefix = f"{folder}/" if folder else ""
    members: dict[str, bytes] = {"META-INF/container.xml": container(f"{prefix}content.opf")}
    items: list[tuple[str, str, str]] = []
    ids = {name: f"c{number}" for number, (name, _) in enumerate(chapters)}
    for name, body in chapters:
        members[prefix + name] = xhtml(body) if isinstance(body, str) else body
        items.append((ids[name], name, 'media-type="application/xhtml+xml"'))
    if toc and ncx:
        members[prefix + "toc.ncx"] = ncx_document(toc, title)
        items.append(("ncx", "toc.ncx", 'media-type="application/x-dtbncx+xml"'))
    elif toc:
        members[prefix + "nav.xhtml"] = nav_document(toc)
        items.append(("nav", "nav.xhtml", 'media-type="application/xhtml+xml" properties="nav"'))
    order = [ids.get(name, name) for name in (spine if spine is not None else ids)]
    members[prefix + "content.opf"] = package_document(
        title, items, order, [ids[name] for name in nonlinear], "2.0" if ncx else "3.0"
    )
    members.update(extra or {})
    return zip_members(members)
