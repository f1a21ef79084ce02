"""Which lines are headings, and at which level: tags, then bookmarks, then typography.

The best evidence the file has wins: a tagged structure tree with heading elements is
the author's own markup; bookmarks are titles the author chose, matched here to the
printed lines on their destination page; without either, typography decides (see
`typography.py`). Running headers are gone before this stage, and table cells are
never lines, so neither can become a heading.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from .cleanup import match_key
from .layout import usual_line_gap
from .structure import OutlineEntry
from .types import Line, PageContent
from .typography import merge_runs, typography_headings

HeadingSource = Literal["tags", "bookmarks", "typography"]

DEFAULT_OUTLINE_MIN_MATCHED = 0.7
"""Share of bookmarks whose titles must be printed at their destinations before the
bookmarks are taken for the headings; below it they are an editor's labels (`CCG`,
`Blank [DO NOT REMOVE]`, a file name) or stale, and the printed headings decide."""
DEFAULT_OUTLINE_MIN_COVER = 0.5
"""Printed bookmarks must also number at least this share of the headings typography
finds: slides bookmarked by section only, a manual bookmarked to its chapters, leave
most printed headings out."""
DEFAULT_DESTINATION_LINES = 3
"""An unprinted bookmark names the heading typography found among the first lines at
its destination, this many at most."""
DEFAULT_OUTLINE_MAX_LINES = 4
"""A bookmark title may match at most this many consecutive lines (a wrapped heading)."""
DEFAULT_OUTLINE_COVER = 0.6
"""Share of a line a bookmark title must cover to name it (`Strategy 1.1.1 Roads` names
the line `Strategy 1.1.1. Roads PLACEHOLDER_1`)."""
_ATTRIBUTES = re.compile(r"\s*\{\s*[#.][\w\s#.:=\"'-]*\}?\s*$")
"""`Title { #anchor }`: a Markdown attribute list printed by accident, not title text
(also when the line broke inside it)."""
_OUTLINE_NUMBER = re.compile(r"^\s*(?:[A-Z][A-Za-z]+\s+)?(\d{1,3}(?:\.\d{1,3})*)\.?(?=\s|$)")
"""`1.2.3 Title`, `Strategy 1.1.1 Outcomes`: a bookmark's dotted section number."""
_CONTINUED = re.compile(
    r"^(?P<stem>.+?)[\s,:—–-]*[(\[]?\s*(?:continued|cont['’]d|cont\.)\s*[)\]]?\.?$", re.I
)
"""`2. Acquisitions (continued)`, `NOTES — Continued`: a title repeated over its rest."""
_LEADING_NUMBER = re.compile(r"^\s*(?:(?:\d+[.)]?)+|[IVXLCivxlc]+[.)])\s+")
"""`2.3 `, `IV. `: section numbers printed or bookmarked on one side only."""


def heading_title(text: str) -> str:
    return _ATTRIBUTES.sub("", text).strip()


def apply_tags(pages: list[PageContent]) -> None:
    """Headings from the structure tree; lines of one heading element become one."""
    for page in pages:
        for line in page.lines():
            if line.tag is not None:
                line.heading = line.tag[1]
    merge_runs(pages, lambda a, b: a.tag == b.tag)


def _key(text: str) -> str:
    return match_key(_LEADING_NUMBER.sub("", text))


def _covers(title: str, line: str) -> bool:
    """The line is the title, give or take a little (a section number, a stray mark)."""
    return title in line and len(title) >= DEFAULT_OUTLINE_COVER * len(line)


def _match_on_page(
    page: PageContent, key: str, top: float | None, taken: set[int]
) -> list[Line] | None:
    """The run of lines on `page` whose text is the bookmark title, nearest to `top`."""
    lines = page.lines()
    keys = [_key(line.printed()) for line in lines]
    found: list[tuple[float, list[Line]]] = []
    for start, first in enumerate(keys):
        if not first or id(lines[start]) in taken:
            continue
        if _covers(key, first):
            distance = abs(lines[start].top - top) if top is not None else float(start)
            found.append((distance, lines[start : start + 1]))
            continue
        if not key.startswith(first):
            continue
        joined, end = first, start
        while joined != key and end + 1 < min(len(lines), start + DEFAULT_OUTLINE_MAX_LINES):
            end += 1
            joined += keys[end]
            if not key.startswith(joined):
                break
        if joined == key:
            distance = abs(lines[start].top - top) if top is not None else float(start)
            found.append((distance, lines[start : end + 1]))
    return min(found, key=lambda f: f[0])[1] if found else None


def nest_by_number(outline: list[OutlineEntry]) -> list[OutlineEntry]:
    """Bookmarks nested as their section numbers say where the outline lists them flat:
    an entry numbered `1.2.3` goes one level below the latest `1.2` when the outline put
    it at that entry's level or above. Generated outlines do so — the agency plans
    list `1.1 Intelligence`, `1.1.1 Warnings` and `Task 1.1.1.1 Outreach` all at level
    2 — and a heading path without `1.1 Intelligence` drops what the section is part of.
    An outline that nests its entries already is left as it is."""
    nested: list[OutlineEntry] = []
    latest: dict[str, OutlineEntry] = {}
    for entry in outline:
        match = _OUTLINE_NUMBER.match(entry.title)
        if match is None:
            nested.append(entry)
            continue
        number = match.group(1)
        parent = latest.get(number.rpartition(".")[0]) if "." in number else None
        if parent is not None and parent.level >= entry.level:
            entry = replace(entry, level=parent.level + 1)
        latest[number] = entry
        nested.append(entry)
    return nested


