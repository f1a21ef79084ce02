"""List numbering: whether a numbered paragraph is a bullet or a numbered item, and the
marker Word would show for it (`3.`, `b)`, `1.2.`), from `numbering.xml`.

A paragraph's `w:numPr` names a numbering instance (`w:num`) and a level (`w:ilvl`);
the instance points to an abstract definition whose levels give the format (`bullet`,
`decimal`, `lowerLetter` …), the text (`%1.%2.`) and the start value. Counters belong
to the abstract definition, so an ordered list interrupted by a bullet list and taken up
again goes on counting; an instance with a `w:startOverride` restarts them, as Word does
when one chooses "Restart at 1".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..counters import letters, roman
from .styles import NumberingRef, ParagraphStyle, numbering_ref, parse_level
from .xml import Element, attr, child, val, w

MAX_LEVELS = 9
"""Word's list levels are 0–8."""
BULLET_MARKER = "-"
"""Bullets are written as Markdown bullets: Word's glyphs are often private-use Symbol
characters (U+F0B7) that mean nothing as text."""
MAX_STYLE_LINKS = 4
"""`w:numStyleLink` hops followed at most (one is usual; a loop must end)."""

_PLACEHOLDER = re.compile(r"%([1-9])")


def format_number(number: int, fmt: str) -> str:
    """A counter in a level's `w:numFmt` (unknown formats as decimal digits)."""
    if fmt == "lowerLetter":
        return letters(number)
    if fmt == "upperLetter":
        return letters(number).upper()
    if fmt == "lowerRoman":
        return roman(number)
    if fmt == "upperRoman":
        return roman(number).upper()
    if fmt == "decimalZero" and 0 <= number < 10:
        return f"0{number}"
    return str(number)


@dataclass(frozen=True, slots=True)
class Level:
    fmt: str = "decimal"
    text: str = "%1."
    start: int = 1
    style_id: str | None = None
    """`w:pStyle`: the paragraph style that uses this level (numbered headings)."""


@dataclass(slots=True)
class _Instance:
    abstract: str
    starts: dict[int, int] = field(default_factory=dict)
    """Level → `w:startOverride`."""
    levels: dict[int, Level] = field(default_factory=dict)
    """Level → a `w:lvlOverride`'s own `w:lvl`."""


@dataclass(frozen=True, slots=True)
class ListMark:
    """The list a numbered paragraph belongs to: bullet or ordered, its marker and level."""

    ordered: bool
    marker: str
    level: int


def _int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def _level(lvl: Element) -> Level:
    return Level(
        fmt=val(lvl, "numFmt") or "decimal",
        text=val(lvl, "lvlText") or "",
        start=_int(val(lvl, "start"), 1),
        style_id=val(lvl, "pStyle"),
    )


def _levels(element: Element) -> dict[int, Level]:
    levels: dict[int, Level] = {}
    for lvl in element.iterfind(w("lvl")):
        index = parse_level(attr(lvl, "ilvl"))
        if index is not None and index < MAX_LEVELS:
            levels.setdefault(index, _level(lvl))
    return levels


