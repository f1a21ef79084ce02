"""`structchunk inspect`: each flag on hand-made chunks, the summary numbers, the CLI
(tables, --show, --json, --fail-on, --compare with another tool's JSONL)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from structchunk import chunk_text
from structchunk.cli.inspect import EXIT_FLAGGED, inspect_command
from structchunk.quality.flags import (
    FLAGS,
    FlagRules,
    cut_mid_sentence,
    ends_at_boundary,
    flag_chunks,
    prefix_shortened,
    table_split,
)
from structchunk.quality.inspection import inspect_documents
from structchunk.quality.summary import TokenStats, summarize, summarize_total
from structchunk.quality.views import (
    ChunkView,
    DocumentChunks,
    read_chunk_file,
    view_of_chunk,
    view_of_record,
)
from structchunk.tokenizers import count_words

RULES = FlagRules(budget=50)


def ours(
    text: str,
    path: tuple[str, ...] = ("Guide",),
    index: int = 0,
    lines: tuple[int, int] | None = None,
    **fields: Any,
) -> ChunkView:
    """A structchunk record as inspect sees it: prefix + blank line + body."""
    prefix = " > ".join(path)
    full = f"{prefix}\n\n{text}" if path else text
    values: dict[str, Any] = {
        "source": "doc.md",
        "index": index,
        "text": full,
        "body": text,
        "heading_path": path,
        "n_tokens": count_words(full),
        "lines": lines,
    }
    values.update(fields)
    return ChunkView(**values)


def foreign(text: str, index: int = 0) -> ChunkView:
    """Another tool's record: text only, no body, no recorded headings."""
    return ChunkView(
        source="doc.md",
        index=index,
        text=text,
        body=None,
        heading_path=(),
        n_tokens=count_words(text),
        headings_recorded=False,
    )


def flags_of(chunks: list[ChunkView], rules: FlagRules = RULES) -> list[tuple[str, ...]]:
    return [tuple(f) for f in flag_chunks(chunks, rules)]


# -- CUT_MID_SENTENCE ------------------------------------------------------------------


def test_a_chunk_ending_inside_a_sentence_is_cut_mid_sentence() -> None:
    first = ours("It was the best of times, it was the worst of")
    second = ours("times, it was the age of wisdom.", index=1)
    assert flags_of([first, second]) == [("CUT_MID_SENTENCE",), ()]


@pytest.mark.parametrize(
    "ending",
    [
        "The key keeps working for 24 hours.",
        "Is it safe?",
        "Rotate the key as follows:",
        'He said "rotate it."',
        "Deploy it. 🎉",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "```python\nprint(1)\n```",
        "(see the appendix)",
    ],
)
def test_clean_endings_are_not_cuts(ending: str) -> None:
    assert ends_at_boundary(ending)
    assert not cut_mid_sentence(ours(ending), ours("Next sentence here.", index=1))


def test_the_last_chunk_and_a_section_end_are_never_cuts() -> None:
    unfinished = ours("A paragraph without a full stop")
    assert not cut_mid_sentence(unfinished, None)
    other_section = ours("Next section.", path=("Guide", "Other"), index=1)
    assert not cut_mid_sentence(unfinished, other_section)


def test_source_lines_tell_a_block_boundary_from_a_cut() -> None:
    title_like = ours("To delete a tag", lines=(3, 3))
    next_block = ours("Open the console.", lines=(5, 6), index=1)
    assert not cut_mid_sentence(title_like, next_block)
    same_block = ours("Open the console.", lines=(3, 4), index=1)
    assert cut_mid_sentence(title_like, same_block)


def test_a_list_item_is_a_boundary_when_the_next_chunk_starts_a_new_item() -> None:
    item = foreign("Steps:\n\n- open the console")
    assert not cut_mid_sentence(item, foreign("- choose a key", index=1))
    assert cut_mid_sentence(item, foreign("and then choose a key", index=1))


# -- NO_HEADING -------------------------------------------------------------------------


def test_no_heading_only_where_the_document_has_headings() -> None:
    preamble = ours("Text before the first heading of this document.", path=())
    section = ours("Text under a heading, long enough to count.", index=1)
    assert flags_of([preamble, section]) == [("NO_HEADING",), ()]
    flat = [
        foreign("A document without any heading at all, from start to end."),
        foreign("Its second chunk has no heading either, like the first.", index=1),
    ]
    assert flags_of(flat) == [(), ()]


