"""Contents pages and lists of figures: navigation that repeats the headings that follow.

An entry is a line ending in dot leaders and/or a page number set apart by a gap (or a
table row whose last cell is a page number), whose title — words, not a formula — is
printed again on a later page. Where a page holds at least `DEFAULT_MIN_ENTRIES` such
entries, the runs of entries around them are dropped, with the `Contents`/`Page`
titles just above: chunked, they would only echo the document's headings with numbers,
and win retrieval for questions about the sections they name. A page that goes on with
the entries of the page before needs only one. Entries whose title is printed nowhere
else stay unless they sit in such a run: alone they are not known to be navigation.
"""

from __future__ import annotations

import bisect
import re

from .cleanup import is_bare_number, match_key
from .types import Item, Line, PageContent, PageTable

DEFAULT_MIN_ENTRIES = 3
"""Matched entries a page needs before it counts as a contents page."""
DEFAULT_TABLE_SHARE = 0.6
"""Share of a table's rows whose titles must be printed later for it to be a contents
table."""
DEFAULT_PAGED_SHARE = 0.5
"""The same share of the numbered rows, under a `Page` title with the numbers in order:
the titles of a 10-Q's index often say more than the headings they point to
(`Income Statements for the Three and Six Months Ended…` for `INCOME STATEMENTS`)."""
DEFAULT_PREFIX_SHARE = 0.6
"""A title printed over two lines matches its entry when its first line holds this share
of the entry's title."""
DEFAULT_TITLE_LINES = 4
"""How many lines above the first entry may hold the list's own title (`Contents`)."""
DEFAULT_WRAPPED_LINES = 3
"""How many lines without a page number may sit between two entries of one list (a long
title wrapped, a part label)."""

_LEADERS = re.compile(r"(?:\s*\.){4,}\s*(?:[\dIVXLCivxlc]{1,5})?\s*$")
_WORD = re.compile(r"[^\W\d_]{3,}")
_TRAILING_NUMBER = re.compile(r"\s+\d{1,4}\s*$")
_LIST_TITLES = re.compile(
    r"^(?:table of contents|contents|index|page|pages|list of (?:figures|tables|exhibits)"
    r"|figures|tables)$",
    re.I,
)


def _entry_title(line: Line) -> str | None:
    """The title of a contents entry, or None when the line is not one."""
    text = line.printed()
    if _LEADERS.search(text):
        return _titled(_LEADERS.sub("", text))
    if line.cells > 1 and _TRAILING_NUMBER.search(text):
        return _titled(_TRAILING_NUMBER.sub("", text))
    return None


def _titled(title: str) -> str | None:
    """`title` when it holds a word: a formula's or a plot's line ending in a number
    (`γ(t) = 1`, `100 5`) is printed again in the next formula, but names no section."""
    return title if _WORD.search(title) else None


def _filled(row: list[str]) -> list[str]:
    return [cell.strip() for cell in row if cell.strip()]


def _row_title(row: list[str]) -> str | None:
    cells = _filled(row)
    if len(cells) >= 2 and is_bare_number(cells[-1]):
        return _titled(" ".join(cells[:-1]))
    return None


def _needed_hits(table: PageTable) -> float:
    """Rows whose titles must be printed later: `DEFAULT_TABLE_SHARE` of all rows, or,
    under a `Page` column title with page numbers running forward, `DEFAULT_PAGED_SHARE`
    of the rows that end in one (the others are part labels: `PART II. OTHER
    INFORMATION`)."""
    top = _filled(table.rows[0]) if table.rows else []
    if top and _LIST_TITLES.match(top[-1]):
        numbers = [int(_filled(row)[-1]) for row in table.rows[1:] if _row_title(row)]
        if numbers == sorted(numbers):
            return DEFAULT_PAGED_SHARE * len(numbers)
    return DEFAULT_TABLE_SHARE * len(table.rows)


