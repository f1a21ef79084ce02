"""Chunk offsets (structchunk/offsets/): the source text at a chunk's spans holds the
body's words in order, through markup, split tables, overlap and merging."""

from __future__ import annotations

import html
import re
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from structchunk import Chunk, chunk_file, chunk_text, decoded_source
from structchunk.offsets import Aligner, body_words, source
from structchunk.offsets import aligner as aligner_module
from structchunk.offsets.source import WORD, SourceWords, VisibleText


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _is_subsequence(needle: str, haystack: str) -> bool:
    rest = iter(haystack)
    return all(ch in rest for ch in needle)


def holds_its_words(chunk: Chunk, source: str) -> bool:
    """The body's source words, letter by letter, in order, in the text at its spans
    (HTML character references read: the span keeps `&eacute;` where the body has `é`)."""
    covered = "".join(source[start:end] for start, end in chunk.offsets or [])
    if chunk.format == "html":
        covered = html.unescape(covered)
    wanted = "".join(word.lower() for word in body_words(chunk.body))
    return _is_subsequence(wanted, _letters(covered))


def well_formed(chunk: Chunk, source: str) -> bool:
    spans = chunk.offsets or []
    inside = all(0 <= a < b <= len(source) for a, b in spans)
    ordered = all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    return inside and ordered


MARKDOWN = (
    """# Rotate a key

A _key_ keeps working for **24 hours** after [rotation](https://example.com/rotate).

| Setting | Default | Meaning |
|---|---|---|
"""
    + "".join(f"| option{n} | {n * 7} | what option {n} does to the key |\n" for n in range(40))
    + """
```python
rotate(key, grace="24h")
```

1. Create the new key.
2. Switch clients over.
"""
)


@pytest.mark.parametrize("overlap", [0, 12])
def test_markdown_offsets_hold_each_body(overlap: int) -> None:
    chunks = chunk_text(MARKDOWN, "markdown", max_tokens=60, overlap_tokens=overlap)
    assert any(c.table_rows for c in chunks[1:]), "the table must be split for this test"
    for chunk in chunks:
        assert chunk.offsets, chunk.body
        assert well_formed(chunk, MARKDOWN)
        assert holds_its_words(chunk, MARKDOWN), chunk.body
    first = chunks[0]
    assert MARKDOWN[first.offsets[0][0] :].startswith("A _key_ keeps working")


def test_a_split_table_piece_points_at_the_header_and_its_own_rows() -> None:
    chunks = chunk_text(MARKDOWN, "markdown", max_tokens=60)
    piece = next(c for c in chunks if c.table_rows and c.table_rows[0] > 1)
    texts = [MARKDOWN[a:b] for a, b in piece.offsets or []]
    assert texts[0].startswith("Setting | Default | Meaning")
    assert f"option{piece.table_rows[0] - 1} |" in texts[1]


def test_html_offsets_skip_markup_and_read_character_references() -> None:
    page = (
        "<html><head><title>T</title><style>p { key: rotate }</style></head><body>"
        "<h1>Rotate a key</h1><p>The <b>caf&eacute;</b> key keeps working.</p>"
        "<ol><li>Create it.</li><li>Switch.</li></ol><!-- rotate key --></body></html>"
    )
    chunks = chunk_text(page, "html", max_tokens=100)
    assert len(chunks) == 1
    chunk = chunks[0]
    assert holds_its_words(chunk, page)
    covered = [page[a:b] for a, b in chunk.offsets or []]
    assert covered[0].startswith("The")
    assert not any("style" in text or "<!--" in text for text in covered)


def test_a_repetitive_page_is_aligned_in_order() -> None:
    """Rows alike but for one word: the walk must not settle on the first row that
    agrees for a few words."""
    rows = "".join(f"| item | yes | yes | no | row {n} |\n" for n in range(300))
    text = "# Matrix\n\n| a | b | c | d | e |\n|---|---|---|---|---|\n" + rows
    chunks = chunk_text(text, "markdown", max_tokens=60)
    for chunk in chunks:
        assert holds_its_words(chunk, text)
        last_row = (chunk.table_rows or [0, 0])[1]
        assert text[: (chunk.offsets or [[0, 0]])[-1][1]].endswith(f"row {last_row - 1}")


