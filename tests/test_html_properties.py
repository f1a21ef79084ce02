"""Property test: HTML rendered from Markdown chunks like the Markdown itself.

Documents are generated as Markdown (nested headings with skipped levels, paragraphs
with inline markup and line breaks, nested and loose lists, block quotes, fenced code,
tables, rules), rendered to HTML by markdown-it-py, and both are parsed: the section
tree must have the same heading paths and the chunks the same words in the same order.
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from structchunk import ChunkOptions, chunk_text
from structchunk.parsers import ParseSettings, html, markdown

_WORD = re.compile(r"[^\W_]+")
OPTIONS = ChunkOptions(max_tokens=64)
SETTINGS = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SEPARATOR = "\n\n<!-- -->\n\n"
"""Between blocks: two lists in a row would merge into one, and Markdown keeps item
numbers as written ("1." twice) where HTML renders them (1, 2); a comment keeps them apart."""

words = st.from_regex(r"[a-z][a-z0-9]{0,7}", fullmatch=True)


@st.composite
def inline(draw: st.DrawFn, max_words: int = 8) -> str:
    """A run of words with emphasis, strong, code spans and links mixed in."""
    out = []
    for word in draw(st.lists(words, min_size=1, max_size=max_words)):
        style = draw(st.sampled_from(["plain"] * 6 + ["em", "strong", "code", "link"]))
        out.append(
            {
                "plain": word,
                "em": f"*{word}*",
                "strong": f"**{word}**",
                "code": f"`{word}`",
                "link": f"[{word}](https://example.org/{word})",
            }[style]
        )
    return " ".join(out)


@st.composite
def paragraph(draw: st.DrawFn) -> str:
    lines = draw(st.lists(inline(), min_size=1, max_size=4))
    breaks = [draw(st.sampled_from(["\n", "  \n", "\\\n"])) for _ in lines[1:]]
    text = lines[0]
    for brk, line in zip(breaks, lines[1:]):
        text += brk + line
    return text


@st.composite
def bullet_list(draw: st.DrawFn, depth: int = 0) -> str:
    ordered = draw(st.booleans())
    start = draw(st.integers(1, 20)) if not depth else 1  # only "1." interrupts a paragraph
    loose = draw(st.booleans())
    items = []
    for number in range(draw(st.integers(1, 4))):
        marker = f"{start + number}." if ordered else draw(st.sampled_from(["-", "*", "+"]))
        pad = " " * (len(marker) + 1)
        body = [draw(inline())]
        if loose and draw(st.booleans()):
            body.append(draw(inline()))
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            body.append(draw(bullet_list(depth + 1)))
        text = ("\n\n" if loose else "\n").join(body)
        items.append(marker + " " + text.replace("\n", "\n" + pad))
    return ("\n\n" if loose else "\n").join(items)


@st.composite
def block_quote(draw: st.DrawFn) -> str:
    inner = draw(st.lists(st.one_of(paragraph(), bullet_list()), min_size=1, max_size=3))
    return "\n".join("> " + line if line else ">" for line in SEPARATOR.join(inner).split("\n"))


@st.composite
def fenced_code(draw: st.DrawFn) -> str:
    language = draw(st.sampled_from(["", "python", "sh"]))
    lines = draw(st.lists(st.lists(words, max_size=5).map(" = ".join), min_size=1, max_size=6))
    return f"```{language}\n" + "\n".join(lines) + "\n```"


@st.composite
def table(draw: st.DrawFn) -> str:
    width = draw(st.integers(1, 4))
    header = draw(st.lists(words, min_size=width, max_size=width))
    rows = [
        draw(st.lists(inline(2), min_size=width, max_size=width))
        for _ in range(draw(st.integers(1, 5)))
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


@st.composite
def heading(draw: st.DrawFn) -> str:
    return "#" * draw(st.integers(1, 6)) + " " + draw(inline(5))


BLOCKS = st.one_of(
    heading(),
    heading(),
    paragraph(),
    bullet_list(),
    block_quote(),
    fenced_code(),
    table(),
    st.just("***"),
)  # "---" could open front matter


@st.composite
def documents(draw: st.DrawFn) -> str:
    parts = draw(st.lists(BLOCKS, min_size=1, max_size=12))
    return SEPARATOR.join(parts) + "\n"


def render_html(source: str) -> str:
    body = MarkdownIt("commonmark").enable("table").render(source)
    return f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'></head><body>\n{body}</body></html>"


def chunk_words(text: str, format: str) -> list[str]:
    return [
        word
        for chunk in chunk_text(text, format=format, options=OPTIONS)
        for word in _WORD.findall(chunk.body.lower())
    ]


@SETTINGS
@given(documents())
def test_html_from_markdown_has_the_markdown_headings_and_words(source: str) -> None:
    page = render_html(source)
    from_markdown = markdown.parse(source.encode(), "doc.md", ParseSettings())
    from_html = html.parse(page.encode(), "doc.html", ParseSettings())
    assert [s.path for s in from_html.sections()] == [s.path for s in from_markdown.sections()]
    assert chunk_words(page, "html") == chunk_words(source, "markdown")