class Numbering:
    """The numbering definitions of a document, and the counters of its lists.

    `mark()` must be called for the numbered paragraphs in document order: it advances
    the counters as Word does when it lays the document out.
    """

    def __init__(self, root: Element | None, style_nums: dict[str, str] | None = None) -> None:
        self._style_nums = style_nums or {}
        """Numbering styles (what `w:numStyleLink` names) → their numbering instance."""
        self._abstract: dict[str, dict[int, Level]] = {}
        self._style_links: dict[str, str] = {}  # abstract id -> numbering style it defers to
        self._instances: dict[str, _Instance] = {}
        self._counters: dict[str, list[int | None]] = {}
        self._started: set[str] = set()
        if root is None:
            return
        for abstract in root.iterfind(w("abstractNum")):
            key = attr(abstract, "abstractNumId") or ""
            self._abstract[key] = _levels(abstract)
            link = val(abstract, "numStyleLink")
            if link:
                self._style_links[key] = link
        for num in root.iterfind(w("num")):
            self._instances[attr(num, "numId") or ""] = _instance(num)

    def level_of_style(self, ref: NumberingRef, style_id: str) -> int:
        """The level whose `w:pStyle` is `style_id` (how numbered heading styles say
        theirs), else 0."""
        instance = self._instances.get(ref.num_id)
        if instance is None:
            return 0
        for index, level in sorted(self._definition(instance).items()):
            if level.style_id == style_id:
                return index
        return 0

    def mark(self, ref: NumberingRef, level: int) -> ListMark | None:
        """The marker of the next paragraph numbered `ref` at `level`, counters advanced;
        None when the numbering shows nothing (`numId` 0, an unknown list, format `none`)."""
        instance = self._instances.get(ref.num_id)
        if ref.num_id == "0" or instance is None:
            return None
        level = max(0, min(level, MAX_LEVELS - 1))
        levels = self._definition(instance)
        definition = _level_at(instance, levels, level)
        counters = self._counters.setdefault(instance.abstract, [None] * MAX_LEVELS)
        if ref.num_id not in self._started:
            self._started.add(ref.num_id)
            for index, start in instance.starts.items():
                counters[index] = start - 1
        current = counters[level]
        counters[level] = definition.start if current is None else current + 1
        for shallower in range(level):  # shown as their start in this marker: now used
            if counters[shallower] is None:
                counters[shallower] = _level_at(instance, levels, shallower).start
        for deeper in range(level + 1, MAX_LEVELS):
            counters[deeper] = None
        if definition.fmt == "none":
            return None
        if definition.fmt == "bullet":
            return ListMark(False, BULLET_MARKER, level)
        marker = _PLACEHOLDER.sub(
            lambda m: self._number(instance, levels, counters, int(m.group(1)) - 1),
            definition.text,
        ).strip()
        return ListMark(True, marker, level) if marker else None

    def _number(
        self,
        instance: _Instance,
        levels: dict[int, Level],
        counters: list[int | None],
        index: int,
    ) -> str:
        definition = _level_at(instance, levels, index)
        value = counters[index]
        return format_number(definition.start if value is None else value, definition.fmt)

    def _definition(self, instance: _Instance) -> dict[int, Level]:
        """The levels of an instance's abstract definition, through numbering styles."""
        key = instance.abstract
        for _ in range(MAX_STYLE_LINKS):
            link = self._style_links.get(key)
            target = self._instances.get(self._style_nums.get(link, "")) if link else None
            if target is None:
                break
            key = target.abstract
        return self._abstract.get(key, {})


def _level_at(instance: _Instance, levels: dict[int, Level], index: int) -> Level:
    """A level of an instance: its own override, else the definition's, else decimal."""
    return instance.levels.get(index) or levels.get(index) or Level(text=f"%{index + 1}.")


def _instance(num: Element) -> _Instance:
    instance = _Instance(abstract=val(num, "abstractNumId") or "")
    for override in num.iterfind(w("lvlOverride")):
        index = parse_level(attr(override, "ilvl"))
        if index is None or index >= MAX_LEVELS:
            continue
        start = val(override, "startOverride")
        if start is not None:
            instance.starts[index] = _int(start, 1)
        lvl = child(override, "lvl")
        if lvl is not None:
            instance.levels[index] = _level(lvl)
    return instance


def paragraph_mark(
    numbering: Numbering, ppr: Element | None, style: ParagraphStyle
) -> ListMark | None:
    """The list marker of a paragraph (its own `w:numPr`, else its style's), counters
    advanced; None for a paragraph that is not numbered."""
    own = numbering_ref(ppr)
    ref = own or style.numbering
    if ref is None:
        return None
    level = own.level if own is not None else None
    if level is None and style.numbering is not None:
        level = style.numbering.level
    if level is None:
        level = numbering.level_of_style(ref, style.style_id)
    return numbering.mark(ref, level)