def test_offsets_and_boxes_are_in_the_metadata() -> None:
    chunk = chunk_text(MARKDOWN, "markdown", max_tokens=60)[0]
    view = chunk.metadata()
    assert view["char_start"] == (chunk.offsets or [])[0][0]
    assert view["offsets"].startswith(f"{view['char_start']}-")  # type: ignore[union-attr]


_word = st.sampled_from(["key", "rotate", "the", "24", "hours", "café", "a", "grace", "x1"])
_paragraph = st.lists(_word, min_size=1, max_size=40).map(" ".join)
_block = st.one_of(
    _paragraph,
    _paragraph.map(lambda p: f"## {p[:30]}"),
    st.lists(_paragraph, min_size=1, max_size=4).map(lambda ps: "\n".join(f"- {p}" for p in ps)),
    _paragraph.map(lambda p: f"Some *{p}* and `{p[:10]}`."),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_block, min_size=1, max_size=12).map("\n\n".join),
    st.sampled_from([8, 20, 60]),
    st.sampled_from([0, 5]),
    st.sampled_from([0, 6]),
    st.sampled_from(["markdown", "text"]),
)
def test_every_chunk_holds_its_words(
    text: str, budget: int, overlap: int, smallest: int, fmt: str
) -> None:
    chunks = chunk_text(
        text,
        fmt,
        max_tokens=budget,
        overlap_tokens=min(overlap, budget // 2),
        min_tokens=min(smallest, budget - 1),
    )
    for chunk in chunks:
        assert well_formed(chunk, text)
        assert holds_its_words(chunk, text), (chunk.body, chunk.offsets)


CORPUS_SHARE = {"markdown": 0.001, "text": 0.001, "html": 0.025}
"""Chunks allowed to miss a word, per format (measured: Markdown 0 of 2 633, text 0;
HTML 14 of 836: runs of Chinese without spaces, which the page splits at other places
than the parser, and rows of tables a page prints twice — wide infobox tables whose
cells repeat names)."""


@pytest.mark.slow
@pytest.mark.skipif(SHARED_CORPUS is None, reason="needs ../shared/corpus")
@pytest.mark.parametrize(
    ("fmt", "pattern"),
    [("markdown", "markdown/**/*.md"), ("text", "text/**/*.txt"), ("html", "html/**/*.htm*")],
)
def test_corpus_offsets_hold_their_words(fmt: str, pattern: str) -> None:
    assert SHARED_CORPUS is not None
    total, missing = 0, []
    for path in sorted(SHARED_CORPUS.glob(pattern)):
        source = decoded_source(path.read_bytes(), fmt)
        for chunk in chunk_file(path, max_tokens=200):
            total += 1
            assert well_formed(chunk, source)
            if not holds_its_words(chunk, source):
                missing.append(f"{path.name}#{chunk.chunk_index}")
    assert total
    assert len(missing) <= CORPUS_SHARE[fmt] * total, missing


BOX_MARGIN = 0.6
"""Points a box may be off by: boxes are rounded to a tenth of a point, and a glyph's
box can overhang its line's by a hair."""


def printed_in_boxes(chunk: Chunk, pdf: Any) -> str:
    """The letters of the characters printed inside the chunk's boxes, box by box."""
    from pdfplumber.utils import extract_text

    out = []
    for page_number, x0, top, x1, bottom in chunk.boxes or []:
        chars = _page_chars(pdf, int(page_number))
        inside = [
            c
            for c in chars
            if x0 - BOX_MARGIN <= c["x0"]
            and c["x1"] <= x1 + BOX_MARGIN
            and top - BOX_MARGIN <= c["top"]
            and c["bottom"] <= bottom + BOX_MARGIN
        ]
        out.append(extract_text(inside))
    return _letters(unicodedata.normalize("NFKC", "".join(out)))


def _page_chars(pdf: Any, number: int) -> list[dict[str, Any]]:
    """A page's characters, read once per page of an open PDF."""
    cache: dict[int, list[dict[str, Any]]] = pdf.__dict__.setdefault("_test_chars", {})
    if number not in cache:
        cache[number] = pdf.pages[number - 1].chars
    return cache[number]


def boxes_hold_their_words(chunk: Chunk, pdf: Any) -> bool:
    """Every word of the body is printed inside the chunk's boxes (in any order: a
    table's stacked header names each column with titles printed once above several)."""
    printed = printed_in_boxes(chunk, pdf)
    return all(_letters(word) in printed for word in body_words(chunk.body))


def test_pdf_chunks_carry_the_boxes_their_words_are_printed_in(tmp_path: Path) -> None:
    import pdfplumber
    from pdf_factory import Page, pdf_bytes

    path = tmp_path / "two.pdf"
    first = Page().text(72, 700, "Rotate a key", size=18).text(72, 670, "It keeps working.")
    second = Page().text(72, 700, "Revoke a key", size=18).text(72, 640, "It stops at once.")
    path.write_bytes(pdf_bytes([first, second]))
    chunks = chunk_file(path, max_tokens=8)
    assert all(c.offsets is None and c.boxes for c in chunks)
    keeps = next(c for c in chunks if "keeps working" in c.body)
    stops = next(c for c in chunks if "stops at once" in c.body)
    assert {box[0] for box in keeps.boxes or []} == {1}
    x0, top, x1, bottom = next(box[1:] for box in keeps.boxes or [] if box[2] > 100)
    assert 71 <= x0 < 73 < x1 and top < 792 - 670 < bottom  # from the top, as pdfplumber
    assert {box[0] for box in stops.boxes or []} == {2}
    with pdfplumber.open(path) as pdf:
        assert all(boxes_hold_their_words(c, pdf) for c in chunks)


def test_a_box_page_is_an_integer_that_indexes_the_pdfs_pages(tmp_path: Path) -> None:
    """Issue #41: boxes came out as `[1.0, 70.3, …]`, so `pdf.pages[box[0] - 1]` raised
    TypeError. The page is an int in the record, its JSONL line (and the record read back),
    its metadata view and the schema; Parquet holds each box as a struct whose page is an
    int64 (an Arrow list holds one type), which validates back to the record's box."""
    import json

    import pdfplumber
    import pyarrow.parquet as pq

    from structchunk.batch.parquet import save_parquet
    from structchunk.records import chunk_schema, read_jsonl, to_json_line

    path = Path(__file__).resolve().parent.parent / "samples" / "rust-data-types.pdf"
    chunks = chunk_file(path, max_tokens=64)
    out = tmp_path / "chunks.jsonl"
    out.write_text("".join(to_json_line(c) for c in chunks), encoding="utf-8")
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    save_parquet(chunks, tmp_path / "chunks.parquet")
    rows = pq.read_table(tmp_path / "chunks.parquet").to_pylist()
    views = [json.loads(str(c.metadata()["boxes"])) for c in chunks]
    for boxes in (
        *(c.boxes for c in chunks),
        *(line["boxes"] for line in lines),
        *(c.boxes for c in read_jsonl(out)),
        *(Chunk.model_validate(row).boxes for row in rows),
        *views,
    ):
        assert boxes and all(type(box[0]) is int for box in boxes), boxes
    assert [[list(box.values()) for box in row["boxes"]] for row in rows] == [
        line["boxes"] for line in lines
    ]
    assert all(type(box["page"]) is int for row in rows for box in row["boxes"])
    assert '"boxes":[[1,' in out.read_text(encoding="utf-8")
    with pdfplumber.open(path) as pdf:
        for chunk in chunks:
            assert all(pdf.pages[box[0] - 1].page_number == box[0] for box in chunk.boxes or [])
    schema = chunk_schema()
    boxes_schema = next(s for s in schema["properties"]["boxes"]["anyOf"] if "items" in s)  # type: ignore[index]
    assert boxes_schema["items"]["prefixItems"][0] == {"type": "integer"}


PDF_SHARE = 0.02
"""PDF chunks allowed to miss a word in their boxes (measured: 2 of 119 in the Chelsea
survey, a number split over two cells or lines; 1 of 20 in the Rust book page, where
`2ⁿ` is extracted from the box as `2` and, a line above, `n`; and, once, 4 of 302 in
Microsoft's 10-Q, left out here because reading it and its characters takes 2 minutes)."""


@pytest.mark.slow
@pytest.mark.skipif(SHARED_CORPUS is None, reason="needs ../shared/corpus")
@pytest.mark.parametrize(
    "name",
    [
        "usgov/DHS2020.pdf",
        "rust-book/ch03-02-data-types.pdf",
        "pdfplumber/chelsea_pdta.pdf",
        "awsdocs/CHAP_BestPractices.pdf",
    ],
)
def test_corpus_pdf_boxes_hold_their_words(name: str) -> None:
    import pdfplumber

    assert SHARED_CORPUS is not None
    path = SHARED_CORPUS / "pdf" / name
    chunks = chunk_file(path, max_tokens=200)
    with pdfplumber.open(path) as pdf:
        missing = [c.chunk_index for c in chunks if not boxes_hold_their_words(c, pdf)]
        outside = [
            c.chunk_index
            for c in chunks
            for page, *_ in c.boxes or []
            if page not in (c.pages or [])
        ]
    assert chunks and not outside
    assert len(missing) <= max(1, PDF_SHARE * len(chunks)), missing


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="aB é_ \n-1İ", max_size=120),
    st.integers(0, 130),
    st.integers(1, 40),
    st.integers(0, 130),
    st.integers(1, 9),
)
def test_a_window_holds_the_words_a_regex_finds_there(
    text: str, first: int, limit: int, stop: int, segment: int
) -> None:
    """Segments split once give what a scan from `first` to `stop` finds (a word cut by
    either end as its part inside), whatever the segment size."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(source, "SEGMENT_CHARS", segment)
        monkeypatch.setattr(source, "KEPT_WORDS", 3)
        words = SourceWords(text)
        window = words.window(first, limit, stop)
        again = words.window(first, limit, stop)  # from kept (or dropped) segments
    found = list(WORD.finditer(text, first, max(first, stop)))[:limit]
    assert window.words == again.words == [match.group().lower() for match in found]
    assert [window.span(at, at + 1) for at in range(len(found))] == [m.span() for m in found]


PAGE_PIECES = [
    "<p>", "</p>", "<a title='x > y'>", "<b>", "</b>", "<SCRIPT>if (a<b) key()</script >",
    "<style>p { rotate: key }</STYLE>", "<!-- key -- rotate --->", "<!-- never closed",
    "<script>never closed", "&eacute;", "&#233;", "&#x41;", "&amp;", "&lt;p&gt;", "&bogus;",
    "&eacute", "caf", "key", "Rotate", "24", "_", " ", "\n    ", "\t", "<", ">", "&", "-->",
    "<!--", "<script>", "</script>", "</style>", "<a", "b>",
]  # fmt: skip
OLD_MARKUP = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style)\b.*?(?:</\1\s*>|\Z)|<[^>]*>", re.IGNORECASE | re.DOTALL
)
REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});", re.IGNORECASE)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PAGE_PIECES), max_size=40), st.integers(1, 60))
def test_a_pages_visible_text_has_its_words_and_leads_back_to_them(
    pieces: list[str], step: int
) -> None:
    """The words of a page's visible text are the words a reader of the page sees (tags,
    comments, scripts and styles dropped, references read, as a slow two-pass oracle
    reads them), and each leads back to the page characters it was read from, however
    the page is sliced (a script or comment across a cut, or longer than a slice)."""
    page = "".join(pieces)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(source, "PAGE_STEP", step)
        visible = VisibleText(page)
    shown = REFERENCE.sub(lambda m: html.unescape(m.group()), OLD_MARKUP.sub(" ", page))
    found = list(WORD.finditer(visible.text))
    assert [match.group() for match in found] == WORD.findall(shown)
    for match in found:
        start, end = visible.page_span(*match.span())
        assert html.unescape(page[start:end]) == match.group()


def test_a_pages_visible_text_leaves_out_its_markup_and_indentation() -> None:
    page = "<div>\n    <p>The <b>caf&eacute;</b>\n      key.</p>\n  </div><script>x()</script>"
    visible = VisibleText(page)
    assert visible.text == "  The  café key.   "
    assert page[slice(*visible.page_span(7, 11))] == "caf&eacute;"


def test_a_page_of_lone_angle_brackets_is_read_in_linear_time() -> None:
    """Before: every `<` with no `>` after it was searched to the end of the page for
    one (minutes for a megabyte of `a < b`, as a log or code saved as .html holds)."""
    page = "<p>if a < b then</p>" + "a <" * 300_000
    start = time.monotonic()
    visible = VisibleText(page)
    assert time.monotonic() - start < 5  # about 0.02 s; 40 000 of them took 1.5 s before
    assert visible.text.count("<") == 300_000  # `< b then</p>` is one tag, as before


def characters_searched_for(word: str | None, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that collects how many characters each search for `word` (None: for any
    word) goes over."""
    scanned: list[int] = []
    searching = aligner_module._without_case

    class Counted:
        def __init__(self, searched: str) -> None:
            self.word, self.pattern = searched, searching(searched)

        def search(self, text: str, start: int, stop: int) -> re.Match[str] | None:
            found = self.pattern.search(text, start, stop)
            if word is None or self.word == word:
                scanned.append((found.end() if found else min(stop, len(text))) - start)
            return found

    monkeypatch.setattr(aligner_module, "_without_case", Counted)
    return scanned


