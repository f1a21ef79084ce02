"""The hierarchical packer: budgets, natural joints, prefixes, merging and overlap."""

from __future__ import annotations

from pathlib import Path

import pytest

from structchunk import ChunkOptions, chunk_file, chunk_text
from structchunk.packing.prefix import ELLIPSIS, heading_prefix
from structchunk.tokenizers import count_words

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_the_24_hours_fact_stays_under_its_heading() -> None:
    chunks = chunk_file(SAMPLES / "api-keys.md", max_tokens=64)
    (chunk,) = [c for c in chunks if "keeps working for 24 hours" in c.text]
    assert chunk.heading_path == ["API keys", "Rotate a key"]
    assert chunk.text.startswith("API keys > Rotate a key\n\n")
    assert all(c.n_tokens <= 64 for c in chunks)


def test_a_section_that_fits_is_one_chunk() -> None:
    md = "# A\n\nOne. Two.\n\n- x\n- y\n\n| h |\n|---|\n| v |\n"
    (chunk,) = chunk_text(md, max_tokens=64)
    assert chunk.block_types == ["paragraph", "list", "table"]
    assert chunk.body == "One. Two.\n\n- x\n- y\n\n| h |\n|---|\n| v |"
    assert chunk.lines == [3, 10]


def test_chunks_never_span_two_sections() -> None:
    chunks = chunk_text("# A\n\nalpha\n\n## B\n\nbeta\n\n# C\n\ngamma\n", max_tokens=200)
    assert [(c.heading_path, c.body) for c in chunks] == [
        (["A"], "alpha"),
        (["A", "B"], "beta"),
        (["C"], "gamma"),
    ]


def test_blocks_are_packed_whole_and_cut_only_when_too_big_alone() -> None:
    para = " ".join(f"Sentence {i} has five words." for i in range(12))  # 60 words
    md = f"# T\n\n{para}\n\nShort closing paragraph here.\n"
    chunks = chunk_text(md, max_tokens=30)
    sentences = [f"Sentence {i} has five words." for i in range(12)]
    for sentence in sentences:  # every sentence whole in exactly one chunk
        assert sum(sentence in c.body for c in chunks) == 1
    assert chunks[-1].body.endswith("Short closing paragraph here.")
    assert all(c.n_tokens <= 30 for c in chunks)


def test_a_giant_sentence_is_cut_between_words_then_a_giant_word_by_characters() -> None:
    words = " ".join(f"w{i}" for i in range(100))
    chunks = chunk_text(f"# T\n\n{words}\n", max_tokens=20)
    assert " ".join(c.body for c in chunks).split() == words.split()
    giant = "x" * 500
    chunks = chunk_text(f"# T\n\n{giant}\n", max_tokens=40, tokenizer="chars")
    assert "".join(c.body for c in chunks) == giant
    assert all(c.n_tokens <= 40 for c in chunks)


def test_a_table_that_does_not_fit_is_split_between_rows_with_the_header_repeated() -> None:
    rows = "".join(f"| key{i} | value {i} |\n" for i in range(1, 31))
    md = f"# T\n\nIntro.\n\n| Key | Value |\n|---|---|\n{rows}"
    chunks = [c for c in chunk_text(md, max_tokens=60) if "table" in c.block_types]
    assert len(chunks) > 1
    seen = []
    for chunk in chunks:
        lines = chunk.body.split("\n")
        lines = lines[lines.index("| Key | Value |") :]  # the first piece follows "Intro."
        assert lines[:2] == ["| Key | Value |", "|---|---|"]
        seen += [line for line in lines[2:]]
        first, last, total = chunk.table_rows or (0, 0, 0)
        assert total == 30 and lines[2] == f"| key{first} | value {first} |"
        assert lines[-1] == f"| key{last} | value {last} |"
    assert seen == [f"| key{i} | value {i} |" for i in range(1, 31)]


def test_a_table_that_fits_is_never_split() -> None:
    rows = "".join(f"| k{i} | v{i} |\n" for i in range(10))
    chunks = chunk_text(f"# T\n\nLead paragraph.\n\n| K | V |\n|---|---|\n{rows}", max_tokens=60)
    tables = [c for c in chunks if "table" in c.block_types]
    assert len(tables) == 1 and tables[0].table_rows is None
    assert tables[0].body.count("| k") == 10


