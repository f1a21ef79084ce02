"""Paragraph styles: which make headings (and at what level), titles, contents entries and
list items, following each style's `basedOn` chain.

A heading is a paragraph with an outline level (`w:outlineLvl` 0–8), set on the
paragraph itself or on its style or any style that style is based on — the same rule
Word's navigation pane follows. The built-in `heading 1`–`heading 9` styles carry one;
a document written by another tool may leave it out, so those names count too. A style
based on `Heading 2` is a level-2 heading unless it sets its own level (9 is "body
text"). A style named `Heading 0` that has an outline level is a level-1 heading: its
name puts it above `Heading 1`, as a reader sees its titles (FIGURES, TABLES beside
SECTION 1), whatever level its author left on it (docs/docx.md, "Odd headings"). Bold or
large text without an outline level stays text. Built-in style names (`w:name`) are
English in every localisation, so they are matched by name; style ids
are not (a German document's `Heading1` is `berschrift1`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .xml import Element, attr, child, val, w

Role = Literal["title", "subtitle", "contents"]

BODY_TEXT_LEVEL = 9
"""`w:outlineLvl` 9 means "body text": no heading, whatever the style is based on."""
MAX_CHAIN = 32
"""`basedOn` hops followed at most (chains in real templates are 3–5 long; a loop or a
hostile chain must end)."""

_HEADING_NAME = re.compile(r"heading ([1-9])$")
TOP_HEADING_NAME = "heading 0"
"""A style some templates add above `Heading 1` for unnumbered front- and back-matter
titles (Contents, Figures, Tables, Appendices): a heading at level 1, beside the
`Heading 1` sections, whatever deeper outline level it was given (see the module)."""
_CONTENTS_NAME = re.compile(r"toc(?: [1-9]| heading)$|table of figures$")
_LIST_NAME = re.compile(r"list(?: bullet| number| continue)? ([2-9])$")
"""Word's built-in `List Bullet 2` … `List Number 5` styles: single-level lists whose
level is in the name (their numbering definitions all use level 0)."""
_ROLES: dict[str, Role] = {"title": "title", "subtitle": "subtitle"}


@dataclass(frozen=True, slots=True)
class NumberingRef:
    """A paragraph's (or style's) `w:numPr`: which list and which level."""

    num_id: str
    level: int | None


@dataclass(frozen=True, slots=True)
class ParagraphStyle:
    """What a paragraph style (with everything it is based on) means for structure."""

    style_id: str = ""
    outline: int | None = None
    """0-based outline level, or None for body text."""
    role: Role | None = None
    numbering: NumberingRef | None = None
    list_depth: int = 0
    """Nesting implied by the style's name (`List Bullet 3` → 2)."""


NO_STYLE = ParagraphStyle()


def numbering_ref(ppr: Element | None) -> NumberingRef | None:
    """The `w:numPr` of a `w:pPr`, if any (`numId` 0 means "no numbering" and is kept,
    so that it can switch off a style's list)."""
    numpr = child(ppr, "numPr")
    if numpr is None:
        return None
    num_id = val(numpr, "numId")
    if num_id is None:
        return None
    return NumberingRef(num_id, parse_level(val(numpr, "ilvl")))


def parse_level(text: str | None) -> int | None:
    """An outline or list level (0–8); out-of-range values are clamped."""
    if text is None:
        return None
    try:
        return max(0, min(int(text), BODY_TEXT_LEVEL))
    except ValueError:
        return None


@dataclass(slots=True)
class _Raw:
    name: str
    based_on: str | None
    outline: int | None
    numbering: NumberingRef | None


class StyleSheet:
    """The paragraph styles of `styles.xml`, resolved on demand and cached."""

    def __init__(self, root: Element | None) -> None:
        self._raw: dict[str, _Raw] = {}
        self.default_id = ""
        self.numbering_styles: dict[str, str] = {}
        """Numbering styles (`w:type="numbering"`) → the `numId` they stand for."""
        for style in root.iterfind(w("style")) if root is not None else ():
            kind = attr(style, "type")
            if kind == "numbering":
                ref = numbering_ref(child(style, "pPr"))
                if ref is not None:
                    self.numbering_styles[attr(style, "styleId") or ""] = ref.num_id
                continue
            if kind not in (None, "paragraph"):
                continue
            style_id = attr(style, "styleId") or ""
            ppr = child(style, "pPr")
            self._raw[style_id] = _Raw(
                name=(val(style, "name") or style_id).strip().casefold(),
                based_on=val(style, "basedOn"),
                outline=parse_level(val(ppr, "outlineLvl")),
                numbering=numbering_ref(ppr),
            )
            if attr(style, "default") in ("1", "true", "on") and not self.default_id:
                self.default_id = style_id
        self._cache: dict[str, ParagraphStyle] = {}

    def style(self, style_id: str | None) -> ParagraphStyle:
        """The resolved style of a paragraph whose `w:pStyle` is `style_id`."""
        key = style_id if style_id is not None else self.default_id
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._resolve(key)
        return found

    def _chain(self, style_id: str) -> list[_Raw]:
        chain: list[_Raw] = []
        seen: set[str] = set()
        current: str | None = style_id
        while current is not None and current not in seen and len(chain) < MAX_CHAIN:
            seen.add(current)
            raw = self._raw.get(current)
            if raw is None:
                break
            chain.append(raw)
            current = raw.based_on
        return chain

    def _resolve(self, style_id: str) -> ParagraphStyle:
        chain = self._chain(style_id)
        outline: int | None = None
        for raw in chain:
            if raw.outline is not None:
                outline = raw.outline
                break
            heading = _HEADING_NAME.match(raw.name)
            if heading:
                outline = int(heading.group(1)) - 1
                break
        if outline is not None and chain and chain[0].name == TOP_HEADING_NAME:
            outline = 0
        return ParagraphStyle(
            style_id=style_id,
            outline=None if outline == BODY_TEXT_LEVEL else outline,
            role=next((role for raw in chain if (role := _role(raw.name))), None),
            numbering=next((raw.numbering for raw in chain if raw.numbering), None),
            list_depth=next(
                (int(m.group(1)) - 1 for raw in chain if (m := _LIST_NAME.match(raw.name))), 0
            ),
        )


def _role(name: str) -> Role | None:
    if _CONTENTS_NAME.match(name):
        return "contents"
    return _ROLES.get(name)
