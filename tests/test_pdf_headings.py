"""Heading rules stated for any PDF, each on a small PDF the test writes itself: body-size
headings in filings converted from HTML, and bookmarks checked against the printed page."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import load_benchmark
from pdf_factory import BODY, Page, pdf_bytes
from pdfminer.fontmetrics import FONT_METRICS

from structchunk.document import Document
from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.cleanup import font_family
from structchunk.parsers.pdf.levels import HeadingStyle, assign_levels, numbering


def _read(pages: list[Page], outline: list[tuple[int, str, int]] | None = None) -> Document:
    return parse(pdf_bytes(pages, outline=outline), "test.pdf", ParseSettings())


def _paths(document: Document) -> list[tuple[str, ...]]:
    return [section.path for section in document.sections() if section.level]


def string_width(text: str, font: str, size: float) -> float:
    """Printed width of `text` in a standard font (pdfminer's metrics, 1/1000 em)."""
    widths = FONT_METRICS[font][1]
    return sum(float(widths.get(ch, 500)) for ch in text) * size / 1000


def _body(page: Page, y: float, paragraphs: int = 1, size: float = 9) -> float:
    for _ in range(paragraphs):
        y = page.lines(72, y, BODY, size=size, leading=size + 2) - 8
    return y


def test_font_family_drops_the_style_and_the_vendor_suffix() -> None:
    """`TimesNewRomanPS-BoldMT` is Times New Roman, as `TimesNewRomanPSMT` is: a bold
    heading at body size was taken for "another family" and so for a prominent one."""
    assert font_family("TimesNewRomanPS-BoldItalicMT") == "TimesNewRoman"
    assert font_family("TimesNewRomanPSMT") == "TimesNewRoman"
    assert font_family("ABCDEF+Calibri-Bold") == "Calibri"
    assert font_family("Arial,Bold") == "Arial"


def _filing() -> list[Page]:
    """A 10-Q as the EDGAR converter prints it, all in 9 pt: a cover in small print, a
    centred bold `PART I` over `Item 1.` set a tab apart from its title (two cells), a
    centred statement title, bold notes."""
    cover = Page()
    y = 740.0
    for _ in range(12):
        y = cover.lines(60, y, [*BODY, "Indicate by check mark whether the registrant"], size=7)
    page = Page()
    page.text(240, 740, "PART I. FINANCIAL INFORMATION", font="Times-Bold", size=9)
    page.text(72, 726, "Item 1.", font="Times-Bold", size=9)
    page.text(130, 726, "Financial Statements", font="Times-Bold", size=9)
    page.text(220, 706, "CONSOLIDATED STATEMENTS OF CASH FLOWS", font="Times-Bold", size=9)
    y = _body(page, 690, 2)
    page.text(72, y - 6, "Note 1 — ACCOUNTING POLICIES", font="Times-Bold", size=9)
    y = _body(page, y - 24, 3)
    two = Page()
    two.text(72, 740, "Item 2.", font="Times-Bold", size=9)
    two.text(130, 740, "Management's Discussion and Analysis", font="Times-Bold", size=9)
    _body(two, 720, 3)
    return [cover, page, two]


def test_body_size_filing_headings_set_apart_from_their_numbers() -> None:
    paths = _paths(_read(_filing()))
    part, item1 = "PART I. FINANCIAL INFORMATION", "Item 1. Financial Statements"
    statement = "CONSOLIDATED STATEMENTS OF CASH FLOWS"
    assert (part, item1, statement) in paths
    assert (part, item1, statement, "Note 1 — ACCOUNTING POLICIES") in paths
    assert (part, "Item 2. Management's Discussion and Analysis") in paths


def _report(titles: tuple[str, ...] = ("Overview", "Results", "Outlook")) -> list[Page]:
    pages = []
    for number, title in enumerate(titles, start=1):
        page = Page()
        page.text(72, 730, f"{number}. {title}", font="Helvetica-Bold", size=14)
        _body(page, 700, 3, size=10)
        pages.append(page)
    return pages


def test_bookmarks_that_are_labels_give_way_to_the_printed_headings() -> None:
    """An editor's bookmarks (`CCG`, `Blank [DO NOT REMOVE]`) name no printed line: the
    headings come from the pages, and a warning says why."""
    outline = [(1, "CCG", 0), (1, "Blank [DO NOT REMOVE]", 1), (1, "Results", 2)]
    document = _read(_report(), outline)
    titles = [path[-1] for path in _paths(document)]
    assert titles == ["1. Overview", "2. Results", "3. Outlook"]
    assert any("bookmarks are labels rather than headings" in w for w in document.warnings)


def test_a_bookmark_not_printed_names_the_heading_printed_at_its_destination() -> None:
    """Bookmarks that are mostly printed headings are used; one whose title is not
    printed takes the heading typography found at its destination, keeping its level."""
    printed = ("Overview", "Results", "Outlook", "Costs", "Staff", "Risks")
    outline = [(1, f"{n}. {title}", n - 1) for n, title in enumerate(printed, start=1)]
    outline[2] = (1, "Statement of Income", 2)  # the page prints "3. Outlook"
    titles = [path[-1] for path in _paths(_read(_report(printed), outline))]
    assert titles == [f"{n}. {title}" for n, title in enumerate(printed, start=1)]


def test_part_closes_every_open_heading() -> None:
    """A centred heading before `PART I` (a filing's cautionary note, in the centred bold
    capitals of the statement titles) does not hold `PART I`; a statement printed later
    in that style stays under `Item 1.` instead of closing it as the note's sibling
    (Foot Locker's 10-Q put every statement at the top level)."""
    centred_caps = HeadingStyle(None, 9.0, (9.0, True, True, True, True))
    part = HeadingStyle(
        numbering("PART I - FINANCIAL INFORMATION"), 9.0, (9.0, True, True, True, False)
    )
    item = HeadingStyle(
        numbering("Item 1. Financial Statements"), 9.0, (9.0, True, False, True, False)
    )
    assert assign_levels([centred_caps, part, item, centred_caps]) == [1, 1, 2, 3]


def test_a_title_repeated_as_continued_is_no_new_section() -> None:
    one, two = Page(), Page()
    one.text(72, 740, "2. Acquisitions", font="Helvetica-Bold", size=14)
    _body(one, 710, 3, size=10)
    two.text(72, 740, "2. Acquisitions (continued)", font="Helvetica-Bold", size=14)
    _body(two, 710, 2, size=10)
    two.text(72, 600, "3. Revenue", font="Helvetica-Bold", size=14)
    _body(two, 570, 2, size=10)
    document = _read([one, two])
    assert [path[-1] for path in _paths(document)] == ["2. Acquisitions", "3. Revenue"]
    assert "2. Acquisitions (continued)" in document.dropped


def test_a_heading_whose_number_word_sets_in_another_size_is_a_heading() -> None:
    """Word sets a numbered heading's `1.` in the list's own size: the line is no longer
    in one size, but its title is (the GROBID guidelines lost every heading)."""
    pages = []
    for number, title in enumerate(["GENERATED TRAINING FILES", "ENCODING OF HEADERS"], 1):
        page = Page()
        page.text(72, 730, f"{number}.", font="Helvetica-Bold", size=11)
        page.text(100, 730, title, font="Helvetica-Bold", size=14)
        _body(page, 700, 3, size=11)
        pages.append(page)
    titles = [path[-1] for path in _paths(_read(pages))]
    assert titles == ["1. GENERATED TRAINING FILES", "2. ENCODING OF HEADERS"]


def test_documents_appended_after_the_signatures_are_top_level() -> None:
    """A certification or an auditor's letter appended after a filing's signatures is a
    document of its own: not a subsection of `Item 6. Exhibits`."""
    pages = []
    ceo, cfo = "CERTIFICATION OF THE CHIEF EXECUTIVE", "REPORT OF THE INDEPENDENT AUDITORS"
    for heading in ("PART II. OTHER INFORMATION", "SIGNATURES", ceo, cfo):
        page = Page()
        page.text(72, 740, heading, font="Times-Bold", size=9)
        y = _body(page, 720, 2)
        if heading.startswith("PART"):
            page.text(72, y - 8, "Item 6. Exhibits", font="Times-Bold", size=9)
            _body(page, y - 28, 2)
        pages.append(page)
    paths = _paths(_read(pages))
    assert paths == [
        ("PART II. OTHER INFORMATION",),
        ("PART II. OTHER INFORMATION", "Item 6. Exhibits"),
        ("SIGNATURES",),
        (ceo,),
        (cfo,),
    ]


def test_a_line_one_point_larger_heads_the_text_it_stands_over() -> None:
    """Intel's 10-Q heads its notes in 14 pt and their subsections in 10 pt over 9 pt
    text: a line only a little larger is a heading when it stands apart over smaller
    text. A label printed tight over a `Role:` line in a panel is not one, nor is a
    column of agencies' names one under the other."""
    page = Page()
    page.text(72, 740, "Note 3 : Non-Controlling Interests", font="Helvetica", size=14)
    y = _body(page, 716, 2)
    page.text(72, y - 8, "Mobileye", font="Helvetica", size=10)
    y = _body(page, y - 26, 2)
    page.text(72, y - 8, "Stakeholders:", font="Helvetica", size=9)
    page.text(72, y - 19, "FAA", font="Helvetica", size=10)
    page.text(72, y - 29, "Role: Lead Agency", font="Helvetica", size=9)
    y = _body(page, y - 48, 2)
    y = page.lines(72, y - 10, ["AHRQ", "ACF", "ACL", "CDC"], size=10, leading=11)
    _body(page, y - 10, 1)
    paths = _paths(_read([page]))
    note = "Note 3 : Non-Controlling Interests"
    assert paths == [(note,), (note, "Mobileye")]


def test_an_item_set_tight_under_its_part_is_a_heading_of_its_own() -> None:
    """Amcor's 10-Q prints `Item 1.` on the line right under `Part I`, both bold: the
    `Item` was read as part of no heading, and `Item 2.` then nested under the notes."""
    page = Page()
    page.text(72, 740, "Part I - Financial Information", font="Helvetica-Bold", size=9)
    page.text(72, 729, "Item 1. Financial Statements (unaudited)", font="Helvetica-Bold", size=9)
    y = _body(page, 706, 2)
    page.text(72, y - 8, "Note 1 - Nature of Operations", font="Helvetica-Bold", size=9)
    _body(page, y - 28, 2)
    two = Page()
    two.text(72, 740, "Item 2. Management's Discussion and Analysis", font="Helvetica-Bold", size=9)
    _body(two, 718, 3)
    part = "Part I - Financial Information"
    item1 = "Item 1. Financial Statements (unaudited)"
    assert _paths(_read([page, two])) == [
        (part,),
        (part, item1),
        (part, item1, "Note 1 - Nature of Operations"),
        (part, "Item 2. Management's Discussion and Analysis"),
    ]


@pytest.mark.slow
def test_the_development_filings_keep_their_printed_headings(tmp_path: Path) -> None:
    """The issue's floor on the eleven filings of `benchmarks/pdf-dev/filings` (10-Qs and
    earnings releases of eleven companies, read by eye): heading F1 0.90 and right parent
    0.85, as published and with the bookmarks stripped."""
    bench = load_benchmark("pdf_headings")
    groups = bench.run(tmp_path, verbose=False, only={"dev/filings"})
    for reading in ("dev/filings", "dev/filings stripped"):
        ratios = bench.total(reading, groups[reading]).ratios()
        assert ratios["f1"] >= 0.90, (reading, ratios)
        assert ratios["parent"] >= 0.85, (reading, ratios)


def test_statement_pages_take_the_body_of_the_nearest_text_not_of_an_exhibit() -> None:
    """Apple's statements sit on pages with too little running text to set a body, and
    its longest text is an exhibit in 9 pt over an 8-point filing: measured over the
    whole document, the body was 9 pt and the bold 8-point `PART I` and `Item 1.` over
    the statements were taken for small print."""

    def prose(paragraphs: int, size: float) -> Page:
        page = Page()
        _body(page, 740, paragraphs, size=size)
        return page

    def statement() -> Page:
        return Page().text(72, 740, "Total liabilities 1,000", size=8)

    opening = Page()
    opening.text(72, 740, "PART I — FINANCIAL INFORMATION", font="Helvetica-Bold", size=8)
    opening.text(72, 720, "Item 1. Financial Statements", font="Helvetica-Bold", size=8)
    opening.text(72, 700, "CONSOLIDATED BALANCE SHEETS", font="Helvetica-Bold", size=8)
    opening.text(72, 670, "Total assets 1,000", size=8)
    pages = [prose(6, 8) for _ in range(3)] + [statement(), statement(), opening]
    pages += [statement() for _ in range(3)] + [prose(6, 8) for _ in range(2)]
    pages += [prose(12, 9) for _ in range(10)]
    paths = _paths(_read(pages))
    part, item = "PART I — FINANCIAL INFORMATION", "Item 1. Financial Statements"
    assert (part, item, "CONSOLIDATED BALANCE SHEETS") in [path[-3:] for path in paths]
