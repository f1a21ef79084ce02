"""Parent records (small-to-big): the parent rule's invariants over generated Markdown,
and the records with parents off exactly as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import SHARED_CORPUS, corpus_files
from hypothesis import given
from hypothesis import strategies as st
from test_properties import SETTINGS, documents

from structchunk import ChunkOptions
from structchunk.api import iter_records_from_bytes
from structchunk.parsers import detect_format
from structchunk.records import Chunk, Parent, to_json_line
from structchunk.tokenizers import get_tokenizer

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "api-keys.md"


def _records(text: str, options: ChunkOptions) -> tuple[list[Chunk], list[Parent]]:
    records = list(iter_records_from_bytes(text.encode(), "doc.md", "markdown", options))
    chunks = [r for r in records if isinstance(r, Chunk)]
    parents = [r for r in records if isinstance(r, Parent)]
    return chunks, parents


def _in_order(needles: list[str], haystack: list[str]) -> bool:
    """Whether `needles` appear in `haystack` in order (not necessarily adjacent)."""
    words = iter(haystack)
    return all(any(word == needle for word in words) for needle in needles)


@SETTINGS
@given(
    documents(),
    st.integers(16, 256),
    st.sampled_from([0, 4]),
    st.integers(1, 5),
    st.sampled_from(["words", "chars"]),
    st.booleans(),
)
def test_every_chunk_lies_in_exactly_one_parent_within_its_budget(
    doc: tuple[str, object],
    max_tokens: int,
    overlap: int,
    factor: int,
    tokenizer: str,
    lead_ins: bool,
) -> None:
    text, _ = doc
    limit = max_tokens * factor
    options = ChunkOptions(
        max_tokens=max_tokens,
        overlap_tokens=min(overlap, max_tokens // 2),
        tokenizer=tokenizer,
        repeat_lead_ins=lead_ins,
        parents=True,
        parent_max_tokens=limit,
    )
    chunks, parents = _records(text, options)
    count = get_tokenizer(tokenizer).count
    # every chunk in exactly one parent, parents holding consecutive chunks in order
    assert [cid for parent in parents for cid in parent.chunk_ids] == [c.id for c in chunks]
    by_id = {parent.id: parent for parent in parents}
    assert len(by_id) == len(parents)
    for chunk in chunks:
        assert chunk.parent_id is not None
        parent = by_id[chunk.parent_id]
        assert chunk.id in parent.chunk_ids
        # within its budget, counted on the final text
        assert parent.n_tokens == count(parent.text) <= limit
        assert parent.text.endswith(parent.body)
        # under the chunk's section, never across two top-level sections
        assert chunk.heading_path[: len(parent.heading_path)] == parent.heading_path
        assert len(parent.heading_path) >= min(len(chunk.heading_path), 1)
        # the chunk's text without its prefix lies inside the parent's: by offsets …
        if chunk.offsets:  # (none where a chunk's words are cut inside source words)
            assert parent.offsets
            (start, end) = parent.offsets[0]
            assert all(start <= s and e <= end for s, e in chunk.offsets)
        # … and its text too: exactly, where it repeats nothing of the chunk before …
        if not (overlap or lead_ins):
            assert chunk.body in parent.body
        # … else its characters, in order (a chars budget cuts inside words)
        assert _in_order(list("".join(chunk.body.split())), list("".join(parent.body.split())))


@SETTINGS
@given(documents(), st.integers(16, 256))
def test_parents_change_nothing_in_the_chunks(doc: tuple[str, object], max_tokens: int) -> None:
    text, _ = doc
    off = ChunkOptions(max_tokens=max_tokens)
    chunks, parents = _records(text, off)
    assert parents == []
    lines = [to_json_line(chunk) for chunk in chunks]
    assert all('"parent_id"' not in line for line in lines)
    with_parents, _ = _records(text, off.model_copy(update={"parents": True}))
    assert [c.model_copy(update={"parent_id": None}) for c in with_parents] == chunks


def test_a_section_that_fits_is_one_parent_with_its_sub_sections() -> None:
    text = (
        "# A\n\nOne two three.\n\n## B\n\nFour five six.\n\n## C\n\nSeven eight.\n\n# D\n\nNine.\n"
    )
    chunks, parents = _records(text, ChunkOptions(max_tokens=8, parents=True))
    assert [p.heading_path for p in parents] == [["A"], ["D"]]
    assert parents[0].text == "A\n\nOne two three.\n\nB\n\nFour five six.\n\nC\n\nSeven eight."
    assert len(parents[0].chunk_ids) == 3
    assert parents[1].text == chunks[-1].text  # one chunk: the parent is its text


def test_a_section_too_large_is_cut_into_windows_at_block_boundaries() -> None:
    paragraphs = [" ".join(f"p{i}w{j}." for j in range(6)) for i in range(10)]
    text = "# A\n\n" + "\n\n".join(paragraphs) + "\n"
    options = ChunkOptions(max_tokens=10, parents=True, parent_max_tokens=20)
    chunks, parents = _records(text, options)
    assert len(parents) > 1
    assert all(p.n_tokens <= 20 for p in parents)
    for parent in parents:  # windows cut between whole paragraphs
        assert all(re.fullmatch(r"(p\d+w\d\. ?)+", part) for part in parent.body.split("\n\n"))
        assert parent.body.split("\n\n")[0].startswith(tuple(f"p{i}w0" for i in range(10)))


def test_parent_ids_are_content_addressed() -> None:
    """An edit in one top-level section leaves the other's parent id as it was."""
    base = "# A\n\nOne two three.\n\n# B\n\nFour five six.\n"
    edited = base.replace("One two", "One more two")
    _, before = _records(base, ChunkOptions(parents=True))
    _, after = _records(edited, ChunkOptions(parents=True))
    assert before[1].id == after[1].id
    assert before[0].id != after[0].id
    chunks, _ = _records(base, ChunkOptions(parents=True))
    assert not {p.id for p in before} & {c.id for c in chunks}


