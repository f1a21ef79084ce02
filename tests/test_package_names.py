"""Packages whose parts are named with backslashes (`xl\\workbook.xml`, a Windows path
stored as it was): Office, .NET and Java readers open them, and so does structchunk —
every format reads the same as with the usual slashes."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import docx_factory
import pytest
from epub_factory import Toc, make_epub
from office_factory import add_box, add_slide, deck, deck_bytes, workbook_bytes

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes


def _docx() -> bytes:
    doc = docx_factory.new()
    doc.add_heading("Scope", 1)
    doc.add_paragraph("The agreement covers hosting.")
    return docx_factory.to_bytes(doc)


def _pptx() -> bytes:
    presentation = deck()
    slide = add_slide(presentation, "Roadmap")
    add_box(slide, "Ship the reader in May.", 1.0, 2.0)
    return deck_bytes(presentation)


def _xlsx() -> bytes:
    def build(book: object) -> None:
        ws = book.create_sheet("Sales")  # type: ignore[attr-defined]
        ws.append(["Region", "Revenue"])
        ws.append(["North", 1200])

    return workbook_bytes(build)


def _epub() -> bytes:
    return make_epub(
        [("text/c1.xhtml", "<h1>One</h1><p>The first chapter.</p>")],
        toc=[Toc("One", "text/c1.xhtml")],
    )


BUILDERS: dict[str, Callable[[], bytes]] = {
    "docx": _docx,
    "pptx": _pptx,
    "xlsx": _xlsx,
    "epub": _epub,
}


def with_backslashes(data: bytes) -> bytes:
    """The same package, every part's folders separated by `\\`."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            target.writestr(info.filename.replace("/", "\\"), source.read(info.filename))
    return buffer.getvalue()


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_parts_named_with_backslashes_are_read(kind: str) -> None:
    data = BUILDERS[kind]()
    renamed = with_backslashes(data)
    assert any("\\" in name for name in zipfile.ZipFile(io.BytesIO(renamed)).namelist())

    def texts(package: bytes) -> list[str]:
        chunks = iter_chunks_from_bytes(package, f"file.{kind}", None, ChunkOptions())
        return [chunk.text for chunk in chunks]

    expected = texts(data)
    assert expected
    assert texts(renamed) == expected
