"""The one place that turns a flat stream of headings and blocks into a section tree.

Every parser reports what it reads, in document order, to a `TreeBuilder`; the builder
owns the heading stack (skipped levels, text before the first heading, the document
title) so no format re-implements heading logic.
"""

from __future__ import annotations

import re

from ..document import Block, Box, Document, Provenance, Section, Table
from ..markup import fenced_code, pipe_row

_WHITESPACE = re.compile(r"\s+")


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace to one space, ends stripped — as a browser shows inline text."""
    return _WHITESPACE.sub(" ", text).strip()


def flatten_code(text: str, language: str) -> str:
    """Code nested inside a list item, as part of the item's text: fenced exactly as a
    top-level code block is rendered in chunks."""
    return fenced_code(text, language)


def flatten_table(table: Table) -> str:
    """A table nested inside a list item, as part of the item's text: its caption, then
    header and body rows as pipe-table lines."""
    lines = [table.caption] if table.caption else []
    lines.extend(pipe_row(row) for row in table.header + table.rows)
    return "\n".join(lines)


def _same_title(a: str, b: str) -> bool:
    return collapse_whitespace(a).casefold() == collapse_whitespace(b).casefold()


class TreeBuilder:
    """Collects headings and blocks in order and builds the `Document`.

    The document title (front matter, HTML `<title>`, PDF metadata) becomes the root of
    every heading path. A heading that repeats the title of the section it falls in
    adds no level: the first heading repeating the document title, a page header's
    title printed again over the article, FastAPI's `# Classes as Dependencies` over
    `## Classes as dependencies`.
    """

    def __init__(self, format: str, title: str = "") -> None:
        self.format = format
        self.title = collapse_whitespace(title)
        root_path = (self.title,) if self.title else ()
        self.root = Section(title=self.title, level=0, path=root_path)
        self._stack: list[Section] = [self.root]
        self.warnings: list[str] = []
        self.dropped: list[str] = []

    @property
    def current(self) -> Section:
        return self._stack[-1]

    @property
    def open_sections(self) -> list[Section]:
        """The sections a later heading or block may still add to: the root, then each
        open section down to the current one."""
        return list(self._stack)

    def set_title(self, title: str) -> None:
        """Set the document title before any heading or block was added."""
        self.title = collapse_whitespace(title)
        self.root.title = self.title
        self.root.path = (self.title,) if self.title else ()

    def heading(self, level: int, title: str, prov: Provenance | None = None) -> Section:
        """Open a section at `level` (1–6); closes deeper and equal open sections."""
        level = max(1, min(int(level), 6))
        title = collapse_whitespace(title)
        while len(self._stack) > 1 and self._stack[-1].level >= level:
            self._stack.pop()
        parent = self._stack[-1]
        if not title or (parent.path and _same_title(title, parent.path[-1])):
            path = parent.path  # the root's path is the document title, when there is one
        else:
            path = parent.path + (title,)
        section = Section(title=title, level=level, path=path, prov=prov or Provenance())
        parent.children.append(section)
        self._stack.append(section)
        return section

    def add(self, block: Block) -> None:
        """Append a block to the innermost open section."""
        self.current.blocks.append(block)

    def finish(
        self, source_text: str = "", source_boxes: list[tuple[int, Box]] | None = None
    ) -> Document:
        """The document; `source_text` (and a PDF's `source_boxes`) for chunk offsets."""
        return Document(
            source_text=source_text,
            source_boxes=source_boxes or [],
            root=self.root,
            format=self.format,
            title=self.title,
            warnings=list(self.warnings),
            dropped=list(self.dropped),
        )
