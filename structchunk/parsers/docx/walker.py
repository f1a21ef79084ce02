"""The walk over a Word body: paragraphs into headings, list items and paragraphs, tables
into `Table`s, and what is anchored in a block placed after it.

- A paragraph with an outline level (`styles.py`) opens a section; a numbered one
  (`numbering.py`) is a list item, consecutive items one `ListBlock` (empty paragraphs
  between items do not end it); the first `Title`-style paragraph before any heading is
  the document title.
- Footnotes, endnotes and text boxes referenced in a block follow that block: after its
  paragraph, after the whole list for a list item, after the table for a cell. A text
  box is read as blocks (its headings are text: a box is an aside, not the outline).
- A one-cell table is a framed box and is read like a text box; other tables become
  `Table` blocks (`tables.py`).
- Contents (a `TOC` field's result, a "Table of Contents" content control, paragraphs in
  the `TOC n`/`TOC Heading` styles, a `Title` naming the contents) are dropped, as the
  PDF reader drops contents pages: they only repeat the headings with page numbers; an
  empty contents field's notice is kept (`contents.py`).
- A paragraph whose mark was deleted (tracked) joins the next one, as accepting the
  change does; a drop cap joins the next one's first word.
- A paragraph that only its own outline level makes a heading, met inside a list, waits
  for the next paragraph: a heading if it heads text, else a label in the list
  (`_list_label`; docs/docx.md, "Odd headings").
"""

from __future__ import annotations

from collections.abc import Iterable

from ...document import ListBlock, ListItem, Paragraph
from ..builder import TreeBuilder
from .contents import empty_contents_notice, names_contents
from .flat import DEFAULT_MAX_NESTING, FlatReader, words_of
from .inline import Inline, InlineReader, NoteRef, alternate_branch
from .notes import Notes
from .numbering import MAX_LEVELS, Numbering, paragraph_mark
from .styles import ParagraphStyle, StyleSheet, parse_level
from .tables import is_single_cell, read_table, row_cells, table_rows
from .xml import MC_NS, Element, attr, child, is_on, val, w

CONTENTS_GALLERY = "Table of Contents"
"""`w:docPartGallery` of the content control Word wraps a contents field in."""

_P, _TBL, _SDT = w("p"), w("tbl"), w("sdt")
_ALTERNATE = f"{{{MC_NS}}}AlternateContent"
_WRAPPERS = (w("customXml"), w("ins"), w("moveTo"), w("sdtContent"))


