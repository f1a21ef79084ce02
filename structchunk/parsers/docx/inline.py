"""A paragraph's visible text, as Word shows it with all changes accepted.

Runs are read in document order through every wrapper that holds them (hyperlinks,
content controls, smart tags, custom XML, simple fields, accepted insertions and
moves). What Word does not show is left out: deleted and moved-away text (`w:del`,
`w:moveFrom`), field instructions (only a field's result is text: a `HYPERLINK` field
reads as its link text, a `PAGEREF` as its number), hidden runs (`w:vanish`), comment
marks, ruby annotations. Tabs become spaces and line breaks newlines. Footnote and
endnote references become `[1]` and `[i]` marks (Word's default numbering) and are
reported, with the text boxes anchored in the paragraph, so the walker can place their
text after the block. Of an `mc:AlternateContent` only the first choice is read (its
fallback repeats the same content for older readers).

Fields may span paragraphs (a contents field covers all its entries), so the field
stack lives on the reader, across paragraphs; text inside a `TOC` field's result is
returned apart (`Inline.contents`), so the walker can drop it and keep the rest of the
paragraph (Word often ends a contents field at the start of the next heading).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .xml import M_NS, MC_NS, Element, attr, child, is_on, w

MAX_FIELD_DEPTH = 32
"""Nested fields tracked (Word nests a few: an `IF` holding a `MERGEFIELD`); deeper
`begin`s are only counted, so a hostile run of them costs nothing."""

NoteMarker = Callable[[str, str], str]
"""(kind `footnote`/`endnote`, note id) → the mark written in the text."""


@dataclass(frozen=True, slots=True)
class NoteRef:
    kind: str
    note_id: str
    mark: str


@dataclass(slots=True)
class Inline:
    """What one paragraph contributes: its text, and what the walker places after it."""

    text: str
    notes: list[NoteRef] = field(default_factory=list)
    boxes: list[Element] = field(default_factory=list)
    """`w:txbxContent` elements of the text boxes anchored in the paragraph."""
    contents: str = ""
    """Text that was part of a contents (`TOC`) field's result: dropped, not `text`."""


@dataclass(slots=True)
class _Field:
    instruction: list[str] = field(default_factory=list)
    in_result: bool = False
    contents: bool = False


_MC_CHOICE = f"{{{MC_NS}}}Choice"
_MC_FALLBACK = f"{{{MC_NS}}}Fallback"
_MC_ALTERNATE = f"{{{MC_NS}}}AlternateContent"
_MATH = (f"{{{M_NS}}}oMath", f"{{{M_NS}}}oMathPara")
_T, _RUN, _TXBX, _SDT = w("t"), w("r"), w("txbxContent"), w("sdt")
_DRAWINGS = (w("drawing"), w("pict"))
_NOTE_REFS = {w("footnoteReference"): "footnote", w("endnoteReference"): "endnote"}
_SKIP = frozenset(
    w(name)
    for name in (
        "pPr",
        "rPr",
        "sectPr",
        "del",
        "moveFrom",
        "delText",
        "delInstrText",
        "rt",
        "sdtPr",
        "sdtEndPr",
        "fldData",
        "object",
        "footnoteRef",
        "endnoteRef",
        "separator",
        "continuationSeparator",
        "commentReference",
        "annotationRef",
    )
) | {_MC_FALLBACK}
"""Elements whose content Word does not show as text (or that `Inline` places elsewhere)."""
_WHITESPACE = {
    w("tab"): " ",
    w("ptab"): " ",
    w("br"): "\n",
    w("cr"): "\n",
    w("noBreakHyphen"): "-",
    w("softHyphen"): "",
}
"""Run content that stands for characters (tabs read as spaces, breaks as newlines)."""
_CONTENTS_FIELD = re.compile(r"\s*TOC\b", re.IGNORECASE)


def alternate_branch(element: Element) -> Element | None:
    """The branch of an `mc:AlternateContent` to read: its first choice, else its fallback."""
    choice: Element | None = element.find(_MC_CHOICE)
    if choice is None:
        choice = element.find(_MC_FALLBACK)
    return choice


