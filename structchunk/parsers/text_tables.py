"""Tables written in plain text as rows of cells between `|` bars.

Text exported from spreadsheets, reports and datasets (FinQA's filings, a README's
Markdown table saved as `.txt`, a database shell's output) sets a table as lines of
cells separated by `|`, with or without bars at the ends and a `---|---` line under the
titles. Read as a paragraph, such a table is cut between words like prose, its title row
is not repeated on its later pieces and the text before it cannot say "the table below".
A run of at least two such lines with the same number of cells (two or more) is read as
a table; anything else in the paragraph stays text.
"""

from __future__ import annotations

import re

from ..document import Block, Paragraph, Provenance, Table
from .table_titles import reads_as_titles

MIN_TABLE_ROWS = 2
"""Lines of cells a table needs (the delimiter line not counted): one line with a bar
is as often prose (`input | output`) or a shell pipe."""

_BAR = re.compile(r"(?<!\\)\|")
_DELIMITER_CHARS = frozenset(" \t|+:-")


def row_cells(line: str) -> list[str] | None:
    """The cells of a table line (bars at its ends dropped, `\\|` kept in a cell), or
    None when the line has no bar between two cells."""
    if "|" not in line:  # most lines of prose: nothing to split
        return None
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = [cell.strip().replace("\\|", "|") for cell in _BAR.split(body)]
    return cells if len(cells) >= 2 else None


def is_delimiter(line: str) -> bool:
    """A rule under the titles, never a row: Markdown's `|---|:---:|` or a database
    shell's `----+----` (three dashes at least: `- | - | -` is a row of empty values)."""
    return "---" in line and set(line.strip()) <= _DELIMITER_CHARS


def text_blocks(lines: list[str], first_line: int) -> list[Block]:
    """A paragraph's lines (the first numbered `first_line`) as its paragraphs and tables."""
    blocks: list[Block] = []
    prose_start = 0
    at = 0
    while at < len(lines):
        end, table = _table_at(lines, at, first_line)
        if table is None:
            at += 1
            continue
        _add_prose(blocks, lines, prose_start, at, first_line)
        blocks.append(table)
        prose_start = at = end
    _add_prose(blocks, lines, prose_start, len(lines), first_line)
    return blocks


def _add_prose(blocks: list[Block], lines: list[str], start: int, end: int, first: int) -> None:
    text = "\n".join(line.rstrip() for line in lines[start:end]).strip()
    if text:
        blocks.append(Paragraph(text, Provenance((first + start, first + end - 1))))


def _table_at(lines: list[str], start: int, first_line: int) -> tuple[int, Table | None]:
    """The table whose first line is `lines[start]` and the index after its last line."""
    titles = row_cells(lines[start])
    if titles is None or is_delimiter(lines[start]):
        return start, None
    width = len(titles)
    at = start + 1
    delimited = at < len(lines) and is_delimiter(lines[at])
    if delimited:
        at += 1
    rows: list[list[str]] = [titles]
    row_lines = [start]
    while at < len(lines):
        cells = None if is_delimiter(lines[at]) else row_cells(lines[at])
        if cells is None or len(cells) != width:
            break
        rows.append(cells)
        row_lines.append(at)
        at += 1
    if len(rows) < MIN_TABLE_ROWS:
        return start, None
    header = 1 if delimited or reads_as_titles(titles) else 0
    provs = [Provenance((first_line + line, first_line + line)) for line in row_lines]
    table = Table(
        header=rows[:header],
        rows=rows[header:],
        prov=Provenance((first_line + start, first_line + at - 1)),
        row_provs=provs[header:],
    )
    return at, table
