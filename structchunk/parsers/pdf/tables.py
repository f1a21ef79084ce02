"""Tables: ruled grids kept when they are real tables, tagged tables, continued tables.

The engines read the ruled grids with pdfplumber's `find_tables()` (engines/grids.py).
A table is kept when it has at least two rows and two columns with text; a single
framed box (a note, a code background) stays ordinary text. A table continued on the
next page (same columns, header repeated or not) is merged into one `Table` whose
rows keep their own pages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...document import Provenance, Table
from ..table_titles import reads_as_titles
from .cleanup import clean_text, match_key, wraps_unspaced
from .columns import MAX_HEADER_ROWS, is_title_row, stack_header, tidy_columns
from .engines.base import RuledGrid
from .layout import cluster_rows, join_words
from .types import CellPlace, PageTable, Word

DEFAULT_CELL_WORD_GAP = 0.6
"""Widest gap, in font sizes, between a cell's words on one line (a word space is
0.25-0.3 em; the next column starts several em away)."""
_NUMERIC = re.compile(r"^[\s\d.,%$€£()+\-–/:]*$")
_HYPHEN_BREAK = re.compile(r"(?<=\w-)\s*\n\s*")
_LINE_BREAK = re.compile(r"\s*\n\s*")
_CAPTION = re.compile(r"^(?:table|tab\.)\s*[\dIVXA-Z]+[\w.\-–]*\s*[:.\-–—]?\s", re.I)


def cell_text(value: str | None) -> str:
    """A cell's lines joined: a line-end hyphen is kept and glued, other breaks become spaces."""
    if not value:
        return ""
    return clean_text(_LINE_BREAK.sub(_line_joint, _HYPHEN_BREAK.sub("", value)))


def _line_joint(match: re.Match[str]) -> str:
    """What a line break inside a cell becomes: a space, or nothing inside Chinese or
    Japanese text (`wraps_unspaced`)."""
    text, start, end = match.string, match.start(), match.end()
    return "" if wraps_unspaced(text[start - 1 : start], text[end : end + 1]) else " "


