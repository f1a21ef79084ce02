"""Plain text: paragraphs separated by blank lines, no headings."""

from __future__ import annotations

from ..document import Document, Paragraph, Provenance
from ..options import ChunkOptions
from .builder import TreeBuilder
from .decode import decode_text


def parse(data: bytes, source: str, options: ChunkOptions) -> Document:
    """Each run of non-blank lines is a paragraph; line numbers are kept."""
    builder = TreeBuilder("text")
    lines = decode_text(data).split("\n")
    start: int | None = None
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip():
            if start is None:
                start = number
        elif start is not None:
            text = "\n".join(part.rstrip() for part in lines[start - 1:number - 1]).strip()
            builder.add(Paragraph(text, Provenance((start, number - 1))))
            start = None
    return builder.finish()
