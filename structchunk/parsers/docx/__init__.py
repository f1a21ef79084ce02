"""Word documents (DOCX, DOCM, DOTX) into the section tree, from the package XML.

The stages, in order:

    packages.py   (shared) the zip checked: a Word package, not encrypted, within bounds
    parts.py      the main document and its styles, numbering, notes, headers and footers,
                  found through the package relationships; the core-properties title
    styles.py     paragraph styles: outline levels through `basedOn`, Title, contents
    numbering.py  list definitions: bullet or numbered, markers, counters
    notes.py      footnotes and endnotes, numbered as referenced
    walker.py     the body, streamed a top-level block at a time, reported to the builder
                  (`inline.py`: a paragraph's visible text; `tables.py`: grids, merges and
                  header rows; `flat.py`: cells and notes as text)

The XML is read with lxml directly rather than through python-docx's object model, which
exposes none of outline levels, `basedOn` headings, numbering definitions, merged-cell
continuations, text boxes, notes, fields or tracked changes; and rather than through
mammoth's HTML, which maps headings by style name only and moves every note to the end.
Headers and footers are furniture: their lines go to `Document.dropped`, with the
contents entries. Comments (a separate part) are never read.
"""

from __future__ import annotations

from ...document import Document
from ..builder import TreeBuilder
from ..packages import Package, open_package
from ..settings import ParseSettings
from .inline import InlineReader
from .notes import Notes
from .numbering import Numbering
from .parts import WordParts, core_title, locate_parts, open_main, read_xml
from .styles import StyleSheet
from .walker import BodyWalker
from .xml import iter_children, w

FURNITURE_PARTS = ("header", "footer")


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse a Word package into a `Document` (no body text gives an empty document)."""
    package = open_package(data, "docx")
    parts = locate_parts(package)
    builder = TreeBuilder("docx", title=core_title(package, parts.core))
    styles = StyleSheet(read_xml(package, parts.first("styles")))
    numbering = Numbering(read_xml(package, parts.first("numbering")), styles.numbering_styles)
    notes = Notes(
        read_xml(package, parts.first("footnotes")), read_xml(package, parts.first("endnotes"))
    )
    walker = BodyWalker(builder, styles, numbering, notes)
    with open_main(package, parts.main) as stream:
        walker.walk(iter_children(stream, parts.main, w("body")))
    builder.dropped.extend(_furniture(package, parts))
    return builder.finish()


def _furniture(package: Package, parts: WordParts) -> list[str]:
    """The lines of the page headers and footers, each once (they are not content)."""
    lines: dict[str, None] = {}
    reader = InlineReader(lambda kind, note_id: "")
    for kind in FURNITURE_PARTS:
        for name in parts.related.get(kind, []):
            root = read_xml(package, name)
            for paragraph in root.iter(w("p")) if root is not None else ():
                text = reader.read(paragraph).text
                if text:
                    lines.setdefault(text)
    return list(lines)