def test_a_markdown_heading_line_counts_as_a_heading_for_other_tools() -> None:
    records = [
        {"page_content": "## Install\n\nRun the installer and wait until it is done."},
        {"page_content": "Then restart the machine and log in as yourself."},
    ]
    chunks = [view_of_record(r, "doc.md", i, count_words, "words") for i, r in enumerate(records)]
    assert chunks[0].heading_path == ("Install",) and not chunks[0].headings_recorded
    assert flags_of(chunks) == [(), ("NO_HEADING",)]


# -- TOO_SMALL / TOO_LARGE ---------------------------------------------------------------


def test_too_small_under_eight_words_or_min_tokens() -> None:
    assert flags_of([foreign("Just five words here now.")]) == [("TOO_SMALL",)]
    eight = foreign("one two three four five six seven eight.")
    assert flags_of([eight]) == [()]
    assert flags_of([eight], FlagRules(budget=50, min_tokens=9)) == [("TOO_SMALL",)]


def test_too_large_above_the_budget_only() -> None:
    text = " ".join(["word"] * 49) + "."
    assert flags_of([foreign(text)], FlagRules(budget=50)) == [()]
    assert flags_of([foreign(text)], FlagRules(budget=49)) == [()]
    assert flags_of([foreign(text)], FlagRules(budget=48)) == [("TOO_LARGE",)]


# -- TABLE_SPLIT ------------------------------------------------------------------------


def test_table_split_from_our_records() -> None:
    piece = ours("| a | b |\n|---|---|\n| 1 | 2 |", table_rows=(1, 1, 2))
    whole = ours("| a | b |\n|---|---|\n| 1 | 2 |", index=1)
    assert table_split(piece, None, None)
    assert not table_split(whole, None, None)


def test_table_split_guessed_for_other_tools() -> None:
    head = foreign("| a | b |\n|---|---|\n| 1 | 2 |")
    rest = foreign("| 3 | 4 |\n| 5 | 6 |", index=1)
    assert flags_of([head, rest]) == [("TABLE_SPLIT",), ("TABLE_SPLIT",)]
    new_table = foreign("| x | y |\n|---|---|\n| 7 | 8 |", index=1)
    assert not table_split(head, None, new_table)
    cut_row = foreign("| a | b |\n|---|---|\n| 1 | 2 |\n| 3")
    assert table_split(cut_row, None, foreign("| 4 |\n| 5 | 6 |", index=1))


# -- PREFIX_SHORTENED -------------------------------------------------------------------


def test_prefix_shortened_when_the_text_lacks_the_full_path() -> None:
    path = ("Guide", "Keys", "Rotation")
    short = ChunkView(
        source="d",
        index=0,
        text="Guide > … > Rotation\n\nBody.",
        body="Body.",
        heading_path=path,
        n_tokens=5,
    )
    full = ChunkView(
        source="d",
        index=0,
        text="Guide > Keys > Rotation\n\nBody.",
        body="Body.",
        heading_path=path,
        n_tokens=6,
    )
    unprefixed = ChunkView(
        source="d", index=0, text="Body.", body="Body.", heading_path=path, n_tokens=1
    )
    assert prefix_shortened(short)
    assert not prefix_shortened(full)
    assert not prefix_shortened(unprefixed)  # --no-heading-prefix output


def test_our_packer_output_is_flagged_for_a_shortened_prefix() -> None:
    titles = [f"Level {n} heading with several words in it" for n in range(1, 5)]
    markdown = "".join(f"{'#' * n} {t}\n\n" for n, t in enumerate(titles, 1)) + "Body text.\n"
    chunks = [view_of_chunk(c) for c in chunk_text(markdown, max_tokens=40)]
    assert ["PREFIX_SHORTENED" in f for f in flag_chunks(chunks, FlagRules(40))] == [True]


# -- summaries --------------------------------------------------------------------------


def test_summary_numbers() -> None:
    summary = summarize(
        "a.md", [40, 10, 30, 20], [("TOO_SMALL",), (), ("TOO_SMALL", "NO_HEADING"), ()]
    )
    assert summary.tokens == TokenStats(min=10, median=30, p95=40, max=40)
    assert summary.flags["TOO_SMALL"] == 2 and summary.share("TOO_SMALL") == 0.5
    assert summary.flags["NO_HEADING"] == 1 and summary.share("TOO_LARGE") == 0.0
    total = summarize_total([[40, 10], [30, 20, 5]], [[(), ()], [("TOO_SMALL",), (), ()]])
    assert total.chunks == 5 and total.tokens == TokenStats(5, 20, 40, 40)
    assert total.share("TOO_SMALL") == pytest.approx(0.2)
    assert set(total.to_json()["flags"]) == set(FLAGS)