def test_parent_max_tokens_below_max_tokens_is_refused() -> None:
    with pytest.raises(ValueError, match="parent_max_tokens"):
        ChunkOptions(max_tokens=64, parent_max_tokens=32)
    assert ChunkOptions(max_tokens=64).parent_limit == 256


def _check(chunks: list[Chunk], parents: list[Parent], limit: int, tokenizer: str) -> None:
    """The invariants the property test holds, on real documents."""
    count = get_tokenizer(tokenizer).count
    assert [cid for parent in parents for cid in parent.chunk_ids] == [c.id for c in chunks]
    by_id = {parent.id: parent for parent in parents}
    for parent in parents:
        assert parent.n_tokens == count(parent.text) <= limit
    for chunk in chunks:
        parent = by_id[chunk.parent_id or ""]
        assert chunk.heading_path[: len(parent.heading_path)] == parent.heading_path
        if chunk.offsets:
            (start, end) = parent.offsets[0] if parent.offsets else (0, -1)
            assert all(start <= s and e <= end for s, e in chunk.offsets)


@pytest.mark.slow
@pytest.mark.skipif(SHARED_CORPUS is None, reason="the shared corpus is not here")
@pytest.mark.parametrize(("max_tokens", "overlap"), [(128, 0), (256, 32)])
def test_corpus_parents_hold_their_chunks_within_budget(max_tokens: int, overlap: int) -> None:
    """Every Markdown, text and HTML file of the corpus, with and without overlap."""
    files = [
        *corpus_files("markdown", "*.md"),
        *corpus_files("text", "*.txt"),
        *corpus_files("html", "*.html"),
    ]
    options = ChunkOptions(max_tokens=max_tokens, overlap_tokens=overlap, parents=True)
    for path in files:
        data = path.read_bytes()
        records = list(iter_records_from_bytes(data, str(path), detect_format(path.name), options))
        chunks = [r for r in records if isinstance(r, Chunk)]
        parents = [r for r in records if isinstance(r, Parent)]
        _check(chunks, parents, options.parent_limit, "words")


def test_the_command_line_writes_parents_before_their_chunks(tmp_path: Path) -> None:
    """And `inspect` reads such a file's chunks only (before: parents read as chunks)."""
    from click.testing import CliRunner

    from structchunk.cli import cli

    out = tmp_path / "c.jsonl"
    converted = CliRunner().invoke(cli, ["convert", str(SAMPLE), "--parents", "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith('{"record":"parent"')
    records = [json.loads(line) for line in lines]
    parents = [r for r in records if r.get("record") == "parent"]
    assert all(
        r["parent_id"] in {p["id"] for p in parents}
        for r in records
        if "id" in r and "record" not in r
    )
    inspected = CliRunner().invoke(cli, ["inspect", str(out), "--json"])
    assert json.loads(inspected.stdout)["documents"][0]["chunks"] == len(records) - len(parents)
    schema = CliRunner().invoke(cli, ["schema", "--record", "parent"])
    assert json.loads(schema.stdout)["properties"]["record"]["const"] == "parent"


def test_a_long_markdown_packed_as_it_is_parsed_has_the_parents_of_the_whole_tree() -> None:
    """Long Markdown streams (its sections packed as they settle); `strict` parses it
    whole: the parents are the same."""
    from structchunk.parsers import markdown_pieces

    sections = []
    for i in range(400):
        sections.append(f"# Part {i}\n\nIntro {i} " + "word " * 30 + "\n")
        sections.append(f"## Detail {i}\n\n" + "More text here. " * 40 + "\n")
    text = "\n".join(sections)
    assert len(text) > markdown_pieces.DEFAULT_PIECE_CHARS
    options = ChunkOptions(max_tokens=64, parents=True)
    streamed = list(iter_records_from_bytes(text.encode(), "long.md", "markdown", options))
    whole = list(
        iter_records_from_bytes(text.encode(), "long.md", "markdown", options, strict=True)
    )
    assert streamed == whole
    assert sum(isinstance(r, Parent) for r in streamed) == 400  # one per top-level part
