"""PDF furniture that escaped the running-header rules: a page number read into a table,
a running header moved or changed on one page, and numbered text taken for a header.

The pure stage (`drop_furniture` over built pages) needs no PDF; the regressions over the
10-Qs read the shared corpus and are skipped without it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import SHARED_CORPUS
from corpus_pdf import read_corpus_pdf

from structchunk import ChunkOptions
from structchunk.document import Document
from structchunk.packing import Packer
from structchunk.parsers.pdf.furniture import drop_furniture
from structchunk.parsers.pdf.types import Line, PageContent, PageTable


def _line(text: str, page: int, top: float, size: float = 10, x0: float = 72) -> Line:
    width = 5.0 * len(text) * size / 10
    return Line(text, page, x0, x0 + width, top, top + size, size, "Times", chars=len(text))


def _centred(text: str, page: int, top: float, size: float = 10) -> Line:
    width = 5.0 * len(text) * size / 10
    return _line(text, page, top, size, x0=306 - width / 2)


def _body(page: int, top: float = 300) -> Line:
    return _line("A paragraph of the body text, much wider than a running header.", page, top)


def _kept(pages: list[PageContent]) -> list[str]:
    return [line.text for page in pages for line in page.lines()]


# -- numbers that neither repeat nor count ---------------------------------------------


def test_a_number_of_its_own_on_each_page_is_no_running_header() -> None:
    """GeoTopo opens five of its pages with `Definition 20`, `Definition 26`, …, at the
    height where pages begin: the text repeated but for its number, so it was dropped as
    a running header. A running header's number repeats (a chapter's) or counts along
    with the pages (a page number); one that does neither numbers the text's own things."""
    pages = []
    for number in range(1, 13):
        page = PageContent(number, 612, 792)
        page.items = [_line(f"Chapter 2, page {number}", number, 30)]
        if number % 2:
            page.items.append(_line(f"Definition {3 * number + 7}", number, 60))
        page.items.append(_body(number))
        pages.append(page)
    dropped = [line.text for line in drop_furniture(pages)]
    assert dropped == [f"Chapter 2, page {number}" for number in range(1, 13)]
    assert "Definition 10" in _kept(pages)


# -- a page number read into a table ---------------------------------------------------


def _table(page: int, last_row: list[str], bottom: float = 620) -> PageTable:
    rows = [["", "2022", "2021"], ["Revenue", "$ 5,931", "$ 7,103"], ["Net income", "680", "2,464"]]
    return PageTable([*rows, last_row], page, 20, 590, 100, bottom)


def _numbered_pages(count: int) -> list[PageContent]:
    pages = []
    for number in range(1, count + 1):
        page = PageContent(number, 612, 792)
        page.items = [_body(number), _centred(str(number), number, 700)]
        pages.append(page)
    return pages


@pytest.mark.parametrize(
    ("last_row", "below", "dropped"),
    [
        (["5", "", ""], False, True),  # the page's number, nothing under the table
        (["7", "", ""], False, False),  # a number that is not this page's
        (["5", "", ""], True, False),  # a line under the table: the row is the table's
        (["Total", "5", ""], False, False),  # a row of the table's own
    ],
)
def test_a_page_number_read_into_a_table_is_dropped(
    last_row: list[str], below: bool, dropped: bool
) -> None:
    """NVIDIA's cash flow statement ends its page; its ruling took the page number
    printed under it in as a last row (`| 8 | | |`). A lone number counting along with
    the document's page numbers, in the last row of the table that ends its page, is the
    page number; anything else in a table stays."""
    pages = _numbered_pages(6)
    page = pages[4]
    table = _table(5, last_row)
    page.items = [_body(5, 60), table]  # the page's own number printed in the table
    if below:
        page.items.append(_line("See accompanying Notes.", 5, 640))
    out = drop_furniture(pages)
    assert (["5"] in [[line.text] for line in out if line.page == 5]) is dropped
    assert (table.rows[-1] == last_row) is not dropped
    assert len(table.rows) == (3 if dropped else 4)


# -- a running header moved or changed -------------------------------------------------


def _filing(count: int = 8) -> list[PageContent]:
    """Pages topped with a company's name, centred in 8-point type, over 9-point text."""
    pages = []
    for number in range(1, count + 1):
        page = PageContent(number, 612, 792)
        page.items = [_centred("Example Inc.", number, 62, 8), _body(number, 120)]
        page.items[1] = replace(page.items[1], size=9)
        pages.append(page)
    return pages


def test_a_running_header_moved_down_by_a_title_is_dropped() -> None:
    """Apple prints `Apple Inc.` over each statement, at the top of the page; on the first
    statement's page the part's and item's titles sit above it and it moved down, out of
    its place, and stood alone as a chunk. The same text in the same type and alignment
    within the page's top quarter is the header moved."""
    pages = _filing()
    page = pages[3]
    moved = _centred("Example Inc.", 4, 120, 8)
    page.items = [
        _line("PART I — FINANCIAL INFORMATION", 4, 79, 8),
        moved,
        replace(_body(4, 160), size=9),
    ]
    drop_furniture(pages)
    assert "Example Inc." not in _kept(pages)
    assert "PART I — FINANCIAL INFORMATION" in _kept(pages)


