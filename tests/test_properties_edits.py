"""Property tests of locality: a single edit to one paragraph changes only the chunks
near it, so content-addressed ids keep the rest (issue #44, docs/design.md "Chunk ids")."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st
from test_properties import (
    BLOCKS,
    SETTINGS,
    GeneratedSection,
    _paragraph,
    _word,
    expected_paths,
)

from structchunk import Chunk, ChunkOptions, chunk_text


@dataclass(frozen=True)
class Edit:
    """A document before and after one edit to one of its paragraphs."""

    before: str
    after: str
    path: tuple[str, ...]
    """The heading path of the edited paragraph's section."""
    line: int
    """The edited paragraph's line (1-based; a paragraph here is one line, before and after)."""


def _edited(draw: st.DrawFn, paragraph: str, section: GeneratedSection) -> str:
    """`paragraph` with words changed, inserted or deleted at one place."""
    words = paragraph.split(" ")
    at = draw(st.integers(0, len(words) - 1))
    kind = draw(st.sampled_from(["change", "insert", "delete"]))
    if kind == "change":
        old = words[at]
        tail = old[len(old.rstrip(".!?:")) :]
        new = _word(draw, section)
        words[at] = (new.capitalize() if old[0].isupper() else new) + tail
    elif kind == "insert":
        words[at + 1 : at + 1] = [_word(draw, section) for _ in range(draw(st.integers(1, 12)))]
    else:
        count = draw(st.integers(1, max(1, min(12, len(words) - 1))))
        del words[at : at + count]
        words = words or [_word(draw, section) + "."]
    return " ".join(words)


@st.composite
def edits(draw: st.DrawFn) -> Edit:
    """A generated document (as in test_properties) and a random edit to one paragraph."""
    sections = [GeneratedSection(0, 0)]
    for index in range(1, draw(st.integers(0, 5)) + 1):
        sections.append(GeneratedSection(index, draw(st.integers(1, 3))))
    parts: list[str] = []
    paragraphs: list[tuple[int, GeneratedSection]] = []
    for section in sections:
        if section.level:
            parts.append("#" * section.level + " " + section.title)
        for _ in range(draw(st.integers(0 if section.level else 1, 6))):
            block = draw(st.sampled_from(BLOCKS))
            if block is _paragraph:
                paragraphs.append((len(parts), section))
            parts.append(block(draw, section))
    if not paragraphs:
        paragraphs.append((len(parts), sections[-1]))
        parts.append(_paragraph(draw, sections[-1]))
    index, section = draw(st.sampled_from(paragraphs))
    edited = [*parts]
    edited[index] = _edited(draw, parts[index], section)
    line = 1 + sum(part.count("\n") + 2 for part in parts[:index])
    path = tuple(expected_paths(sections)[section.tag])
    return Edit("\n\n".join(parts) + "\n", "\n\n".join(edited) + "\n", path, line)


def _by_section(chunks: list[Chunk]) -> dict[tuple[str, ...], list[tuple[str, str]]]:
    """Each section's chunks as (id, text), in order."""
    out: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for chunk in chunks:
        out.setdefault(tuple(chunk.heading_path), []).append((chunk.id, chunk.text))
    return out


def _common_ends(one: list[tuple[str, str]], other: list[tuple[str, str]]) -> tuple[int, int]:
    """How many chunks the two lists share at their start, and then at their end."""
    head = 0
    while head < min(len(one), len(other)) and one[head] == other[head]:
        head += 1
    tail = 0
    while tail < min(len(one), len(other)) - head and one[-1 - tail] == other[-1 - tail]:
        tail += 1
    return head, tail


OPTIONS = st.builds(
    ChunkOptions,
    max_tokens=st.integers(24, 400),
    min_tokens=st.sampled_from([0, 0, 8, 20]),
    overlap_tokens=st.sampled_from([0, 0, 6, 12]),
)


@SETTINGS
@given(edits(), OPTIONS)
def test_an_edit_leaves_the_other_sections_and_the_chunks_before_it(
    edit: Edit, options: ChunkOptions
) -> None:
    before = chunk_text(edit.before, options=options, source="doc.md")
    after = chunk_text(edit.after, options=options, source="doc.md")
    old, new = _by_section(before), _by_section(after)

    # every other section: the same chunks, ids included
    assert {p: c for p, c in old.items() if p != edit.path} == {
        p: c for p, c in new.items() if p != edit.path
    }

    # ids follow the text, not the position: a chunk whose (path, text) is unique on
    # both sides keeps its id, wherever the edit moved it
    def unique(chunks: list[Chunk]) -> dict[tuple[tuple[str, ...], str], str]:
        seen = Counter((tuple(c.heading_path), c.text) for c in chunks)
        return {
            (tuple(c.heading_path), c.text): c.id
            for c in chunks
            if seen[tuple(c.heading_path), c.text] == 1
        }

    once_before, once_after = unique(before), unique(after)
    assert all(once_before[key] == kept for key, kept in once_after.items() if key in once_before)

    # the edited section: the chunks before the one holding the edited paragraph are
    # kept, but for the one just before it (it closed because what followed did not fit,
    # and a paragraph that grows past the budget is packed as sentences, which may fill
    # it) and, with min_tokens, the one before that (a changed chunk may become small
    # and merge into it, or take units from its end)
    section = [c for c in before if tuple(c.heading_path) == edit.path]
    assert section, "the edited paragraph is in a chunk of its section"
    touched = [
        i for i, c in enumerate(section) if c.lines and c.lines[0] <= edit.line <= c.lines[1]
    ]
    assert touched
    head, _ = _common_ends(old[edit.path], new.get(edit.path, []))
    assert head >= touched[0] - (2 if options.min_tokens else 1)