def test_code_is_split_between_lines_blank_lines_first_and_stays_fenced() -> None:
    block_a = "\n".join(f"a{i} = {i}" for i in range(8))
    block_b = "\n".join(f"b{i} = {i}" for i in range(8))
    md = f"# T\n\n```python\n{block_a}\n\n{block_b}\n```\n"
    chunks = chunk_text(md, max_tokens=40)
    assert len(chunks) == 2
    assert chunks[0].body == f"```python\n{block_a}\n```"
    assert chunks[1].body == f"```python\n{block_b}\n```"


def test_a_list_is_split_between_items_keeping_markers_and_indentation() -> None:
    items = "".join(f"- item {i} has some words\n  - nested {i}\n" for i in range(10))
    chunks = chunk_text(f"# T\n\n{items}", max_tokens=30)
    lines = [line for c in chunks for line in c.body.split("\n")]
    expected = [(f"- item {i} has some words", f"  - nested {i}") for i in range(10)]
    assert lines == [line for pair in expected for line in pair]
    assert all(c.body.startswith("- item") for c in chunks)  # cuts prefer top-level items


def test_a_long_heading_path_is_shortened_in_the_prefix_only() -> None:
    titles = [f"Level {i} title with quite a few words in it" for i in range(1, 7)]
    md = "".join(f"{'#' * i} {t}\n\n" for i, t in enumerate(titles, start=1)) + "Body text.\n"
    (chunk,) = chunk_text(md, max_tokens=24)
    assert chunk.heading_path == titles
    assert ELLIPSIS in chunk.text.split("\n\n")[0]
    assert chunk.body == "Body text." and chunk.n_tokens <= 24


def test_heading_prefix_candidates() -> None:
    path = ["Root", "Middle one", "Middle two", "Leaf"]
    assert heading_prefix(path, 100, count_words) == (
        "Root > Middle one > Middle two > Leaf",
        False,
    )
    assert heading_prefix(path, 6, count_words) == (f"Root > {ELLIPSIS} > Leaf", True)
    assert heading_prefix(["a b c d e f g h"], 4, count_words) == (f"a b c{ELLIPSIS}", True)
    assert heading_prefix([], 4, count_words) == ("", False)


def test_no_heading_prefix_option() -> None:
    (chunk,) = chunk_text("# A\n\nbody\n", heading_prefix=False)
    assert chunk.text == "body" and chunk.heading_path == ["A"]


def test_min_tokens_merges_tiny_chunks_into_a_neighbour_when_they_fit() -> None:
    md = "# A\n\nFirst short paragraph.\n\n```\n" + "\n".join(["code line"] * 14) + "\n```\n"
    plain = chunk_text(md, max_tokens=32)
    assert [c.n_tokens for c in plain] == [4, 31]  # the code (30 words) fits only alone
    merged = chunk_text(md, max_tokens=40, min_tokens=8)
    assert len(merged) == 1


def test_min_tokens_rebalances_a_tiny_tail_with_the_chunk_before_it() -> None:
    para = " ".join(f"Sentence {i} has five words." for i in range(7))  # 35 words
    plain = chunk_text(f"# T\n\n{para}\n\n# U\n\nOther tiny.\n", max_tokens=32)
    assert [c.n_tokens for c in plain] == [31, 6, 3]
    balanced = chunk_text(f"# T\n\n{para}\n\n# U\n\nOther tiny.\n", max_tokens=32, min_tokens=8)
    assert [c.n_tokens for c in balanced] == [26, 11, 3]  # never across sections
    assert " ".join(c.body for c in balanced[:2]) == para


def test_overlap_repeats_whole_trailing_sentences_within_the_section() -> None:
    sentences = [f"Sentence number {i} is here." for i in range(20)]
    chunks = chunk_text(
        "# T\n\n" + " ".join(sentences) + "\n\n# U\n\nNext section.\n",
        max_tokens=40,
        overlap_tokens=10,
    )
    in_t = [c for c in chunks if c.heading_path == ["T"]]
    assert len(in_t) > 2
    for previous, current in zip(in_t, in_t[1:]):
        overlap = [s for s in sentences if s in previous.body and s in current.body]
        assert overlap, "each chunk after the first starts with the previous chunk's tail"
        assert previous.body.endswith(overlap[-1]) and current.body.startswith(overlap[0])
        assert sum(len(s.split()) for s in overlap) <= 10
    assert all(c.n_tokens <= 40 for c in chunks)
    assert chunks[-1].body == "Next section."


