"""The report's view of a document's source: each chunk's spans shaded in its colour.

Built from the chunks' `offsets` (Markdown, text, HTML chunked by `inspect` itself), so
it shows exactly the text each chunk came from: spans two chunks share (overlap, a split
table's repeated header) carry both, text no chunk took (link targets, markup, dropped
boilerplate) stays plain, and a bar marks where each chunk begins.
"""

from __future__ import annotations

from html import escape

from .colours import chunk_hue
from .inspection import InspectedDocument

MAX_SOURCE_CHARS = 2_000_000
"""Longer sources are left out of the report (a note says so): the file stays loadable."""


def source_view(number: int, document: InspectedDocument) -> str:
    """The document's source as HTML, or "" when its chunks have no offsets."""
    text = document.source_text
    if not text or not any(chunk.offsets for chunk in document.chunks):
        return ""
    if len(text) > MAX_SOURCE_CHARS:
        return (
            f'<p class="source-note">Source view left out: {len(text):,} characters '
            f"(more than {MAX_SOURCE_CHARS:,}).</p>"
        )
    events: dict[int, list[tuple[int, int]]] = {}  # position → (+1 start / -1 end, chunk)
    starts: set[int] = set()
    for position, chunk in enumerate(document.chunks):
        for start, end in chunk.offsets:
            if 0 <= start < end <= len(text):
                events.setdefault(start, []).append((1, position))
                events.setdefault(end, []).append((-1, position))
        if chunk.offsets and position > 0:
            starts.add(chunk.offsets[0][0])
    out: list[str] = []
    active: dict[int, int] = {}  # chunk position → open spans
    cuts = sorted(set(events) | starts | {0, len(text)})
    for at, following in zip(cuts, cuts[1:]):
        for change, position in events.get(at, []):
            active[position] = active.get(position, 0) + change
            if not active[position]:
                del active[position]
        if at in starts:
            out.append('<span class="cut" aria-hidden="true"></span>')
        piece = escape(text[at:following])
        if not active:
            out.append(piece)
            continue
        ids = " ".join(f"d{number}-c{document.chunks[p].index}" for p in sorted(active))
        hue = chunk_hue(min(active))
        out.append(f'<mark data-chunks="{ids}" style="--hue:{hue}">{piece}</mark>')
    return f'<pre class="source" id="d{number}-source">{"".join(out)}</pre>'
