"""Hanging indents: text whose paragraphs start *out* from their other lines.

A bibliography, a glossary or a poem's long lines set each entry's first line out and
its other lines in — the mirror of a first-line indent. Read with the first-line rule,
every entry breaks after its first line and runs into the next entry's. Which of the two
a run of lines follows is told by where its sentences end: before a break, a line ends
a sentence or stops short; inside a paragraph, it runs on to the column's edge. So each
move in or out between two lines votes, and a run whose votes say hanging is read so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .cleanup import ends_sentence
from .types import Line

DEFAULT_HANG = 4.0
"""The deepest hanging indent, in font sizes: a line set in further is something else
(a quotation, a formula, another column's text)."""


def hanging_lines(
    items: Iterable[object], indent: float, breaks: Callable[[Line, Line], bool]
) -> set[int]:
    """The `id`s of a page's lines in runs set with a hanging indent.

    A run is the lines of one region between paragraph gaps (`breaks`), headings, list
    items, code and tables. `indent` is the first-line indent, in font sizes, that a move in
    or out must exceed to count.
    """
    hanging: set[int] = set()
    for run in _runs(items, breaks):
        if _votes_hanging(run, indent):
            hanging.update(id(line) for line in run)
    return hanging


def _runs(items: Iterable[object], breaks: Callable[[Line, Line], bool]) -> list[list[Line]]:
    runs: list[list[Line]] = []
    run: list[Line] = []
    for line in items:
        if not isinstance(line, Line) or line.marker or line.heading or line.mono:
            run = []
            continue
        prev = run[-1] if run else None
        if prev is None or prev.region != line.region or breaks(prev, line):
            run = [line]
            runs.append(run)
        else:
            run.append(line)
    return [run for run in runs if len(run) > 1]


def _votes_hanging(run: list[Line], indent: float) -> bool:
    """Do the run's moves in and out say its paragraphs start at the outer edge?

    Moving in after a line that ends a sentence or stops short starts a paragraph with
    a first-line indent; moving in from a full line mid-sentence continues a hanging
    entry. Moving out from a short line starts the next hanging entry; from a full line
    mid-sentence it continues a first-line-indented paragraph. A full line that happens
    to end a sentence before a move out says nothing, nor does a line without a letter
    (a brace of code)."""
    hanging = first_line = 0
    for prev, line in zip(run, run[1:]):
        move = shift(prev, line, indent)
        if move == 0 or not any(char.isalpha() for char in prev.text):
            continue
        ended = ends_sentence(prev.text)
        if move > 0:
            if prev.short or ended:
                first_line += 1
            else:
                hanging += 1
        elif prev.short:
            hanging += 1
        elif not ended:
            first_line += 1
    return hanging > first_line


def shift(prev: Line, line: Line, indent: float) -> int:
    """+1 when `line` is set in under `prev` by a paragraph indent (up to a hanging
    indent's depth), -1 when it goes back out by as much, else 0."""
    size = max(line.size, prev.size, 1.0)
    move = line.marker_x - prev.marker_x
    if indent * size < move <= DEFAULT_HANG * size:
        return 1
    if indent * size < -move <= DEFAULT_HANG * size:
        return -1
    return 0
