"""The normal form answers and chunks are matched in: visible text, lowercase word tokens.

Kept identical in effect to the shared benchmark harness (`../shared/bench/common.py`), so
`structchunk eval` numbers can be set beside its tables: Markdown link targets,
reference definitions, a fixed list of inline HTML tags and character references are
removed, then maximal runs of letters and digits are the tokens.
"""

from __future__ import annotations

import html
import re

_LINK_TARGET = re.compile(
    r"\]\("  # the `](` that opens a Markdown link target
    r"[^()\s]*"  # a URL without spaces …
    r"(?:\([^()\s]*\)[^()\s]*)*"  # … which may hold balanced parentheses (Wikipedia URLs)
    r"(?:\s+\"[^\"]*\")?"  # an optional "title"
    r"\)"
)
_REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:\s+\S+.*$", re.MULTILINE)
_INLINE_TAGS = (
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "details",
    "div",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "s",
    "small",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
)
_HTML_TAG = re.compile(r"</?(?:" + "|".join(_INLINE_TAGS) + r")\b[^<>]*>", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")


def visible_text(text: str) -> str:
    """Text as a reader sees it: no link targets, known inline tags or entities.

    Only known tag names are removed, so code such as `Vec<T>` keeps its text.
    """
    text = _LINK_TARGET.sub("]", text)
    text = _REFERENCE_DEFINITION.sub(" ", text)
    text = _HTML_TAG.sub(" ", text)
    return html.unescape(text)


def match_tokens(text: str) -> list[str]:
    """Lowercase alphanumeric tokens of the visible text: what BM25 and matching see."""
    return _WORD.findall(visible_text(text).lower())
