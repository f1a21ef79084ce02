"""Borderless tables: rows of aligned figures under header lines, as in financial statements.

Nothing is drawn around them, so `find_tables()` cannot see them (or sees the shading of
alternate rows and gets the columns wrong), and read as lines they lose what each number
means: `Work in process 7,415 7,565` under `Apr 1, 2023  Dec 31, 2022`. A run of rows is
a table when at least `DEFAULT_MIN_ROWS` of them end in figures set apart from their
label by a wide gap, and those figures line up on common right edges (the columns).
The rows just above the first figures whose words all sit over the columns (or in the
label column's place) are the header; each column's header is the header phrases nearest
to it, stacked (`Three Months Ended` / `December 31,` / `2022`). Rows of page numbers
under titles (a table of contents) are not a table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cleanup import CLOSERS, CURRENCY_SIGNS, clean_text, is_bare_number
from .column_heads import ColumnHeads, spacing
from .tables import cell_text
from .types import PageTable, Word

DEFAULT_MIN_ROWS = 3
"""Rows with figures needed for a table (two aligned rows happen in prose and lists)."""
DEFAULT_CELL_GAP_EM = 1.0
"""A gap of at least this many font sizes separates two cells (word spaces are 0.2–0.3
em, and justified prose stretches them to about 1 em only with long words)."""
DEFAULT_ALIGN_TOLERANCE = 4.0
"""Points two right edges may differ and still be one column (a closing parenthesis of
a negative figure hangs out by about its own width)."""
DEFAULT_ROW_GAP_LINES = 2.6
"""Largest vertical gap, in line heights, inside a table or between it and its header
(statements leave a blank line before totals and sections)."""
DEFAULT_MIN_COLUMN_SHARE = 0.3
"""A column must hold a figure in at least this share of the figure rows."""

_FIGURE = re.compile(
    r"^(?:[$€£¥]?\(?[-–—+]?[$€£¥]?\d[\d,]*(?:\.\d+)?\)?%?\)?[*†]?|\(?[-–—]+\)?|[)%]+|n/?a|nm)$",
    re.I,
)
FIGURE_UNITS = frozenset({"pts", "pt", "bps", "bp", "pp"})
"""Units printed after a figure: percentage points (`10.1 pts`) and basis points; read as
text, `Gross margin 53.6 % … 10.1 pts` was no figure row, cut a statement in two and
became the header of its second half (NVIDIA's 10-Q, page 28)."""
_YEAR = re.compile(r"^(?:19|20)\d\d[*,]?$")
DEFAULT_MAX_HEADER_ROWS = 6
DEFAULT_MAX_HEADER_WORDS = 8
"""A header phrase is a few words (`Three Months Ended`); a longer run is text."""


@dataclass(slots=True)
class Phrase:
    """Words of one row separated from the next phrase by a cell gap."""

    words: list[Word]

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def text(self) -> str:
        parts: list[str] = []
        for word in self.words:
            if parts and word.text not in CLOSERS:
                parts.append(" ")
            parts.append(word.text)
        return clean_text("".join(parts))

    def is_figure(self) -> bool:
        """Figures, currency signs, and units after a figure (`10.1 pts`, `25 bps`)."""
        return all(
            _FIGURE.match(word.text)
            or word.text in CURRENCY_SIGNS
            or (index > 0 and word.text.casefold() in FIGURE_UNITS)
            for index, word in enumerate(self.words)
        )

    @property
    def figure_x0(self) -> float:
        """Left edge of the figure itself, a currency sign set apart before it left out."""
        return next((w.x0 for w in self.words if w.text not in CURRENCY_SIGNS), self.x0)

    @property
    def figure_x1(self) -> float:
        """Right edge of the number itself: a `%` or unit set apart after it hangs past
        the column's right edge (`53.6 %` under `$ 5,931`)."""
        return next(
            (w.x1 for w in reversed(self.words) if any(ch.isdigit() for ch in w.text)), self.x1
        )

    def is_year(self) -> bool:
        return all(_YEAR.match(w.text) for w in self.words)


@dataclass(slots=True)
class _Parsed:
    """A row as label and figures: the figure phrases come after every label phrase."""

    phrases: list[Phrase]
    label: list[Phrase] = field(default_factory=list)
    figures: list[Phrase] = field(default_factory=list)


def phrases(words: list[Word], em: float) -> list[Phrase]:
    """The row's words (left to right) grouped at cell gaps."""
    out: list[Phrase] = []
    for word in words:
        close = out and word.x0 - out[-1].x1 < DEFAULT_CELL_GAP_EM * max(word.size, em, 1.0)
        sign_after_figure = (
            word.text in CURRENCY_SIGNS and out and _FIGURE.match(out[-1].words[-1].text)
        )
        if close and not sign_after_figure:
            out[-1].words.append(word)
        else:
            out.append(Phrase([word]))
    return out


def _parse(words: list[Word], em: float) -> _Parsed:
    parsed = _Parsed(phrases(words, em))
    figures: list[Phrase] = []
    for phrase in reversed(parsed.phrases):
        if not phrase.is_figure():
            break
        figures.insert(0, phrase)
    label = parsed.phrases[: len(parsed.phrases) - len(figures)]
    if not label and all(p.text in CURRENCY_SIGNS or p.is_year() for p in figures):
        figures = []  # `2022  2021` over the columns is a header row, not figures
    parsed.label, parsed.figures = label, _merge_currency(figures)
    return parsed


def _merge_currency(figures: list[Phrase]) -> list[Phrase]:
    """`$` printed apart from its number belongs to the number after it."""
    out: list[Phrase] = []
    pending: list[Word] = []
    for phrase in figures:
        if phrase.text in CURRENCY_SIGNS:
            pending.extend(phrase.words)
            continue
        out.append(Phrase(pending + phrase.words) if pending else phrase)
        pending = []
    if pending and out:
        out[-1].words.extend(pending)
    return [p for p in out if p.text not in CURRENCY_SIGNS]


def _columns(figure_rows: list[_Parsed]) -> list[tuple[float, float]]:
    """Column extents (x0, right edge) from the right edges of the figures."""
    edges = sorted((p.x1, p.figure_x0) for row in figure_rows for p in row.figures)
    groups: list[list[tuple[float, float]]] = []
    for edge in edges:
        if groups and edge[0] - groups[-1][-1][0] <= DEFAULT_ALIGN_TOLERANCE:
            groups[-1].append(edge)
        else:
            groups.append([edge])
    needed = max(2, DEFAULT_MIN_COLUMN_SHARE * len(figure_rows))
    return [
        (min(x0 for _, x0 in group), max(x1 for x1, _ in group))
        for group in groups
        if len(group) >= needed
    ]


def _column_of(phrase: Phrase, columns: list[tuple[float, float]]) -> int | None:
    for right in (phrase.x1, phrase.figure_x1):
        for index, (x0, x1) in enumerate(columns):
            if abs(right - x1) <= DEFAULT_ALIGN_TOLERANCE * 2 or x0 - 1 <= right <= x1 + 1:
                return index
    return None


@dataclass(slots=True)
class FoundTable:
    """A borderless table and the rows (by index) it was made of."""

    table: PageTable
    rows: list[int]


def find_borderless_tables(
    rows: list[list[Word]], tops: list[float], bottoms: list[float], page: int, em: float
) -> list[FoundTable]:
    """Tables among the page's rows (each row: its words left to right)."""
    parsed = [_parse(words, em) for words in rows]
    line = max(em * 1.2, 1.0)
    found: list[FoundTable] = []
    index = 0
    while index < len(rows):
        if not _starts_table(parsed[index]):
            index += 1
            continue
        end = _run_end(parsed, tops, bottoms, index, line)
        run = [i for i in range(index, end + 1) if parsed[i].figures]
        start = _section_labels_above(parsed, tops, bottoms, index, line, found)
        table = _build(parsed, rows, tops, bottoms, start, end, run, page, line)
        if table is not None:
            found.append(table)
            index = end + 1
        else:
            index += 1
    return found


def _section_labels_above(
    parsed: list[_Parsed],
    tops: list[float],
    bottoms: list[float],
    start: int,
    line: float,
    found: list[FoundTable],
) -> int:
    """The first row of the table: label-only rows right above its first figures
    (`Net sales:`, `ASSETS`) open its first section."""
    taken = {i for table in found for i in table.rows}
    limit = _label_limit(parsed, start)
    while (
        start > 0
        and start - 1 not in taken
        and tops[start] - bottoms[start - 1] <= DEFAULT_ROW_GAP_LINES * line
        and not parsed[start - 1].figures
        and len(parsed[start - 1].phrases) == 1
        and len(parsed[start - 1].phrases[0].words) <= DEFAULT_MAX_HEADER_WORDS
        and parsed[start - 1].phrases[0].x1 < limit
    ):
        start -= 1
    return start


def _label_limit(parsed: list[_Parsed], start: int) -> float:
    """Where the first figures of the table begin: labels end before it."""
    return min(p.figure_x0 for p in parsed[start].figures) if parsed[start].figures else 0.0


def _starts_table(row: _Parsed) -> bool:
    return bool(row.figures) and (bool(row.label) or len(row.figures) >= 2)


def _run_end(
    parsed: list[_Parsed], tops: list[float], bottoms: list[float], start: int, line: float
) -> int:
    """The last figure row of the run starting at `start` (label rows may sit between)."""
    last = start
    for index in range(start + 1, len(parsed)):
        if tops[index] - bottoms[index - 1] > DEFAULT_ROW_GAP_LINES * line:
            break
        row = parsed[index]
        if row.figures:
            last = index
        elif not row.label or len(row.label) > 1 or _is_prose(row.label[0]):
            break
    return last


def _is_prose(phrase: Phrase) -> bool:
    """A label long enough to be a sentence of text rather than a row label."""
    return len(phrase.words) > 14


def _build(
    parsed: list[_Parsed],
    rows: list[list[Word]],
    tops: list[float],
    bottoms: list[float],
    start: int,
    end: int,
    figure_rows: list[int],
    page: int,
    line: float,
) -> FoundTable | None:
    if len(figure_rows) < DEFAULT_MIN_ROWS:
        return None
    columns = _columns([parsed[i] for i in figure_rows])
    if not columns:
        return None
    placed = sum(
        1 for i in figure_rows for p in parsed[i].figures if _column_of(p, columns) is not None
    )
    if placed < 0.8 * sum(len(parsed[i].figures) for i in figure_rows):
        return None
    if _is_contents(parsed, figure_rows, columns):
        return None
    header = _header_rows(parsed, tops, bottoms, start, columns, line)
    heads = ColumnHeads(columns, [parsed[i].phrases for i in header])
    loose = [p for i in range(start, end + 1) for p in parsed[i].figures]
    columns = heads.add_unclaimed([p for p in loose if _column_of(p, columns) is None])
    body: list[list[str]] = []
    for index in range(start, end + 1):
        cells = [""] * len(columns)
        label_parts = [p.text for p in parsed[index].label]
        for phrase in parsed[index].figures:
            column = _column_of(phrase, columns)
            if column is None:
                label_parts.append(phrase.text)
            else:
                cells[column] = f"{cells[column]} {phrase.text}".strip()
        label = " ".join(label_parts)
        if body and label[:1].islower() and not any(body[-1][1:]):
            body[-1] = [cell_text(f"{body[-1][0]}\n{label}"), *cells]  # a wrapped label
            continue
        body.append([label, *cells])
    head = heads.cells()
    table_rows = ([head] if head else []) + body
    used = header + list(range(start, end + 1))
    words = [w for i in used for w in rows[i]]
    table = PageTable(
        rows=table_rows,
        page=page,
        x0=min(w.x0 for w in words),
        x1=max(w.x1 for w in words),
        top=min(tops[i] for i in used),
        bottom=max(bottoms[i] for i in used),
        header_rows=1 if head else 0,
    )
    return FoundTable(table, sorted(used))


def _is_contents(
    parsed: list[_Parsed], figure_rows: list[int], columns: list[tuple[float, float]]
) -> bool:
    """One column of small whole numbers under titles: page numbers of a contents list."""
    if len(columns) != 1:
        return False
    numbers = [p.text for i in figure_rows for p in parsed[i].figures]
    return all(is_bare_number(n) for n in numbers)


def _header_rows(
    parsed: list[_Parsed],
    tops: list[float],
    bottoms: list[float],
    start: int,
    columns: list[tuple[float, float]],
    line: float,
) -> list[int]:
    """Rows right above the table whose phrases sit over the columns (a label-column
    phrase on the left is allowed, like `(In millions)`)."""
    out: list[int] = []
    below = start
    reach = columns[0][0] - spacing(columns) / 2
    for index in range(start - 1, -1, -1):
        if tops[below] - bottoms[index] > DEFAULT_ROW_GAP_LINES * line:
            break
        row = parsed[index]
        over = [p for p in row.phrases if p.x0 >= reach - spacing(columns) / 2]
        before = [p for p in row.phrases if p not in over]
        if not over or len(before) > 1 or any(p.x1 > reach for p in before):
            break
        if any(len(p.words) > DEFAULT_MAX_HEADER_WORDS for p in row.phrases):
            break
        if row.figures:
            break  # a row of figures belongs to a table, not to this one's header
        out.insert(0, index)
        below = index
        if len(out) >= DEFAULT_MAX_HEADER_ROWS:
            break
    return out
