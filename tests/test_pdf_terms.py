"""Terms beside their definitions (parsers/pdf/terms.py): whatever rows a page holds, the
term tables found take whole rows and lose no word."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from structchunk.parsers.pdf.layout import Row
from structchunk.parsers.pdf.terms import take_term_tables
from structchunk.parsers.pdf.types import Word

GUTTER = (290.0, 310.0)


@st.composite
def pages(draw: st.DrawFn) -> list[Row]:
    """Rows 11 points apart with an extra gap now and then; each row has words on the
    left, on the right, both, or across the gutter."""
    rows = []
    top = 100.0
    for index in range(draw(st.integers(0, 30))):
        top += 11 + draw(st.sampled_from([0, 0, 0, 3.5, 12]))
        sides = draw(st.sampled_from(["left", "right", "both", "both", "across"]))
        words = []
        if sides in ("left", "both"):
            words.append(
                Word(f"term{index}", 80, 80 + draw(st.integers(10, 200)), top, top + 9, 9, "F")
            )
        if sides in ("right", "both"):
            words.append(
                Word(f"def{index}", 330, 330 + draw(st.integers(10, 250)), top, top + 9, 9, "F")
            )
        if sides == "across":
            words.append(Word(f"wide{index}", 72, 540, top, top + 9, 9, "F"))
        rows.append(Row(words, top, top + 9))
    return rows


@settings(max_examples=300, deadline=None)
@given(pages())
def test_term_tables_lose_no_word_and_keep_the_rest_in_order(rows: list[Row]) -> None:
    left, tables = take_term_tables(rows, [GUTTER], 1)
    kept = [w.text for row in left for w in row.words]
    in_tables = [word for t in tables for r in t.rows for cell in r for word in cell.split()]
    assert Counter(kept + in_tables) == Counter(w.text for row in rows for w in row.words)
    kept_ids = {id(row) for row in left}
    assert [id(row) for row in left] == [id(row) for row in rows if id(row) in kept_ids]
    for table in tables:
        assert all(len(row) == 2 and row[0] and row[1] for row in table.rows)
        assert table.header_rows == 0


def test_two_gutters_or_none_read_no_term_table() -> None:
    rows = [Row([Word("a", 80, 90, t, t + 9, 9, "F")], t, t + 9) for t in range(0, 100, 11)]
    assert take_term_tables(rows, [], 1) == (rows, [])
    assert take_term_tables(rows, [GUTTER, (400.0, 420.0)], 1) == (rows, [])
