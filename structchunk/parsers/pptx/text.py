"""Text frames into paragraphs and nested lists.

A slide paragraph is a bullet when its own properties say so or, failing that, the first
style it inherits from does: the shape's list style, then (for a placeholder) the layout's
and the master's placeholder of the same kind, then the master's title or body style. The
body placeholder of a "Title and Content" slide has bullets only through the master, while
a text box has none unless it sets them, so both must be resolved this way. The paragraph's
`lvl` (0–8) is the list depth.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from ...document import Block, ListBlock, ListItem, Paragraph, Provenance
from ..builder import collapse_whitespace
from ..counters import letters, roman

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"

_BU_NONE = f"{{{A}}}buNone"
_BU_CHAR = f"{{{A}}}buChar"
_BU_BLIP = f"{{{A}}}buBlip"
_BU_AUTONUM = f"{{{A}}}buAutoNum"
_BULLET_TAGS = frozenset({_BU_NONE, _BU_CHAR, _BU_BLIP, _BU_AUTONUM})
_MAX_LEVEL = 8
"""DrawingML paragraph levels run 0–8 (`lvl1pPr` … `lvl9pPr`)."""


@dataclass(frozen=True, slots=True)
class Bullet:
    """How a list paragraph is marked: a character or picture bullet, or a number scheme."""

    scheme: str = ""
    """`buAutoNum`'s type (`arabicPeriod`, `alphaLcParenR` …); "" for a plain bullet."""
    start: int = 1


def element_text(element: etree._Element) -> str:
    """The text of runs, fields and line breaks under `element` (a paragraph or a cell),
    line breaks as newlines."""
    parts: list[str] = []
    for node in element.iter(f"{{{A}}}t", f"{{{A}}}br"):
        if node.tag == f"{{{A}}}br":
            parts.append("\n")
        elif node.text:
            parts.append(node.text)
    return "".join(parts)


def paragraph_text(paragraph: etree._Element) -> str:
    """A paragraph's text: whitespace collapsed within each line, empty lines dropped."""
    lines = (collapse_whitespace(line) for line in element_text(paragraph).split("\n"))
    return "\n".join(line for line in lines if line)


def paragraph_level(paragraph: etree._Element) -> int:
    ppr = paragraph.find(f"{{{A}}}pPr")
    raw = ppr.get("lvl", "0") if ppr is not None else "0"
    try:
        return max(0, min(int(raw), _MAX_LEVEL))
    except ValueError:
        return 0


def level_properties(list_style: etree._Element | None, level: int) -> etree._Element | None:
    """The `a:lvlNpPr` of a list style (`a:lstStyle`, `p:bodyStyle` …) for a 0-based level."""
    if list_style is None:
        return None
    return list_style.find(f"{{{A}}}lvl{level + 1}pPr")


def resolve_bullet(
    paragraph: etree._Element, level: int, inherited: list[etree._Element]
) -> Bullet | None:
    """The paragraph's bullet: the first of its own properties and the `inherited` list
    styles (nearest first) that decides; None when none does or one says `buNone`."""
    candidates = [paragraph.find(f"{{{A}}}pPr")]
    candidates.extend(level_properties(style, level) for style in inherited)
    for properties in candidates:
        if properties is None:
            continue
        for child in properties:
            if child.tag not in _BULLET_TAGS:
                continue
            if child.tag == _BU_NONE:
                return None
            if child.tag == _BU_AUTONUM:
                return Bullet(child.get("type", "arabicPeriod"), _start_at(child))
            return Bullet()
    return None


def _start_at(element: etree._Element) -> int:
    try:
        return max(1, min(int(element.get("startAt", "1")), 32767))
    except ValueError:
        return 1


def text_blocks(
    body: etree._Element, inherited: list[etree._Element], prov: Provenance
) -> list[Block]:
    """The blocks of one text body (`p:txBody`): paragraphs, and runs of bullet paragraphs
    as one list each. `inherited` are the list styles the body inherits, nearest first."""
    own_style = body.find(f"{{{A}}}lstStyle")
    styles = ([own_style] if own_style is not None else []) + inherited
    blocks: list[Block] = []
    items: list[tuple[int, str, Bullet]] = []
    for paragraph in body.iterfind(f"{{{A}}}p"):
        text = paragraph_text(paragraph)
        if not text:
            continue
        level = paragraph_level(paragraph)
        bullet = resolve_bullet(paragraph, level, styles)
        if bullet is not None:
            items.append((level, text, bullet))
            continue
        if items:
            blocks.append(list_block(items, prov))
            items = []
        blocks.append(Paragraph(text, prov))
    if items:
        blocks.append(list_block(items, prov))
    return blocks


def list_block(items: list[tuple[int, str, Bullet]], prov: Provenance) -> ListBlock:
    """Bullet paragraphs as one list: depth from the level (the shallowest is 0), numbers
    counted per level and restarted under each shallower item."""
    base = min(level for level, _, _ in items)
    counters: dict[int, int] = {}
    out: list[ListItem] = []
    for level, text, bullet in items:
        for deeper in [key for key in counters if key > level]:
            del counters[deeper]
        if bullet.scheme:
            number = counters.get(level, bullet.start - 1) + 1
            counters[level] = number
            marker = number_marker(bullet.scheme, number)
        else:
            counters.pop(level, None)
            marker = "-"
        out.append(ListItem(text, marker, level - base, prov))
    return ListBlock(out, prov)


def number_marker(scheme: str, number: int) -> str:
    """The marker PowerPoint draws for an `a:buAutoNum` type: `arabicPeriod` 3 → `3.`,
    `alphaLcParenR` 2 → `b)`, `romanUcParenBoth` 4 → `(IV)`; other scripts as arabic."""
    if scheme.startswith("alpha"):
        label = letters(number)
    elif scheme.startswith("roman"):
        label = roman(number)
    else:
        label = str(number)
    if "Uc" in scheme:
        label = label.upper()
    if scheme.endswith("ParenBoth"):
        return f"({label})"
    if scheme.endswith("ParenR"):
        return f"{label})"
    if scheme.endswith("Plain"):
        return label
    return f"{label}."
