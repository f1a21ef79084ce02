"""Block content read as one text: a table cell, a note, a box nested too deep.

A cell holds paragraphs, lists, even tables; in a `Table` it is one string. Paragraphs
become lines (a numbered one keeps its marker, `1. Step`), a nested table becomes its
caption and pipe rows (as a table nested in a list item does elsewhere), text boxes
anchored in the cell add their lines. Notes referenced in a cell are handed back to the
walker, which places them after the table.
"""

from __future__ import annotations

from collections.abc import Callable

from ..builder import flatten_table
from .inline import InlineReader, NoteRef, alternate_branch
from .numbering import Numbering, paragraph_mark
from .styles import StyleSheet
from .tables import read_table
from .xml import MC_NS, Element, child, val, w

DEFAULT_MAX_NESTING = 16
"""Tables in cells, text boxes in cells and the like are read as structure this many
levels deep; below that only their words are kept (real documents nest two or three
levels; a hostile one nests as deep as the XML parser allows)."""

_P, _TBL, _SDT = w("p"), w("tbl"), w("sdt")
_ALTERNATE = f"{{{MC_NS}}}AlternateContent"
_WRAPPERS = (w("customXml"), w("ins"), w("moveTo"), w("sdtContent"), w("smartTag"))


def words_of(element: Element) -> str:
    """Every `w:t` of an element, space-joined: the last resort for content nested too
    deep to be read as structure."""
    return " ".join(" ".join((t.text or "").split()) for t in element.iter(w("t")) if t.text)


class FlatReader:
    """Reads block content into lines of text, with the document's field, numbering and
    note state (shared with the walker, so counters run on in document order)."""

    def __init__(
        self,
        reader: InlineReader,
        styles: StyleSheet,
        numbering: Numbering,
        on_notes: Callable[[list[NoteRef]], None],
    ) -> None:
        self.reader = reader
        self.styles = styles
        self.numbering = numbering
        self.on_notes = on_notes

    def text(self, container: Element, depth: int = 0) -> str:
        """The container's blocks as lines of text."""
        lines: list[str] = []
        self._lines(container, lines, depth)
        return "\n".join(line for line in lines if line)

    def cell_text(self, depth: int) -> Callable[[Element], str]:
        """A `cell_text` for `read_table` at this nesting depth."""
        return lambda cell: self.text(cell, depth)

    def _lines(self, container: Element, lines: list[str], depth: int) -> None:
        stack = [iter(container)]
        while stack:
            node = next(stack[-1], None)
            if node is None:
                stack.pop()
            elif node.tag == _P:
                self._paragraph(node, lines, depth)
            elif node.tag == _TBL:
                lines.append(self._table(node, depth))
            elif node.tag == _SDT:
                content = child(node, "sdtContent")
                if content is not None:
                    stack.append(iter(content))
            elif node.tag == _ALTERNATE:
                branch = alternate_branch(node)
                if branch is not None:
                    stack.append(iter(branch))
            elif node.tag in _WRAPPERS:
                stack.append(iter(node))

    def _paragraph(self, paragraph: Element, lines: list[str], depth: int) -> None:
        ppr = child(paragraph, "pPr")
        style = self.styles.style(val(ppr, "pStyle"))
        mark = paragraph_mark(self.numbering, ppr, style)
        inline = self.reader.read(paragraph)
        if inline.text:
            lines.append(f"{mark.marker} {inline.text}" if mark else inline.text)
        self.on_notes(inline.notes)
        for box in inline.boxes:
            if depth < DEFAULT_MAX_NESTING:
                self._lines(box, lines, depth + 1)
            else:
                lines.append(words_of(box))

    def _table(self, table: Element, depth: int) -> str:
        if depth >= DEFAULT_MAX_NESTING:
            return words_of(table)
        nested = read_table(table, self.cell_text(depth + 1))
        return flatten_table(nested) if nested is not None else ""
