"""Word documents built in the tests, for exact ground truth.

python-docx writes what it has an API for (headings, styles, tables, comments, headers);
the rest (outline levels, numbering definitions, merged cells, notes, tracked changes,
text boxes, fields, content controls) is written here as WordprocessingML, the way Word
writes it.
"""

from __future__ import annotations

import io
from typing import Any

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml

from structchunk.document import Block, Paragraph
from structchunk.document import Document as Tree
from structchunk.parsers import ParseSettings
from structchunk.parsers.docx import parse

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NAMESPACES = (
    f'xmlns:w="{W}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)
NOTES_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"

Doc = Any
"""A python-docx `Document` (its type is not exported under a stable name)."""


def new() -> Doc:
    return docx.Document()


def body_xml(doc: Doc, xml: str) -> None:
    """Append body-level WordprocessingML (paragraphs, tables, content controls) before
    the section properties; `xml` may hold several elements."""
    wrapper = parse_xml(f"<w:body {NAMESPACES}>{xml}</w:body>")
    body = doc.element.body
    for element in list(wrapper):
        body.sectPr.addprevious(element)


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def para(inner: str, props: str = "") -> str:
    """A paragraph of raw run-level XML (`inner`), with `w:pPr` content `props`."""
    return f"<w:p><w:pPr>{props}</w:pPr>{inner}</w:p>"


def styled(style_id: str) -> str:
    return f'<w:pStyle w:val="{style_id}"/>'


def cell(text: str, props: str = "") -> str:
    """A table cell holding one paragraph (`props`: `w:tcPr` content such as merges)."""
    return f"<w:tc><w:tcPr>{props}</w:tcPr>{para(run(text)) if text else para('')}</w:tc>"


def row(*cells: str, props: str = "") -> str:
    """A table row (`props`: `w:trPr` content such as `<w:tblHeader/>`)."""
    return f"<w:tr><w:trPr>{props}</w:trPr>{''.join(cells)}</w:tr>"


def table(*rows: str, props: str = "") -> str:
    """A table (`props`: `w:tblPr` content such as a caption)."""
    return f"<w:tbl><w:tblPr>{props}</w:tblPr>{''.join(rows)}</w:tbl>"


def numbered(num_id: int, level: int) -> str:
    return f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr>'


def add_style(doc: Doc, style_id: str, name: str, based_on: str = "", props: str = "") -> None:
    """A paragraph style, optionally based on another and with `w:pPr` content."""
    based = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    doc.styles.element.append(
        parse_xml(
            f'<w:style {NAMESPACES} w:type="paragraph" w:styleId="{style_id}">'
            f'<w:name w:val="{name}"/>{based}<w:pPr>{props}</w:pPr></w:style>'
        )
    )


def add_numbering(doc: Doc, num_id: int, levels: list[tuple[str, str]], start: int = 1) -> None:
    """A numbering definition and instance `num_id`: one (format, text) per level, e.g.
    `[("decimal", "%1."), ("lowerLetter", "%2)"), ("bullet", "•")]`."""
    numbering = doc.part.numbering_part.element
    abstract_id = 1000 + num_id
    lvls = "".join(
        f'<w:lvl w:ilvl="{index}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{text}"/></w:lvl>'
        for index, (fmt, text) in enumerate(levels)
    )
    abstract = parse_xml(
        f'<w:abstractNum {NAMESPACES} w:abstractNumId="{abstract_id}">{lvls}</w:abstractNum>'
    )
    first_num = numbering.find(f"{{{W}}}num")
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    add_instance(doc, num_id, abstract_id)


def add_instance(doc: Doc, num_id: int, abstract_id: int, restart: bool = False) -> None:
    """A numbering instance of an existing definition (`restart`: start over at level 0)."""
    override = (
        '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>' if restart else ""
    )
    doc.part.numbering_part.element.append(
        parse_xml(
            f'<w:num {NAMESPACES} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/>'
            f"{override}</w:num>"
        )
    )


def add_notes(doc: Doc, kind: str, notes: dict[int, str]) -> None:
    """A footnotes or endnotes part (with Word's separator notes) holding `notes` (id →
    raw paragraph XML)."""
    separators = (
        f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>'
        f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        f"<w:continuationSeparator/></w:r></w:p></w:{kind}>"
    )
    bodies = "".join(
        f'<w:{kind} w:id="{note_id}">{xml}</w:{kind}>' for note_id, xml in notes.items()
    )
    blob = f'<?xml version="1.0"?><w:{kind}s {NAMESPACES}>{separators}{bodies}</w:{kind}s>'
    part = Part(
        PackURI(f"/word/{kind}s.xml"),
        NOTES_CONTENT_TYPE.format(kind=kind),
        blob.encode(),
        doc.part.package,
    )
    doc.part.relate_to(part, RT.FOOTNOTES if kind == "footnote" else RT.ENDNOTES)


def note_ref(kind: str, note_id: int) -> str:
    return f'<w:r><w:{kind}Reference w:id="{note_id}"/></w:r>'


def text_box(inner: str) -> str:
    """A run holding a DrawingML text box with a VML fallback of the same content, as
    Word writes one (`inner`: the box's paragraphs)."""
    return (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/'
        'wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>'
        f"{inner}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic>"
        "</wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>"
        f"<w:txbxContent>{inner}</w:txbxContent></v:textbox></v:shape></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r>"
    )


def to_bytes(doc: Doc) -> bytes:
    buffer = io.BytesIO()
    doc.save(buffer)
    return buffer.getvalue()


def read(doc: Doc | bytes) -> Tree:
    """The section tree structchunk reads from a document (or its bytes)."""
    data = doc if isinstance(doc, bytes) else to_bytes(doc)
    return parse(data, "test.docx", ParseSettings())


def outline(tree: Tree) -> list[tuple[int, tuple[str, ...]]]:
    """(level, path) of every section below the root."""
    return [(s.level, s.path) for s in tree.sections()[1:]]


def blocks(tree: Tree) -> list[Block]:
    """Every block of the document, in order."""
    return [block for section in tree.sections() for block in section.blocks]


def texts(tree: Tree) -> list[str]:
    """The paragraphs' texts, in order."""
    return [b.text for b in blocks(tree) if isinstance(b, Paragraph)]
