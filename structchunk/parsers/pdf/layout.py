"""Words to lines in reading order: rows, column gutters, and regions read column by column.

A page is cut into horizontal bands: a row that crosses a column gutter (a title, a
full-width paragraph, a wide table) is a band of its own; the rows between such rows
are read column by column, left to right. Gutters are vertical strips that almost no
word covers, with prose-like text on both sides, so a borderless table's aligned
columns are not mistaken for text columns.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .cleanup import clean_text, is_bold, is_italic, is_mono, split_marker
from .types import Line, PageContent, PageFigure, PageTable, Word

DEFAULT_ROW_OVERLAP = 0.5
"""Share of the smaller height two words must overlap vertically to sit on one row
(superscripts overlap their line by about half their height)."""
DEFAULT_STACKED_SHARE = 0.5
"""Share of the narrower word's width two words must share to sit one over the other."""
DEFAULT_STACKED_SIZE = 0.25
"""Two words that far apart in size or closer count as one over the other (a 10-point
label over 9-point text); a superscript or subscript, at about 0.6–0.7 of its line's
size, is never pushed onto a row of its own."""
DEFAULT_TINY = 0.3
"""Words under this share of the body size (1-point text under a 10-point body: hidden
ids and placeholders some generators print) make rows of their own, so they never
glue onto the visible line beside them."""
DEFAULT_SPACE_RATIO = 0.1
"""Gap, in font sizes, above which two adjacent words are separated by a space: a space
glyph is 0.2–0.3 em, while pieces of one word split by a font change touch (gap ≈ 0)."""
DEFAULT_LETTER_RUN = 3
"""Single letters in a row that make a letter-spaced word (`D i r e c t o r`)."""
DEFAULT_LETTER_GAP = 0.8
"""Largest gap, in font sizes, between two letters of a letter-spaced run (a space in it
is the tracking plus a space glyph, about 0.25 em more)."""
DEFAULT_LETTER_WORD_BREAK = 0.12
"""A gap this many font sizes wider than the run's tracking separates two of its words."""
DEFAULT_SAME_SIZE = 0.08
"""Words within this relative size of the line's main size count as the same size."""
DEFAULT_CELL_GAP = 1.5
"""A gap of this many font sizes inside a line separates table cells, not words (the
widest word space in justified corpus text is about 1 em)."""
DEFAULT_MIN_GUTTER_EM = 0.8
"""Narrowest column gutter, in body font sizes: LaTeX's default `\\columnsep` is 10 pt
with 10 pt text; word spaces in justified text stay under 0.6 em in the corpus."""
DEFAULT_GUTTER_COVERAGE = 0.12
"""A gutter strip may be crossed by at most this share of the page's rows (titles and
full-width lines cross it; column text does not)."""
DEFAULT_COLUMN_MIN_ROWS = 6
"""Each side of a gutter needs at least this many rows of text beside the other side (a
small borderless table has fewer)."""
DEFAULT_COLUMN_MIN_WORDS = 4.0
"""Mean words per row on each side: prose columns have 6–12 (the corpus's three-column
register: 6–7), borderless table columns 1–4."""
DEFAULT_PARAGRAPH_GAP = 0.45
"""Extra gap, in font sizes, over the usual line gap that separates paragraphs (browsers
leave about 1 em between paragraphs, typeset text 0.5 em or nothing but an indent)."""
DEFAULT_TIGHT_SHARE = 0.2
"""Gaps under one font size must be at least this share of the larger gaps to be taken as
the line gap (a few tight pairs in double-spaced text are not its line gap)."""
DEFAULT_GAP_MAIN_SHARE = 0.95
"""Lines this much in their main font are the ones the usual line gap is measured on."""
DEFAULT_GAP_PLAIN_PAIRS = 20
"""...when there are at least this many pairs of them; else all lines are."""
DEFAULT_COLUMN_FULL_ROWS = 0.5
"""Share of a column's rows that must fill at least 70% of its width (wrapped prose
does; the cells of a borderless table vary too much)."""
DEFAULT_COLUMN_FULL_ROWS_BESIDE = 0.4
"""The same share for the other column, beside one that reaches `DEFAULT_COLUMN_FULL_ROWS`:
a column of short labels, each over a few lines of text (the agency plans' stakeholder
pages: 42–48 %), is still a column; read across, its lines glued to the other's."""


