"""Where a chunk's words are in its source: character spans in the decoded source text.

A chunk body is rendered text (soft line breaks joined, markup dropped, tables drawn as
pipes, a split table's header repeated), so its offsets are found, not carried: the
body's words are aligned, in order, with the words of the source text, as the
document's chunks come out of the packer (walked in step, picking up again where the
next body words stand together, inside the source lines the chunk covers; a run of body words spelt
differently in the source — `` `g`reater `` read as `greater` — takes the source words
between the runs around it). Consecutive source words make
one span; the body skipping source words (a link target, a table's rows before a
repeated header, a tooltip's text) starts another. Each chunk is anchored
where its first words appear together: within its own source lines when the parser
knows them (Markdown, text), else from where the previous chunk began (overlap and a
split table's repeated header look back that far, never further).

Offsets count code points of the text `decoded_source` returns (BOM removed, newlines
as `\\n`): `source_text[start:end]`. HTML tags, comments, scripts and styles are never
matched; words compare without case, and an HTML word written with character references
(`caf&eacute;`) as the characters they stand for. A word the parser wrote (an
admonition's label, a figure's "Image:") has no match and leaves a gap.

    aligner.py   the aligner: each chunk anchored, its search bounded, runs made spans
                 (and a PDF's spans the boxes of its lines)
    source.py    the source side: an HTML page's visible text (and the way back to the
                 page's offsets), lower-casing, the words split a segment at a time
    walk.py      the walk: body words aligned with source words in bounded time
"""

from __future__ import annotations

from .aligner import Aligner, boxes_of
from .source import VisibleText, body_words

__all__ = ["Aligner", "VisibleText", "body_words", "boxes_of"]