class BodyWalker:
    """Reports a body's headings and blocks, in document order, to a `TreeBuilder`."""

    def __init__(
        self, builder: TreeBuilder, styles: StyleSheet, numbering: Numbering, notes: Notes
    ) -> None:
        self.builder = builder
        self.styles = styles
        self.numbering = numbering
        self.notes = notes
        self.reader = InlineReader(notes.mark)
        self.flat = FlatReader(self.reader, styles, numbering, self._queue)
        self._items: list[ListItem] = []
        self._after: list[NoteRef | Element] = []
        self._carry = ""
        self._tight = False  # the carried text is a drop cap: no space after it
        self._held: tuple[int, str] | None = None  # a list label or a heading (`_settle`)
        self._nesting = 0  # inside text boxes and one-cell tables: headings are text
        self._dropping = 0  # inside a contents content control
        self._title: list[str] = []
        self._headings = False

    def walk(self, elements: Iterable[Element]) -> None:
        """Walk the body's top-level elements (a stream: each is read once, in order)."""
        for element in elements:
            self._block(element)
        self._settle(heads=False)
        self._end_block()
        self._flush_carry()
        root = self.builder.root
        if not root.blocks and not root.children:  # nothing for a title to head
            self.builder.set_title("")
            if self._title:  # a document that is only its Title paragraph: that is its text
                self.builder.add(Paragraph(" ".join(self._title)))

    def _blocks(self, parent: Element) -> None:
        for element in parent:
            self._block(element)

    def _block(self, element: Element) -> None:
        tag = element.tag
        if tag == _P:
            self._paragraph(element)
        elif tag == _TBL:
            self._table(element)
        elif tag == _SDT:
            self._content_control(element)
        elif tag == _ALTERNATE:
            branch = alternate_branch(element)
            if branch is not None:
                self._blocks(branch)
        elif tag in _WRAPPERS:
            self._blocks(element)
        # section properties, deletions, bookmarks, imported chunks (`w:altChunk`): no text

    def _paragraph(self, paragraph: Element) -> None:
        ppr = child(paragraph, "pPr")
        style = self.styles.style(val(ppr, "pStyle"))
        outline = _outline(ppr, style) if not self._nesting else None
        if outline is not None and style.role != "contents" and self.reader.in_contents_field:
            self.reader.reset_fields()  # a contents field never closed: headings end it
        mark = paragraph_mark(self.numbering, ppr, style)
        inline = self.reader.read(paragraph)
        if (inline.text or inline.contents) and not self._nesting:
            item = mark is not None and outline is None
            self._settle(heads=not item and not self._heads_nothing(outline))
        notice = empty_contents_notice(inline.contents)
        if notice:
            self._end_block()
            self.builder.add(Paragraph(notice))
        elif inline.contents:
            self.builder.dropped.append(inline.contents)
        if (
            self._dropping
            or style.role == "contents"
            or (style.role == "title" and names_contents(inline.text))
        ):
            if inline.text:
                self.builder.dropped.append(inline.text)
            return
        if is_on(child(child(ppr, "rPr"), "del")) or _drop_cap(ppr):
            # its mark deleted, or a drop cap: it joins the next paragraph (a drop cap,
            # the first letter of its first word, without a space)
            self._carry = _join(self._carry, inline.text)
            self._tight = self._tight or (bool(inline.text) and _drop_cap(ppr))
            self._after.extend(_anchored(inline))
            return
        text = self._carry + inline.text if self._tight else _join(self._carry, inline.text)
        self._carry, self._tight = "", False
        if style.role == "title" and not self._nesting and not self._headings and text:
            self._title.append(text)
            self.builder.set_title(" ".join(self._title))
        elif outline is not None and text and _list_label(ppr, style, mark, self._items):
            self._held = (min(outline + 1, 6), text)
        elif outline is not None and text:
            self._end_block()
            self.builder.heading(min(outline + 1, 6), f"{mark.marker} {text}" if mark else text)
            self._headings = True
        elif mark is not None:
            if text:
                depth = mark.level or style.list_depth
                self._items.append(ListItem(text, mark.marker, min(depth, MAX_LEVELS - 1)))
        elif text:
            self._end_block()
            self.builder.add(Paragraph(text))
        self._after.extend(_anchored(inline))
        if not self._items:
            self._emit()

    def _settle(self, heads: bool) -> None:
        """Decide the held paragraph (`_list_label`): a heading when what follows it is
        content it heads (`heads`), else text — a label inside the list that goes on
        after it, or a "heading" over nothing (the next heading is not below it, or the
        document ends)."""
        if self._held is None:
            return
        level, text = self._held
        self._held = None
        self._end_block()
        if heads:
            self.builder.heading(level, text)
            self._headings = True
        else:
            self.builder.add(Paragraph(text))

    def _heads_nothing(self, outline: int | None) -> bool:
        """Whether a heading at `outline` ends the held paragraph's would-be section at once."""
        return self._held is not None and outline is not None and outline + 1 <= self._held[0]

    def _table(self, table: Element) -> None:
        if not self._nesting:
            self._settle(heads=True)
        self._end_block()
        self._flush_carry()
        if is_single_cell(table) and self._nesting < DEFAULT_MAX_NESTING:
            self._nested(row_cells(table_rows(table)[0])[0])
            return
        if self._nesting >= DEFAULT_MAX_NESTING:
            self._words(table)
            return
        block = read_table(table, self.flat.cell_text(self._nesting + 1))
        if block is not None:
            self.builder.add(block)
        self._emit()

    def _content_control(self, sdt: Element) -> None:
        content = child(sdt, "sdtContent")
        if content is None:
            return
        gallery = val(child(child(sdt, "sdtPr"), "docPartObj"), "docPartGallery")
        dropping = int(gallery == CONTENTS_GALLERY)
        self._dropping += dropping
        self._blocks(content)
        self._dropping -= dropping

    def _nested(self, container: Element) -> None:
        """A text box or one-cell table: its blocks, as a block of their own."""
        if self._nesting >= DEFAULT_MAX_NESTING:
            self._words(container)
            return
        self._nesting += 1
        self._blocks(container)
        self._end_block()
        self._nesting -= 1

    def _words(self, element: Element) -> None:
        text = words_of(element)
        if text:
            self.builder.add(Paragraph(text))

    def _flush_carry(self) -> None:
        """A paragraph whose mark was deleted, with no paragraph after it to join (a
        table follows, or the document ends): a paragraph of its own."""
        if self._carry:
            self.builder.add(Paragraph(self._carry))
            self._carry = ""

    def _queue(self, notes: list[NoteRef]) -> None:
        self._after.extend(notes)

    def _end_block(self) -> None:
        """Close the open list, then place what its items referred to."""
        if self._items:
            self.builder.add(ListBlock(self._items))
            self._items = []
        self._emit()

    def _emit(self) -> None:
        """Place the notes and text boxes the last block referred to."""
        while self._after:
            pending, self._after = self._after, []
            for thing in pending:
                if isinstance(thing, NoteRef):
                    self._note(thing)
                else:
                    self._nested(thing)

    def _note(self, ref: NoteRef) -> None:
        element = self.notes.take(ref.kind, ref.note_id)
        text = self.flat.text(element) if element is not None else ""
        if text:
            self.builder.add(Paragraph(f"{ref.mark} {text}" if ref.mark else text))


def _outline(ppr: Element | None, style: ParagraphStyle) -> int | None:
    """A paragraph's 0-based outline level: its own `w:outlineLvl`, else its style's."""
    own = parse_level(val(ppr, "outlineLvl"))
    if own is None:
        return style.outline
    return None if own >= MAX_LEVELS else own


def _list_label(
    ppr: Element | None, style: ParagraphStyle, mark: object, items: list[ListItem]
) -> bool:
    """A paragraph that only its own outline level makes a heading (its style is body
    text), unnumbered, met while a list is open: held until the next paragraph says
    whether the list goes on (then it is a label inside the list, such as a bold
    "Goal:", which Word's navigation pane shows but a reader does not see as a heading)."""
    return (
        bool(items)
        and mark is None
        and style.outline is None
        and val(ppr, "outlineLvl") is not None
    )


def _drop_cap(ppr: Element | None) -> bool:
    """A drop cap's frame (`w:framePr w:dropCap="drop"` or `"margin"`)."""
    return attr(child(ppr, "framePr"), "dropCap") in ("drop", "margin")


def _anchored(inline: Inline) -> list[NoteRef | Element]:
    return [*inline.notes, *inline.boxes]


def _join(first: str, second: str) -> str:
    return f"{first} {second}" if first and second else first or second
