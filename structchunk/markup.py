"""The light-Markdown spelling of code and table rows, shared by the tree builder and the
packer's renderer, so a table or code block nested in a list item reads exactly like a
top-level one; and of the heading prefix a chunk's text opens with, shared by the packer
that writes it and the records that read it back."""

from __future__ import annotations

import re

HEADING_SEPARATOR = " > "
"""Joins a heading path into one string (`A > B > C`): the prefix line of a chunk's text."""

PREFIX_JOINER = "\n\n"
"""Between the prefix and the body: the prefix is a line of its own."""

_BACKTICK_RUN = re.compile("`+")


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run inside the code."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def fenced_code(text: str, language: str) -> str:
    """Code fenced with its language, the fence longer than any backtick run inside."""
    fence = fence_for(text)
    return f"{fence}{language}\n{text}\n{fence}"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").strip()


def pipe_row(cells: list[str]) -> str:
    """One table row as a pipe-table line, pipes and backslashes inside cells escaped."""
    return "| " + " | ".join(_cell(c) for c in cells) + " |"