def test_a_document_and_its_jsonl_get_the_same_flags(tmp_path: Path) -> None:
    markdown = Path(__file__).parent.parent / "samples" / "rust-data-types.md"
    chunks = chunk_text(markdown.read_text(encoding="utf-8"), max_tokens=40, source="r.md")
    jsonl = tmp_path / "r.jsonl"
    jsonl.write_text("".join(c.model_dump_json() + "\n" for c in chunks), encoding="utf-8")
    direct = inspect_documents(
        [DocumentChunks("r.md", [view_of_chunk(c) for c in chunks])], FlagRules(40), "words"
    )
    read = inspect_documents(read_chunk_file(jsonl, count_words, "words"), FlagRules(40), "words")
    assert direct.total.flags == read.total.flags
    assert direct.total.flags["TABLE_SPLIT"] > 0  # the sample's tables do not fit in 40 words


# -- the command line -------------------------------------------------------------------


@click.group()
def structchunk() -> None:
    """A group like the real one, for commands cli.py does not register yet."""


structchunk.add_command(inspect_command)

SMALL_TABLE = (
    "# Sizes\n\nThe table lists every size we sell today.\n\n"
    "| size | price |\n|---|---|\n" + "".join(f"| s{n} | {n} euros |\n" for n in range(12))
)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(structchunk, ["inspect", *args], catch_exceptions=False)


@pytest.fixture
def table_doc(tmp_path: Path) -> Path:
    path = tmp_path / "sizes.md"
    path.write_text(SMALL_TABLE, encoding="utf-8")
    return path


