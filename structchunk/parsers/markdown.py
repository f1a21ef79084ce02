"""Markdown (CommonMark + GFM tables and strikethrough) into the section tree.

Walks markdown-it-py's flat token stream once, without recursion, so 200-level lists
and 500-level block quotes cannot hit Python's recursion limit. Inline markup becomes
plain text (links and images keep their text, inline code keeps its backticks), raw
HTML keeps its text and drops its tags, YAML front matter gives the document title.
A long text is read a piece at a time (`walk_in_pieces`), and past one piece `stream`
hands it on as a tree still growing, so its settled sections are packed as they come.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from ..document import (
    Code,
    Document,
    GrowingDocument,
    ListBlock,
    ListItem,
    Paragraph,
    Provenance,
    Section,
    Table,
)
from . import markdown_pieces
from .builder import TreeBuilder, flatten_code, flatten_table
from .decode import decode_text
from .markdown_pieces import pieces, reference_labels
from .settings import ParseSettings

_HEADING_ATTRIBUTES = re.compile(r"\s*\{\s*[#.][^{}]*\}\s*$")
"""`## Title { #anchor }` (MkDocs, Pandoc attribute lists) — not part of the title."""
_BLOCK_FENCE = re.compile(r"^/{3,}(?:[ \t]+([\w-]+))?(?:[ \t]*\|[ \t]*(.*?))?[ \t]*$")
"""A fence of the `/// note | Title` … `///` blocks of Python-Markdown's pymdownx.blocks
(MkDocs sites such as FastAPI's use them for admonitions, details and tabs)."""
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
_HTML_HIDDEN = re.compile(r"<(script|style)\b.*?(?:</\1\s*>|$)", re.S | re.I)
_HTML_TAG = re.compile(
    r"""</?[A-Za-z][^\s/>]*(?:\s+[^\s"'=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*/?>"""
)
"""A tag, its quoted attribute values free to hold `<` and `>` (`caption="… Option<i32>"`)."""
_SHOWN_ATTRIBUTE = re.compile(r"""\s(?:alt|caption)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
"""Attributes whose text a reader sees: an image's `alt` in its place, a listing's
`caption` under it (mdBook's `<Listing caption="…">`)."""
_CAPTION_ATTRIBUTE = re.compile(r"""\scaption\s*=\s*["']""", re.I)
_FRONT_MATTER_TITLE = re.compile(r"^title\s*:\s*(.+?)\s*$", re.M)
_YAML_KEY = re.compile(r"""^(?:[A-Za-z_][\w .-]*|"[^"]*"|'[^']*')\s*:(?:\s|$)""")
_CONTAINER_MARKERS = re.compile(r"^(?:\s*(?:>|[-+*](?=\s)|\d{1,9}[.)](?=\s)))*\s*")
_LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S")

MAX_NESTING = 100
"""markdown-it's own guard against deep recursion (its CommonMark preset uses 20). Content
nested deeper than this is skipped by markdown-it; we recover it as plain text."""
_LEAF_TYPES = frozenset(
    {
        "inline",
        "fence",
        "code_block",
        "html_block",
        "hr",
        "front_matter",
        "table_open",
        "heading_open",
    }
)


@lru_cache(maxsize=2)
def _parser(front_matter: bool = True) -> MarkdownIt:
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    if front_matter:
        md.use(front_matter_plugin)
    md.options["maxNesting"] = MAX_NESTING
    md.normalizeLink = _link_target_as_written  # type: ignore[method-assign]
    return md


def _link_target_as_written(url: str) -> str:
    """A link's target left as written: the tree keeps link text, never targets, so
    markdown-it's URL normalisation (3 % of the parse) is work for nothing. Its check
    of the target (a `javascript:` link stays text) still runs, on the target as
    written, which it lower-cases itself."""
    return url


def is_yaml_mapping(content: str) -> bool:
    """Whether a `---` block at the top reads as a YAML mapping (`key: value` lines, with
    indented or `- ` list lines under a key), as front matter is. Anything else — prose
    between two thematic breaks, a setext heading — is content, not metadata."""
    seen_key = False
    for line in content.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _YAML_KEY.match(line):
            seen_key = True
        elif not (seen_key and (line[:1].isspace() or line.startswith("- "))):
            return False
    return seen_key


def _tokens(text: str, env: dict[str, Any] | None = None) -> list[Token]:
    """markdown-it's tokens; a leading `---` block counts as front matter only when it
    is a YAML mapping (else the document is read again without the plugin)."""
    tokens = _parser().parse(text, env)
    if tokens and tokens[0].type == "front_matter" and not is_yaml_mapping(tokens[0].content):
        return _parser(front_matter=False).parse(text, env)
    return tokens


def _known_references(text: str) -> dict[str, Any]:
    """A markdown-it environment that knows every link reference label of the whole text,
    for a piece that uses a label another piece defines (targets are never read)."""
    references = {
        normalizeReference(label): {"href": "", "title": ""} for label in reference_labels(text)
    }
    return {"references": references}


def skipped_lines(tokens: list[Token], lines: list[str]) -> list[tuple[int, str]]:
    """Lines markdown-it skipped past its nesting limit, as (0-based line, text) pairs.

    Only called when the limit was reached, so ordinary documents pay nothing.
    """
    covered = bytearray(len(lines) + 1)
    for token in tokens:
        if token.type in _LEAF_TYPES and token.map:
            start, end = token.map
            covered[start:end] = b"\x01" * (end - start)
    lost = []
    for number, line in enumerate(lines):
        if covered[number] or _LINK_DEFINITION.match(line):
            continue
        text = _CONTAINER_MARKERS.sub("", line).strip()
        if text:
            lost.append((number, text))
    return lost


def inline_text(token: Token) -> str:
    """Visible text of an inline token: markup dropped, link/image text kept."""
    return "".join(_inline_parts(token.children or ())).strip()


def _inline_parts(children: list[Token] | tuple[()]) -> list[str]:
    parts: list[str] = []
    for child in children:
        kind = child.type
        if kind in ("text", "text_special") or kind == "code_inline":
            parts.append(child.content)
        elif kind == "softbreak":
            parts.append(" ")
        elif kind == "hardbreak":
            parts.append("\n")
        elif kind == "image":  # alt text, with escapes and entities resolved
            parts.extend(_inline_parts(child.children or ()))
        elif kind == "html_inline":
            parts.append(_inline_tag_text(child.content))
    return parts


def html_text(markup: str) -> str:
    """Text of a raw HTML block: comments, scripts and tags dropped (what a reader sees of
    a tag, its `alt` or `caption`, kept), entities decoded."""
    text = _HTML_COMMENT.sub("", markup)
    text = _HTML_HIDDEN.sub("", text)
    text = _HTML_TAG.sub(lambda tag: f" {_shown_attributes(tag.group())} ", text)
    lines = (" ".join(line.split()) for line in html.unescape(text).split("\n"))
    return "\n".join(line for line in lines if line)


def is_captioned_wrapper(markup: str) -> bool:
    """A raw HTML block that is one opening tag with a `caption` (mdBook's `<Listing
    number="9-3" caption="Opening a file">` before its code block): its caption titles
    what the tag wraps, however long it is."""
    tag = markup.strip()
    return (
        _HTML_TAG.fullmatch(tag) is not None
        and not tag.startswith("</")
        and not tag.endswith("/>")
        and _CAPTION_ATTRIBUTE.search(tag) is not None
    )


def _shown_attributes(tag: str) -> str:
    """The `alt` and `caption` text of a tag, Markdown code marks dropped as in text."""
    values = (first or second for first, second in _SHOWN_ATTRIBUTE.findall(tag))
    return " ".join(value.replace("`", "").strip() for value in values if value.strip())


_BREAK_TAG = re.compile(r"<br\b", re.I)
_INLINE_TAG = re.compile(
    r"</?(?:a|abbr|b|bdi|bdo|cite|code|data|dfn|del|em|font|i|ins|kbd|mark|q|"
    r"s|samp|small|span|strike|strong|sub|sup|time|u|var|wbr)\b",
    re.I,
)


def _inline_tag_text(tag: str) -> str:
    """What a raw HTML tag inside a paragraph contributes: a line break for `<br>`, a
    space for block-level tags (`</td><td>` must not glue two words), nothing for
    inline tags (`<code>x</code>s` stays one word)."""
    if _BREAK_TAG.match(tag):
        return "\n"
    shown = _shown_attributes(tag)
    if shown:  # in place of the image, as a Markdown image's alt text
        return shown
    if _INLINE_TAG.match(tag) or tag.startswith("<!--"):
        return ""
    return " "


def unfence_block(text: str, source: str) -> str:
    """A paragraph that is a pymdownx block fence, as text: `/// note | Title` reads
    `Note: Title` and a closing `///` is nothing, as a code fence's backticks are.

    Only a fence written alone as a paragraph counts (the blank-line style of the sites
    that use them); a paragraph that merely renders as `///` (inline code) stays.
    """
    match = _BLOCK_FENCE.match(source.strip())
    if match is None or "\n" in source.strip():
        return text
    kind, title = match.group(1), (match.group(2) or "").strip()
    if not kind:
        return ""
    label = kind[:1].upper() + kind[1:]
    return f"{label}: {title}" if title else label


def front_matter_title(content: str) -> str:
    match = _FRONT_MATTER_TITLE.search(content)
    if not match:
        return ""
    value = match.group(1)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value.strip()


def _prov(token: Token) -> Provenance:
    return Provenance((token.map[0] + 1, token.map[1])) if token.map else Provenance()


@dataclass
class _ListState:
    """An open list: its depth and the marker of the next item."""

    depth: int
    ordered: bool
    delimiter: str
    next_number: int


@dataclass
class _ItemState:
    """An open list item collecting its text until a nested list or its end."""

    marker: str
    depth: int
    prov: Provenance
    parts: list[str] = field(default_factory=list)
    emitted: bool = False


class _MarkdownWalker:
    """One pass over the token stream, reporting blocks and headings to the builder."""

    def __init__(self, builder: TreeBuilder) -> None:
        self.builder = builder
        self.lists: list[_ListState] = []
        self.items: list[_ItemState] = []
        self.list_block: ListBlock | None = None
        self.table: Table | None = None
        self.row: list[str] | None = None
        self.row_prov = Provenance()
        self.in_head = False
        self.heading_token: Token | None = None

    # -- block sinks -------------------------------------------------------------

    def add_text(self, text: str, prov: Provenance, titles_next: bool = False) -> None:
        """Route text to the open list item, else add it to the current section."""
        if not text.strip():
            return
        if self.items:
            self.items[-1].parts.append(text)
        else:
            self.builder.add(Paragraph(text, prov, titles_next=titles_next))

    def add_code(self, text: str, language: str, prov: Provenance) -> None:
        if self.items:
            self.items[-1].parts.append(flatten_code(text, language))
        elif text.strip():
            self.builder.add(Code(text, language, prov))

    def flush_item(self) -> None:
        """Emit the innermost item's collected text as one flattened `ListItem`."""
        item = self.items[-1]
        if not item.parts or self.list_block is None:
            return
        marker = item.marker if not item.emitted else " " * len(item.marker)
        self.list_block.items.append(
            ListItem("\n\n".join(item.parts), marker, item.depth, item.prov)
        )
        item.parts = []
        item.emitted = True

    # -- token handlers ----------------------------------------------------------

    def walk(self, tokens: list[Token], lost: list[tuple[int, str]]) -> None:
        """Handle every token in order; `lost` lines are added where they stood."""
        handlers = {
            "heading_open": self.open_heading,
            "inline": self.inline,
            "bullet_list_open": self.open_list,
            "ordered_list_open": self.open_list,
            "bullet_list_close": self.close_list,
            "ordered_list_close": self.close_list,
            "list_item_open": self.open_item,
            "list_item_close": self.close_item,
            "fence": self.code,
            "code_block": self.code,
            "html_block": self.html_block,
            "front_matter": self.front_matter,
            **dict.fromkeys(
                ("table_open", "thead_open", "thead_close", "tr_open", "tr_close", "table_close"),
                self.table_token,
            ),
        }
        pending = list(reversed(lost))
        for token in tokens:
            while pending and token.map and pending[-1][0] < token.map[0]:
                number, text = pending.pop()
                self.add_text(text, Provenance((number + 1, number + 1)))
            handler = handlers.get(token.type)
            if handler is not None:
                handler(token)
        for number, text in reversed(pending):
            self.add_text(text, Provenance((number + 1, number + 1)))

    def open_heading(self, token: Token) -> None:
        self.heading_token = token  # its text is the next inline token

    def heading(self, opening: Token, inline: Token) -> None:
        title = _HEADING_ATTRIBUTES.sub("", inline_text(inline))
        if self.items or self.table is not None or opening.level > 0:
            self.add_text(title, _prov(opening))
        else:
            self.builder.heading(int(opening.tag[1]), title, _prov(opening))

    def code(self, token: Token) -> None:
        info = token.info.strip()
        language = info.split()[0] if info else ""
        self.add_code(token.content.rstrip("\n"), language, _prov(token))

    def html_block(self, token: Token) -> None:
        titles_next = is_captioned_wrapper(token.content)
        self.add_text(html_text(token.content), _prov(token), titles_next)

    def front_matter(self, token: Token) -> None:
        self.builder.set_title(front_matter_title(token.content))

    def close_item(self, token: Token) -> None:
        self.flush_item()
        self.items.pop()

    def inline(self, token: Token) -> None:
        if self.heading_token is not None:
            opening, self.heading_token = self.heading_token, None
            self.heading(opening, token)
            return
        text = inline_text(token)
        if self.row is not None:
            self.row.append(text)
        else:
            self.add_text(unfence_block(text, token.content), _prov(token))

    def open_list(self, token: Token) -> None:
        if self.items:
            self.flush_item()
        elif not self.lists:
            self.list_block = ListBlock([], _prov(token))
        ordered = token.type == "ordered_list_open"
        start = int(token.attrs.get("start", 1)) if ordered else 0
        self.lists.append(_ListState(len(self.lists), ordered, token.markup or "-", start))

    def close_list(self, token: Token | None = None) -> None:
        self.lists.pop()
        if not self.lists and self.list_block is not None:
            if self.list_block.items:
                self.builder.add(self.list_block)
            self.list_block = None

    def open_item(self, token: Token) -> None:
        state = self.lists[-1]
        if state.ordered:
            marker = f"{token.info or state.next_number}{state.delimiter}"
            state.next_number += 1
        else:
            marker = state.delimiter
        self.items.append(_ItemState(marker, state.depth, _prov(token)))

    def table_token(self, token: Token) -> None:
        kind = token.type
        if kind == "table_open":
            self.table = Table([], [], prov=_prov(token))
        elif kind == "thead_open":
            self.in_head = True
        elif kind == "thead_close":
            self.in_head = False
        elif kind == "tr_open":
            self.row = []
            self.row_prov = _prov(token)
        elif kind == "tr_close" and self.table is not None and self.row is not None:
            if self.in_head:
                self.table.header.append(self.row)
            else:
                self.table.rows.append(self.row)
                self.table.row_provs.append(self.row_prov)
            self.row = None
        elif kind == "table_close" and self.table is not None:
            table, self.table = self.table, None
            if self.items:
                self.items[-1].parts.append(flatten_table(table))
            else:
                self.builder.add(table)


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse Markdown bytes into a `Document`; a long text a piece at a time (see
    markdown_pieces.py), so markdown-it's tokens never hold more than one piece."""
    text = decode_text(data)
    builder = TreeBuilder("markdown")
    for _ in walk_in_pieces(text, builder):
        pass
    return builder.finish(text)


def stream(data: bytes, source: str, settings: ParseSettings) -> GrowingDocument | None:
    """Markdown longer than one piece (no more characters than bytes) as a tree built a
    piece at a time, whose settled sections are packed as they come (a long document's
    tree was three times its text); None for the rest, parsed whole."""
    if len(data) <= markdown_pieces.DEFAULT_PIECE_CHARS:
        return None
    text = decode_text(data)
    builder = TreeBuilder("markdown")

    def open_paths() -> Iterator[list[Section]]:
        for _ in walk_in_pieces(text, builder):
            yield builder.open_sections

    return GrowingDocument(builder.root, "markdown", text, open_paths(), builder.warnings)


def walk_in_pieces(text: str, builder: TreeBuilder) -> Iterator[None]:
    """Report the text's headings and blocks to `builder`, pausing after each piece: at
    each pause every block so far is in the tree, and the next piece adds blocks only
    to the current section (what lets a caller pack the sections no later piece can
    change)."""
    walker = _MarkdownWalker(builder)
    parts = pieces(text)
    first_line, piece = next(parts)
    if len(piece) == len(text):  # the usual case: one piece, nothing shared
        _walk_piece(walker, _tokens(text), text, 0)
        yield
        return
    env = _known_references(text)
    _walk_piece(walker, _tokens(piece, env), piece, first_line)
    del piece
    yield
    for first_line, piece in parts:
        _walk_piece(walker, _parser().parse(piece, env), piece, first_line)
        del piece
        yield


def _walk_piece(walker: _MarkdownWalker, tokens: list[Token], text: str, first_line: int) -> None:
    """Report one piece's tokens; its line numbers moved down by `first_line`."""
    deep = any(token.level >= MAX_NESTING - 1 for token in tokens)
    lost = skipped_lines(tokens, text.split("\n")) if deep else []
    if first_line:
        for token in tokens:
            if token.map:
                token.map = [token.map[0] + first_line, token.map[1] + first_line]
        lost = [(number + first_line, line) for number, line in lost]
    walker.walk(tokens, lost)
