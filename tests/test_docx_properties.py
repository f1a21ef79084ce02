"""Property test: a Word document built from the same tree as a Markdown document chunks
like it.

Random trees of headings (levels skipped at will), paragraphs, nested bullet and
numbered lists and tables are written twice — as Markdown, and as a DOCX through
python-docx with the lists as Word numbering (one multi-level definition per list) —
and both are parsed: the section trees must have the same heading levels and paths and the chunks
the same words in the same order, list numbers included.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from docx_factory import Doc, W, add_numbering, body_xml, new, numbered, para, run, to_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers import ParseSettings, docx, markdown

_WORD = re.compile(r"[^\W_]+")
OPTIONS = ChunkOptions(max_tokens=64)
SETTINGS = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

words = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)
phrases = st.lists(words, min_size=1, max_size=8).map(" ".join)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Items:
    ordered: tuple[bool, ...]
    """Per depth: numbered or bulleted (a Markdown sublist has one kind)."""
    items: tuple[tuple[int, str], ...]
    """(depth, text); depth grows by at most one from item to item."""


@dataclass(frozen=True)
class Grid:
    rows: tuple[tuple[str, ...], ...]
    """The first row is the header."""


Node = Heading | Text | Items | Grid


@st.composite
def lists(draw: st.DrawFn) -> Items:
    ordered = tuple(draw(st.lists(st.booleans(), min_size=3, max_size=3)))
    items = []
    depth = 0
    for index in range(draw(st.integers(1, 7))):
        if index:
            depth = draw(st.integers(0, min(depth + 1, 2)))
        items.append((depth, draw(phrases)))
    return Items(ordered, tuple(items))


@st.composite
def grids(draw: st.DrawFn) -> Grid:
    width = draw(st.integers(1, 4))
    rows = draw(st.integers(2, 5))
    return Grid(tuple(tuple(draw(words) for _ in range(width)) for _ in range(rows)))


NODES = st.one_of(
    st.builds(Heading, st.integers(1, 6), phrases),
    st.builds(Text, phrases),
    lists(),
    grids(),
)


def trees(nodes: list[Node]) -> list[Node]:
    """Two lists in a row would be one list in both formats, numbered on; keep them apart."""
    out: list[Node] = []
    for node in nodes:
        if isinstance(node, Items) and out and isinstance(out[-1], Items):
            out.append(Text("between"))
        out.append(node)
    return out


def markdown_items(node: Items) -> str:
    lines = []
    counters = [0, 0, 0]
    indents = [0, 0, 0]
    for depth, text in node.items:
        counters[depth] += 1
        for deeper in range(depth + 1, 3):
            counters[deeper] = 0
        marker = f"{counters[depth]}." if node.ordered[depth] else "-"
        if depth + 1 < 3:
            indents[depth + 1] = indents[depth] + len(marker) + 1
        lines.append(" " * indents[depth] + f"{marker} {text}")
    return "\n".join(lines)


def to_markdown(nodes: list[Node]) -> str:
    parts = []
    for node in nodes:
        if isinstance(node, Heading):
            parts.append("#" * node.level + " " + node.text)
        elif isinstance(node, Text):
            parts.append(node.text)
        elif isinstance(node, Items):
            parts.append(markdown_items(node))
        else:
            header, *rows = node.rows
            lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            lines += ["| " + " | ".join(row) + " |" for row in rows]
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def add_items(doc: Doc, node: Items, num_id: int) -> None:
    levels = [
        ("decimal", f"%{k + 1}.") if o else ("bullet", "\u2022") for k, o in enumerate(node.ordered)
    ]
    add_numbering(doc, num_id, levels)
    body_xml(doc, "".join(para(run(text), numbered(num_id, depth)) for depth, text in node.items))


def to_docx(nodes: list[Node]) -> bytes:
    doc = new()
    for number, node in enumerate(nodes):
        if isinstance(node, Heading):
            doc.add_heading(node.text, node.level)
        elif isinstance(node, Text):
            doc.add_paragraph(node.text)
        elif isinstance(node, Items):
            add_items(doc, node, 100 + number)
        else:
            table = doc.add_table(rows=len(node.rows), cols=len(node.rows[0]))
            for r, values in enumerate(node.rows):
                for c, value in enumerate(values):
                    table.cell(r, c).text = value
    assert doc.element.body.find(f"{{{W}}}sectPr") is not None
    return to_bytes(doc)


def chunk_words(data: bytes, name: str) -> list[str]:
    return [
        word
        for chunk in iter_chunks_from_bytes(data, name, None, OPTIONS)
        for word in _WORD.findall(chunk.body.lower())
    ]


@SETTINGS
@given(st.lists(NODES, min_size=1, max_size=10).map(trees))
def test_docx_from_the_tree_of_a_markdown_document_has_its_headings_and_words(
    nodes: list[Node],
) -> None:
    source = to_markdown(nodes).encode()
    data = to_docx(nodes)
    from_markdown = markdown.parse(source, "doc.md", ParseSettings())
    from_docx = docx.parse(data, "doc.docx", ParseSettings())
    assert [(s.level, s.path) for s in from_docx.sections()] == [
        (s.level, s.path) for s in from_markdown.sections()
    ]
    assert chunk_words(data, "doc.docx") == chunk_words(source, "doc.md")