def test_summary_table_and_show(table_doc: Path) -> None:
    result = invoke(str(table_doc), "--max-tokens", "20", "--show", "1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "budget 20 words" in lines[0]
    assert "TABLE_SPLIT" in lines[1] and lines[3].startswith(str(table_doc))
    assert any(line.startswith("TOTAL (1 document)") for line in lines)
    assert "first 1 flagged chunk:" in result.output and "[TABLE_SPLIT]" in result.output


def test_fail_on_gives_exit_code_3_only_when_the_flag_occurs(table_doc: Path) -> None:
    assert (
        invoke(str(table_doc), "--max-tokens", "20", "--fail-on", "TABLE_SPLIT").exit_code
        == EXIT_FLAGGED
        == 3
    )
    assert (
        invoke(str(table_doc), "--max-tokens", "20", "--fail-on", "too_large,NO_HEADING").exit_code
        == 0
    )
    assert invoke(str(table_doc), "--max-tokens", "200", "--fail-on", "TABLE_SPLIT").exit_code == 0
    bad = invoke(str(table_doc), "--fail-on", "SPLIT_TABLE")
    assert bad.exit_code == 2 and "unknown flag SPLIT_TABLE" in bad.output


def test_json_output_shape(table_doc: Path) -> None:
    result = invoke(
        str(table_doc), "--max-tokens", "20", "--json", "--show", "2", "--fail-on", "TABLE_SPLIT"
    )
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert data["budget"] == 20 and data["tokenizer"] == "words"
    (document,) = data["documents"]
    assert document["source"] == str(table_doc)
    assert set(document["tokens"]) == {"min", "median", "p95", "max"}
    pieces = document["chunks"] - 1  # the first chunk is the intro sentence
    assert data["total"]["flags"]["TABLE_SPLIT"]["count"] == pieces
    assert data["total"]["flags"]["TABLE_SPLIT"]["share"] == round(pieces / (pieces + 1), 6)
    assert len(data["flagged"]) == 2 and data["flagged"][0]["lines"]
    assert data["fail_on"] == {"flags": ["TABLE_SPLIT"], "occurring": ["TABLE_SPLIT"]}
    assert data["compare"] is None and data["failures"] == []


def test_compare_with_another_tools_jsonl(table_doc: Path, tmp_path: Path) -> None:
    text = SMALL_TABLE
    other = tmp_path / "langchain.jsonl"
    with other.open("w", encoding="utf-8") as handle:
        for start in range(0, len(text), 60):
            handle.write(
                json.dumps(
                    {"page_content": text[start : start + 60], "metadata": {"source": "sizes.md"}}
                )
                + "\n"
            )
    result = invoke(str(table_doc), "--max-tokens", "20", "--compare", str(other))
    assert result.exit_code == 0, result.output
    table = result.output.split("compare: budget 20 words\n")[1].splitlines()
    assert table[0].split() == ["structchunk", "langchain.jsonl"]
    rows = {line.split()[0]: line.split()[1:] for line in table[2:]}
    assert rows["documents"] == ["1", "1"]
    assert rows["chunks"][1] == str(-(-len(text) // 60))
    assert rows["CUT_MID_SENTENCE"][0] == "0" and rows["CUT_MID_SENTENCE"][1] != "0"
    data = json.loads(
        invoke(str(table_doc), "--max-tokens", "20", "--compare", str(other), "--json").stdout
    )
    assert data["compare"]["label"] == "langchain.jsonl"
    assert data["compare"]["documents"][0]["source"] == "sizes.md"
    assert data["compare"]["total"]["flags"]["NO_HEADING"]["count"] > 0


def test_jsonl_inputs_are_grouped_by_document(tmp_path: Path) -> None:
    path = tmp_path / "other.jsonl"
    records = [
        {"content": "First chunk of the first document, long enough.", "doc": "a"},
        {"text": "First chunk of the second document, long enough.", "metadata": {"source": "b"}},
        {"content": "Second chunk of the first document, long enough.", "doc": "a"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    data = json.loads(invoke(str(path), "--budget", "30", "--json").stdout)
    assert [(d["source"], d["chunks"]) for d in data["documents"]] == [("a", 2), ("b", 1)]
    assert data["budget"] == 30


def test_a_bad_input_is_reported_and_the_rest_still_inspected(
    table_doc: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"text": "fine"}\n{"no_text": 1}\n', encoding="utf-8")
    result = CliRunner().invoke(
        structchunk, ["inspect", str(table_doc), str(broken), str(tmp_path / "missing.md")]
    )
    assert result.exit_code == 1
    assert "broken.jsonl: line 2: no chunk text" in result.stderr
    assert "missing.md: no such file" in result.stderr
    assert "TOTAL (1 document)" in result.stdout


OTHER_TOOLS = {
    # Unstructured's element JSON: one array, the file name in metadata
    "unstructured.json": json.dumps(
        [
            {"type": "Title", "text": "API keys", "metadata": {"filename": "api-keys.md"}},
            {
                "type": "NarrativeText",
                "text": "Every request to the service must carry an API key.",
                "metadata": {"filename": "api-keys.md", "page_number": 1},
            },
        ]
    ),
    # Docling's chunks: headings and the origin's file name under `meta`
    "docling.chunks.jsonl": json.dumps(
        {
            "text": "Every request to the service must carry an API key.",
            "meta": {"headings": ["API keys"], "origin": {"filename": "api-keys.md"}},
        }
    )
    + "\n",
    # LangChain documents: `page_content`, MarkdownHeaderTextSplitter's header keys
    "langchain.jsonl": json.dumps(
        {"page_content": "Every request must carry a key.", "metadata": {"Header 1": "API keys"}}
    )
    + "\n",
}


@pytest.mark.parametrize("name", sorted(OTHER_TOOLS))
def test_compare_reads_other_tools_chunk_files_as_they_write_them(
    name: str, tmp_path: Path
) -> None:
    """Before: a JSON array (Unstructured) was not a chunk file, and Docling's and
    Unstructured's file names were not read as the document's name."""
    path = tmp_path / name
    path.write_text(OTHER_TOOLS[name])
    documents = read_chunk_file(path, count_words, "words")
    assert [d.source for d in documents] in (["api-keys.md"], [str(path)])
    if name != "langchain.jsonl":
        assert [d.source for d in documents] == ["api-keys.md"]
    sample = Path(__file__).resolve().parent.parent / "samples" / "api-keys.md"
    result = invoke(str(sample), "--compare", str(path))
    assert result.exit_code == 0 and name in result.output


def test_a_json_file_that_is_not_an_array_of_chunks_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "chunks.json"
    path.write_text('{"text": "one object, not a list"}')
    result = subprocess_inspect("samples/api-keys.md", "--compare", str(path))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"structchunk: error: {path}: not a JSON array of chunks (or use JSONL, one per line)"
    )


def subprocess_inspect(*args: str) -> Any:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    return subprocess.run(
        [sys.executable, "-m", "structchunk", "inspect", *args],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
    )