def text_boxes(element: Element) -> Iterator[Element]:
    """The outermost `w:txbxContent` inside a drawing, once each (only the chosen branch
    of every `mc:AlternateContent` is searched)."""
    stack = [iter(element)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        if node.tag == _TXBX:
            yield node
        elif node.tag == _MC_ALTERNATE:
            branch = alternate_branch(node)
            if branch is not None:
                stack.append(iter(branch))
        elif node.tag != _MC_FALLBACK:
            stack.append(iter(node))


def clean_text(text: str) -> str:
    """Runs of spaces (tabs, no-break spaces) to one, none around line breaks, no blank
    lines, ends stripped."""
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


class InlineReader:
    """Reads paragraphs' text in document order, keeping the field stack between them."""

    def __init__(self, note_marker: NoteMarker) -> None:
        self._note_marker = note_marker
        self._fields: list[_Field] = []
        self._overflow = 0
        self._visible = True
        """No open field is in its instruction part."""
        self.in_contents_field = False
        """An open field is a contents (`TOC`) field showing its result."""

    def reset_fields(self) -> None:
        """Forget open fields (a contents field that never ends must not swallow the
        rest of the document)."""
        self._fields.clear()
        self._overflow = 0
        self._refresh()

    def read(self, paragraph: Element) -> Inline:
        """The paragraph's visible text, note references and text boxes."""
        out = Inline("")
        pieces: list[str] = []
        contents: list[str] = []
        sink = self._sink(pieces, contents)
        stack = [iter(paragraph)]
        while stack:
            node = next(stack[-1], None)
            if node is None:
                stack.pop()
                continue
            tag = node.tag
            if not isinstance(tag, str) or tag in _SKIP:
                continue
            if tag == _T:
                if sink is not None:
                    sink.append(node.text or "")
            elif tag == _RUN:
                if not is_on(child(child(node, "rPr"), "vanish")):
                    stack.append(iter(node))
            elif tag in _WHITESPACE:
                if sink is not None:
                    sink.append(_WHITESPACE[tag])
            elif tag == w("fldChar"):
                self._field_char(attr(node, "fldCharType"))
                sink = self._sink(pieces, contents)
            elif tag == w("instrText"):
                if self._fields and not self._fields[-1].in_result:
                    self._fields[-1].instruction.append(node.text or "")
            elif tag in _NOTE_REFS:
                if sink is pieces:
                    self._note(node, _NOTE_REFS[tag], out, pieces)
            elif tag == w("sym"):
                if sink is not None:
                    sink.append(_symbol(attr(node, "char")))
            elif tag in _DRAWINGS:
                out.boxes.extend(text_boxes(node))
            elif tag in _MATH:
                if sink is not None:
                    sink.append("".join(node.itertext()))
            else:
                content = _content(node)
                if content is not None:
                    stack.append(iter(content))
        out.text = clean_text("".join(pieces))
        out.contents = clean_text("".join(contents))
        return out

    def _sink(self, pieces: list[str], contents: list[str]) -> list[str] | None:
        """Where text goes now: nowhere (a field instruction), to the contents, or kept."""
        if not self._visible:
            return None
        return contents if self.in_contents_field else pieces

    def _note(self, node: Element, kind: str, out: Inline, pieces: list[str]) -> None:
        note_id = attr(node, "id")
        if note_id is None:
            return
        mark = ""  # a custom mark follows as the next run's text
        if attr(node, "customMarkFollows") not in ("1", "true", "on"):
            mark = self._note_marker(kind, note_id)
            pieces.append(mark)
        out.notes.append(NoteRef(kind, note_id, mark))

    def _field_char(self, kind: str | None) -> None:
        if kind == "begin":
            if len(self._fields) >= MAX_FIELD_DEPTH:
                self._overflow += 1
            else:
                self._fields.append(_Field())
        elif kind == "separate":
            if self._fields and not self._overflow:
                top = self._fields[-1]
                top.in_result = True
                top.contents = bool(_CONTENTS_FIELD.match("".join(top.instruction)))
        elif kind == "end":
            if self._overflow:
                self._overflow -= 1
            elif self._fields:
                self._fields.pop()
        self._refresh()

    def _refresh(self) -> None:
        self._visible = all(f.in_result for f in self._fields)
        self.in_contents_field = any(f.contents for f in self._fields)


def _content(node: Element) -> Element | None:
    """What to read of a wrapper: a content control's content, an alternate content's
    chosen branch, or the element itself (hyperlinks, insertions, smart tags, simple
    fields, ruby bases, custom XML …)."""
    if node.tag == _SDT:
        return child(node, "sdtContent")
    if node.tag == _MC_ALTERNATE:
        return alternate_branch(node)
    return node


def _symbol(code: str | None) -> str:
    """A `w:sym` character; symbol-font private-use codes (U+F000–F0FF) have no text."""
    try:
        value = int(code or "", 16)
    except ValueError:
        return ""
    if 0xF000 <= value <= 0xF0FF or not 0 < value < 0x110000:
        return ""
    return chr(value)