@pytest.mark.parametrize(
    ("change", "kept"),
    [
        ({}, True),  # the title of the cover page: larger type
        ({"size": 9}, True),
        ({"x0": 72}, True),  # flush left, not centred as the header is
        ({"top": 500}, True),  # lower than the page's top quarter
    ],
)
def test_the_headers_text_in_another_type_or_place_is_kept(
    change: dict[str, float], kept: bool
) -> None:
    pages = _filing()
    line = (
        _centred("Example Inc.", 4, 300, 18) if not change else _centred("Example Inc.", 4, 120, 8)
    )
    line = replace(line, **change)
    if "x0" in change:
        line = replace(line, x1=line.x0 + 50)
    if "top" in change:
        line = replace(line, bottom=line.top + line.size)
    pages[3].items = [line, replace(_body(4, 140), size=9)]
    drop_furniture(pages)
    assert ("Example Inc." in _kept(pages)) is kept


def _headed(size: float = 6.8) -> list[PageContent]:
    """Pages topped with `PART I` over `Item 2`, centred, over 9-point text."""
    pages = []
    for number in range(1, 11):
        page = PageContent(number, 595, 842)
        page.items = [
            _centred("PART I", number, 8, size),
            _centred("Item 2", number, 15, size),
            replace(_body(number, 120), size=9),
        ]
        pages.append(page)
    return pages


def test_a_running_header_changed_in_its_place_is_dropped() -> None:
    """Microsoft's pages are topped with the part and the item they hold: `Item 2` on
    most, `Item 3, 4` on the one page holding both — another text, in the header's place
    and type, under the page's `PART I`. It ended a chunk of Item 2's text."""
    pages = _headed()
    pages[6].items[1] = _centred("Item 3, 4", 7, 15, 6.8)
    drop_furniture(pages)
    assert "Item 3, 4" not in _kept(pages)


def test_a_title_in_the_headers_place_and_type_is_kept() -> None:
    """Apple sets `SIGNATURE` where its statements print `Apple Inc.`: the header's
    place and type, but a title. Another text there is a header only under another
    running header of the page, or holding the page's number."""
    pages = _headed()
    pages[6].items = [_centred("SIGNATURE", 7, 15, 6.8), replace(_body(7, 120), size=9)]
    drop_furniture(pages)
    assert "SIGNATURE" in _kept(pages)


def test_another_text_in_the_place_of_a_header_in_body_type_is_kept() -> None:
    """A header set in the body's type is set as titles are: another text in its place
    may be a title (NVIDIA's notes pages are topped with the company's name in bold
    9-point capitals, the type of its statements' titles)."""
    pages = _headed(size=9.0)
    pages[6].items[1] = _centred("Item 3, 4", 7, 15, 9.0)
    drop_furniture(pages)
    assert "Item 3, 4" in _kept(pages)


# -- the 10-Qs -------------------------------------------------------------------------


def _bodies(relative: str) -> list[str]:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    reading = read_corpus_pdf(SHARED_CORPUS / relative)
    assert isinstance(reading.document, Document)
    return [chunk.body for chunk in Packer(ChunkOptions(max_tokens=200)).pack(reading.document)]


@pytest.mark.slow
def test_no_10q_page_number_is_a_table_row() -> None:
    for relative in ("pdf/sec-10q/2022-Q3-NVDA.pdf", "pdf/sec-10q/2023-Q1-MSFT.pdf"):
        rows = [row for body in _bodies(relative) for row in body.splitlines()]
        numbered = [row for row in rows if row.replace("|", "").strip().isdigit()]
        assert numbered == [], relative


@pytest.mark.slow
def test_no_10q_chunk_is_or_ends_in_a_running_header() -> None:
    assert "Apple Inc." not in _bodies("pdf/sec-10q/2023-Q1-AAPL.pdf")
    assert not any(body.endswith("Item 3, 4") for body in _bodies("pdf/sec-10q/2023-Q1-MSFT.pdf"))


# -- a section's title carried over as its running header ------------------------------


def _notes_section(printed_before: bool = False) -> list[PageContent]:
    """Twelve pages; pages 5 to 9 (the notes) open with the section's bold title, as
    Foot Locker's 10-Q prints `NOTES TO THE ... FINANCIAL STATEMENTS` atop each page of
    its notes, the first one included."""
    title = "NOTES TO THE FINANCIAL STATEMENTS"
    pages = []
    for number in range(1, 13):
        page = PageContent(number, 612, 792)
        page.items = [_line("Table of Contents", number, 28)]
        if 5 <= number <= 9:
            page.items.append(replace(_centred(title, number, 77), bold=True, bold_share=1.0))
        if printed_before and number == 4:
            page.items.append(replace(_centred(title, number, 300), bold=True, bold_share=1.0))
        page.items.append(_body(number))
        pages.append(page)
    return pages


def test_a_section_title_carried_as_running_header_is_kept_where_it_starts() -> None:
    pages = _notes_section()
    dropped = [(line.page, line.text) for line in drop_furniture(pages)]
    assert (5, "NOTES TO THE FINANCIAL STATEMENTS") not in dropped
    assert {(n, "NOTES TO THE FINANCIAL STATEMENTS") for n in range(6, 10)} <= set(dropped)
    assert _kept(pages).count("NOTES TO THE FINANCIAL STATEMENTS") == 1


def test_a_running_title_printed_before_its_run_is_dropped_all_through_it() -> None:
    """NVIDIA prints its company's name over each statement, the first time lower on the
    page: at the top of the next page it is furniture, not a section's start."""
    pages = _notes_section(printed_before=True)
    drop_furniture(pages)
    assert _kept(pages).count("NOTES TO THE FINANCIAL STATEMENTS") == 1
