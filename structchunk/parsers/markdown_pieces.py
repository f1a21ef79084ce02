"""Where a long Markdown text can be cut so that its pieces parse as the whole would.

markdown-it's tokens take about thirty times the memory of the text they come from (a
230 MB file peaked at 7.9 GB), so a long document is parsed a piece at a time. A piece
ends just before an unindented line that follows a blank line, opens with a letter or
is an ATX heading (`# …`), and lies outside every fenced code block and every HTML
block that only an end marker closes (`<script>`, `<pre>`, `<style>`, `<textarea>`,
comments, `<?…?>`, `<!X…>`, CDATA). Such a line starts a new block whatever came before
it: the blank line has ended any paragraph, table, block quote or HTML block of the
kinds that end at a blank line, and an unindented line that is no list marker ends
every list. (Cutting only before headings left a document without one — a fuzzed block
pasted over and over — parsed whole: a 9 MB file's tokens were most of its 380 MB.)
The scan errs on the safe side: any line that could open a fence or such an HTML block
counts as one, so a doubtful place is never a cut, only a longer piece.

Link reference definitions are the one thing a piece can need from another (`[text][ref]`
with `[ref]: …` at the end of the file); `reference_labels` finds them all first so every
piece is parsed knowing them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

DEFAULT_PIECE_CHARS = 1 << 18
"""Markdown longer than this (256 K characters) is parsed in pieces of at least this
many characters, so a piece's tokens stay near 8 MB (at 2 M characters they were 60 MB,
half the peak of an 11 MB file). Longer than every Markdown file of the corpus (the
longest is 190 KB), so ordinary documents are parsed whole."""

_OPENERS = re.compile(
    r"^[ \t]*(?:"
    r"(?P<fence>`{3,}|~{3,})"
    r"|<(?P<raw>script|pre|style|textarea)(?=[\s>]|$)"
    r"|(?P<comment><!--)"
    r"|(?P<instruction><\?)"
    r"|(?P<cdata><!\[CDATA\[)"
    r"|(?P<declaration><![A-Za-z])"
    r")"
    r"|(?<=\n)[ \t]*\n(?P<start>#{1,6}(?=[ \t\n]|$)|[^\W\d_])",
    re.MULTILINE | re.IGNORECASE,
)
"""A line that opens a fence or an end-marker HTML block, or a blank line before an ATX
heading or a line opening with a letter (that line's start is where a piece may begin)."""
_HTML_ENDS = {
    "raw": re.compile(r"</(?:script|pre|style|textarea)\s*>", re.IGNORECASE),
    "comment": re.compile(r"-->"),
    "instruction": re.compile(r"\?>"),
    "cdata": re.compile(r"\]\]>"),
    "declaration": re.compile(r">"),
}
_REFERENCE = re.compile(r"^ {0,3}\[((?:[^\[\]\\\n]|\\.){1,999})\]:", re.MULTILINE)


def cut_points(text: str) -> Iterator[int]:
    """Every place (character index) where a piece may start, in order."""
    position = 0
    while True:
        match = _OPENERS.search(text, position)
        if match is None:
            return
        kind = match.lastgroup
        if kind == "start":
            yield match.start("start")
            position = match.end()
        elif kind == "fence":
            position = _after_fence(text, match)
        else:
            assert kind is not None
            end = _HTML_ENDS[kind].search(text, match.end())
            position = len(text) if end is None else end.end()


def _after_fence(text: str, opener: re.Match[str]) -> int:
    """Where the fence `opener` opens is closed (the end of the text when it never is)."""
    marker = opener.group("fence")
    closer = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$", re.MULTILINE)
    line_end = text.find("\n", opener.end())
    if line_end == -1:
        return len(text)
    found = closer.search(text, line_end + 1)
    return len(text) if found is None else found.end()


def pieces(text: str, size: int | None = None) -> Iterator[tuple[int, str]]:
    """The text in pieces of at least `size` characters (`DEFAULT_PIECE_CHARS`), cut
    only where `cut_points` allows, each with the number of lines before it; one piece
    when it is not longer."""
    size = DEFAULT_PIECE_CHARS if size is None else size
    if len(text) <= size:
        yield 0, text
        return
    start, lines_before = 0, 0
    for cut in cut_points(text):
        if cut - start >= size:
            piece = text[start:cut]
            yield lines_before, piece
            lines_before += piece.count("\n")
            start = cut
    yield lines_before, text[start:]


def reference_labels(text: str) -> list[str]:
    """The labels of every link reference definition (`[label]: …`) in the text."""
    return _REFERENCE.findall(text)