def test_a_first_word_missing_from_the_page_is_searched_for_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: a page whose every paragraph opens `<b>Ro</b>tate` (a drop cap) searched
    the rest of the page for `rotate` once per chunk: quadratic (a 1 MB page 13 s)."""
    paragraph = "<p><b>Ro</b>tate the keys often, and keep the old key working a day.</p>\n"
    page = "<title>Keys</title>" + paragraph * 300
    scanned = characters_searched_for("rotate", monkeypatch)  # the page never holds it whole
    chunks = chunk_text(page, "html", max_tokens=12)
    assert len(chunks) >= 300 and all(chunk.offsets for chunk in chunks)
    assert all(well_formed(chunk, page) for chunk in chunks)
    assert sum(scanned) < 2 * len(page)


@pytest.mark.parametrize("fmt", ["markdown", "text"])
def test_a_long_split_table_looks_for_its_header_once(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: every piece of a split table searched from the table's top to its own rows
    for the header's first word (past the header, for its first eight words): a table of
    20 000 rows took 11 s to chunk, of 80 000, 75 s. And a row's word printed in an
    earlier row could be taken from there (`expr` in Rust's operator table)."""
    rows = "".join(f"| row {i} | expr {i * 3} | value {i % 7} |\n" for i in range(3000))
    table = "| name | amount | kind |\n|---|---|---|\n" + rows
    scanned = characters_searched_for("name", monkeypatch)  # only the header holds it
    chunks = chunk_text(table, fmt, max_tokens=60)
    assert len(chunks) > 100
    assert sum(scanned) < 4 * len(table)
    line_starts = [0] + [at + 1 for at, char in enumerate(table) if char == "\n"]
    for chunk in chunks[1:]:
        assert chunk.offsets and chunk.lines
        spans = chunk.offsets
        assert table[spans[0][0] :].startswith("name | amount | kind")
        own = line_starts[chunk.lines[0] - 1], line_starts[chunk.lines[1]]
        assert all(own[0] <= start and end <= own[1] for start, end in spans[1:])


