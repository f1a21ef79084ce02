"""Long Markdown is packed as it is parsed, and gives exactly the chunks of the whole tree."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from structchunk import ChunkOptions
from structchunk.api import chunks_of_document, iter_chunks_from_bytes, parse_document
from structchunk.document import Section
from structchunk.packing import outline
from structchunk.parsers import markdown_pieces

TITLES = st.text(alphabet="abc ", min_size=0, max_size=6)
PARAGRAPH = st.lists(st.sampled_from(["alpha", "beta", "gamma", "delta."]), min_size=1, max_size=30)
ELEMENT = st.one_of(
    st.tuples(st.just("heading"), st.integers(1, 6), TITLES),
    st.tuples(st.just("paragraph"), st.just(0), PARAGRAPH.map(" ".join)),
    st.tuples(st.just("list"), st.integers(1, 4), PARAGRAPH.map(" ".join)),
    st.tuples(st.just("code"), st.just(0), PARAGRAPH.map(" ".join)),
)


def markdown(elements: list[tuple[str, int, str]], front_matter: bool) -> str:
    """A document of headings (some with nothing under them, some empty), paragraphs,
    lists and code, every block after a blank line (so pieces can be cut anywhere)."""
    parts = ["---\ntitle: The title\n---\n"] if front_matter else []
    for kind, number, text in elements:
        if kind == "heading":
            parts.append(f"{'#' * number} {text}")
        elif kind == "paragraph":
            parts.append(text)
        elif kind == "list":
            parts.append("\n".join(f"- {text} {at}" for at in range(number)))
        else:
            parts.append(f"```\n{text}\n```")
    return "\n\n".join(parts) + "\n"


def both_ways(text: str, options: ChunkOptions) -> tuple[list[str], list[str]]:
    data = text.encode("utf-8")
    streamed = [
        c.model_dump_json() for c in iter_chunks_from_bytes(data, "d.md", "markdown", options)
    ]
    document = parse_document(data, "d.md", "markdown", options)
    whole = [c.model_dump_json() for c in chunks_of_document(document, data, "d.md", options)]
    return streamed, whole


@settings(max_examples=300, deadline=None)
@given(
    st.lists(ELEMENT, min_size=1, max_size=40),
    st.booleans(),
    st.integers(1, 120),
    st.sampled_from([12, 40, 256]),
)
def test_streamed_chunks_are_the_whole_trees(
    elements: list[tuple[str, int, str]], front_matter: bool, piece_chars: int, budget: int
) -> None:
    """Whatever the headings' levels, bare or empty headings, and wherever the pieces
    are cut, packing each piece's settled sections as they come gives the same records,
    in the same order, as packing the finished tree."""
    text = markdown(elements, front_matter)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(markdown_pieces, "DEFAULT_PIECE_CHARS", piece_chars)
        streamed, whole = both_ways(text, ChunkOptions(max_tokens=budget))
    assert streamed == whole


def test_a_long_document_is_streamed_and_strict_reads_it_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the size, sections are packed piece by piece (the stream is asked after each
    piece); under `strict`, whose heading audit needs the whole tree, they are not."""
    text = "".join(f"# Part {at}\n\nWords of part {at}.\n\n## Sub\n\nMore.\n\n" for at in range(50))
    monkeypatch.setattr(markdown_pieces, "DEFAULT_PIECE_CHARS", 100)
    asked: list[int] = []
    ready = outline.OutlineStream.ready

    def counted(stream: outline.OutlineStream, open_path: list[Section]) -> Iterator[Section]:
        asked.append(len(open_path))
        return ready(stream, open_path)

    monkeypatch.setattr(outline.OutlineStream, "ready", counted)
    streamed, whole = both_ways(text, ChunkOptions(max_tokens=32))
    assert streamed == whole and len(asked) > 10
    asked.clear()
    strict, _ = both_ways(text, ChunkOptions(max_tokens=32, strict=True))
    assert strict == whole and not asked
