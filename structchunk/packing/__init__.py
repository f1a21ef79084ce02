"""The splitter and packer: a section tree in, budgeted chunks out. Knows nothing of formats.

Per section, in order (`packer.py` calls them; each step is a pure function):

    outline.py    0 outline: the sections to pack — those with blocks, and each run of
                  headings with nothing under them as a section of their own
    prefix.py     1 prefix: the heading path the section's chunks start with, shortened
                  to at most half the budget
    splitters.py  2 units: blocks whole when they fit, else cut at their natural joints
                  (`SPLIT_ORDER`: paragraph → sentences → words → characters; list →
                  items; table → row groups with the header repeated; code → lines)
    grouping.py   3 group: units packed greedily, stepping back to a block boundary
    merging.py    4 merge small: no chunk under `min_tokens` where a neighbour can help
    fitting.py    5 fit: every final text recounted with the real tokenizer
    overlap.py    6 overlap: whole trailing sentences of the previous chunk repeated, or
                  the lead-in sentence of the list, table or code a chunk opens with
    finish.py     7 finish: text, count, block kinds and provenance of each chunk

`units.py` is the value the steps pass along, `render.py` the light Markdown of blocks,
and `audit.py` the "nothing lost" checks behind `strict` (`page_audit.py`: what a PDF's
pages read, all in the blocks or dropped on purpose).
"""

from __future__ import annotations

from .finish import PackedChunk
from .packer import Packer

__all__ = ["PackedChunk", "Packer"]
