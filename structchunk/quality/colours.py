"""The colour of each chunk in the report, shared by its block, its source spans and its
page boxes, so the three views of one chunk always match."""

from __future__ import annotations

HUE_STEP = 47
"""Degrees between neighbouring chunks' colours: coprime with 360, so consecutive blocks
never share a hue and the pattern repeats only after 360 chunks."""


def chunk_hue(position: int) -> int:
    """The hue of the chunk at `position` (0-based) in its document."""
    return (position * HUE_STEP) % 360
