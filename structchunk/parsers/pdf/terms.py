"""Terms printed beside their definitions — a glossary, the table of metrics a 10-Q
prints before its segment results — read as a two-column table, term by term.

Such a layout leaves a clean gutter between the short terms and the longer text beside
them, so the column reader would give all the terms and then all the definitions, each
far from the other. A band of rows between two full-width rows is read as terms when
its left column is a series of at least `DEFAULT_MIN_TERMS` short entries (at most
`DEFAULT_TERM_MAX_ROWS` rows each), each level with the first line of a definition, and
the definitions take more rows than the terms. Two columns of prose fail that test:
their paragraphs run longer, and neither column is much longer than the other.
"""

from __future__ import annotations

from .layout import Row, column_of, is_spanning, join_words
from .tables import cell_text
from .types import PageTable, Word

DEFAULT_MIN_TERMS = 3
"""Entries a band needs before it is read as terms beside their definitions."""
DEFAULT_TERM_MAX_ROWS = 2
"""Rows a term may take: a paragraph of a prose column takes more."""
DEFAULT_DEFINITION_SHARE = 1.5
"""The definitions take at least this many times the terms' rows."""
DEFAULT_ENTRY_GAP = 0.25
"""Extra gap, in font sizes, over the band's usual line gap that starts an entry on the
row right after the last line of the one before (a 10-Q's metrics: 0.37 em)."""
DEFAULT_BLANK_LINE = 1.0
"""A gap this many font sizes over the usual line gap ends the list (what lies below is
not one of its entries: a page number, the next paragraph)."""

Gutter = tuple[float, float]


def take_term_tables(
    rows: list[Row], gutters: list[Gutter], number: int
) -> tuple[list[Row], list[PageTable]]:
    """The rows left, and the term tables found in them (one gutter only)."""
    if len(gutters) != 1:
        return rows, []
    used: set[int] = set()
    found = []
    for band in _bands(rows, gutters):
        entry = _term_table([rows[i] for i in band], gutters, number)
        if entry is not None:
            table, taken = entry
            found.append(table)
            used.update(band[i] for i in taken)
    if not found:
        return rows, []
    return [row for index, row in enumerate(rows) if index not in used], found


def _bands(rows: list[Row], gutters: list[Gutter]) -> list[list[int]]:
    """Indexes of the runs of rows between full-width rows."""
    bands: list[list[int]] = [[]]
    for index, row in enumerate(rows):
        if is_spanning(row, gutters):
            bands.append([])
        else:
            bands[-1].append(index)
    return [band for band in bands if len(band) > DEFAULT_MIN_TERMS]


def _term_table(
    band: list[Row], gutters: list[Gutter], number: int
) -> tuple[PageTable, range] | None:
    """The band's terms and definitions as a table, with the band rows it takes."""
    sides = [_sides(row, gutters) for row in band]
    gaps = [b.top - a.bottom for a, b in zip(band, band[1:])]
    usual = sorted(gaps)[(len(gaps) - 1) // 2]
    starts = _entry_starts(band, sides, gaps, usual)
    end = len(band)
    if starts:
        breaks = [
            i + 1
            for i in range(starts[0], len(gaps))
            if gaps[i] > usual + DEFAULT_BLANK_LINE * (band[i + 1].bottom - band[i + 1].top)
        ]
        end = breaks[0] if breaks else end  # a blank line ends the list (a page number)
        starts = [i for i in starts if i < end]
    if starts and not sides[starts[-1]][1]:
        end = starts.pop()  # a last line on the left alone: a heading after the list
    if len(starts) < DEFAULT_MIN_TERMS or any(not sides[i][1] for i in starts):
        return None
    bounds = [*starts, end]
    entries = []
    for start, stop in zip(bounds, bounds[1:]):
        term = [sides[i][0] for i in range(start, stop) if sides[i][0]]
        if len(term) > DEFAULT_TERM_MAX_ROWS:
            return None
        definition = [sides[i][1] for i in range(start, stop) if sides[i][1]]
        entries.append((term, definition))
    term_rows = sum(len(term) for term, _ in entries)
    definition_rows = sum(len(definition) for _, definition in entries)
    if definition_rows < DEFAULT_DEFINITION_SHARE * term_rows:
        return None
    taken = range(starts[0], end)
    words = [w for i in taken for w in band[i].words]
    table = PageTable(
        rows=[[_cell(term), _cell(definition)] for term, definition in entries],
        page=number,
        x0=min(w.x0 for w in words),
        x1=max(w.x1 for w in words),
        top=band[starts[0]].top,
        bottom=band[end - 1].bottom,
        header_rows=0,
    )
    return table, taken


def _sides(row: Row, gutters: list[Gutter]) -> tuple[list[Word], list[Word]]:
    """The row's words left and right of the gutter, as `regions` splits them."""
    sides: tuple[list[Word], list[Word]] = ([], [])
    for word in row.words:
        sides[column_of(word.x0, word.x1, gutters)].append(word)
    return sides


def _entry_starts(
    band: list[Row], sides: list[tuple[list[Word], list[Word]]], gaps: list[float], usual: float
) -> list[int]:
    """Rows that begin a term: left text after a row without any, or after a gap wider
    than the band's usual line gap (`gaps[i]` is the gap under row i)."""
    starts = []
    for index, (left, _) in enumerate(sides):
        if not left:
            continue
        height = band[index].bottom - band[index].top
        if (
            index == 0
            or not sides[index - 1][0]
            or gaps[index - 1] > usual + DEFAULT_ENTRY_GAP * height
        ):
            starts.append(index)
    return starts


def _cell(lines: list[list[Word]]) -> str:
    return cell_text("\n".join(join_words(words) for words in lines))
