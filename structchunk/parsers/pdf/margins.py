"""Margin notes and line numbers: short texts set in a strip beside the body text.

A pleading, a bill or a draft numbers its lines in the left margin; a journal sets its
short title and page number beside the first lines of each page. Both share a baseline
with a line of the body, so a row of words reads them into it (`12 the people of the
United States…`, `164 so-called shift-lag syndrome`). Here a row's first or last few
words, set apart by a wide gap and wholly outside the edge most lines of the page keep,
are taken out of it: numbers counting the lines are dropped; other notes are read after
the page's text, as lines of their own.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from .layout import Row
from .types import Word

DEFAULT_MARGIN_GAP = 1.5
"""Gap, in ems, between a margin note and the body text on its row."""
DEFAULT_NOTE_WORDS = 4
"""The most words a margin note may have on one row."""
DEFAULT_MIN_NOTES = 2
"""Rows of a page with a note in one margin before that margin counts as one."""
DEFAULT_MIN_NUMBERS = 4
"""Numbers, a constant step apart, that make a margin's notes line numbers."""
DEFAULT_TEXT_WORDS = 6
"""Words of body text beside a note that make its row a line of running text."""

_NUMBER = re.compile(r"\d{1,4}")


class Margins(NamedTuple):
    rows: list[Row]
    """The page's rows without their margin notes (rows without words pass through)."""
    notes: list[Row]
    """The notes, as rows of their own, top to bottom."""
    numbers: list[Row]
    """Line numbers, to be dropped."""


def take_margins(rows: list[Row], em: float) -> Margins:
    """The page's rows with their margin notes and line numbers taken out."""
    text = sorted((row for row in rows if row.table is None and row.words), key=lambda r: r.top)
    if len(text) < DEFAULT_MIN_NOTES + 1:
        return Margins(rows, [], [])
    notes: dict[int, list[Word]] = {}
    numbers: list[Row] = []
    for side in ("left", "right"):
        text = [row for row in text if row.words]  # a numbered blank line has gone
        found = _notes(text, em, side)
        counted = _line_numbers(found)
        if not counted:
            found = _beside_text(found, text)
        for row in text:
            note = found.get(id(row))
            if note is None:
                continue
            taken = {id(word) for word in note.words}
            row.words = [word for word in row.words if id(word) not in taken]
            if counted:
                numbers.append(_row(note.words))
            else:
                notes.setdefault(id(row), []).extend(note.words)
    kept = [row for row in rows if row.table is not None or row.words]
    margin = sorted((_row(words) for words in notes.values()), key=lambda row: row.top)
    return Margins(kept, margin, numbers)


def _row(words: list[Word]) -> Row:
    words = sorted(words, key=lambda w: w.x0)
    return Row(words, min(w.top for w in words), max(w.bottom for w in words))


class _Note(NamedTuple):
    words: list[Word]
    beside: int
    """Words of the body text next to it on its row (0 on a row of its own)."""


def _pieces(row: Row, em: float) -> list[list[Word]]:
    """The row's words in runs parted by gaps of a margin's width."""
    words = sorted(row.words, key=lambda w: w.x0)
    pieces = [[words[0]]]
    for word in words[1:]:
        if word.x0 - pieces[-1][-1].x1 >= DEFAULT_MARGIN_GAP * em:
            pieces.append([word])
        else:
            pieces[-1].append(word)
    return pieces


def _notes(rows: list[Row], em: float, side: str) -> dict[int, _Note]:
    """Each row's note in the `side` margin, by the row's `id`: its outermost piece, of
    a few words, beyond the edge that most rows' text keeps. A row holding only a
    number there counts too (a numbered blank line); text of any other row reaching
    into the strip makes it the page's own, not a margin."""
    left = side == "left"
    edges: Counter[int] = Counter()
    outer: dict[int, _Note] = {}
    for row in rows:
        pieces = _pieces(row, em)
        piece = pieces[0] if left else pieces[-1]
        body = pieces[1:] if left else pieces[:-1]
        if len(piece) > DEFAULT_NOTE_WORDS:
            body = pieces
        elif body or _NUMBER.fullmatch(_text(piece)):
            outer[id(row)] = _Note(piece, len(body[0] if left else body[-1]) if body else 0)
        if body:
            edges[round(body[0][0].x0 if left else body[-1][-1].x1)] += 1
    if not outer or not edges:
        return {}
    edge = edges.most_common(1)[0][0]
    if left:
        beyond = {key: note for key, note in outer.items() if note.words[-1].x1 < edge - em}
        crossing = any(row.x0 < edge - em for row in rows if id(row) not in beyond)
    else:
        beyond = {key: note for key, note in outer.items() if note.words[0].x0 > edge + em}
        crossing = any(row.x1 > edge + em for row in rows if id(row) not in beyond)
    return {} if crossing else beyond


def _beside_text(notes: dict[int, _Note], rows: list[Row]) -> dict[int, _Note]:
    """The notes, when enough of them sit beside running text inside the page: a
    table's last column sits beside its other cells, labels beside labels, and a
    printer's slug or a header's far end on the page's first or last row."""
    inner = {id(row) for row in rows[1:-1]}
    beside_text = [key for key, note in notes.items() if note.beside >= DEFAULT_TEXT_WORDS]
    if len([key for key in beside_text if key in inner]) < DEFAULT_MIN_NOTES:
        return {}
    return notes


def _text(words: list[Word]) -> str:
    return " ".join(word.text for word in words)


def _line_numbers(notes: dict[int, _Note]) -> bool:
    """Are the notes, top to bottom, numbers a constant step apart (1 2 3…, 5 10 15…)?"""
    if len(notes) < DEFAULT_MIN_NUMBERS:
        return False
    texts = [_text(note.words) for note in sorted(notes.values(), key=lambda n: n.words[0].top)]
    if not all(_NUMBER.fullmatch(text) for text in texts):
        return False
    values = [int(text) for text in texts]
    steps = {b - a for a, b in zip(values, values[1:])}
    return len(steps) == 1 and steps.pop() > 0
