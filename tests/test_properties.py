"""Property tests of the packer's invariants over generated Markdown (DESIGN.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from structchunk import ChunkOptions, chunk_text
from structchunk.packing.audit import first_missing_word
from structchunk.records import to_json_line
from structchunk.tokenizers import get_tokenizer


@dataclass
class GeneratedSection:
    """One section of a generated document; every word in it carries the section's tag."""

    index: int
    level: int
    blocks: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)

    @property
    def tag(self) -> str:
        return f"s{self.index}x"

    @property
    def title(self) -> str:
        return f"Title {self.tag}"


def _word(draw: st.DrawFn, section: GeneratedSection) -> str:
    return f"{section.tag}{draw(st.integers(0, 999))}"


def _sentence(
    draw: st.DrawFn, section: GeneratedSection, max_words: int = 6, last: bool = True
) -> str:
    """A sentence of at most `max_words`; only the `last` of a paragraph may end with
    ":" (a lead-in): inside a paragraph a colon ends no sentence, so several such
    "sentences" would be one of more than `max_words`."""
    words = [_word(draw, section) for _ in range(draw(st.integers(1, max_words)))]
    words[0] = words[0].capitalize()
    section.words += words
    ends = [".", "!", "?", ":"] if last else [".", "!", "?"]
    sentence = " ".join(words) + draw(st.sampled_from(ends))
    section.sentences.append(sentence)
    return sentence


def _paragraph(draw: st.DrawFn, section: GeneratedSection) -> str:
    count = draw(st.integers(1, 12))
    return " ".join(_sentence(draw, section, last=i == count - 1) for i in range(count))


def _list(draw: st.DrawFn, section: GeneratedSection) -> str:
    lines = []
    depth = 0
    for number in range(draw(st.integers(1, 10))):
        depth = draw(st.integers(0, min(depth + 1, 2)))
        marker = draw(st.sampled_from(["-", "*", f"{number + 1}."]))
        lines.append("  " * depth * 2 + f"{marker} {_sentence(draw, section)}")
    return "\n".join(lines)


def _table(draw: st.DrawFn, section: GeneratedSection) -> str:
    width = draw(st.integers(1, 4))
    header = [_word(draw, section) for _ in range(width)]
    section.words += header
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    for _ in range(draw(st.integers(1, 25))):
        cells = [_word(draw, section) for _ in range(width)]
        section.words += cells
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _code(draw: st.DrawFn, section: GeneratedSection) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 20))):
        words = [_word(draw, section) for _ in range(draw(st.integers(0, 5)))]
        section.words += words
        lines.append(" = ".join(words))
    return "```\n" + "\n".join(lines) + "\n```"


BLOCKS = (_paragraph, _list, _table, _code)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[GeneratedSection]]:
    """Markdown with nested headings and every block kind; also what it should contain."""
    sections = [GeneratedSection(0, 0)]
    for index in range(1, draw(st.integers(0, 6)) + 1):
        sections.append(GeneratedSection(index, draw(st.integers(1, 3))))
    parts = []
    for section in sections:
        if section.level:
            parts.append("#" * section.level + " " + section.title)
        for _ in range(draw(st.integers(0 if section.level else 1, 4))):
            parts.append(draw(st.sampled_from(BLOCKS))(draw, section))
    return "\n\n".join(parts) + "\n", sections


def expected_paths(sections: list[GeneratedSection]) -> dict[str, list[str]]:
    """Heading path of each section tag, computed independently of the builder."""
    stack: list[GeneratedSection] = []
    out = {}
    for section in sections:
        if section.level:
            while stack and stack[-1].level >= section.level:
                stack.pop()
            stack.append(section)
        out[section.tag] = [s.title for s in stack]
    return out


def bare_sections(sections: list[GeneratedSection]) -> set[str]:
    """Tags of headings with nothing under them: no words (an empty code block is no
    block), and the next heading (if any) is not deeper."""
    out = set()
    for section, following in zip(sections, [*sections[1:], None]):
        deeper = following is not None and following.level > section.level
        if section.level and not section.words and not deeper:
            out.add(section.tag)
    return out


# PROPERTY_EXAMPLES=2000 for a longer local run.
SETTINGS = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(documents(), st.integers(16, 1024), st.sampled_from(["words", "chars"]))
def test_packer_invariants(
    doc: tuple[str, list[GeneratedSection]], budget: int, tokenizer: str
) -> None:
    markdown, sections = doc
    if tokenizer == "chars":
        budget *= 6  # comparable chunk sizes
    options = ChunkOptions(max_tokens=budget, tokenizer=tokenizer)
    chunks = chunk_text(markdown, options=options)
    count = get_tokenizer(tokenizer).count

    # Budget: counted on the final text, prefix included.
    for chunk in chunks:
        assert chunk.n_tokens == count(chunk.text) <= budget

    # Nothing lost: every generated word appears in the bodies, in order.
    expected = [w for s in sections for w in s.words]
    produced = [w.strip(".!?:|`=*-") for c in chunks for w in c.body.split()]
    assert first_missing_word(expected, produced) is None

    # No chunk spans two sections, and each carries its section's heading path; a
    # heading with nothing under it is the body of a chunk under its parent's path.
    paths = expected_paths(sections)
    bare = bare_sections(sections)
    for chunk in chunks:
        paragraphs = chunk.body.split("\n\n")
        titles = [p for p in paragraphs if p.startswith("Title ")]
        for title in titles:  # a bare heading, under its parent's path
            assert title.split()[1] in bare
            assert paths[title.split()[1]][:-1] == chunk.heading_path
        tags = {
            w.lower().split("x")[0] + "x"
            for p in paragraphs
            if not p.startswith("Title ")
            for w in p.split()
            if w.lower().startswith("s") and "x" in w
        }
        assert len(tags) == (0 if len(titles) == len(paragraphs) else 1)
        if tags:
            assert chunk.heading_path == paths[tags.pop()]

    # Headings are text too: every title reaches a chunk's path or body.
    reached = {t for c in chunks for t in c.heading_path} | {
        t for c in chunks for t in c.body.split("\n\n")
    }
    assert all(s.title in reached for s in sections if s.level)

    # Deterministic: byte-identical output on a second run.
    again = chunk_text(markdown, options=options)
    assert [to_json_line(c) for c in again] == [to_json_line(c) for c in chunks]


@SETTINGS
@given(documents(), st.integers(24, 512))
def test_no_sentence_is_cut_when_every_sentence_fits(
    doc: tuple[str, list[GeneratedSection]], budget: int
) -> None:
    markdown, sections = doc
    chunks = chunk_text(markdown, max_tokens=budget)
    bodies = [c.body for c in chunks]
    for section in sections:
        for sentence in section.sentences:  # at most 6 words + a short prefix: always fits
            assert any(sentence in body for body in bodies), sentence
