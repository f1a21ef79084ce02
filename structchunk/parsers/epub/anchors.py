"""Where each table-of-contents entry lands in the text: on one of the chapter's own
headings, or, where the text has none, as a heading of its own (the entry's label).

The chapters are walked in reading order into an `Anchors`, which records their headings
and blocks as a flat list of `Title`s and blocks. An entry becomes *pending* when the
walk reaches its place (the start of its member, or the element its fragment names).
Then:

- the next heading, if no text comes first, is the entry's: it keeps its own text and
  is marked with the entry's depth. When several entries wait at one place (a part and
  its first chapter), the heading takes the first whose label matches its text, or the
  first of them; those before it become headings of their own, those after it wait on;
- text before any heading makes every waiting entry a heading of its own, titled by its
  label, just before that text (a chapter without a heading is named by the contents);
- an entry still waiting when its member ends names nothing and is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...document import Block
from .navigation import NavEntry

_NON_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class Title:
    """A heading of the book before its level is decided."""

    text: str
    level: int
    """The chapter's own level (1 for `h1` …); 0 for an entry's label made a heading."""
    depth: int | None = None
    """The table-of-contents depth when the heading is an entry's (its own or its label)."""

    @property
    def from_label(self) -> bool:
        return self.level == 0


Item = Title | Block


def _words(text: str) -> str:
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())


def labels_match(label: str, title: str) -> bool:
    """The same words, or one's words a run of the other's ("Chapter 1" and "Chapter 1:
    Loomings"; "I. THE BURIAL OF THE DEAD" and "THE BURIAL OF THE DEAD")."""
    a, b = _words(label), _words(title)
    return bool(a and b) and (f" {a} " in f" {b} " or f" {b} " in f" {a} ")


class Anchors:
    """A `ChapterSink` for every chapter of the book, in reading order."""

    def __init__(self, entries: list[NavEntry]) -> None:
        self.items: list[Item] = []
        self._places: dict[tuple[str, str], list[int]] = {}
        self._fragments: dict[str, set[str]] = {}
        for number, entry in enumerate(entries):
            self._places.setdefault((entry.path, entry.fragment), []).append(number)
            if entry.fragment:
                self._fragments.setdefault(entry.path, set()).add(entry.fragment)
        self._entries = entries
        self._arrived: set[int] = set()
        self._pending: list[NavEntry] = []
        self._member = ""

    def targets(self, member: str) -> set[str]:
        """The fragments the walk of `member` must report."""
        return self._fragments.get(member, set())

    def start(self, member: str) -> None:
        """A new member begins: entries left waiting in the last one are dropped."""
        self._member = member
        self._pending = []
        self._arrive((member, ""))

    def target(self, fragment: str) -> None:
        self._arrive((self._member, fragment))

    def _arrive(self, place: tuple[str, str]) -> None:
        for number in self._places.get(place, ()):
            if number not in self._arrived:  # an id repeated in a member arrives once
                self._arrived.add(number)
                self._pending.append(self._entries[number])

    def heading(self, level: int, title: str) -> None:
        if not self._pending:
            self.items.append(Title(title, level))
            return
        index = next(
            (i for i, entry in enumerate(self._pending) if labels_match(entry.label, title)), 0
        )
        self._labels(self._pending[:index])
        self.items.append(Title(title, level, self._pending[index].depth))
        self._pending = self._pending[index + 1 :]

    def add(self, block: Block) -> None:
        self._labels(self._pending)
        self._pending = []
        self.items.append(block)

    def _labels(self, entries: list[NavEntry]) -> None:
        self.items.extend(Title(e.label, 0, e.depth) for e in entries if e.label)