class _LaterText:
    """Keys of every line, with the last page each is printed on, for prefix lookups."""

    def __init__(self, pages: list[PageContent]) -> None:
        last: dict[str, int] = {}
        for page in pages:
            for line in page.lines():
                key = match_key(line.printed())
                if key:
                    last[key] = page.number
        self.last = last
        self.keys = sorted(last)

    def printed_after(self, key: str, page: int) -> bool:
        """Whether a line printed after `page` reads `key` (or starts or ends it)."""
        if not key:
            return False
        if self.last.get(key, 0) > page:
            return True
        start = bisect.bisect_left(self.keys, key)
        for other in self.keys[start : start + 8]:  # later lines that begin with the title
            if not other.startswith(key):
                break
            if self.last[other] > page:
                return True
        for cut in range(len(key) - 1, int(len(key) * DEFAULT_PREFIX_SHARE) - 1, -1):
            if self.last.get(key[:cut], 0) > page:  # a title wrapped onto a second line
                return True
        return False


def drop_contents(pages: list[PageContent]) -> list[Item]:
    """Remove contents entries (and their list titles) in place; returns them."""
    later = _LaterText(pages)
    dropped: list[Item] = []
    previous_had_contents = False
    for page in pages:
        matched = _matched_entries(page, later)
        needed = 1 if previous_had_contents else DEFAULT_MIN_ENTRIES
        if sum(weight for _, weight in matched) < needed:
            previous_had_contents = False
            continue
        previous_had_contents = True
        drop = _span(page, [index for index, _ in matched])
        dropped.extend(page.items[index] for index in sorted(drop))
        page.items = [item for index, item in enumerate(page.items) if index not in drop]
    return dropped


def _matched_entries(page: PageContent, later: _LaterText) -> list[tuple[int, int]]:
    """(index, entries) of the page's items that are entries whose title is printed
    later: a line counts one, a table as many as its matching rows."""
    out = []
    for index, item in enumerate(page.items):
        if isinstance(item, PageTable):
            titles = [_row_title(row) for row in item.rows]
            hits = sum(1 for t in titles if t and later.printed_after(match_key(t), page.number))
            if hits >= max(2, _needed_hits(item)):
                out.append((index, hits))
            continue
        title = _entry_title(item) if isinstance(item, Line) else None
        if title and later.printed_after(match_key(title), page.number):
            out.append((index, 1))
    return out


def _is_entry(item: Item) -> bool:
    """Whether an item is a line shaped like a contents entry, matched or not: ending in
    leaders or a page number set apart. (A table is only taken when matched: a statement
    ending in figures is shaped like one too.)"""
    return isinstance(item, Line) and _entry_title(item) is not None


def _span(page: PageContent, matched: list[int]) -> set[int]:
    """The runs of entries that hold a matched one, with the list's title lines above.

    A run is entries with at most `DEFAULT_WRAPPED_LINES` other lines between each two
    (a long title wrapped, a part label). Unmatched entries in a run are the same list:
    their titles say more than the headings they point to (`a) Condensed Consolidated
    Statements of Income for the three and nine months ended…` for `CONDENSED
    CONSOLIDATED STATEMENTS OF INCOME`). Text farther from any entry stays, however many
    entries the page holds: a list never runs through a paragraph."""
    known = set(matched)
    entries = [i for i, item in enumerate(page.items) if i in known or _is_entry(item)]
    runs: list[list[int]] = []
    for index in entries:
        if runs and index - runs[-1][-1] - 1 <= DEFAULT_WRAPPED_LINES:
            runs[-1].append(index)
        else:
            runs.append([index])
    drop: set[int] = set()
    for run in runs:
        if known.isdisjoint(run):
            continue
        top = first = run[0]
        for index in range(first - 1, max(first - 1 - DEFAULT_TITLE_LINES, -1), -1):
            if _is_list_title(page.items[index]):
                top = index
        while 0 < top < first and _is_list_title(page.items[top - 1]):
            top -= 1  # `Table of Contents` over `Page`
        drop.update(range(top, run[-1] + 1))
    return drop


def _is_list_title(item: Item) -> bool:
    return isinstance(item, Line) and bool(_LIST_TITLES.match(item.printed().strip()))