def test_strict_mode_passes_on_real_documents() -> None:
    chunks = chunk_file(SAMPLES / "rust-data-types.md", max_tokens=48)
    assert chunks
    from structchunk.api import iter_chunks_from_bytes

    data = (SAMPLES / "rust-data-types.md").read_bytes()
    strict = list(
        iter_chunks_from_bytes(data, "x.md", None, ChunkOptions(max_tokens=48), strict=True)
    )
    assert [c.text for c in strict] == [c.text for c in chunks]


@pytest.mark.parametrize("tokenizer", ["words", "chars"])
def test_callable_and_named_tokenizers_are_recorded(tokenizer: str) -> None:
    (chunk,) = chunk_text("# A\n\nsome body text\n", tokenizer=tokenizer, max_tokens=64)
    assert chunk.tokenizer == tokenizer


def test_a_callable_tokenizer_counts_the_final_text() -> None:
    def vowels(text: str) -> int:
        return sum(ch in "aeiou" for ch in text)

    chunks = chunk_text("# Heading\n\n" + "banana " * 60 + "\n", tokenizer=vowels, max_tokens=40)
    assert all(c.tokenizer == "callable:vowels" for c in chunks)
    assert all(c.n_tokens == vowels(c.text) <= 40 for c in chunks)


def test_sentence_boundary_without_whitespace_never_splits_a_word() -> None:
    from structchunk.packing.context import SplitContext
    from structchunk.tokenizers import get_tokenizer

    class GluedSpans:  # Punkt once returned a boundary inside "outage.*Thus"
        def spans(self, text: str) -> list[tuple[int, int]]:
            return [(0, 13), (13, 28), (29, 35)]

    ctx = SplitContext(get_tokenizer("words"), GluedSpans())  # type: ignore[arg-type]
    text = "multi outage.*Thus we do it. Again."
    assert ctx.sentences(text) == [("multi outage.*Thus we do it.", ""), ("Again.", " ")]


def test_a_lead_in_paragraph_stays_with_the_list_it_introduces() -> None:
    filler = " ".join(["filler"] * 20) + "."
    items = "".join(f"- reserved name {i}\n" for i in range(6))
    md = f"# T\n\n{filler}\n\nThe following names are reserved:\n\n{items}"
    chunks = chunk_text(md, max_tokens=40)
    (with_list,) = [c for c in chunks if "list" in c.block_types]
    assert with_list.body.startswith("The following names are reserved:\n\n- reserved name 0")
    assert chunks[0].body == filler


def test_a_long_paragraph_ending_in_a_colon_stays_with_its_list() -> None:
    """The SRE book's "…across servers. You might:" ended a paragraph of 78 words, too
    long to count as a lead-in then, so it ended the chunk before its list."""
    opening = " ".join(["opening"] * 50) + "."
    intro = " ".join(["supply"] * 41) + ". Those factors include such things as:"
    items = "".join(f"- factor {i}\n" for i in range(8))
    md = f"# Risks\n\n{opening}\n\n{intro}\n\n{items}"
    chunks = chunk_text(md, max_tokens=100)
    (with_list,) = [c for c in chunks if "list" in c.block_types]
    assert with_list.body.startswith(intro)
    assert chunks[0].body == opening


