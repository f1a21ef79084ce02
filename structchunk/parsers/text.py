"""Plain text: paragraphs separated by blank lines, the headings plain text has, and
tables set as rows of `|`-separated cells (see `text_tables`).

Plain text has two heading conventions that cannot be mistaken for prose: MediaWiki's
`== Section ==` (Wikipedia dumps and the WikiText corpora, where `= Title =` opens each
article; WikiText-103 writes it `= = Section = =`) and a title underlined with a line of
`=` (level 1) or `-` (level 2). Everything else — `# lines`, numbered lines, capitals —
stays text: in a `.txt` file they are as often prose, lists or code as headings.
"""

from __future__ import annotations

import re

from ..document import Document, Provenance
from .builder import TreeBuilder
from .decode import decode_text
from .settings import ParseSettings
from .text_tables import text_blocks

_WIKI_HEADING = re.compile(
    r"^\s*(=(?:\s?=){0,5})\s*([^=\s](?:[^=]*[^=\s])?)\s*((?:=\s?){0,5}=)\s*$"
)
_UNDERLINE = re.compile(r"^(?:={3,}|-{3,})\s*$")
MAX_UNDERLINED_TITLE_CHARS = 120
"""A line longer than this above `===` is a paragraph with a rule under it, not a title."""
UNDERLINE_LENGTH_SLACK = 0.25
"""An underline is about as long as its title: within this share of the title's length
(at least two characters either way). A separator line drawn under a short line is not."""


def wiki_heading(line: str) -> tuple[int, str] | None:
    """`(level, title)` for a MediaWiki heading line: as many `=` on each side (1–6)."""
    match = _WIKI_HEADING.match(line)
    if match is None:
        return None
    level = match.group(1).count("=")
    if level != match.group(3).count("="):
        return None
    return level, match.group(2)


def underlined_heading(line: str, underline: str) -> tuple[int, str] | None:
    """`(level, title)` when `underline` underlines `line` as a title."""
    title = line.strip()
    rule = underline.strip()
    if not title or len(title) > MAX_UNDERLINED_TITLE_CHARS or not _UNDERLINE.match(underline):
        return None
    if abs(len(rule) - len(title)) > max(2, UNDERLINE_LENGTH_SLACK * len(title)):
        return None
    return (1 if rule.startswith("=") else 2), title


class _TextReader:
    """Walks the lines once: paragraphs by blank lines, headings as they come."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.builder = TreeBuilder("text")
        self.start: int | None = None
        """1-based first line of the paragraph being read."""

    def flush(self, end: int) -> None:
        """Close the open paragraph at line `end` (exclusive)."""
        if self.start is not None:
            for block in text_blocks(self.lines[self.start - 1 : end - 1], self.start):
                self.builder.add(block)
            self.start = None

    def heading(self, level: int, title: str, first: int, last: int) -> None:
        self.flush(first)
        self.builder.heading(level, title, Provenance((first, last)))

    def read(self) -> Document:
        lines = self.lines
        number = 1
        while number <= len(lines):
            line = lines[number - 1]
            if not line.strip():
                self.flush(number)
                number += 1
                continue
            wiki = wiki_heading(line)
            if wiki is not None:
                self.heading(*wiki, number, number)
                number += 1
                continue
            if self.start is None and number < len(lines):
                underlined = underlined_heading(line, lines[number])
                if underlined is not None:
                    self.heading(*underlined, number, number + 1)
                    number += 2
                    continue
            if self.start is None:
                self.start = number
            number += 1
        self.flush(number)
        return self.builder.finish()


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Paragraphs and headings of plain text; line numbers are kept."""
    text = decode_text(data)
    document = _TextReader(text.split("\n")).read()
    document.source_text = text
    return document
