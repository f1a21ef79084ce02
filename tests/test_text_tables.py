"""Tables set in plain text as rows of `|`-separated cells: read as tables, cut by rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_params
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from structchunk import chunk_file, chunk_text
from structchunk.document import Block, Paragraph, Table
from structchunk.packing.audit import first_missing_word
from structchunk.parsers import ParseSettings
from structchunk.parsers.table_titles import reads_as_titles
from structchunk.parsers.text import parse

FILING = """\
long-term debt consisted of the following:
($in millions) | december 31 2017 | december 31 2016
senior notes due 2021 | 2014 | 600
senior notes due 2025 | 600 | 600
total long-term debt | 1279 | 1278

credit facility - in november 2017 the company entered into a new credit agreement.
"""


def blocks(text: str) -> list[Block]:
    document = parse(text.encode("utf-8"), "test.txt", ParseSettings())
    return [block for section in document.sections() for block in section.blocks]


def test_rows_of_cells_under_a_paragraph_line_are_a_table() -> None:
    lead_in, table, after = blocks(FILING)
    assert isinstance(lead_in, Paragraph)
    assert lead_in.text == "long-term debt consisted of the following:"
    assert lead_in.prov.lines == (1, 1)
    assert isinstance(table, Table)
    assert table.header == [["($in millions)", "december 31 2017", "december 31 2016"]]
    assert table.rows[-1] == ["total long-term debt", "1279", "1278"]
    assert table.prov.lines == (2, 5)
    assert [prov.lines for prov in table.row_provs] == [(3, 3), (4, 4), (5, 5)]
    assert isinstance(after, Paragraph)


@pytest.mark.parametrize(
    ("text", "header"),
    [
        ("- | 2017 | 2016\nrevenue | $1297 | $1100\n", [["-", "2017", "2016"]]),
        (
            "2008 | high | low\nquarter ended march 31 | $42.72 | $32.10\n",
            [["2008", "high", "low"]],
        ),
        ("revenue | 1297 | 1100\ncost of sales | 220 | 210\n", []),
        ("| a | b |\n|---|:---:|\n| 1 | 2 |\n", [["a", "b"]]),
        (" id | name\n----+------\n  1 | 12\n  2 | 14\n", [["id", "name"]]),
        ("Make: | Cessna | Model: | 172\nYear: | 1970 | Seats: | 4\n", []),
    ],
)
def test_the_first_row_is_a_header_when_it_reads_as_titles(
    text: str, header: list[list[str]]
) -> None:
    (table,) = blocks(text)
    assert isinstance(table, Table)
    assert table.header == header
    assert all("---" not in cell for row in table.rows for cell in row)


def test_an_escaped_bar_stays_in_its_cell() -> None:
    (table,) = blocks("name | pattern\nor | a \\| b\n")
    assert isinstance(table, Table)
    assert table.rows == [["or", "a | b"]]


@pytest.mark.parametrize(
    "text",
    [
        "input | output",  # one line: prose as often as a table
        "cat log | grep error\nand then count the lines",
        "a | b | c\nd | e\n",  # rows of different widths
        "|---|---|\n|---|---|\n",  # rules only
    ],
)
def test_lines_that_are_no_table_stay_text(text: str) -> None:
    assert all(isinstance(block, Paragraph) for block in blocks(text))


def test_a_long_text_table_is_cut_between_rows_under_its_header() -> None:
    rows = [f"total capital (tier {n}) | {n}08.4 | {n}21.6" for n in range(1, 41)]
    text = "in billions of dollars at year end | 2008 | 2007\n" + "\n".join(rows) + "\n"
    chunks = chunk_text(text, format="text", max_tokens=60)
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.text.startswith("| in billions of dollars at year end | 2008 | 2007 |")
    body = [line for c in chunks for line in c.text.splitlines()[2:]]
    assert body == [f"| {row} |" for row in rows]


def test_a_text_table_is_written_as_a_markdown_table() -> None:
    chunks = chunk_text(FILING, format="text", max_tokens=200)
    assert [c.lines for c in chunks] == [[1, 7]]
    assert "|---|---|---|" in chunks[0].text


def test_a_row_of_titles_has_no_figure_after_its_label() -> None:
    assert reads_as_titles(["", "Three Months Ended", "Six Months Ended"])
    assert not reads_as_titles(["Total", "1,279", "1,278"])


@st.composite
def text_with_tables(draw: st.DrawFn) -> tuple[str, list[str], list[str]]:
    """Paragraphs and `|` tables; returns the text, its words and its table rows."""
    blocks, words, rows = [], [], []
    for block in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            sentence = [f"p{block}w{n}" for n in range(draw(st.integers(1, 60)))]
            words += sentence
            blocks.append(" ".join(sentence) + ".")
            continue
        width = draw(st.integers(2, 4))
        lines = []
        for row in range(draw(st.integers(2, 30))):
            cells = [f"t{block}r{row}c{c}" for c in range(width)]
            words += cells
            lines.append(" | ".join(cells))
        rows += lines
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks), words, rows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text_with_tables(), st.integers(12, 200))
def test_text_tables_keep_every_word_and_row(
    generated: tuple[str, list[str], list[str]], budget: int
) -> None:
    text, words, rows = generated
    chunks = chunk_text(text, format="text", max_tokens=budget)
    assert all(c.n_tokens <= budget for c in chunks)
    produced = [w.strip(".|") for c in chunks for w in c.body.split()]
    assert first_missing_word(words, [w for w in produced if w]) is None
    lines = {line for c in chunks for line in c.body.splitlines()}
    widest = max((len(row.split()) for row in rows), default=0)
    if 2 * widest + 10 <= budget:  # every row fits with its header: none is cut
        assert all(f"| {row} |" in lines for row in rows)


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_params("text", "finance.txt"))
def test_every_row_of_the_filings_text_stands_whole_in_a_chunk(path: Path) -> None:
    rows = [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.count(" | ") >= 1
    ]
    chunks = chunk_file(path, max_tokens=200)
    lines = {line for chunk in chunks for line in chunk.text.splitlines()}
    missing = [row for row in rows if f"| {row} |" not in lines]
    assert len(rows) > 1000
    assert len(missing) < len(rows) // 50, missing[:5]
