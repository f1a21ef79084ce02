"""Lines to blocks: paragraphs, lists, code and tables, reported in order to the builder.

Paragraph breaks come from vertical gaps larger than the document's usual line gap and
from first-line indents; a paragraph left open at the bottom of a column or page goes on
at the top of the next one when its last line does not end a sentence. Lines are joined
with line-end hyphens repaired from the document's own vocabulary (`pdf_text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...document import Code, Figure, ListBlock, ListItem, Paragraph, Provenance, Table
from ..builder import TreeBuilder
from .cleanup import (
    BULLET_GLYPHS,
    Vocabulary,
    bullet_marker,
    ends_in_hyphen,
    ends_sentence,
    match_key,
    starts_lower,
)
from .hanging import DEFAULT_HANG, hanging_lines, shift
from .layout import DEFAULT_PARAGRAPH_GAP
from .tables import continues, extend, is_caption, to_table
from .types import Line, PageContent, PageFigure, PageTable

DEFAULT_INDENT = 0.8
"""First-line indent, in font sizes, that starts a new paragraph (LaTeX: 1.5 em)."""
DEFAULT_SIZE_CHANGE = 1.5
"""A change of font size (points) between two lines ends the paragraph (captions, notes)."""
DEFAULT_WHOLE_STYLE = 0.9
"""Share of a line's letters in bold (or italics) that makes the whole line bold: a
line so set does not continue one that is not across a page or column break."""
DEFAULT_CODE_BLANK = 0.9
"""A gap between code lines above this many font sizes was a blank line in the source."""


_LEADER = re.compile(r"\s*(?:\.\s?){4,}\s*")
_CONTENTS_ENTRY = re.compile(r"(?:\.\s?){4,}\s*[\dIVXLCivxlc]{1,5}$")
"""Dot leaders then a page number: a line of a table of contents."""
_FIGURE_CAPTION = re.compile(
    r"^(?:fig(?:ure)?\.?|chart|graph|exhibit)\s*[\dIVX]+[\w.\-–]*\s*[:.\-–—]?\s", re.I
)
"""`Figure 3: …`, `Fig. 2.1 …`, `Chart 4 – …`: a figure's caption, over or under it."""
DEFAULT_CAPTION_CHARS = 300
"""A caption is a line or a few; longer text that starts so is a paragraph about it."""


def _style(line: Line) -> tuple[bool, bool]:
    """Is the whole line bold, is it italic?"""
    return line.bold_share >= DEFAULT_WHOLE_STYLE, line.italic_share >= DEFAULT_WHOLE_STYLE


def _is_figure_caption(text: str) -> bool:
    return len(text) <= DEFAULT_CAPTION_CHARS and bool(_FIGURE_CAPTION.match(text))


def _pages(lines: list[Line]) -> Provenance:
    return Provenance(pages=tuple(sorted({line.page for line in lines})))


@dataclass
class _Item:
    marker: str
    depth: int
    text_x: float
    marker_x: float
    lines: list[Line] = field(default_factory=list)
    parts: list[list[Line]] = field(default_factory=list)
    contents: bool = False
    """An entry of a table of contents."""


