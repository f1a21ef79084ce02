"""Step 0, language: each section's language, from its own prose when it has enough,
else from the sections before it.

With `language="auto"` a section whose title, paragraphs and lists hold at least
`DEFAULT_SECTION_MIN_CHARS` characters is decided on its own, when the detector is sure
(`DEFAULT_MIN_CONFIDENCE`); a shorter one takes the language of the last decided
section. The short sections at the top of a document (a title, a table of contents)
wait, up to `DEFAULT_PENDING_SECTIONS` of them, for the first decided one; a document
that never has enough prose is decided on all of it pooled, or left undetermined
(None). Code and tables are not read. The same steps run whether the tree is whole or
streamed, so both give the same languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..document import ListBlock, Paragraph, Section
from ..languages import AUTO, detect
from ..languages.detect import DEFAULT_SAMPLE_CHARS
from .render import render_block

DEFAULT_SECTION_MIN_CHARS = 300
"""Non-space characters of prose a section needs to be decided on its own: about 50
words, or 300 Chinese characters; shorter samples are where detectors err (a heading
alone, `Installation`, is `en` with probability 0.55)."""

DEFAULT_MIN_CONFIDENCE = 0.9
"""Normalised probability the detector must give a section's language."""

DEFAULT_POOLED_CONFIDENCE = 0.5
"""The same, for a document decided on all its prose pooled."""

DEFAULT_PENDING_SECTIONS = 32
"""Sections held at the top of a document while none has been decided."""


def prose_sample(section: Section) -> str:
    """The title, paragraphs and lists of `section`, up to the detector's sample size."""
    parts = [section.title]
    size = len(section.title)
    for block in section.blocks:
        if size >= DEFAULT_SAMPLE_CHARS:
            break
        if isinstance(block, Paragraph | ListBlock):
            text = render_block(block)
            parts.append(text)
            size += len(text)
    return "\n".join(parts)[:DEFAULT_SAMPLE_CHARS]


def _solid(text: str) -> int:
    return sum(map(len, text.split()))


def _decided(sample: str, min_chars: int, min_confidence: float) -> str | None:
    if _solid(sample) < min_chars:
        return None
    found = detect(sample)
    return found.language if found.confidence >= min_confidence else None


def with_languages(
    sections: Iterable[Section], language: str
) -> Iterator[tuple[Section, str | None]]:
    """Each section with its language: `language` itself unless it is `auto`."""
    if language != AUTO:
        for section in sections:
            yield section, language
        return
    current: str | None = None
    pending: list[Section] = []
    pooled: list[str] = []
    for section in sections:
        sample = prose_sample(section)
        current = _decided(sample, DEFAULT_SECTION_MIN_CHARS, DEFAULT_MIN_CONFIDENCE) or current
        if current is None:
            pending.append(section)
            pooled.append(sample)
            if len(pending) < DEFAULT_PENDING_SECTIONS:
                continue
            current = _pooled(pooled)  # may still be None: then these go undetermined
            yield from ((held, current) for held in pending)
            pending, pooled = [], []
            continue
        yield from ((held, current) for held in pending)
        pending, pooled = [], []
        yield section, current
    if pending:
        undecided = _pooled(pooled)
        yield from ((held, undecided) for held in pending)


def _pooled(samples: list[str]) -> str | None:
    return _decided("\n".join(samples), 1, DEFAULT_POOLED_CONFIDENCE)