@pytest.mark.parametrize("repeat", [True, False])
def test_a_list_that_cannot_join_its_lead_in_repeats_the_lead_in_sentence(repeat: bool) -> None:
    """AWS's "We also recommend that you secure your data in the following ways:" closes a
    paragraph that fits, so it is not cut for the list, and the list does not fit after
    it: the list's chunk began with "+ Use multi-factor authentication" — recommended
    for what? Its chunk now starts with the sentence again."""
    intro = " ".join(["context"] * 30) + ". We recommend the following ways:"
    items = "".join(f"- way {i} to secure data\n" for i in range(8))
    md = f"# Protect data\n\n{intro}\n\n{items}"
    chunks = chunk_text(md, max_tokens=60, repeat_lead_ins=repeat, strict=True)
    assert [c.block_types for c in chunks] == [["paragraph"], ["list"]]
    assert chunks[0].body == intro
    lead = "We recommend the following ways:\n\n" if repeat else ""
    assert chunks[1].body == lead + items.rstrip("\n")
    assert chunks[1].lines == [5, 12]  # the list's own lines; offsets find the sentence too
    covered = [md[a:b] for a, b in chunks[1].offsets or []]
    assert covered[0].startswith("We recommend" if repeat else "way 0")


@pytest.mark.parametrize("fence", [False, True])
def test_a_lead_in_starts_the_chunk_of_the_split_table_or_code_it_introduces(
    fence: bool,
) -> None:
    """Before: the first piece of a split table was filled to the budget, so the lead-in
    could not join it and ended the chunk before, apart from what it introduces
    (Microsoft's 10-Q: "Revenue, classified by significant product and service
    offerings, was as follows:" at the end of the geographic table's chunk)."""
    filler = " ".join(["filler"] * 20) + "."
    if fence:
        block = "```\n" + "".join(f"call step {i} now\n" for i in range(30)) + "```\n"
    else:
        block = "| Name | Value |\n|---|---|\n" + "".join(f"| row {i} | {i} |\n" for i in range(30))
    md = f"# T\n\n{filler}\n\nRevenue by offering was as follows:\n\n{block}"
    chunks = chunk_text(md, max_tokens=60)
    kind = "code" if fence else "table"
    first = next(c for c in chunks if kind in c.block_types)
    assert first.body.startswith("Revenue by offering was as follows:\n\n")
    assert chunks[0].body == filler
    assert all(len(c.text.split()) <= 60 for c in chunks)


@pytest.mark.parametrize("split", [False, True])
def test_labels_over_a_table_start_its_chunk(split: bool) -> None:
    """Agency plans set `Performance Indicators` and each indicator's name (`LTPG 8.4.2
    FOIA Backlog`) as lines over its table; when the table did not fit after them, the
    names ended the chunk before and the table's chunk did not say what it measures."""
    filler = " ".join(["filler"] * 30) + "."
    rows = 30 if split else 3
    table = "| Description | Target |\n|---|---|\n" + "".join(
        f"| row {i} | {i} |\n" for i in range(rows)
    )
    md = f"# T\n\n{filler}\n\nPerformance Indicators\n\nLTPG 8.4.2 FOIA Backlog\n\n{table}"
    chunks = chunk_text(md, max_tokens=45)
    first = next(c for c in chunks if "table" in c.block_types)
    assert first.body.startswith("Performance Indicators\n\nLTPG 8.4.2 FOIA Backlog\n\n|")
    assert chunks[0].body == filler
    assert all(len(c.text.split()) <= 45 for c in chunks)


def test_strict_names_a_heading_that_reached_no_chunk() -> None:
    import dataclasses

    from structchunk.document import Document, Section
    from structchunk.errors import BudgetError
    from structchunk.packing import Packer
    from structchunk.packing.audit import audit_headings

    root = Section("", 0, children=[Section("Kept", 1, path=("Kept",)), Section("Gone", 1)])
    packed = list(Packer(ChunkOptions()).pack(Document(root, "markdown")))
    audit_headings(root, packed)  # both reach the chunk of bare headings
    with pytest.raises(BudgetError, match="heading lost while packing: 'Gone'"):
        audit_headings(root, [dataclasses.replace(packed[0], body="Kept")])


def test_strict_accepts_a_first_heading_that_repeats_the_title_in_other_case() -> None:
    # The builder folds "# GUIDE BOOK" into the title "Guide Book"; the audit looked for
    # the heading's exact text in the paths and raised "heading lost" (found on a real
    # EPUB whose title page repeats the book title in title case).
    md = "---\ntitle: Guide Book\n---\n\n# GUIDE  BOOK\n\n## Next\n\ntext here\n"
    chunks = chunk_text(md, strict=True)
    assert [(c.heading_path, c.body) for c in chunks] == [(["Guide Book", "Next"], "text here")]
