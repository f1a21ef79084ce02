"""Footnotes and endnotes: their marks in the text, and their content once each.

Word numbers notes by their first reference, footnotes in Arabic numerals and endnotes
in lower-case Roman ones (its defaults); the marks written into the text are `[1]` and
`[i]`. The separator "notes" Word keeps in the same parts (the rule above the notes) are
not notes.
"""

from __future__ import annotations

from ..counters import roman
from .xml import Element, attr, w

NOTE_KINDS = ("footnote", "endnote")
_NOT_NOTES = ("separator", "continuationSeparator", "continuationNotice")


def _bodies(root: Element | None, kind: str) -> dict[str, Element]:
    if root is None:
        return {}
    return {
        attr(note, "id") or "": note
        for note in root.iterfind(w(kind))
        if attr(note, "type") not in _NOT_NOTES
    }


class Notes:
    """The notes of a document by kind and id; numbers them as they are referenced."""

    def __init__(self, footnotes: Element | None, endnotes: Element | None) -> None:
        self._bodies = {
            "footnote": _bodies(footnotes, "footnote"),
            "endnote": _bodies(endnotes, "endnote"),
        }
        self._numbers: dict[tuple[str, str], int] = {}
        self._counts = {kind: 0 for kind in NOTE_KINDS}
        self._taken: set[tuple[str, str]] = set()

    def mark(self, kind: str, note_id: str) -> str:
        """The mark of a reference (the same note referenced twice keeps its number)."""
        if note_id not in self._bodies.get(kind, {}):
            return ""
        key = (kind, note_id)
        number = self._numbers.get(key)
        if number is None:
            self._counts[kind] += 1
            number = self._numbers[key] = self._counts[kind]
        return f"[{number}]" if kind == "footnote" else f"[{roman(number)}]"

    def take(self, kind: str, note_id: str) -> Element | None:
        """A note's element the first time it is asked for; None afterwards (its text is
        placed once, after the first block that refers to it) or for an unknown id."""
        key = (kind, note_id)
        if key in self._taken:
            return None
        self._taken.add(key)
        return self._bodies.get(kind, {}).get(note_id)
