"""Per-chunk quality flags: the failures chunking never raises an error for.

Every flag is computed from the chunk records alone (ours or another tool's), with the
neighbouring chunk of the same document as the only context, so `inspect` gives the
same answer for a document and for the JSONL it was converted to.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..records import has_shortened_prefix
from .views import ChunkView

Flag = Literal[
    "CUT_MID_SENTENCE", "NO_HEADING", "TOO_SMALL", "TOO_LARGE", "TABLE_SPLIT", "PREFIX_SHORTENED"
]

FLAGS: tuple[Flag, ...] = (
    "CUT_MID_SENTENCE",
    "NO_HEADING",
    "TOO_SMALL",
    "TOO_LARGE",
    "TABLE_SPLIT",
    "PREFIX_SHORTENED",
)
"""Every flag, in the order tables and reports show them."""

FLAG_MEANINGS: dict[Flag, str] = {
    "CUT_MID_SENTENCE": "ends inside a sentence: not at a sentence end, list item, table row, "
    "code block or section end",
    "NO_HEADING": "no heading path, although other chunks of the document have one",
    "TOO_SMALL": "fewer words than the floor (8) or fewer tokens than --min-tokens",
    "TOO_LARGE": "more tokens than the budget",
    "TABLE_SPLIT": "a piece of a table that was split across chunks",
    "PREFIX_SHORTENED": "the text does not start with the full heading path `A > B > C`",
}

DEFAULT_MIN_WORDS = 8
"""A chunk of fewer whitespace words rarely holds a fact together with its context; the
shared benchmark harness counts the same "under 8 words" share for every chunker."""

SENTENCE_END = ".!?…:。！？"
"""Characters that end a sentence. A colon counts: it closes a lead-in ("… as follows:")
whose list or table starts the next chunk."""

CLOSERS = ")]}\"'”’»`*_"
"""May follow the sentence end: closing brackets, quotes and Markdown emphasis. A line
that ends in a closing bracket is accepted too (a parenthetical, an mkdocs `{* … *}`)."""

DEFAULT_LABEL_WORDS = 8
"""A last paragraph this short, without a sentence end, is a label — a step title, a
caption, a byline ("Step 7", "Advertisement") — when the next chunk starts a new
sentence. Chosen to match the TOO_SMALL floor: shorter than a typical sentence."""

_TRAILING_SYMBOLS = {"So", "Sk", "Cf", "Mn", "Zs"}
"""Unicode categories skipped at the very end (emoji after "… done. 🎉", variation selectors)."""

_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,9}[.)])\s+\S")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_DELIMITER_LINE = re.compile(r"^\s*(?:`{3,}|~{3,}|/{3}|:{3}|!{3})")
"""Lines that open or close a block: code fences, mkdocs `///` and `:::` admonitions."""
_BLOCK_START = re.compile(r"^\s*(?:#{1,6}\s|>|\|)")


@dataclass(frozen=True, slots=True)
class FlagRules:
    """The thresholds flags are judged against."""

    budget: int
    """TOO_LARGE above this many tokens."""
    min_tokens: int = 0
    """TOO_SMALL below this many tokens (and always below `min_words` words)."""
    min_words: int = DEFAULT_MIN_WORDS


def _lines(text: str) -> list[str]:
    return [line for line in text.strip().split("\n") if line.strip()]


def _strip_end(line: str) -> str:
    end = len(line)
    while end and unicodedata.category(line[end - 1]) in _TRAILING_SYMBOLS:
        end -= 1
    return line[:end]


def ends_at_boundary(content: str) -> bool:
    """Whether text ends where a reader would stop: a sentence end, a table row, a closed
    code block or admonition, or a closing bracket."""
    lines = _lines(content)
    if not lines:
        return True
    last = lines[-1]
    if _TABLE_ROW.match(last) or _DELIMITER_LINE.match(last):
        return True
    stripped = _strip_end(last)
    if stripped.endswith((")", "]", "}")):
        return True
    stripped = stripped.rstrip(CLOSERS)
    return bool(stripped) and stripped[-1] in SENTENCE_END


def starts_block(content: str) -> bool:
    """Whether text begins a new block: a list item, table, heading, quote or code fence."""
    lines = _lines(content)
    if not lines:
        return False
    first = lines[0]
    return bool(
        _LIST_ITEM.match(first) or _BLOCK_START.match(first) or _DELIMITER_LINE.match(first)
    )


def starts_sentence(content: str) -> bool:
    """Whether text begins like a sentence: a capital letter or a digit (after any
    opening quote or bracket)."""
    start = content.lstrip().lstrip("\"'“‘«([*_")
    return bool(start) and (start[0].isupper() or start[0].isdigit())


def ends_with_label(content: str) -> bool:
    """The last line is a list item, or a short paragraph of its own (see
    `DEFAULT_LABEL_WORDS`): whole blocks that need no full stop."""
    paragraphs = [p for p in content.strip().split("\n\n") if p.strip()]
    if not paragraphs:
        return False
    last_line = _lines(paragraphs[-1])[-1]
    if _LIST_ITEM.match(last_line):
        return True
    return (
        len(paragraphs) > 1
        and "\n" not in paragraphs[-1].strip()
        and len(last_line.split()) <= DEFAULT_LABEL_WORDS
    )


def cut_mid_sentence(chunk: ChunkView, following: ChunkView | None) -> bool:
    """CUT_MID_SENTENCE: the cut after `chunk` falls inside a sentence.

    The end of a document or a section is never a cut. Where both chunks record source
    lines (our Markdown and text records), a cut between line ranges is a cut between
    blocks or list items, hence clean even after a paragraph without a full stop; inside
    one block only the text can tell. Without lines, the next chunk decides: a new block
    (list item, table, heading, code) marks a clean cut, and so does a new sentence after
    a list item or a short label paragraph.
    """
    if following is None:
        return False
    if (
        chunk.headings_recorded
        and following.headings_recorded
        and chunk.heading_path != following.heading_path
    ):
        return False
    if ends_at_boundary(chunk.content):
        return False
    if chunk.lines is not None and following.lines is not None:
        return chunk.lines[1] >= following.lines[0]
    if starts_block(following.content):
        return False
    return not (ends_with_label(chunk.content) and starts_sentence(following.content))


def _ends_in_table(content: str) -> bool:
    """The last line is a table row, whole or cut off (`| a | b` without its end)."""
    lines = _lines(content)
    return bool(lines) and lines[-1].lstrip().startswith("|")


def _continues_table(content: str) -> bool:
    """The first line is the rest of a table: a row or a row's tail (`b | c |`), but not
    a header row (a header has a delimiter row `|---|` under it)."""
    lines = _lines(content)
    if not lines or not lines[0].rstrip().endswith("|"):
        return False
    return len(lines) < 2 or not _TABLE_DELIMITER.match(lines[1])


def table_split(chunk: ChunkView, previous: ChunkView | None, following: ChunkView | None) -> bool:
    """TABLE_SPLIT: our records say so (`table_rows`); for other tools' records, a chunk
    that ends in a table the next chunk continues, or that continues one itself."""
    if chunk.table_rows is not None:
        return True
    if chunk.body is not None:
        return False  # our record without table_rows: not a split piece
    if (
        following is not None
        and _ends_in_table(chunk.content)
        and _continues_table(following.content)
    ):
        return True
    return (
        previous is not None
        and _continues_table(chunk.content)
        and _ends_in_table(previous.content)
    )


def prefix_shortened(chunk: ChunkView) -> bool:
    """PREFIX_SHORTENED: the text's heading prefix shows only part of the recorded heading
    path (`Chunk.prefix_shortened`, read from the record alone, so a document and its
    JSONL agree). A record without a `body` has no prefix to tell apart from its text."""
    if chunk.body is None or not chunk.headings_recorded:
        return False
    return has_shortened_prefix(chunk.heading_path, chunk.text, chunk.body)


def flag_chunks(chunks: Sequence[ChunkView], rules: FlagRules) -> list[tuple[Flag, ...]]:
    """The flags of each chunk of one document, in `FLAGS` order."""
    has_headings = any(chunk.heading_path for chunk in chunks)
    out: list[tuple[Flag, ...]] = []
    for index, chunk in enumerate(chunks):
        previous = chunks[index - 1] if index else None
        following = chunks[index + 1] if index + 1 < len(chunks) else None
        found = {
            "CUT_MID_SENTENCE": cut_mid_sentence(chunk, following),
            "NO_HEADING": has_headings and not chunk.heading_path,
            "TOO_SMALL": (
                len(chunk.text.split()) < rules.min_words or chunk.n_tokens < rules.min_tokens
            ),
            "TOO_LARGE": chunk.n_tokens > rules.budget,
            "TABLE_SPLIT": table_split(chunk, previous, following),
            "PREFIX_SHORTENED": prefix_shortened(chunk),
        }
        out.append(tuple(flag for flag in FLAGS if found[flag]))
    return out