class BlockWriter:
    """Feeds pages, line by line, into paragraphs, lists, code and tables."""

    def __init__(
        self,
        builder: TreeBuilder,
        vocabulary: Vocabulary,
        line_gap: float,
        dropped: list[tuple[int, str]] | None = None,
    ) -> None:
        self.builder = builder
        self.dropped = [] if dropped is None else dropped
        """(page, text) of what is left out on purpose: a table header printed again."""
        self.vocabulary = vocabulary
        self.line_gap = line_gap
        self.paragraph: list[Line] = []
        self.code: list[Line] = []
        self.items: list[_Item] = []
        self.markers: list[float] = []
        self.table: Table | None = None
        self.figure: Figure | None = None
        """The figure just written, while the paragraph after it may be its caption."""
        self.last: Line | None = None
        self.hanging: set[int] = set()
        """`id`s of the page's lines set with a hanging indent (`hanging.py`)."""

    # -- decisions ---------------------------------------------------------------

    def _gap_break(self, prev: Line, line: Line) -> bool:
        """Is there a paragraph break between two lines, one under the other?"""
        gap = line.top - prev.bottom
        size = max(prev.size, line.size, 1.0)
        if gap > self.line_gap + DEFAULT_PARAGRAPH_GAP * size or gap < -size:
            return True
        return abs(prev.size - line.size) > DEFAULT_SIZE_CHANGE

    def _follows(self, prev: Line, line: Line) -> bool:
        """Does `line` continue the text block whose last line is `prev`?"""
        if prev.page == line.page and prev.region == line.region:
            if self._gap_break(prev, line):
                return False
            if id(prev) in self.hanging and id(line) in self.hanging:
                # a hanging indent: an entry starts where the text goes back out
                deepest = prev.marker_x + DEFAULT_HANG * max(line.size, 1.0)
                return shift(prev, line, DEFAULT_INDENT) >= 0 and line.marker_x <= deepest
            return line.marker_x <= prev.marker_x + DEFAULT_INDENT * max(line.size, 1.0)
        # a new column or page: go on only mid-sentence, never from the column beside,
        # and from a short line (a name, a label, a paragraph's last line) or a row of
        # cells (names side by side) only into text set in under it (a term at the foot
        # of a page, its definition overleaf)
        if line.beside or abs(prev.size - line.size) > DEFAULT_SIZE_CHANGE:
            return False
        if prev.page == line.page and line.top >= prev.bottom and self._gap_break(prev, line):
            return False  # the next region starts lower down, a paragraph's space below
        if starts_lower(line.text):
            return True
        if _style(prev) != _style(line):
            return False  # italic text, then a bold label overleaf: a new block
        size = max(line.size, 1.0)
        # set in under it, not far across (a label flush right at the next page's top)
        set_in = DEFAULT_INDENT * size < line.x0 - prev.x0 <= DEFAULT_HANG * size
        return not ends_sentence(prev.text) and (set_in or not (prev.short or prev.cells > 1))

    def _is_code(self, prev: Line | None, line: Line) -> bool:
        """A monospace line is code unless it carries on the prose around it (a wrapped
        line that happens to hold only inline code)."""
        if self.code or prev is None or prev.mono or not (self.paragraph or self.items):
            return True
        if self.items:
            same = prev.page == line.page and prev.region == line.region
            under = line.x0 >= self.items[-1].text_x - 0.5 * max(line.size, 1.0)
            return not under or (
                self._gap_break(prev, line) if same else not self._follows(prev, line)
            )
        return not self._follows(prev, line)

    def _is_list_start(self, line: Line) -> bool:
        if not line.marker:
            return False
        if line.marker in BULLET_GLYPHS or line.marker in "•◦" or line.label:
            return True
        prev = self.last
        if prev is None or not (self.paragraph or self.items):
            return True
        if self.items and abs(line.marker_x - self.items[-1].marker_x) < 2:
            return True  # the next number of an open list
        if self.items and abs(line.x0 - self.items[-1].text_x) < 2:
            return True  # the next entry, its number as wide or narrow as it may be
        return not self._follows(prev, line) or ends_sentence(prev.text)

    # -- feeding -----------------------------------------------------------------

    def feed(self, page: PageContent) -> None:
        self.hanging = hanging_lines(page.items, DEFAULT_INDENT, self._gap_break)
        for item in page.items:
            if isinstance(item, PageTable):
                self.add_table(item)
            elif isinstance(item, PageFigure):
                self.add_figure(item)
            elif item.heading:
                self.flush()
                title = item.text if item.marker in ("", "•", "◦") else item.printed()
                self.builder.heading(item.heading, title, Provenance(pages=(item.page,)))
                self.last = None
                self.table = None
                self.figure = None
            else:
                self.add_line(item)

    def add_line(self, line: Line) -> None:
        if self._repeats_header(line):
            self.dropped.append((line.page, line.printed()))
            return
        self.table = None
        prev = self.last
        if _CONTENTS_ENTRY.search(line.text):
            self.add_contents_entry(line)
        elif line.mono and self._is_code(prev, line):
            self.add_code(line)
        elif self._is_list_start(line):
            self.add_item(line)
        elif self.items and prev is not None and self._in_item(prev, line):
            pass
        else:
            self.flush_code()
            self.flush_list()
            if not (self.paragraph and prev is not None and self._follows(prev, line)):
                self.flush_paragraph()
            if line.marker:  # a number or dash that turned out not to start an item
                line.text, line.marker = line.printed(), ""
            self.paragraph.append(line)
        self.last = line

    def _repeats_header(self, line: Line) -> bool:
        """The first line of a page repeating the header of the table the last page
        ended with (printed as text when the header row is not tagged as cells)."""
        table = self.table
        if table is None or self.last is not None or not table.header:
            return False
        if line.page != max(table.prov.pages) + 1:
            return False
        return match_key(line.printed()) == match_key(" ".join(table.header[0]))

    def _in_item(self, prev: Line, line: Line) -> bool:
        """Add `line` to the open list item when it sits under the item's text, or under
        its marker carrying on a sentence (an item wrapped flush with its bullet)."""
        item = self.items[-1]
        if item.contents:
            return False
        if line.x0 < item.text_x - 0.5 * max(line.size, 1.0) and not self._wraps_under_marker(
            item, prev, line
        ):
            return False
        if prev.page != line.page or prev.region != line.region:
            if not self._follows(prev, line):
                return False
        elif self._gap_break(prev, line):
            item.parts.append(item.lines)
            item.lines = []
        if line.marker:  # a number or letter that starts no item: text of this one
            line.text, line.marker = line.printed(), ""
        item.lines.append(line)
        return True

    def _wraps_under_marker(self, item: _Item, prev: Line, line: Line) -> bool:
        """A line left of the item's text, right below the item's last line, that goes on
        with its sentence: starting in lower case (the item wrapped flush with its bullet,
        or with the column edge when the bullet is indented), or set flush with the
        marker after a line ending mid-clause (`,` `;` or a hyphen). A capitalised line
        there is the text after the list."""
        if prev.page != line.page or prev.region != line.region or self._gap_break(prev, line):
            return False
        if starts_lower(line.text):
            return True
        mid_clause = prev.text.rstrip().endswith((",", ";")) or ends_in_hyphen(prev.text)
        return mid_clause and line.x0 >= item.marker_x - 0.5 * max(line.size, 1.0)

    def add_item(self, line: Line) -> None:
        self.flush_code()
        self.flush_paragraph()
        while self.markers and self.markers[-1] > line.marker_x + 1.0:
            self.markers.pop()
        if not self.markers or line.marker_x > self.markers[-1] + 1.0:
            self.markers.append(line.marker_x)
        self.items.append(
            _Item(bullet_marker(line.marker), len(self.markers) - 1, line.x0, line.marker_x, [line])
        )

    def add_contents_entry(self, line: Line) -> None:
        """A table-of-contents line (`Title ........ 12`): one list item each, so the
        contents never run together into one paragraph."""
        self.flush_code()
        self.flush_paragraph()
        if self.items and not self.items[-1].contents:
            self.flush_list()
        line.text = _LEADER.sub(" … ", line.printed()).strip()
        line.marker = ""
        self.items.append(_Item("-", 0, line.x0, line.marker_x, [line], contents=True))

    def add_code(self, line: Line) -> None:
        self.flush_paragraph()
        self.flush_list()
        if self.code and not self._code_follows(self.code[-1], line):
            self.flush_code()
        self.code.append(line)

    def _code_follows(self, prev: Line, line: Line) -> bool:
        if prev.page == line.page and prev.region == line.region:
            return line.top - prev.bottom < 3 * max(line.size, 1.0)
        return True

    def add_table(self, found: PageTable) -> None:
        caption = ""
        if len(self.paragraph) == 1 and is_caption(self.paragraph[0].text):
            caption = self.paragraph.pop().text
        self.flush()
        if (
            self.table is not None
            and self.last is None
            and found.page == max(self.table.prov.pages) + 1
            and continues(self.table, found)
        ):
            repeated = extend(self.table, found)
            if repeated:
                self.dropped.append((found.page, " ".join(repeated)))
            return
        self.table = to_table(found, caption)
        self.builder.add(self.table)
        self.figure = None
        self.last = None

    def add_figure(self, found: PageFigure) -> None:
        """A chart's words as a figure, with its caption when the paragraph right over it
        is one (or, see `flush_paragraph`, the paragraph right under it)."""
        caption = ""
        if self.paragraph and _is_figure_caption(text := self.join(self.paragraph)):
            caption, self.paragraph = text, []
        self.flush()
        self.table = None
        self.figure = Figure(found.printed(), caption, Provenance(pages=(found.page,)))
        self.builder.add(self.figure)
        self.last = None

    # -- emitting ----------------------------------------------------------------

    def join(self, lines: list[Line]) -> str:
        """Lines as one text: hyphens repaired; rows of a borderless table stay rows."""
        text = lines[0].text
        for prev, line in zip(lines, lines[1:]):
            if prev.cells > 1 and line.cells > 1:
                text = f"{text}\n{line.text}"
            else:
                text = self.vocabulary.join(text, line.text)
        return text

    def flush_paragraph(self) -> None:
        if self.paragraph:
            text = self.join(self.paragraph)
            figure, self.figure = self.figure, None
            if figure is not None and not figure.caption and _is_figure_caption(text):
                figure.caption = text  # the caption under the figure
            else:
                self.builder.add(Paragraph(text, _pages(self.paragraph)))
            self.paragraph = []

    def flush_list(self) -> None:
        if not self.items:
            return
        items = []
        for item in self.items:
            parts = [*item.parts, item.lines] if item.lines else item.parts
            text = "\n\n".join(self.join(part) for part in parts if part)
            lines = [line for part in parts for line in part]
            items.append(ListItem(text, item.marker, item.depth, _pages(lines)))
        prov = Provenance(pages=tuple(sorted({p for i in items for p in i.prov.pages})))
        self.builder.add(ListBlock(items, prov))
        self.figure = None
        self.items = []
        self.markers = []

    def flush_code(self) -> None:
        if not self.code:
            return
        left = min(line.x0 for line in self.code)
        widths = sorted((line.x1 - line.x0) / len(line.text) for line in self.code if line.text)
        char = widths[len(widths) // 2] if widths else 6.0
        out: list[str] = []
        for prev, line in zip([None, *self.code], self.code):
            if (
                prev is not None
                and prev.page == line.page
                and line.top - prev.bottom > DEFAULT_CODE_BLANK * line.size
            ):
                out.append("")
            out.append(" " * max(0, round((line.x0 - left) / char)) + line.printed())
        self.builder.add(Code("\n".join(out), "", _pages(self.code)))
        self.figure = None
        self.code = []

    def flush(self) -> None:
        self.flush_paragraph()
        self.flush_list()
        self.flush_code()