def match_outline(
    pages: list[PageContent], entries: list[OutlineEntry]
) -> list[tuple[OutlineEntry, list[Line] | None]]:
    """Each bookmark with the lines printing its title (None when not found)."""
    by_number = {page.number: page for page in pages}
    taken: set[int] = set()
    out: list[tuple[OutlineEntry, list[Line] | None]] = []
    for entry in entries:
        key = _key(entry.title)
        match = None
        if key and entry.page is not None:
            for number in (entry.page, entry.page + 1, entry.page - 1):
                page = by_number.get(number)
                if page is not None:
                    top = entry.top if number == entry.page else None
                    match = _match_on_page(page, key, top, taken)
                if match:
                    break
        if match:
            taken.update(id(line) for line in match)
        out.append((entry, match))
    return out


def apply_outline(
    pages: list[PageContent], matches: list[tuple[OutlineEntry, list[Line] | None]]
) -> int:
    """Mark matched lines as headings at their bookmarks' levels. A bookmark whose title
    is not printed names the heading printed at its destination, when typography found
    one there (its level kept, the printed words used); else it is left out — a label
    in no line of the page is no heading. Returns how many were left out."""
    found = {id(line): line for page in pages for line in page.lines() if line.heading}
    for line in found.values():
        line.heading = 0
    taken = {id(line) for _, lines in matches for line in lines or []}
    by_number = {page.number: page for page in pages if not page.error}
    owner: dict[int, int] = {}
    left_out = 0
    for group, (entry, lines) in enumerate(matches, start=1):
        if not lines:
            page = by_number.get(entry.page) if entry.page is not None else None
            printed = _printed_at(page, entry, found, taken) if page is not None else None
            if printed is None:
                left_out += 1
                continue
            taken.add(id(printed))
            lines = [printed]
        for line in lines:
            line.heading = entry.level
            owner[id(line)] = group
    merge_runs(pages, lambda a, b: id(a) in owner and owner[id(a)] == owner.get(id(b)))
    return left_out


def _printed_at(
    page: PageContent, entry: OutlineEntry, headings: dict[int, Line], taken: set[int]
) -> Line | None:
    """The heading typography found at a bookmark's destination page, if one starts
    there."""
    lines = [line for line in page.lines() if entry.top is None or line.bottom >= entry.top - 2]
    for line in lines[:DEFAULT_DESTINATION_LINES]:
        if id(line) in headings and id(line) not in taken:
            return line
    return None


def _drop_continued(pages: list[PageContent], dropped: list[tuple[int, str]] | None) -> None:
    """A heading repeating an earlier one with `(continued)` is the earlier title printed
    again over the rest of its section, at the top of the next page: no new section.
    It leaves the page (listed in `dropped`), so the section simply goes on."""
    seen: set[str] = set()
    for page in pages:
        kept: list[object] = []
        for item in page.items:
            if isinstance(item, Line) and item.heading:
                match = _CONTINUED.match(item.printed())
                if match and match_key(match.group("stem")) in seen:
                    if dropped is not None:
                        dropped.append((item.page, item.printed()))
                    continue
                seen.add(match_key(item.printed()))
            kept.append(item)
        page.items = kept  # type: ignore[assignment]


def find_headings(
    pages: list[PageContent],
    outline: list[OutlineEntry],
    dropped: list[tuple[int, str]] | None = None,
    warnings: list[str] | None = None,
) -> HeadingSource:
    """Mark heading lines (`Line.heading`) from the best evidence; says which was used.

    Tags win. Otherwise typography reads the pages, and the bookmarks replace its
    reading only when they are the printed headings: most of their titles printed at
    their destinations, and as many as typography found, or half of them. Attribute
    lists printed after a title (`{ #anchor }`) go to `dropped` with their page;
    bookmarks that are labels rather than headings are reported in `warnings`."""
    if any(line.tag is not None for page in pages for line in page.lines()):
        apply_tags(pages)
        source: HeadingSource = "tags"
    else:
        typography_headings(pages, usual_line_gap(pages))
        source = "typography"
        matches = match_outline(pages, nest_by_number(outline)) if outline else []
        printed = sum(1 for _, lines in matches if lines)
        typography = sum(1 for page in pages for line in page.lines() if line.heading)
        if matches and printed < DEFAULT_OUTLINE_MIN_MATCHED * len(matches):
            if warnings is not None:
                warnings.append(
                    f"bookmarks are labels rather than headings ({len(matches) - printed} "
                    f"of {len(matches)} titles are not printed at their destinations): "
                    "headings read from the pages"
                )
        elif matches and printed >= DEFAULT_OUTLINE_MIN_COVER * typography:
            left_out = apply_outline(pages, matches)
            source = "bookmarks"
            if left_out and warnings is not None:
                warnings.append(
                    f"{left_out} bookmark{'s' if left_out != 1 else ''} left out: "
                    "title printed nowhere near the destination"
                )
    _drop_continued(pages, dropped)
    for page in pages:
        for line in page.lines():
            if line.heading:
                attributes = _ATTRIBUTES.search(line.text)
                if attributes and dropped is not None:
                    dropped.append((line.page, attributes.group(0).strip()))
                line.text = heading_title(line.text)
    return source
