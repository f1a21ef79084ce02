"""The splitter and packer: a section tree in, budgeted chunks out. Knows nothing of formats.

Per section, in order (`packer.py` calls them; each step is a pure function):

    outline.py    0 outline: the sections to pack — those with blocks, and each run of
                  headings with nothing under them as a section of their own
    prefix.py     1 prefix: the heading path the section's chunks start with, shortened
                  to at most half the limit; what it leaves is the section's `Room`
    splitters.py  2 units: blocks whole when they fit, else cut at their natural joints
                  (`SPLIT_ORDER`: paragraph → sentences → words → characters; list →
                  items; table → row groups with the header repeated; code → lines)
    grouping.py   3 group: units packed greedily, stepping back to a block boundary
    merging.py    4 merge small: no chunk under `min_tokens` where a neighbour can help
    fitting.py    5 fit: every final text recounted with the real tokenizer
    overlap.py    6 overlap: whole trailing sentences of the previous chunk repeated, or
                  the lead-in sentence of the list, table or code a chunk opens with
    finish.py     7 finish: text, count, block kinds and provenance of each chunk
    parents.py    then, with `parents`: the chunks grouped into parent records (the
                  largest section that fits, else windows of a section's chunks)

Beside them, imported by the steps and importing none: `units.py`, the value the steps
pass along (`Unit`); `room.py`, the tokens of a section's chunks (`Room`: the limit, what
the head takes, what is left for content), one value handed to every step instead of a
number under three names; `context.py`, the tokenizer and sentence segmenter the steps
count and cut with; `lead_ins.py`, the lead-in and label rule steps 2, 3 and 6 share;
`render.py`, the light Markdown of blocks. A step takes from another only that step's
own work — step 1's `Head`; step 3's grouping for a split table's rows (step 2); both
again for fitting's retries (step 5) — and no import goes round in a circle.
`audit.py` holds the "nothing lost" checks behind `strict` (`page_audit.py`: what a PDF's
pages read, all in the blocks or dropped on purpose).
"""

from __future__ import annotations

from .finish import PackedChunk
from .packer import Packer
from .parents import PackedParent

__all__ = ["PackedChunk", "PackedParent", "Packer"]