@dataclass(slots=True)
class Row:
    """Words on one visual row (possibly across columns), or a table (or a chart's
    figure) placed in the flow."""

    words: list[Word] = field(default_factory=list)
    top: float = 0.0
    bottom: float = 0.0
    table: PageTable | PageFigure | None = None

    @property
    def x0(self) -> float:
        return self.table.x0 if self.table else min(w.x0 for w in self.words)

    @property
    def x1(self) -> float:
        return self.table.x1 if self.table else max(w.x1 for w in self.words)


def body_size(words: list[Word]) -> float:
    """The most common font size, by characters."""
    sizes: Counter[float] = Counter()
    for word in words:
        sizes[round(word.size, 1)] += len(word.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def cluster_rows(words: list[Word]) -> list[Row]:
    """Group words into rows; near-invisible text (see `DEFAULT_TINY`) rows apart."""
    limit = DEFAULT_TINY * body_size(words)
    tiny = [w for w in words if w.size < limit]
    if not tiny:
        return _cluster(words)
    rows = _cluster([w for w in words if w.size >= limit]) + _cluster(tiny)
    rows.sort(key=lambda r: r.top)
    return rows


def _cluster(words: list[Word]) -> list[Row]:
    """Group words into rows by vertical overlap with the row's tallest word — never two
    lines of one column: a word set over or under a word already in the row, at its own
    baseline, starts a row of its own (see `_Placed.another_line`)."""
    rows: list[tuple[Row, _Placed]] = []
    for word in sorted(words, key=lambda w: (w.bottom, w.x0)):
        height = max(word.bottom - word.top, 0.1)
        target = None
        for row, placed in reversed(rows[-12:]):
            overlap = min(row.bottom, word.bottom) - max(row.top, word.top)
            if overlap >= DEFAULT_ROW_OVERLAP * min(
                height, row.bottom - row.top
            ) and not placed.another_line(word):
                target = row, placed
                break
        if target is None:
            target = Row([], word.top, word.bottom), _Placed()
            rows.append(target)
        row, placed = target
        row.words.append(word)
        placed.add(word)
        if height > row.bottom - row.top:
            row.top, row.bottom = word.top, word.bottom
    out = [row for row, _ in rows]
    for row in out:
        row.words.sort(key=lambda w: w.x0)
    out.sort(key=lambda r: r.top)
    return _reseat_small_words(out)


DEFAULT_SMALL_WORD = 0.8
"""A word under this share of its row's height (a superscript, a footnote mark) may be
moved to another row it overlaps as well."""
DEFAULT_NEAR_ROWS = 3
"""How many rows above and below are tried for a small word."""
DEFAULT_SMALL_WORD_APART = 2.0
"""A small word is only moved when it stands farther than this many row heights from
every other word of its row: next to a word (a subscript, math set in pieces) it is
where it belongs."""


def _reseat_small_words(rows: list[Row]) -> list[Row]:
    """Move each small word that stands apart in its row to a row where it sits right
    between words. Words are placed in order of their bottoms, so a superscript, whose
    bottom is above its line's, meets first the row of another column set a little
    higher (`sensor⁴ input` read its `4` into the right column's `Airlines
    (Ethiopian…` and left it a line of its own), or the line above when the leading is
    tight. A word near a word of its row (a subscript) stays."""
    lefts = [[w.x0 for w in row.words] for row in rows]
    moves: list[tuple[Word, int, int]] = []
    for index, row in enumerate(rows):
        height = row.bottom - row.top
        for word in row.words:
            own = word.bottom - word.top
            if own >= DEFAULT_SMALL_WORD * height:
                continue
            here = _horizontal_distance(word, row, lefts[index])
            if here <= DEFAULT_SMALL_WORD_APART * height:
                continue
            best: tuple[float, int] | None = None
            for near in range(max(index - DEFAULT_NEAR_ROWS, 0), index + DEFAULT_NEAR_ROWS + 1):
                other = rows[near] if near < len(rows) and near != index else None
                if other is None:
                    continue
                overlap = min(other.bottom, word.bottom) - max(other.top, word.top)
                if overlap < DEFAULT_ROW_OVERLAP * own:
                    continue
                distance = _horizontal_distance(word, other, lefts[near], beside_only=True)
                if distance < here / 2 and (best is None or distance < best[0]):
                    best = distance, near
            if best is not None:
                moves.append((word, index, best[1]))
    if not moves:
        return rows
    leaving = {id(word) for word, _, _ in moves}
    for source in {source for _, source, _ in moves}:
        rows[source].words = [w for w in rows[source].words if id(w) not in leaving]
    for word, _, target in moves:
        rows[target].words.append(word)
    for target in {target for _, _, target in moves}:
        rows[target].words.sort(key=lambda w: w.x0)
    return [row for row in rows if row.words]


def _horizontal_distance(
    word: Word, row: Row, lefts: list[float], beside_only: bool = False
) -> float:
    """The gap between `word` and the nearest other word of `row` (whose words' left
    edges, in order, are `lefts`): 0 when they touch; infinite when there is none, or,
    `beside_only`, when `word` lies over one of them (stacked, not beside)."""
    at = bisect.bisect_left(lefts, word.x0)
    near = row.words[max(at - 3, 0) : at + 3]
    gaps = [max(other.x0 - word.x1, word.x0 - other.x1) for other in near if other is not word]
    if not gaps or (beside_only and min(gaps) < 0):
        return float("inf")
    return max(min(gaps), 0.0)


class _Placed:
    """A row's words by left edge, to find the ones a new word would sit over.

    The row's box grows to its tallest word, so a larger word beside a column of
    smaller, tightly set lines (an 11-point title beside 9-point italics) overlapped two
    of those lines by half their height each, and they read as one, word by word
    interleaved ("The workplace Secretary's so that vision they…").
    """

    __slots__ = ("lefts", "words")

    def __init__(self) -> None:
        self.lefts: list[float] = []
        self.words: list[Word] = []

    def add(self, word: Word) -> None:
        index = bisect.bisect_right(self.lefts, word.x0)
        self.lefts.insert(index, word.x0)
        self.words.insert(index, word)

    def another_line(self, word: Word) -> bool:
        """Whether `word` sits over or under a word of the row, of about its size, on a
        baseline of its own (the two words nearest before its right edge are checked:
        the row's words do not overlap one another)."""
        index = bisect.bisect_left(self.lefts, word.x1)
        return any(_stacked(word, self.words[i]) for i in range(max(index - 2, 0), index))


def _stacked(a: Word, b: Word) -> bool:
    """Two words of like size (see `DEFAULT_STACKED_SIZE`), one over the other: they
    share most of the narrower one's width but less than half of the shorter one's
    height."""
    across = min(a.x1, b.x1) - max(a.x0, b.x0)
    if across <= DEFAULT_STACKED_SHARE * min(a.x1 - a.x0, b.x1 - b.x0):
        return False
    if abs(a.size - b.size) > DEFAULT_STACKED_SIZE * max(a.size, b.size):
        return False
    down = min(a.bottom, b.bottom) - max(a.top, b.top)
    return down < DEFAULT_ROW_OVERLAP * min(a.bottom - a.top, b.bottom - b.top)


def _column_span(rows: list[Row], min_width: float) -> list[Row]:
    """The rows from the first to the last one with a gap wide enough for a gutter: a page
    that opens with full-width text and goes on in columns has its columns there, and the
    full-width lines above them must not count as crossing the gutter."""
    split = [
        any(b.x0 - a.x1 >= min_width for a, b in zip(row.words, row.words[1:])) for row in rows
    ]
    window = DEFAULT_COLUMN_MIN_ROWS
    starts = [
        i
        for i, is_split in enumerate(split)
        if is_split and sum(split[i : i + window]) * 2 >= window
    ]
    if not starts:
        return []
    last = max(i for i, is_split in enumerate(split) if is_split)
    return rows[starts[0] : last + 1]


def _low_coverage_strips(
    words: list[Word], limit: int, min_width: float
) -> list[tuple[float, float]]:
    """Strips of whole points, at least `min_width` wide and inside the text's extent,
    that at most `limit` words cover.

    A sweep over the words' sorted edges, so time and memory follow the number of words,
    never the coordinates (a word at x = 10¹⁰ pt costs what any word costs).
    """
    delta: dict[int, int] = defaultdict(int)
    for word in words:
        delta[int(word.x0)] += 1
        delta[int(word.x1) + 1] -= 1
    left = min(delta)
    right = int(max(w.x1 for w in words)) + 1
    strips: list[tuple[float, float]] = []
    running, start = 0, None
    for x in sorted(delta):
        if x >= right:
            break
        running += delta[x]
        if running <= limit:
            start = x if start is None else start
            continue
        if start is not None and x - start >= min_width and start > left:
            strips.append((start, x))
        start = None
    return strips


def find_gutters(rows: list[Row], body_size: float) -> list[tuple[float, float]]:
    """Vertical strips between text columns, left to right (empty on one-column pages)."""
    if len(rows) < 2 * DEFAULT_COLUMN_MIN_ROWS:
        return []
    rows = _column_span(rows, DEFAULT_MIN_GUTTER_EM * body_size)
    words = [w for row in rows for w in row.words]
    if len(rows) < DEFAULT_COLUMN_MIN_ROWS or not words:
        return []
    limit = max(1, int(DEFAULT_GUTTER_COVERAGE * len(rows)))
    gutters = _low_coverage_strips(words, limit, DEFAULT_MIN_GUTTER_EM * body_size)
    return [g for g in gutters if _is_text_gutter(rows, g)]


def _side_rows(rows: list[Row], lo: float, hi: float) -> list[tuple[float, float, int]]:
    """Per row, the (x0, x1, count of words with letters) of its words within [lo, hi]:
    numbers do not count, so the aligned figures of a borderless table are not prose."""
    out = []
    for row in rows:
        inside = [w for w in row.words if w.x0 >= lo - 0.5 and w.x1 <= hi + 0.5]
        if inside:
            out.append((inside[0].x0, inside[-1].x1, count_wordy(inside)))
    return out


def count_wordy(words: list[Word]) -> int:
    """Words holding a letter: figures (`2022`, `$`, `(11)`) do not count as text."""
    return sum(1 for w in words if any(ch.isalpha() for ch in w.text))


def _full_share(side: list[tuple[float, float, int]]) -> float | None:
    """The share of a side's rows that fill 70% of its width, or None when the side is
    not prose at all (too few rows, too few words per row)."""
    if len(side) < DEFAULT_COLUMN_MIN_ROWS:
        return None
    if sum(n for _, _, n in side) / len(side) < DEFAULT_COLUMN_MIN_WORDS:
        return None
    left = min(x0 for x0, _, _ in side)
    width = max(x1 for _, x1, _ in side) - left
    return sum(1 for _, x1, _ in side if x1 - left >= 0.7 * width) / len(side)


def _is_text_gutter(rows: list[Row], gutter: tuple[float, float]) -> bool:
    g0, g1 = gutter
    both = [
        r for r in rows if any(w.x1 <= g0 for w in r.words) and any(w.x0 >= g1 for w in r.words)
    ]
    if len(both) < DEFAULT_COLUMN_MIN_ROWS:
        return False
    shares = [
        _full_share(_side_rows(both, float("-inf"), g0)),
        _full_share(_side_rows(both, g1, float("inf"))),
    ]
    if None in shares:
        return False
    weaker, stronger = sorted(share or 0.0 for share in shares)
    return stronger >= DEFAULT_COLUMN_FULL_ROWS and weaker >= DEFAULT_COLUMN_FULL_ROWS_BESIDE


def _crosses(x0: float, x1: float, gutters: list[tuple[float, float]]) -> bool:
    """The box reaches over the middle of a gutter (column text stops short of it)."""
    return any(x0 < (g0 + g1) / 2 < x1 for g0, g1 in gutters)


def column_of(x0: float, x1: float, gutters: list[tuple[float, float]]) -> int:
    """The column (0 = leftmost) a box's centre lies in."""
    center = (x0 + x1) / 2
    return sum(1 for g0, g1 in gutters if center > (g0 + g1) / 2)


def regions(rows: list[Row], gutters: list[tuple[float, float]]) -> list[list[Row]]:
    """Rows regrouped into reading-order regions: full-width bands and column segments."""
    if not gutters:
        return [rows] if rows else []
    out: list[list[Row]] = []
    band: list[list[Row]] = []

    def close_band() -> None:
        out.extend(column for column in band if column)
        band.clear()

    for row in rows:
        if is_spanning(row, gutters):
            lead_in = _lead_in(band, row)
            close_band()
            if lead_in:
                out.append([*lead_in, row])
            elif out and out[-1] and is_spanning(out[-1][-1], gutters):
                out[-1].append(row)
            else:
                out.append([row])
            continue
        if not band:
            band.extend([] for _ in range(len(gutters) + 1))
        if row.table:
            band[column_of(row.x0, row.x1, gutters)].append(row)
            continue
        parts: dict[int, list[Word]] = {}
        for word in row.words:
            parts.setdefault(column_of(word.x0, word.x1, gutters), []).append(word)
        for index, words in sorted(parts.items()):
            band[index].append(Row(words, row.top, row.bottom))
    close_band()
    return out


def _lead_in(band: list[list[Row]], spanning: Row) -> list[Row]:
    """The rows a column of the band ends with, below every later column, that sit nearer
    the full-width row under them than the column above them: a heading and its subtitle
    over a full-width paragraph, after two columns of a stakeholder's description. They
    are taken out of their column (read before the columns beside it, they would cut the
    columns apart) and read with the full-width text they lead into.

    The last column is read last anyway, so only an earlier one has such rows. The
    nearest-neighbour test keeps a journal's unbalanced last page whole (its left column
    runs on below the right one at its own line pitch)."""
    filled = [column for column in band if column]
    if len(filled) < 2:
        return []
    column = max(filled[:-1], key=lambda rows: rows[-1].bottom)
    others = max(rows[-1].bottom for rows in filled if rows is not column)
    tail = next((i for i, row in enumerate(column) if row.top >= others), None)
    if not tail:  # nothing below the other columns, or the column starts below them
        return []
    chain = [*column[tail - 1 :], spanning]
    gaps = [below.top - above.bottom for above, below in zip(chain, chain[1:])]
    widest = max(range(len(gaps)), key=gaps.__getitem__)
    if gaps[widest] <= gaps[-1]:
        return []
    lead_in = column[tail + widest :]
    del column[tail + widest :]
    return lead_in


def _row_spans(row: Row, gutters: list[tuple[float, float]]) -> bool:
    """A word crosses a gutter's middle, or the words either side of it are closer than
    half the gutter (a title whose word space happens to fall in the gutter)."""
    for g0, g1 in gutters:
        middle = (g0 + g1) / 2
        left = [w for w in row.words if w.x1 <= middle]
        right = [w for w in row.words if w.x0 >= middle]
        if len(left) + len(right) < len(row.words):
            return True
        if left and right and right[0].x0 - left[-1].x1 < (g1 - g0) / 2:
            return True
    return False


def is_spanning(row: Row, gutters: list[tuple[float, float]]) -> bool:
    if row.table is not None:
        return _crosses(row.table.x0, row.table.x1, gutters)
    return _row_spans(row, gutters)


def join_words(words: list[Word]) -> str:
    """A row's words (left to right) as text: a space only where there is a gap, none
    between the letters of a letter-spaced word (`M e s s a g e`)."""
    spaced = _letter_spaced(words)
    parts: list[str] = []
    previous: Word | None = None
    for index, word in enumerate(words):
        if previous is not None:
            gap = word.x0 - previous.x1
            glued = index in spaced and index - 1 in spaced and gap <= spaced[index]
            space = gap > DEFAULT_SPACE_RATIO * max(word.size, 1.0) and not glued
            parts.append(" " if space else "")
        parts.append(word.text)
        previous = word
    return clean_text("".join(parts))


def _letter_spaced(words: list[Word]) -> dict[int, float]:
    """Words that are single letters of a letter-spaced run, with the largest gap still
    inside a word of that run (gaps above it, about a space wider, part words).

    A run is at least `DEFAULT_LETTER_RUN` single letters in a row, each gap under
    `DEFAULT_LETTER_GAP` font sizes: tracking that wide splits every letter into a word
    of its own, while real one-letter words (`a`, `I`) never come three in a row.
    """
    out: dict[int, float] = {}
    start = 0
    while start < len(words):
        end = start
        while (
            end + 1 < len(words)
            and _is_letter(words[end])
            and _is_letter(words[end + 1])
            and words[end + 1].x0 - words[end].x1 < DEFAULT_LETTER_GAP * words[end].size
        ):
            end += 1
        if end - start + 1 >= DEFAULT_LETTER_RUN:
            gaps = sorted(words[i + 1].x0 - words[i].x1 for i in range(start, end))
            tracking = gaps[len(gaps) // 4]  # most gaps are inside words
            limit = tracking + DEFAULT_LETTER_WORD_BREAK * words[start].size
            out.update(dict.fromkeys(range(start, end + 1), limit))
        start = end + 1
    return out


def _is_letter(word: Word) -> bool:
    return len(word.text) == 1 and word.text.isalpha()


def make_line(words: list[Word], page: int, region: int) -> Line | None:
    """One `Line` from a row's words (left to right): text, dominant style, list marker."""
    text = join_words(words)
    if not text:
        return None
    weights: Counter[tuple[str, float]] = Counter()
    for word in words:
        weights[(word.font, round(word.size, 1))] += len(word.text)
    (font, size), main = weights.most_common(1)[0]
    styled = [w for w in words if any(ch.isalnum() for ch in w.text)]
    others = tuple(
        sorted(
            {
                (w.font, round(w.size, 1))
                for w in styled
                if (w.font, round(w.size, 1)) != (font, size)
            }
        )
    )
    chars = sum(weights.values())
    letters = sum(len(w.text) for w in styled) or 1
    cells = 1 + sum(
        1 for a, b in zip(words, words[1:]) if b.x0 - a.x1 > DEFAULT_CELL_GAP * max(size, 1.0)
    )
    line = Line(
        text=text,
        page=page,
        x0=words[0].x0,
        x1=words[-1].x1,
        top=min(w.top for w in words),
        bottom=max(w.bottom for w in words),
        size=size,
        font=font,
        bold=is_bold(font),
        mono=all(is_mono(w.font) for w in styled) if styled else False,
        uniform=_one_size(words, size),
        main_share=main / chars,
        bold_share=sum(len(w.text) for w in styled if is_bold(w.font)) / letters,
        italic_share=sum(len(w.text) for w in styled if is_italic(w.font)) / letters,
        region=region,
        marker_x=words[0].x0,
        chars=chars,
        cells=cells,
        inline_styles=others,
    )
    _take_marker(line, words)
    return line


def _take_marker(line: Line, words: list[Word]) -> None:
    tokens = line.text.split(" ", 1)
    marker = split_marker(tokens)
    label = "" if marker else _entry_label(words, line.size)
    marker = marker or label
    if not marker or len(words) < 2 or words[0].text.strip() != marker:
        return
    line.marker = marker
    line.label = bool(label)
    line.text = tokens[1]
    rest = [w for w in words if w.x0 > words[0].x0 + 0.1] or words
    line.x0 = rest[0].x0
    if not line.uniform:  # Word sets a heading's number in the list's own size
        line.uniform = _one_size(rest, line.size)


def _one_size(words: list[Word], size: float) -> bool:
    """Every word holding a letter or digit is set in `size`, give or take
    `DEFAULT_SAME_SIZE` (punctuation set apart does not count)."""
    return all(
        abs(w.size - size) <= DEFAULT_SAME_SIZE * size
        for w in words
        if any(ch.isalnum() for ch in w.text)
    )


_ENTRY_LABEL = re.compile(r"\(?\d{1,3}(?:\.\d{1,3}){0,3}(?:\.[A-Z]{2,4})?[*#†‡]*\)?")
"""An exhibit's or a clause's number: `31.1*`, `101.INS*`, `32.1#*`, `104`, `(12)`."""


def _entry_label(words: list[Word], size: float) -> str:
    """The number a line's text is set apart from, a cell's gap away (a 10-Q's exhibit
    index: `31.1*`, then `Certification of Chief Executive Officer as` with its other
    lines under it): the entry's marker, as `1.` is a list item's."""
    if len(words) < 3 or not _ENTRY_LABEL.fullmatch(words[0].text):
        return ""
    apart = words[1].x0 - words[0].x1 >= DEFAULT_CELL_GAP * max(size, 1.0)
    # a description starts with a capital; a page number read into a line of prose
    # (`170 the Site C average`) does not
    titled = words[1].text[:1].isupper()
    return words[0].text if apart and titled and count_wordy(words[1:]) >= 2 else ""


def usual_line_gap(pages: list[PageContent]) -> float:
    """The usual gap (points) between consecutive lines of one paragraph.

    The most common gap under one font size; in a document of one-line paragraphs the
    most common gap overall would be the paragraph gap. Double-spaced text has no gap
    under one font size, and then the most common gap is the line gap. Lines set in one
    font are measured first: a glyph of another font (a math symbol, `∀ ∈ ⊆`) boxes its
    line by that font's ascent and descent, and in a mathematics text those lines
    overlap their neighbours — taken as usual, every plain line then looked a paragraph
    away from the next.
    """
    plain = _gap_counts(pages, DEFAULT_GAP_MAIN_SHARE)
    if sum(plain[0].values()) + sum(plain[1].values()) >= DEFAULT_GAP_PLAIN_PAIRS:
        return _most_common_gap(plain)
    return _most_common_gap(_gap_counts(pages, 0.0))


def _gap_counts(
    pages: list[PageContent], main_share: float
) -> tuple[Counter[float], Counter[float]]:
    """Gaps between consecutive body lines of one size (both at least `main_share` in
    their main font), rounded to half points: (under one font size, over it)."""
    tight: Counter[float] = Counter()
    loose: Counter[float] = Counter()
    for page in pages:
        lines = page.lines()
        for a, b in zip(lines, lines[1:]):
            if (
                a.region == b.region
                and abs(a.size - b.size) < 0.5
                and not a.mono
                and not a.heading
                and not b.heading
                and not b.marker
                and min(a.main_share, b.main_share) >= main_share
            ):
                gap = b.top - a.bottom
                if -0.5 * a.size < gap < 2 * a.size:
                    (tight if gap < a.size else loose)[round(gap * 2) / 2] += 1
    return tight, loose


def _most_common_gap(counts: tuple[Counter[float], Counter[float]]) -> float:
    tight, loose = counts
    chosen = tight if sum(tight.values()) >= DEFAULT_TIGHT_SHARE * sum(loose.values()) else loose
    return chosen.most_common(1)[0][0] if chosen else 2.0