def test_a_block_pasted_over_and_over_is_aligned_in_its_own_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: in a block pasted hundreds of times (the fuzzer's duplication, here a
    paragraph and a table without a heading), each table's first piece was found in the
    first copy — its header and rows stand there alike — and the rest of the document
    looked back to that copy: every later table searched the copies between for its
    header, 100 times the text for 300 copies, 270 times for 900 (a 9 MB file took
    over a minute). A piece looks back only for what it repeats, to the nearest place."""
    rows = "".join(
        f"| Quota {i} | {i * 5} | The most a region may hold of kind {i}. |\n" for i in range(8)
    )
    block = (
        "Each account has quotas per region, and some can be raised on request.\n\n"
        "| Resource | Default | Comments |\n| --- | --- | --- |\n" + rows
    )
    text = block * 300
    scanned = characters_searched_for(None, monkeypatch)
    chunks = chunk_text(text, "markdown", max_tokens=64)
    assert len(chunks) > 600
    assert sum(scanned) < 4 * len(text)
    line_starts = [0] + [at + 1 for at, char in enumerate(text) if char == "\n"]
    for chunk in chunks:
        assert chunk.offsets and chunk.lines
        own = line_starts[chunk.lines[0] - 1], line_starts[chunk.lines[1]]
        spans = chunk.offsets
        if spans[0][0] < own[0]:  # the header printed above its own table, no earlier
            assert text[spans[0][0] :].startswith("Resource | Default | Comments")
            assert own[0] - spans[0][0] < len(block)
            spans = spans[1:]
        assert all(own[0] <= start and end <= own[1] for start, end in spans)


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_words_compare_without_case_even_beside_one_that_lower_cases_longer(fmt: str) -> None:
    """`İ` lower-cases to two characters, the second not a letter: body and source words
    are both split as written, then lower-cased, so a chunk that holds one is found
    whole, and its other words compare without case."""
    words = " ".join(f"word{n}" for n in range(30))
    text = f"# Trip\n\nİstanbul keeps its KEYS. {words}\n\n{words} Rotate the KEYS daily.\n"
    if fmt == "html":
        text = f"<h1>Trip</h1><p>İstanbul keeps its KEYS. {words}</p><p>{words} Rotate.</p>"
    aligner = Aligner(text, html=fmt == "html")
    spans = aligner.spans(f"İstanbul keeps its keys. {words}")
    assert [text[a:b] for a, b in spans] == [f"İstanbul keeps its KEYS. {words}"]


@pytest.mark.parametrize("name", ["api-keys.md", "docs-page.html", "rust-data-types.pdf"])
def test_offsets_off_leaves_them_null_and_the_chunks_as_they_are(name: str) -> None:
    path = Path(__file__).resolve().parent.parent / "samples" / name
    found, skipped = chunk_file(path, max_tokens=64), chunk_file(path, max_tokens=64, offsets=False)
    assert any(chunk.offsets or chunk.boxes for chunk in found)
    assert all(chunk.offsets is None and chunk.boxes is None for chunk in skipped)
    assert [chunk.text for chunk in skipped] == [chunk.text for chunk in found]


def test_a_pdf_chunk_printed_before_its_lines_keeps_its_box(corpus: Path) -> None:
    """A PDF's lines are placed in print order: pdffill-demo's "Online Help" is printed
    above the text read before it. Bounding the look-back to a chunk's own length (for
    Markdown pasted over and over) lost its box; a PDF chunk may still look back far."""
    chunks = chunk_file(str(corpus / "pdf/pdfplumber/pdffill-demo.pdf"))
    (help_chunk,) = [c for c in chunks if c.body == "Online Help"]
    assert help_chunk.boxes == [(2, 395.3, 208.5, 464.1, 222.5)]


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_chinese_chunks_that_start_inside_a_paragraph_find_their_offsets(fmt: str) -> None:
    """Each ideograph is a word to the aligner: a chunk cut out of a Chinese paragraph
    (which has no spaces) found no whole word to anchor on, and had no offsets."""
    udhr = Path(__file__).parent / "multilingual" / "udhr" / "zh.txt"
    paragraphs = udhr.read_text(encoding="utf-8").split("\n\n")[2:12]
    if fmt == "markdown":
        source = "# 宣言\n\n" + "\n\n".join(paragraphs) + "\n"
    else:
        source = "<h1>宣言</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs)
    chunks = chunk_text(source, format=fmt, max_tokens=40)
    assert len(chunks) > 10
    for chunk in chunks:
        assert chunk.offsets, chunk.body
        found = re.sub(r"<[^>]*>", "", "".join(source[a:b] for a, b in chunk.offsets))
        assert re.sub(r"\W", "", found) == re.sub(r"\W", "", chunk.body)  # the same words