def clean_rows(raw: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Cell texts with empty rows and empty columns removed."""
    rows = [[cell_text(cell) for cell in row] for row in raw]
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    keep = [i for i in range(width) if any(row[i] for row in rows)]
    return [[row[i] for i in keep] for row in rows]


def is_grid(rows: list[list[str]]) -> bool:
    """Two rows and two columns at least; a framed paragraph is not a table."""
    return len(rows) >= 2 and len(rows[0]) >= 2


def kept_tables(grids: Sequence[RuledGrid], number: int) -> list[PageTable]:
    """The real grids among what the table finder read (engines/grids.py), as
    `PageTable`s."""
    kept = []
    for grid in grids:
        rows = clean_rows(grid.raw)
        if grid.banded and not any(sum(1 for cell in row if cell) >= 2 for row in rows):
            continue  # a frame around a plot or a note: no row of two cells
        if not is_grid(rows):
            continue
        head = header_rows(rows)
        header, body = tidy_columns(rows[:head], rows[head:])
        rows = clean_rows([*header, *body])
        x0, top, x1, bottom = grid.box
        kept.append(PageTable(rows, number, x0, x1, top, bottom, header_rows=head))
    return kept


def tagged_tables(
    words: list[Word], cells: dict[int, CellPlace], page: int
) -> tuple[list[PageTable], list[Word]]:
    """Tables built from tagged cells (`TR`/`TH`/`TD`), and the words left over.

    This is how a borderless table of a tagged PDF is read: a cell's lines stay one cell
    instead of interleaving with the next column's lines, and each cell sits in the grid
    column its row's spans give it.
    """
    grouped: dict[int, dict[tuple[int, int], list[Word]]] = {}
    places: dict[int, dict[tuple[int, int], CellPlace]] = {}
    rest = []
    previous: tuple[Word, CellPlace] | None = None
    for word in words:
        cell = cells.get(word.mcid) if word.mcid is not None else None
        if cell is None and previous is not None and _runs_on(previous[0], word):
            cell = previous[1]
        previous = (word, cell) if cell is not None else None
        if cell is None:
            rest.append(word)
            continue
        grouped.setdefault(cell.table, {}).setdefault((cell.row, cell.column), []).append(word)
        places.setdefault(cell.table, {})[(cell.row, cell.column)] = cell
    found = []
    for table, by_cell in grouped.items():
        table_places = places[table]
        texts = {key: _cell_lines(cell_words) for key, cell_words in by_cell.items()}
        row_numbers = sorted({row for row, _ in texts})
        head_count = _tagged_head_count(texts, table_places, row_numbers)
        grid = _tagged_grid(texts, table_places, row_numbers, head_count)
        header, body = tidy_columns(grid[:head_count], grid[head_count:])
        head = [row for row in stack_header(header) if any(row)]
        rows = clean_rows([*head, *body])
        if not is_grid(rows):
            rest.extend(w for cell_words in by_cell.values() for w in cell_words)
            continue
        boxes = [w for cell_words in by_cell.values() for w in cell_words]
        found.append(
            PageTable(
                rows,
                page,
                min(w.x0 for w in boxes),
                max(w.x1 for w in boxes),
                min(w.top for w in boxes),
                max(w.bottom for w in boxes),
                header_rows=len(head),
            )
        )
    return found, rest


def _runs_on(before: Word, word: Word) -> bool:
    """An unmarked word set right after a cell's word on its line is more of that cell:
    pdfplumber gives the marked-content id of some cells to their first word only."""
    if word.mcid is not None or word.tag is not None:
        return False
    same_line = abs(word.top - before.top) <= 0.3 * max(before.size, 1.0)
    gap = word.x0 - before.x1
    return same_line and -0.5 <= gap <= DEFAULT_CELL_WORD_GAP * max(before.size, 1.0)


def _cell_lines(cell_words: list[Word]) -> str:
    return cell_text("\n".join(join_words(r.words) for r in cluster_rows(cell_words)))


def _tagged_head_count(
    texts: dict[tuple[int, int], str],
    places: dict[tuple[int, int], CellPlace],
    row_numbers: list[int],
) -> int:
    """Leading rows that are column titles: `TH` rows, or — in a table tagged with `TD`
    only, as word processors write financial tables — rows of titles and years with no
    figure, before the first row that holds one. One body row at least remains."""
    count = 0
    for row in row_numbers[: MAX_HEADER_ROWS + 1]:
        cells = {column: text for (r, column), text in texts.items() if r == row}
        tagged_head = all(places[(row, column)].header for column in cells)
        if not (tagged_head or is_title_row(cells)):
            break
        count += 1
    return min(count, len(row_numbers) - 1, MAX_HEADER_ROWS)


def _tagged_grid(
    texts: dict[tuple[int, int], str],
    places: dict[tuple[int, int], CellPlace],
    row_numbers: list[int],
    head_count: int,
) -> list[list[str]]:
    """Rows of one width; a spanning header cell names every column it covers, a spanning
    body cell keeps its text in its first column."""
    width = max(place.column + place.span - 1 for place in places.values())
    index_of = {row: index for index, row in enumerate(row_numbers)}
    grid = [[""] * width for _ in row_numbers]
    for (row, column), text in texts.items():
        index = index_of[row]
        span = places[(row, column)].span if index < head_count else 1
        for covered in range(column - 1, column - 1 + span):
            grid[index][covered] = text
    return grid


def header_rows(rows: list[list[str]]) -> int:
    """1 when the first row reads like column titles (see `table_titles`) and is not
    all figures and blanks, else 0."""
    first = rows[0]
    if all(_NUMERIC.match(cell) for cell in first):
        return 0
    return 1 if reads_as_titles(first) else 0


def is_caption(text: str) -> bool:
    return bool(_CAPTION.match(text)) and len(text) <= 200


def continues(previous: Table, table: PageTable) -> bool:
    """`table` (first on its page) continues `previous` (last on the page before)."""
    width = len(previous.header[0]) if previous.header else len(previous.rows[0])
    if len(table.rows[0]) != width:
        return False
    if previous.header and table.header_rows:
        return _same_row(previous.header[0], table.rows[0])
    return True


def _same_row(a: list[str], b: list[str]) -> bool:
    return [match_key(x) for x in a] == [match_key(x) for x in b]


def to_table(table: PageTable, caption: str = "") -> Table:
    head = table.rows[: table.header_rows]
    body = table.rows[table.header_rows :]
    prov = Provenance(pages=(table.page,))
    return Table(
        header=head,
        rows=body,
        caption=caption,
        prov=prov,
        row_provs=[Provenance(pages=(table.page,)) for _ in body],
    )


def extend(previous: Table, table: PageTable) -> list[str]:
    """Append a continuation to `previous`, dropping its repeated header row (returned)."""
    rows, repeated = table.rows, []
    if previous.header and table.header_rows and _same_row(previous.header[0], rows[0]):
        rows, repeated = rows[1:], rows[0]
    previous.rows.extend(rows)
    previous.row_provs.extend(Provenance(pages=(table.page,)) for _ in rows)
    previous.prov = previous.prov.merged(Provenance(pages=(table.page,)))
    return repeated
