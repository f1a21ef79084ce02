"""Real-world PDF layouts, each on a small PDF the test writes itself (tests/pdf_factory):
headings without bookmarks, borderless tables, contents pages, columns, covers, text."""

from __future__ import annotations

import re
import signal

import pytest
from conftest import SHARED_CORPUS, corpus_params
from corpus_pdf import read_corpus_pdf
from pdf_factory import BODY, Page, pdf_bytes

from structchunk import ChunkOptions, chunk_text
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import Document, ListBlock, Paragraph, Table
from structchunk.options import PdfEngine
from structchunk.parsers import ParseSettings
from structchunk.parsers.builder import TreeBuilder
from structchunk.parsers.pdf import build, parse, read_document
from structchunk.parsers.pdf.blocks import BlockWriter
from structchunk.parsers.pdf.cleanup import Vocabulary
from structchunk.parsers.pdf.headings import nest_by_number
from structchunk.parsers.pdf.layout import Row, _cluster, find_gutters, usual_line_gap
from structchunk.parsers.pdf.levels import numbering
from structchunk.parsers.pdf.structure import OutlineEntry
from structchunk.parsers.pdf.symbol_fonts import glyph_text
from structchunk.parsers.pdf.tables import cell_text, header_rows
from structchunk.parsers.pdf.types import Line, PageContent, Word


def _read(pages: list[Page]) -> Document:
    return parse(pdf_bytes(pages), "test.pdf", ParseSettings())


def _tables(document: Document) -> list[Table]:
    return [b for s in document.sections() for b in s.blocks if isinstance(b, Table)]


def _paragraphs(document: Document) -> list[str]:
    return [b.text for s in document.sections() for b in s.blocks if isinstance(b, Paragraph)]


def _paths(document: Document) -> list[tuple[str, ...]]:
    return [section.path for section in document.sections() if section.level]


def _filing_page(y: float, lines: list[tuple[str, str]], page: Page | None = None) -> Page:
    """Headings and paragraphs as a 10-Q sets them: all at 9 pt, headings bold or italic."""
    page = page or Page()
    for kind, text in lines:
        if kind == "p":
            y = page.lines(72, y, BODY, size=9, leading=11) - 8
        else:
            font = {"b": "Helvetica-Bold", "i": "Helvetica-Oblique"}[kind]
            page.text(72, y, text, font=font, size=9)
            y -= 20
    return page


def test_body_size_bold_headings_nest_by_their_numbering() -> None:
    page_one = _filing_page(
        720,
        [
            ("b", "PART I — FINANCIAL INFORMATION"),
            ("b", "Item 1. Financial Statements"),
            ("p", ""),
            ("b", "Note 1 – Summary of Significant Accounting Policies"),
            ("b", "Basis of Presentation"),
            ("p", ""),
            ("i", "Foreign Exchange Risk"),
            ("p", ""),
            ("b", "Earnings Per Share"),
            ("p", ""),
        ],
    )
    page_two = _filing_page(
        720,
        [
            ("b", "Note 2 – Revenue"),
            ("p", ""),
            ("b", "Item 2. Management’s Discussion and Analysis"),
            ("b", "Quarterly Highlights"),
            ("p", ""),
            ("b", "PART II — OTHER INFORMATION"),
            ("b", "Item 1. Legal Proceedings"),
            ("p", ""),
        ],
    )
    paths = _paths(_read([page_one, page_two]))
    part, item1 = "PART I — FINANCIAL INFORMATION", "Item 1. Financial Statements"
    note1 = "Note 1 – Summary of Significant Accounting Policies"
    assert (part, item1, note1, "Basis of Presentation", "Foreign Exchange Risk") in paths
    assert (part, item1, note1, "Earnings Per Share") in paths
    assert (part, item1, "Note 2 – Revenue") in paths
    assert (part, "Item 2. Management’s Discussion and Analysis", "Quarterly Highlights") in paths
    assert ("PART II — OTHER INFORMATION", "Item 1. Legal Proceedings") in paths


def test_a_bold_line_that_runs_on_into_its_paragraph_is_not_a_heading() -> None:
    page = Page()
    page.text(72, 720, "Risks Related to Our Business", font="Helvetica-Bold", size=9)
    page.text(
        72,
        700,
        "Our operations could be affected by the laws to which",
        font="Helvetica-Bold",
        size=9,
    )
    page.lines(
        72, 689, ["our business is subject, and by political actions.", *BODY], size=9, leading=11
    )
    page.text(72, 600, "Other Matters", font="Helvetica-Bold", size=9)
    page.lines(72, 580, BODY, size=9, leading=11)
    titles = [p[-1] for p in _paths(_read([page]))]
    assert titles == ["Risks Related to Our Business", "Other Matters"]


def test_label_value_lines_and_lead_in_colons_are_not_headings() -> None:
    page = Page()
    y = page.lines(72, 720, BODY, size=9, leading=11) - 10
    page.text(72, y, "Defining Event: Injuries: 1 Fatal", font="Helvetica-Bold", size=9)
    page.text(72, y - 20, "Description:", font="Helvetica-Bold", size=9)
    page.lines(72, y - 40, BODY, size=9, leading=11)
    page.text(72, y - 100, "Findings", font="Helvetica-Bold", size=9)
    page.lines(72, y - 120, BODY, size=9, leading=11)
    assert [p[-1] for p in _paths(_read([page]))] == ["Findings"]


def _statement(page: Page, top: float) -> Page:
    """A borderless income statement: header lines over two columns of figures."""
    page.text(
        170, top, "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", font="Helvetica-Bold", size=9
    )
    page.text(420, top - 30, "Three Months Ended", font="Helvetica-Bold", size=8)
    page.text(400, top - 41, "December 31,", font="Helvetica-Bold", size=8)
    page.text(480, top - 41, "December 25,", font="Helvetica-Bold", size=8)
    page.text(410, top - 52, "2022", font="Helvetica-Bold", size=8)
    page.text(490, top - 52, "2021", font="Helvetica-Bold", size=8)
    rows = [
        ("Net sales:", "", ""),
        ("Products", "$ 96,388", "$ 104,429"),
        ("Services", "20,766", "19,516"),
        ("Total net sales", "117,154", "123,945"),
        ("Research and development", "7,709", "6,306"),
        ("Operating income", "36,016", "41,488"),
    ]
    y = top - 68
    for label, current, prior in rows:
        page.text(72, y, label, size=9)
        for right, value in ((440, current), (520, prior)):
            if value:
                sign, _, number = value.rpartition(" ")
                width = 5.0 * len(number)
                page.text(right - width, y, number, size=9)
                if sign:
                    page.text(right - 60, y, sign, size=9)
        y -= 12
    return page


def test_a_borderless_statement_is_a_table_with_its_column_headers() -> None:
    document = _read([_statement(Page(), 700)])
    tables = _tables(document)
    assert len(tables) == 1
    table = tables[0]
    assert table.header == [
        ["", "Three Months Ended December 31, 2022", "Three Months Ended December 25, 2021"]
    ]
    assert ["Products", "$ 96,388", "$ 104,429"] in table.rows
    assert ["Operating income", "36,016", "41,488"] in table.rows
    titles = [s.title for s in document.sections()]
    assert not any("Months Ended" in t or t.startswith("December") for t in titles)


def test_a_statement_with_percentages_and_points_is_one_table() -> None:
    """NVIDIA's 10-Q summary: `Gross margin 53.6 % 43.5 % … 10.1 pts` was no figure row
    (`pts` is no figure, and the `%` set apart hangs past the column), so the statement
    broke in two there and the gross-margin row became the header of its second half."""
    page = Page().text(72, 700, "Quarter Summary", font="Helvetica-Bold", size=9)
    page.text(300, 680, "October 30, 2022", size=8).text(380, 680, "Quarter Change", size=8)
    rows = [
        ("Revenue", ["$", "5,931"], ["(12)%"]),
        ("Gross margin", ["53.6", "%"], ["10.1", "pts"]),
        ("Operating expenses", ["$", "2,576"], ["7", "%"]),
        ("Net income", ["$", "680"], ["(72)%"]),
    ]
    y = 665.0
    for label, current, change in rows:
        page.text(72, y, label, size=9)
        for right, parts in ((350.0, current), (440.0, change)):
            if parts[-1] in ("%", "pts"):  # the unit set apart, past the column's edge
                page.text(right + 4, y, parts[-1], size=9)
                parts = parts[:-1]
            number = parts[-1]
            page.text(right - 5.0 * len(number), y, number, size=9)
            if len(parts) > 1:
                page.text(right - 50, y, parts[0], size=9)
        y -= 12
    tables = _tables(_read([page]))
    assert len(tables) == 1
    assert tables[0].header == [["", "October 30, 2022", "Quarter Change"]]
    assert tables[0].rows[1] == ["Gross margin", "53.6%", "10.1 pts"]
    assert [row[0] for row in tables[0].rows] == [label for label, _, _ in rows]


def test_a_statement_label_wrapped_after_a_hyphen_keeps_the_compound() -> None:
    """NVIDIA's 10-Q: `…would have been anti-` / `dilutive  36  2` read `anti- dilutive`."""
    page = Page().text(300, 700, "2022", size=9).text(380, 700, "2021", size=9)
    rows = [
        ("Basic", "1,234", "1,456"),
        ("Diluted", "1,250", "1,470"),
        ("Awards excluded as their effect would be anti-", "", ""),
        ("dilutive", "36", "29"),
        ("Total shares", "1,286", "1,499"),
    ]
    y = 685.0
    for label, current, prior in rows:
        page.text(72, y, label, size=9)
        for right, value in ((320.0, current), (400.0, prior)):
            if value:
                page.text(right - 5.0 * len(value), y, value, size=9)
        y -= 12
    tables = _tables(_read([page]))
    assert ["Awards excluded as their effect would be anti-dilutive", "36", "29"] in tables[0].rows


def test_every_piece_of_a_split_statement_repeats_the_column_headers() -> None:
    data = pdf_bytes([_statement(Page(), 700)])
    chunks = list(iter_chunks_from_bytes(data, "s.pdf", "pdf", ChunkOptions(max_tokens=48)))
    pieces = [c for c in chunks if "table" in c.block_types]
    assert len(pieces) >= 2
    assert all("Three Months Ended December 31, 2022" in c.body for c in pieces)


def test_a_contents_page_is_dropped_and_recorded() -> None:
    contents = Page().text(72, 740, "Table of Contents", font="Helvetica-Bold", size=14)
    titles = ["1. Introduction", "2. Methods", "3. Results", "4. Discussion"]
    for index, title in enumerate(titles):
        contents.text(72, 700 - 16 * index, f"{title} " + "." * 60 + f" {index + 2}", size=10)
    body_pages = []
    for title in titles:
        page = Page().text(72, 720, title, font="Helvetica-Bold", size=14)
        page.lines(72, 690, BODY, size=10, leading=12)
        body_pages.append(page)
    data = pdf_bytes([contents, *body_pages])
    document = parse(data, "c.pdf", ParseSettings())
    chunks = list(iter_chunks_from_bytes(data, "c.pdf", "pdf", ChunkOptions()))
    assert not any("...." in c.text or "…" in c.body for c in chunks)
    assert any("1. Introduction" in text for text in document.dropped)
    assert [s.title for s in document.sections() if s.level] == titles


def test_contents_entries_that_match_no_heading_go_with_the_list_they_sit_in() -> None:
    """A 10-Q's index: the first entries say more than the headings they point to and
    match nothing, but they sit in one run with entries that do."""
    contents = Page().text(72, 740, "TABLE OF CONTENTS", font="Helvetica-Bold", size=10)
    contents.text(500, 724, "Page", font="Helvetica-Bold", size=9)
    contents.text(72, 708, "PART I: FINANCIAL INFORMATION", size=9)
    contents.text(72, 694, "Item 1. Financial Statements", size=9)
    y = 680
    for first, second, number in [
        ("a) Condensed Statements of Income for the three and nine", "months ended 2022", "3"),
        ("b) Condensed Balance Sheets as of October 30, 2022 and", "January 30, 2022", "4"),
    ]:  # wrapped, the page number on the second line
        contents.text(72, y, first, size=9)
        contents.text(72, y - 12, second, size=9).text(505, y - 12, number, size=9)
        y -= 28
    items = ["Item 2. Results of Operations", "Item 3. Market Risk", "Item 4. Controls"]
    for index, title in enumerate(items):
        contents.text(72, y, title, size=9).text(505, y, str(5 + index), size=9)
        y -= 14
    body_pages = []
    for title in ["CONDENSED STATEMENTS OF INCOME", *items]:
        page = Page().text(72, 720, title, font="Helvetica-Bold", size=12)
        page.lines(72, 690, BODY, size=9, leading=11)
        body_pages.append(page)
    document = _read([contents, *body_pages])
    text = " ".join(_paragraphs(document)) + " ".join(t for p in _paths(document) for t in p)
    assert "Condensed Statements of Income for the three" not in text
    assert "TABLE OF CONTENTS" not in text
    assert any("a) Condensed Statements of Income" in t for t in document.dropped)


def test_formula_lines_ending_in_numbers_are_no_contents_entries() -> None:
    """Lines of a plot or formula (`100   5`, `x = 1   2`) print numbers that recur
    later, but name no section: the prose between them stays."""
    page = Page()
    y = 720
    for left, right in [("100", "5"), ("f (x) = 1", "2"), ("0", "5"), ("y = 3", "4")]:
        page.text(72, y, left, size=9).text(300, y, right, size=9)
        page.lines(72, y - 14, BODY[:1], size=9, leading=11)
        y -= 40
    later = Page()
    later.lines(72, 720, [*BODY, "100", "0", "f (x) = 1", "y = 3"], size=9, leading=11)
    document = _read([page, later])
    assert sum(BODY[0] in t for t in _paragraphs(document)) >= 2
    assert not document.dropped


def test_a_contents_list_never_runs_through_a_paragraph() -> None:
    """Lines shaped like entries whose titles recur later, far apart on a page: the
    paragraphs between them are text, not part of a list."""
    page = Page()
    y = 720
    for title, number in [("Methods", "2"), ("Results", "3"), ("Discussion", "4")]:
        page.text(72, y, title, size=9).text(505, y, number, size=9)
        y = page.lines(72, y - 14, BODY * 2, size=9, leading=11) - 14
    later = []
    for title in ["Methods", "Results", "Discussion"]:
        body = Page().text(72, 720, title, font="Helvetica-Bold", size=12)
        body.lines(72, 690, BODY, size=9, leading=11)
        later.append(body)
    dropped = _read([page, *later]).dropped
    assert {"Methods 2", "Results 3", "Discussion 4"} <= set(dropped)
    assert not any(BODY[1] in text for text in dropped)


def test_a_statement_title_over_its_units_line_is_a_heading() -> None:
    """`CONDENSED CONSOLIDATED BALANCE SHEETS` over `(In millions)` in the same bold:
    the qualifier in parentheses does not make the title a run of bold text."""
    page = _filing_page(720, [("b", "Item 1. Financial Statements"), ("p", "")])
    page.text(72, 640, "CONDENSED CONSOLIDATED BALANCE SHEETS", font="Helvetica-Bold", size=9)
    page.text(72, 629, "(In millions)", font="Helvetica-Bold", size=9)
    page.lines(72, 610, BODY, size=9, leading=11)
    paths = _paths(_read([page]))
    assert ("Item 1. Financial Statements", "CONDENSED CONSOLIDATED BALANCE SHEETS") in paths


@pytest.mark.parametrize(("bullet_x", "text_x"), [(72, 82), (90, 100)])
def test_a_list_item_wrapped_left_of_its_text_stays_one_item(
    bullet_x: float, text_x: float
) -> None:
    """Items wrapped flush with their bullet, or with the column edge when the bullet
    is indented (NARA's plan, the Federal Register): the wrapped line goes on with the
    item's sentence instead of becoming a paragraph of its own."""
    page = Page()
    page.lines(72, 740, BODY, size=10, leading=12)
    items = [
        (
            "NARA will ensure that 85 percent of holdings are processed, meeting",
            "minimum standards for physical and intellectual control at all times.",
        ),
        (
            "By FY 2026, NARA will engage underserved communities to provide enhanced",
            "description of 16 million pages and 364,000 digital images.",
        ),
    ]
    y = 690
    for first, wrapped in items:
        page.text(bullet_x, y, "•", size=10).text(text_x, y, first, size=10)
        page.text(72, y - 12, wrapped, size=10)
        y -= 24
    page.lines(72, y - 10, BODY, size=10, leading=12)
    document = _read([page])
    lists = [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]
    assert [[item.text for item in block.items] for block in lists] == [
        [f"{first} {wrapped}" for first, wrapped in items]
    ]


def test_a_capitalised_line_flush_left_after_an_item_is_the_text_after_the_list() -> None:
    page = Page()
    page.text(72, 700, "•", size=10).text(82, 700, "Search and news advertising", size=10)
    page.text(72, 688, "The segments are described in the notes that follow.", size=10)
    document = _read([page])
    lists = [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]
    assert [[item.text for item in block.items] for block in lists] == [
        ["Search and news advertising"]
    ]
    assert "The segments are described in the notes that follow." in _paragraphs(document)


def test_a_footnote_mark_stays_in_its_line_beside_a_column_set_higher() -> None:
    """Two columns whose baselines differ by half a line (the Federal Register): a
    superscript mark in the left column overlapped the right column's row above before
    its own line's, and became a line of its own, cutting the sentence in two."""
    page = Page()
    for index in range(10):
        if index != 4:
            page.text(72, 600 - 10 * index, f"left column line {index} of the notice", size=9)
        page.text(330, 604.8 - 10 * index, f"right column line {index} of the notice", size=9)
    page.text(72, 560, "attack (AOA) sensor", size=9)
    page.text(165, 563.2, "4", size=5.8)
    page.text(170, 560, "input to the flight", size=9)
    text = " ".join(_paragraphs(_read([page])))
    assert "sensor 4 input to the flight" in text


def test_the_usual_line_gap_is_measured_on_lines_of_one_font() -> None:
    """A mathematics text: lines holding a symbol of another font are boxed by that
    font's ascent and overlap their neighbours (-3 pt); taken as the usual gap, every
    plain line (2.5 pt apart) looked a paragraph away from the next."""
    plain = [index % 9 < 3 for index in range(120)]  # 3 plain lines, then 6 with symbols
    lines, top = [], 0.0
    for index, is_plain in enumerate(plain):
        share = 1.0 if is_plain else 0.9
        lines.append(Line("text", 1, 72, 500, top, top + 11, 10.9, "CMR10", main_share=share))
        both_plain = is_plain and index + 1 < len(plain) and plain[index + 1]
        top += 11 + (2.5 if both_plain else -3.0)
    page = PageContent(1, 612, 792, list(lines))
    assert usual_line_gap([page]) == 2.5


def test_many_isolated_marks_beside_a_tall_glyph_cluster_without_a_hang() -> None:
    """20 000 small words far apart beside one tall glyph: each is tried against its
    neighbouring rows. The first version compared each with every word of its row and
    took 54 s (benchmarks/pdf_rows.py); now 0.3 s. The alarm only catches a hang."""
    words = [Word("T", 0, 30, 0, 40, 40, "F")]
    words += [Word("b", 43 + i * 100.0, 48 + i * 100.0, 31, 39, 8, "F") for i in range(20_000)]

    def hang(signum: int, frame: object) -> None:
        raise TimeoutError("row clustering took over 20 s")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(20)
    try:
        rows = _cluster(words)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert sum(len(row.words) for row in rows) == len(words)


def test_a_long_title_recurring_under_parallel_sections_is_a_heading_each_time() -> None:
    """Microsoft's MD&A repeats `Three Months Ended … Compared with Three Months Ended …`
    under each segment: six times, like a recurring label (`Example`), but a label is
    short."""
    title = "Three Months Ended December 31, 2022 Compared with Three Months Ended 2021"
    segments = ["Productivity", "Cloud", "Computing", "Gaming", "Search", "Devices"]
    pages = []
    for number in range(3):
        lines: list[tuple[str, str]] = [("p", "")]
        for segment in segments[number * 2 : number * 2 + 2]:
            lines += [("b", segment), ("p", "")]
            lines += [("i", title), ("p", ""), ("b", "Example"), ("p", "")]
        pages.append(_filing_page(740, lines))
    paths = _paths(_read(pages))
    assert [path for path in paths if path[-1] == title] == [(s, title) for s in segments]
    assert not any("Example" in path for path in paths)


def test_bold_risk_factor_sentences_head_the_paragraphs_under_them() -> None:
    """A filing's risk factors: each a bold sentence, wrapped over lines and ending in a
    full stop, over its regular paragraphs. They were refused as headings for ending
    like a sentence, so every risk sat under `Item 1A. Risk Factors` alone."""
    risks = [
        [
            "We depend on third parties and their technology to manufacture, assemble,",
            "test, package or design our products, which reduces our control over",
            "product quantity and quality, and could harm our business.",
        ],
        ["Business disruptions could harm our operations and increase our costs."],
    ]
    page = _filing_page(740, [("b", "Item 1A. Risk Factors"), ("p", "")])
    y = 660
    for risk in risks:
        y = page.lines(72, y, risk, font="Helvetica-Bold", size=9, leading=11) - 9
        y = page.lines(72, y, BODY, size=9, leading=11) - 20
    page.text(72, y, "Apple Inc.", font="Helvetica-Bold", size=9)
    page.lines(72, y - 20, BODY, size=9, leading=11)
    text = Page()
    text.lines(72, 740, BODY * 12, size=9, leading=11)  # bold is not most of the text
    paths = _paths(_read([page, text]))
    assert [path[1:] for path in paths[1:]] == [(" ".join(risk),) for risk in risks]


def test_a_heading_that_is_a_name_in_capitals_is_a_sibling_of_its_neighbours() -> None:
    """`COVID-19` is written in capitals because it is a name, not to stand out: the
    bold headings after it at the same size are its siblings, not its children."""
    page = _filing_page(
        720,
        [
            ("b", "Item 2. Management’s Discussion and Analysis"),
            ("b", "Demand and Supply"),
            ("p", ""),
            ("b", "COVID-19"),
            ("p", ""),
            ("b", "Russia"),
            ("p", ""),
        ],
    )
    titles = [path[1:] for path in _paths(_read([page]))]
    assert ("Demand and Supply",) in titles
    assert ("COVID-19",) in titles
    assert ("Russia",) in titles


def test_columns_below_full_width_text_are_read_column_by_column() -> None:
    page = Page()
    wide = "This paragraph runs across the whole width of the page before the columns start."
    page.lines(72, 740, [wide, wide], size=10, leading=12)
    left = [f"Left column sentence number {i} goes on." for i in range(1, 11)]
    right = [f"Right column sentence number {i} goes on." for i in range(1, 11)]
    page.lines(72, 690, left, size=10, leading=12)
    page.lines(330, 690, right, size=10, leading=12)
    document = _read([page])
    texts = _paragraphs(document)
    joined = " ".join(texts)
    assert joined.index("Left column sentence number 10") < joined.index(
        "Right column sentence number 1 "
    )
    assert "Left column sentence number 1 goes on. Right" not in joined


def test_text_well_below_two_columns_starts_a_paragraph_of_its_own() -> None:
    """Below a page's columns, a line after a paragraph's space is a new paragraph, though
    the column above it ends mid-sentence (agency plans: a subtitle over its text in the
    next region, `Promote A Just Transition The Paris Agreement recognized`)."""
    page = Page()
    left = [f"Left column sentence number {i} goes on." for i in range(1, 11)]
    right = [f"Right column sentence number {i} goes on." for i in range(1, 10)]
    page.lines(72, 740, left, size=10, leading=12)
    page.lines(330, 740, [*right, "Right column line number 10 goes on with"], size=10, leading=12)
    page.lines(72, 740 - 12 * 10 - 24, _WIDE, size=10, leading=12)
    paragraphs = _paragraphs(_read([page]))
    assert any(text.startswith("The agency sets out its objective") for text in paragraphs)


METRICS = [
    (
        "Office 365 Commercial seat growth",
        [
            "The number of Office 365 Commercial seats at end of period where seats",
            "are paid users covered by an Office 365 Commercial subscription",
        ],
    ),
    (
        "Microsoft 365 Consumer subscribers",
        [
            "The number of Microsoft 365 Consumer subscribers at end of period",
        ],
    ),
    (
        "Dynamics products and cloud services revenue growth",
        [
            "Revenue from Dynamics products and cloud services, including Dynamics",
            "365, comprising a set of intelligent, cloud-based applications across ERP,",
            "CRM, Customer Insights, Power Apps, and Power Automate applications",
        ],
    ),
    (
        "LinkedIn business revenue growth",
        [
            "Revenue from LinkedIn, including Talent Solutions, Marketing Solutions,",
            "Premium Subscriptions, and Sales Solutions",
        ],
    ),
    (
        "Server products and cloud services revenue growth",
        [
            "Revenue from Server products and cloud services, including Azure and",
            "other cloud services; SQL Server, Windows Server, and Visual Studio",
        ],
    ),
    (
        "Windows OEM licence revenue growth",
        [
            "Revenue from sales of Windows Pro and non-Pro licenses sold",
            "through the OEM channel",
        ],
    ),
    (
        "Search and news advertising revenue growth",
        [
            "Revenue from search and news advertising excluding traffic acquisition",
            "costs paid to Bing Ads network publishers and news partners",
        ],
    ),
]


def _metrics_page(entry_gap: float) -> Page:
    """Terms at the left, each level with its definition at the right (a 10-Q's metrics),
    entries `entry_gap` points apart beyond the 11-point leading, page number below."""
    page = Page()
    intro = "Metrics related to our segments assess the health of our core businesses."
    page.lines(72, 740, [intro + " The metrics reflect our product strategies."], size=9)
    y = 715.0
    for term, definition in METRICS:
        page.text(80, y, term, size=9)
        y = page.lines(330, y, definition, size=9, leading=11) - entry_gap
    page.text(300, y - 40, "34", size=9)
    return page


@pytest.mark.parametrize("entry_gap", [3.5, 8.0])
def test_terms_beside_their_definitions_read_term_by_term(entry_gap: float) -> None:
    """Before: a clean gutter made them two text columns, read one after the other — all
    the terms, then all the definitions (Microsoft's 10-Q, page 34, sets its entries
    3.4 points apart)."""
    document = _read([_metrics_page(entry_gap)])
    tables = _tables(document)
    assert len(tables) == 1
    assert tables[0].rows == [[term, " ".join(lines)] for term, lines in METRICS]
    assert tables[0].header == []
    data = pdf_bytes([_metrics_page(entry_gap)])
    chunk = "\n".join(c.text for c in iter_chunks_from_bytes(data, "m.pdf", "pdf"))
    assert "| Microsoft 365 Consumer subscribers | The number of Microsoft 365 Consumer" in chunk
    assert "and news partners |" in chunk  # the page number below stays out of the cell


def test_a_larger_title_beside_tightly_set_lines_does_not_merge_them() -> None:
    """DOL's strategic plan sets 9-point italics at 9-point leading beside 11-point
    titles: the title's row overlapped two of the italic lines by half their height each,
    and they read word by word interleaved ("The workplace Secretary's so that vision
    they provides may…")."""
    page = Page()
    left = ["Mine Safety and Health", "Administration (MSHA)", "Wage and Hour Division"]
    for index, text in enumerate(left):
        page.text(72, 700 - 11 * index - 2.2, text, font="Helvetica-Bold", size=11)
    right = [
        "The Secretary's vision provides workers a voice in the",
        "workplace so that they may actively participate in the",
        "protection and promotion of their workplace rights",
    ]
    page.lines(330, 701, right, font="Helvetica-Oblique", size=9, leading=9)
    document = _read([page])
    text = " ".join(_paragraphs(document))
    assert "workplace so that they may actively participate in the" in text
    assert "protection and promotion of their workplace rights" in text


def test_a_column_of_labels_over_short_texts_is_still_a_column() -> None:
    """The agency plans' stakeholder pages: prose at the left, at the right short bold
    labels each over two or three lines of text. Only 43% of the right column's rows
    fill it (the rule wanted half), so no gutter was found and each row was read
    across both columns ("…bilateral and multilat- partner nations and promote…")."""
    page = Page()
    left = [f"Left sentence {i:02d} runs across its whole column." for i in range(14)]
    page.lines(72, 700, left, size=9, leading=11)
    full = "Right column text that fills this column right to its edge"
    right = []
    for block in range(2):
        right += [f"Label {block} :", full, full, "and a short end."]
        right += [f"Other {block} :", full, "and a short end."]
    page.lines(320, 700, right, size=9, leading=11)
    document = _read([page])
    text = " ".join(_paragraphs(document))
    assert " ".join(left) in text


@pytest.mark.parametrize(
    ("first", "second", "title"),
    [
        # OPM's report: the heading read `data- driven` in the path of its 21 chunks
        (
            "Goal 3: Lead research and data-",
            "driven resource management",
            "Goal 3: Lead research and data-driven resource management",
        ),
        # the State/USAID plan: a capital after the hyphen is no reason to part the word
        (
            "UPHOLD UNIVERSAL VALUES, AND PRO-",
            "MOTE HUMAN DIGNITY",
            "UPHOLD UNIVERSAL VALUES, AND PRO-MOTE HUMAN DIGNITY",
        ),
    ],
)
def test_a_heading_wrapped_after_a_hyphen_keeps_the_word(
    first: str, second: str, title: str
) -> None:
    page = Page()
    page.text(72, 720, first, font="Helvetica-Bold", size=14)
    page.text(72, 703, second, font="Helvetica-Bold", size=14)
    page.lines(72, 680, BODY, size=10, leading=12)
    assert title in [section.title for section in _read([page]).sections()]


def test_a_cover_page_titles_the_document_and_holds_no_headings() -> None:
    cover = Page()
    cover.text(240, 700, "FORM 10-Q", font="Helvetica-Bold", size=15)
    cover.text(250, 640, "Apple Inc.", font="Helvetica-Bold", size=18)
    cover.lines(72, 600, ["(Exact name of Registrant as specified in its charter)"] * 3, size=7)
    pages = [cover]
    for number in range(
        1, 5
    ):  # at different heights: the same line at one height is a running header
        pages.append(
            _filing_page(700 - 60 * number, [("b", f"Item {number}. Section {number}"), ("p", "")])
        )
    document = _read(pages)
    assert document.title == "Apple Inc."
    titles = [s.title for s in document.sections() if s.level]
    assert titles == [f"Item {n}. Section {n}" for n in range(1, 5)]


def _plan(opening: list[tuple[str, float]]) -> tuple[list[Page], list[OutlineEntry]]:
    """An agency plan as the docugami generator sets it: page 1 opens with `opening`
    (text, size) over body text; each later page a bookmarked goal."""
    first = Page()
    y = 720.0
    for text, size in opening:
        first.text(72, y, text, font="Helvetica-Bold" if size > 10 else "Helvetica", size=size)
        y -= size * 1.3
    first.lines(72, y - 10, BODY, size=10, leading=12)
    pages, outline = [first], []
    for number in (1, 2, 3):
        goal = f"{number}. Goal Number {number}"
        page = Page().text(72, 700 - 40 * number, goal, font="Helvetica-Bold", size=14)
        page.lines(72, 670 - 40 * number, BODY, size=10, leading=12)
        pages.append(page)
        outline.append(OutlineEntry(1, goal, number + 1, None))
    return pages, outline


def _read_with_outline(pages: list[Page], outline: list[OutlineEntry]) -> Document:
    builder = TreeBuilder("pdf")
    read, _, title = read_document(pdf_bytes(pages), ParseSettings(), builder.warnings)
    return build(read, outline, title, builder)


def test_a_title_opening_page_1_is_the_root_when_the_bookmarks_leave_it_out() -> None:
    """The agency plans' bookmarks start at the first goal: `THE DHS STRATEGIC PLAN
    Fiscal Years 2020-2024`, set large over the opening text, was a paragraph, and no
    chunk after the first said which agency's plan it came from."""
    pages, outline = _plan([("THE AGENCY STRATEGIC PLAN", 17), ("Fiscal Years 2020-2024", 17)])
    document = _read_with_outline(pages, outline)
    title = "THE AGENCY STRATEGIC PLAN Fiscal Years 2020-2024"
    assert document.title == title
    assert _paths(document)[1:] == [(title, f"{n}. Goal Number {n}") for n in (1, 2, 3)]
    assert not any("STRATEGIC" in text for text in _paragraphs(document))


@pytest.mark.parametrize(
    "opening",
    [
        [("An opening line at body size", 10)],
        [("Slightly larger opening", 13)],  # under 1.5 times the body
        [("Large opening line", 17), ("Even larger line below it", 22)],  # not the largest
        [(f"Line {n} of a long opening in large type", 17) for n in range(4)],
    ],
)
def test_page_1_without_a_title_opening_it_keeps_its_lines(
    opening: list[tuple[str, float]],
) -> None:
    pages, outline = _plan(opening)
    document = _read_with_outline(pages, outline)
    assert document.title == ""
    assert _paths(document) == [(f"{n}. Goal Number {n}",) for n in (1, 2, 3)]
    assert opening[0][0] in "\n".join(_paragraphs(document))


def test_agency_plans_name_their_agency_in_every_heading_path() -> None:
    if SHARED_CORPUS is None:
        pytest.skip("needs ../shared/corpus")
    path = SHARED_CORPUS / "pdf" / "usgov" / "DHS2020.pdf"
    chunks = list(iter_chunks_from_bytes(path.read_bytes(), str(path), None, ChunkOptions()))
    assert {c.heading_path[0] for c in chunks} == {"THE DHS STRATEGIC PLAN Fiscal Years 2020-2024"}


def _nested_levels(entries: list[tuple[int, str]]) -> list[int]:
    """The levels `nest_by_number` gives bookmarks listed as (level, title)."""
    outline = [OutlineEntry(level, title, 1, None) for level, title in entries]
    return [entry.level for entry in nest_by_number(outline)]


def test_flat_bookmarks_nest_as_their_section_numbers_say() -> None:
    """The agency plans' outlines list `1.1 Intelligence`, `1.1.1 Warnings` and `Task
    1.1.1.1 Outreach` all at level 2, so `1.1.1 Warnings` was a sibling of `1.1
    Intelligence` and no path said which objective a strategy served."""
    flat = [
        (1, "1 Healthcare"),
        (2, "1.1 Choice"),
        (2, "Strategy 1.1.1 Outcomes"),
        (2, "Task 1.1.1.1 Outreach"),
        (2, "Strategy 1.1.2 Choices"),
        (2, "1.2 Services"),
        (1, "Appendix"),
        (2, "1.1 Again, under the appendix"),
    ]
    assert _nested_levels(flat) == [1, 2, 3, 4, 3, 2, 1, 2]
    already_nested = [(1, "2 Methods"), (2, "2.1 Data"), (3, "2.1.1 Sources"), (2, "Unnumbered")]
    assert _nested_levels([*already_nested, (3, "2.1.2 Cleaning")]) == [1, 2, 3, 2, 3]


def test_a_plans_tactic_sits_under_its_strategy_and_objective() -> None:
    if SHARED_CORPUS is None:
        pytest.skip("needs ../shared/corpus")
    path = SHARED_CORPUS / "pdf" / "usgov" / "HHS2022.pdf"
    chunks = list(iter_chunks_from_bytes(path.read_bytes(), str(path), None, ChunkOptions()))
    tactic = next(c for c in chunks if c.heading_path[-1].startswith("Tactic 1.1.3.1."))
    assert tactic.heading_path[1:4] == [
        "1. Healthcare",
        "1.1. Choice, Affordability & Enrollment",
        "Strategy 1.1.3. Enrollment",
    ]


def test_a_letter_spaced_title_reads_as_words() -> None:
    page = Page().text(72, 700, "Message from the Director", size=14, char_space=3)
    page.lines(72, 670, BODY, size=10)
    document = _read([page])
    assert document.sections()[1].title == "Message from the Director"


def test_words_in_ruled_table_cells_are_not_glued() -> None:
    page = Page()
    for x in (72, 272, 472):
        page.rule(x, 700, x, 640)
    for y in (700, 670, 640):
        page.rule(72, y, 472, y)
    page.text(76, 685, "Measure", size=9).text(276, 685, "Status", size=9)
    page.text(76, 655, "Leveraging the Best Evidence", size=9).text(276, 655, "On track", size=9)
    page.lines(72, 600, BODY, size=9)
    tables = _tables(_read([page]))
    assert tables and tables[0].rows == [["Leveraging the Best Evidence", "On track"]]


@pytest.mark.parametrize(
    ("text", "scheme"),
    [
        ("PART II — OTHER INFORMATION", ("kw", "part", 0)),
        ("Item 1A. Risk Factors", ("kw", "item", 2)),
        ("Note 5 – Debt", ("kw", "note", 3)),
        ("1.1.1. Warnings", ("dotted", "", 3)),
        ("Strategy 1.1.1 Roads", ("dotted", "", 3)),
        ("2. Methods", ("dotted", "", 1)),
        ("IV. Conclusions", ("roman", "", 0)),
        ("Notes to Condensed Consolidated Financial Statements", None),
        ("2022 Highlights", None),
    ],
)
def test_heading_numbering_schemes(text: str, scheme: tuple[str, str, int] | None) -> None:
    assert numbering(text) == scheme


def test_markdown_still_reads_the_same() -> None:
    # the PDF work must not touch the other formats
    assert [c.heading_path for c in chunk_text("# A\n\ntext\n\n## B\n\nmore")] == [
        ["A"],
        ["A", "B"],
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", corpus_params("pdf/sec-10q", "*.pdf") + corpus_params("pdf/usgov", "*.pdf")
)
def test_no_heading_is_lifted_out_of_a_table(path: object) -> None:
    """A column header read as a heading (`Three Months Ended`) sits right above the rest
    of its table; a row label read as one cuts its table in two. The same words may
    head a section elsewhere, even next to the table (Apple's `Americas` subheading
    below the segment table, Microsoft's segment names, OPM's `FY 2014 Results`)."""
    document = read_corpus_pdf(path).document  # type: ignore[arg-type]
    assert document is not None
    flow: list[str | Table | None] = []
    for section in document.sections():
        if section.level:
            flow.append(section.title)
        flow.extend(block if isinstance(block, Table) else None for block in section.blocks)
    flow.append(None)
    for index, title in enumerate(flow):
        if not isinstance(title, str):
            continue
        before, after = flow[index - 1] if index else None, flow[index + 1]
        if isinstance(after, Table):
            top_rows = after.header + after.rows[:1]
            assert title not in {cell.strip() for row in top_rows for cell in row}, title
            if isinstance(before, Table):
                cells = {c.strip() for t in (before, after) for row in t.rows for c in row}
                assert title not in cells, title


def test_untagged_words_after_a_tagged_cell_stay_in_its_cell() -> None:
    """Microsoft's 10-Q dividend table: pdfplumber gives the MCID to the first word of a
    cell only (`September` 246, then `20,` `2022` without one); the rest of the date
    must stay in the cell, not fall out of the table as a line of its own."""
    from structchunk.parsers.pdf.tables import tagged_tables
    from structchunk.parsers.pdf.types import CellPlace, Word

    def word(text: str, x0: float, top: float, mcid: int | None) -> Word:
        return Word(text, x0, x0 + 5.5 * len(text), top, top + 9, 9.0, "Arial", mcid, None)

    cells = {
        1: CellPlace(1, 1, 1, True),
        2: CellPlace(1, 1, 2, True),
        3: CellPlace(1, 2, 1, False),
        4: CellPlace(1, 2, 2, False),
    }
    words = [
        word("Record", 16, 100, 1),
        word("Date", 52, 100, None),
        word("Amount", 200, 100, 2),
        word("September", 16, 112, 3),
        word("20,", 69, 112, None),
        word("2022", 88, 112, None),
        word("5,066", 200, 112, 4),
        word("Unrelated", 16, 160, None),
    ]
    tables, rest = tagged_tables(words, cells, 1)
    assert [t.rows for t in tables] == [
        [["Record Date", "Amount"], ["September 20, 2022", "5,066"]]
    ]
    assert [w.text for w in rest] == ["Unrelated"]


def test_page_numbers_printed_right_after_the_text_are_dropped() -> None:
    """Microsoft's 10-Q prints each page number just below the page's last line, which
    can be mid-page: `28` ended up inside a footnote and cut a table from its lead-in."""
    pages = []
    for number in range(1, 6):
        page = Page()
        bottom = page.lines(72, 450, BODY[: 1 + number % 3], size=10, leading=12)
        page.text(300, bottom - 20, str(number), size=9)
        pages.append(page)
    document = parse(pdf_bytes(pages), "n.pdf", ParseSettings())
    texts = [block.text for section in document.sections() for block in section.blocks]
    assert not any(text.strip().isdigit() or text.rstrip()[-2:].strip().isdigit() for text in texts)
    assert sorted(document.dropped) == ["1", "2", "3", "4", "5"]


def test_a_footer_with_the_page_number_printed_right_after_the_text_is_dropped() -> None:
    """Apple's 10-Q ends each page, wherever its text stops, with `Apple Inc. | Q1 2023
    Form 10-Q | 16`: none of the 23 was dropped, and each ended up in a chunk."""
    pages = []
    for number in range(1, 6):
        page = Page()
        bottom = page.lines(72, 450 + 40 * (number % 3), BODY, size=10, leading=12)
        page.text(72, bottom - 20, f"Acme Corp. | Q1 2023 Form 10-Q | {number + 2}", size=9)
        pages.append(page)
    document = parse(pdf_bytes(pages), "f.pdf", ParseSettings())
    texts = [block.text for section in document.sections() for block in section.blocks]
    assert not any("Form 10-Q" in text for text in texts)
    assert len(document.dropped) == 5


def test_a_lone_page_number_of_a_journal_paged_through_its_volume_is_dropped() -> None:
    """The Federal Register prints `47698` alone over its first page's masthead and
    `Federal Register / Vol. 85 / Proposed Rules 47699` over the next pages: the lone
    number was a chunk of one word (five digits were no page number)."""
    pages = []
    for number in range(1, 6):
        page = Page()
        if number == 1:
            page.text(72, 760, "47698", size=9)
        else:
            page.text(
                72, 760, f"Federal Register / Vol. 85 / Proposed Rules {47697 + number}", size=9
            )
        page.lines(72, 700, BODY, size=10, leading=12)
        pages.append(page)
    document = parse(pdf_bytes(pages), "fr.pdf", ParseSettings())
    texts = [block.text for section in document.sections() for block in section.blocks]
    assert not any("4769" in text or "4770" in text for text in texts)
    assert "47698" in document.dropped


@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
def test_bullets_and_greek_letters_of_symbol_fonts_without_a_unicode_map(engine: str) -> None:
    """A French medical text embeds Wingdings 3 and Symbol without a Unicode map: its
    bullets read `h` before each item (no list) and Symbol's `β` read `b`."""
    page = Page()
    page.text(72, 700, "Causes of the disorder:", size=10)
    for index, item in enumerate(["first cause of it", "second cause of it"]):
        y = 686 - 14 * index
        page.text(80, y, "h", font="Wingdings3", size=10)
        page.text(92, y, item, size=10)
    page.text(72, 640, "Deficits in 17", size=10)
    page.text(136, 640, "a", font="Symbol", size=10)
    page.text(144, 640, "or 11", size=10)
    page.text(170, 640, "b", font="Symbol", size=10)
    page.text(176, 640, "-hydroxylase are rare.", size=10)
    document = parse(pdf_bytes([page]), "s.pdf", ParseSettings(pdf_engine=engine))
    lists = [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]
    assert [item.text for item in lists[0].items] == ["first cause of it", "second cause of it"]
    text = " ".join(_paragraphs(document))
    assert "17 α or 11 β" in text
    assert " h " not in f" {text} "


@pytest.mark.parametrize(
    ("font", "read", "drawn"),
    [
        ("Wingdings2", "¢", "•"),
        ("Wingdings-Regular", "\uf0a7", "\uf0a7"),  # mapped to its private-use code: kept
        ("ZapfDingbats", "■", "■"),  # mapped to Unicode: kept
        ("SymbolMT", "p", "π"),
        ("Symbol", "\xb3", "≥"),
        ("SymbolMT", "•", "•"),
        ("SegoeUISymbol", "b", "b"),  # a Unicode font, not Symbol
        ("Helvetica", "h", "h"),
    ],
)
def test_symbol_font_codes_read_as_their_glyphs(font: str, read: str, drawn: str) -> None:
    assert glyph_text(Word(read, 0, 5, 0, 10, 10, font)).text == drawn


_SIDE_TEXT = [
    "Both agencies are working to enhance transparency",
    "in the global financial system, secure international",
    "commitments, and build capacity to curb illicit",
    "finance and its linkages to transnational corruption",
    "and organized crime. We promote the adoption of",
    "international best practices in the form of legally",
    "binding treaties and political commitments, which",
    "are vital to good governance and prosperity.",
]


def test_a_list_of_names_beside_a_paragraph_at_another_pitch_is_read_apart() -> None:
    """Agency plans set stakeholder names (bold, 17-point pitch) beside a paragraph in
    9-point italics at 9-point pitch: no row holds both, and the names were read into
    the paragraph's sentences (`secure international Multilateral Institutions
    commitments`)."""
    page = Page()
    page.text(72, 720, "The plan names these stakeholders and what they do.", size=10)
    page.lines(330, 690, _SIDE_TEXT, font="Helvetica-Oblique", size=9, leading=9)
    names = ["Multilateral Institutions", "Civil Society", "The Media", "Private Sector"]
    page.lines(80, 685, names, font="Helvetica-Bold", size=10, leading=17)
    page.text(72, 600, "Performance indicators follow on the next page.", size=10)
    document = _read([page])
    assert " ".join(_SIDE_TEXT) in _paragraphs(document)
    read = "\n".join(_paragraphs(document) + [s.title for s in document.sections()])
    assert all(name in read for name in names)


def test_two_columns_of_labels_and_values_on_shared_baselines_stay_row_by_row() -> None:
    """A form's label and value share a baseline: read across, each label with its value."""
    page = Page()
    page.text(72, 720, "Accident report for the flight described below.", size=10)
    pairs = [("Pilot rating", "Commercial"), ("Restraint used", "Seatbelt"),
             ("Flight time", "5950 hours"), ("Engine", "Textron Lycoming"),
             ("Aircraft", "Cessna 172"), ("Weather", "Clear skies")]  # fmt: skip
    for index, (label, value) in enumerate(pairs):
        page.text(80, 690 - 17 * index, label, font="Helvetica-Bold", size=10)
        page.text(330, 690 - 17 * index, value, size=10)
    text = "\n".join(_paragraphs(_read([page])))
    for label, value in pairs:
        assert f"{label} {value}" in text


def test_terms_beside_their_wrapped_definitions_stay_with_them() -> None:
    """Each term shares a baseline with the first line of its definition: not two columns
    to read one after the other, though the definitions' other lines stand alone."""
    page = Page()
    page.text(72, 720, "The terms used in this plan are defined below.", size=10)
    terms = ["Grantee", "Outcome", "Objective"]
    for index, term in enumerate(terms):
        top = 690 - 40 * index
        page.text(80, top, term, font="Helvetica-Bold", size=10)
        page.lines(
            330,
            top,
            [f"{term} definition line one of", "the text that wraps on", "over three lines."],
        )
    text = "\n".join(_paragraphs(_read([page])))
    for term in terms:
        assert f"{term} {term} definition" in text


def _section_text(document: Document) -> str:
    """Every section's title and paragraphs, in reading order."""
    out = []
    for section in document.sections():
        out.append(section.title)
        out.extend(b.text for b in section.blocks if isinstance(b, Paragraph))
    return "\n".join(out)


_WIDE = [
    "The agency sets out its objective for the coming four years and names the people that"
    " it serves",
    "and the partners that it works with, so that each of the strategies below has someone"
    " who will",
    "carry it through and someone who benefits from it, as the stakeholder lists on this page"
    " tell.",
]
_ORGANISATIONS = [
    "Labor organizations perform an essential function",
    "in the American economy by providing a voice for",
    "workers in their workplace. They do this through",
    "negotiating agreements with employers to promote",
    "employee safety, fair and equitable policies, and",
    "fair pay. Labor unions advance the economic",
]
_ASPIRATIONS = [
    "aspirations of many communities, those in the",
    "middle class and those struggling to get there.",
    "They raise wages and improve working conditions,",
    "and they do so with an even hand. They create",
    "equity among diverse communities by closing the",
    "wage gaps that divide us by race and gender.",
]


def test_a_heading_below_two_columns_is_read_after_both_of_them() -> None:
    """DOL's plan sets a stakeholder's description in two columns, the left one line
    longer, then a heading over full-width text. The heading sat in the left column (no
    full-width row came between), so it was read before the right column: the description
    was cut in two by the heading (`Labor unions advance the economic | 2.2.1 Unions |
    aspirations of many communities`)."""
    page = Page()
    y = page.lines(72, 740, _WIDE, size=10, leading=11) - 8
    page.text(80, y, "Stakeholder(s):", font="Helvetica-Bold", size=10)
    y -= 13
    page.lines(84, y, _ORGANISATIONS, font="Helvetica-Oblique", size=9, leading=9)
    page.lines(330, y, _ASPIRATIONS, font="Helvetica-Oblique", size=9, leading=9)
    y -= 6 * 9 + 18
    page.text(72, y, "2.2.1. Unions", font="Helvetica", size=12)
    page.lines(72, y - 19, _WIDE, size=10, leading=11)
    text = _section_text(_read([page]))
    description = " ".join(_ORGANISATIONS + _ASPIRATIONS)
    assert description in text
    assert text.index(description) < text.index("2.2.1. Unions")


def test_names_beside_descriptions_read_apart_after_a_paragraph_s_last_line() -> None:
    """DOL's plan follows a paragraph whose last line ends near the margin with two
    columns of stakeholders: names and their descriptions at the left, agency names
    wrapped at the right, at another pitch. The columns were read across (`Office of
    Federal Contract Compliance | All workers have the right ... | Programs (OFCCP)`):
    the paragraph's last line leaves only the margin free, and the search for the strip
    between the columns began there and never found the strip."""
    page = Page()
    lines = [*_WIDE[:2], "carry it through and someone who benefits from it, as the lists tell."]
    y = page.lines(72, 740, lines, size=10, leading=11) - 6
    page.text(72, y, "Stakeholder(s):", font="Helvetica-Bold", size=10)
    top = y - 13
    page.text(72, top, "Workers :", font="Helvetica-Bold", size=10)
    page.lines(75, top - 13, ["All workers have the right to be paid properly",
                              "and to be treated equitably."],
               font="Helvetica-Oblique", size=9, leading=8)  # fmt: skip
    page.text(72, top - 35, "Partner Agencies Driving this Objective", font="Helvetica-Bold")
    page.text(72, top - 52, "Wage and Hour Division (WHD)", font="Helvetica-Bold")
    agencies = ["Office of Federal Contract Compliance", "Programs (OFCCP)", "",
                "Office of Labor-Management Standards", "(OLMS)"]  # fmt: skip
    page.lines(280, top, agencies, font="Helvetica-Bold", size=10, leading=11)
    text = _section_text(_read([page]))
    assert "Office of Federal Contract Compliance Programs (OFCCP)" in text
    assert "Office of Labor-Management Standards (OLMS)" in text
    assert "All workers have the right to be paid properly and to be treated equitably." in text


_WATCHDOGS = [
    "The Department and USAID balance support to civil",
    "society and media to serve as watchdogs and expose",
    "corruption, with the equally critical work of enhanc-",
    "ing the effectiveness, independence, and account-",
    "ability of public sector actors and institutions.",
]
_PARTNERS = [
    "U.S. foreign assistance will also promote comprehen-",
    "sive strategies that enhance partner nations' ability",
    "to detect, investigate, and prosecute corruption and",
    "related financial crimes at all levels. Emphasis will",
    "be placed on curbing transnational corruption, cor-",
    "ruption that undermines the functioning or legitimacy",
    "of democracy, and corruption that directly impacts",
    "the United States and its citizens.",
]


def test_two_descriptions_side_by_side_at_one_pitch_are_read_one_after_the_other() -> None:
    """The State Department's plan sets two stakeholders' descriptions side by side, their
    lines on shared baselines, between full-width text, the right one longer, with names
    below the left one: too few rows for the page's gutter, too few lines of its own on
    either side, so they were read across (`…support to civil U.S. foreign assistance
    will also promote comprehen- society and media…`)."""
    page = Page()
    y = 760.0
    for _ in range(2):  # two such blocks: the text between them covers any page gutter
        y = page.lines(72, y, _WIDE * 2, size=10, leading=11) - 8
        page.text(72, y, "Watchdogs :", font="Helvetica-Bold", size=10)
        page.text(330, y, "Partner Nations :", font="Helvetica-Bold", size=10)
        page.lines(75, y - 11, _WATCHDOGS, font="Helvetica-Oblique", size=9, leading=9)
        page.lines(333, y - 11, _PARTNERS, font="Helvetica-Oblique", size=9, leading=9)
        page.lines(72, y - 62, ["Civil Society", "The Media"], font="Helvetica-Bold", leading=17)
        y -= 110
    text = _section_text(_read([page]))
    assert "balance support to civil society and media to serve" in text
    assert "partner nations' ability to detect, investigate" in text
    assert text.index("public sector actors and institutions.") < text.index("U.S. foreign")


def test_a_description_wrapping_below_the_list_beside_it_goes_on_in_its_column() -> None:
    """DHS's plan sets descriptions at the left beside a list of names at the right; the
    last description wraps below the list's last name and goes on at the top of the right
    column. Its lines below the list were read after the right column (`transportation
    hubs, in- | Private Sector | cluding seaports`), and its last words before the right
    column's first line joined the wrong text."""
    page = Page()
    y = page.lines(72, 740, _WIDE, size=10, leading=11) - 8
    page.text(72, y, "Stakeholder(s):", font="Helvetica-Bold", size=10)
    top = y - 13
    page.text(72, top, "Seaports :", font="Helvetica-Bold", size=10)
    left = ["Beyond air transit, the agency continues to",
            "strengthen security measures at other hubs,", "including seaports, railways, and mass",
            "transit, as well as the pipelines of the", "country, and it works in close",
            "coordination with the nation's sea", "and river ports, the owners of the",
            "terminals, their port authorities and with"]  # fmt: skip
    page.lines(75, top - 9, left, font="Helvetica-Oblique", size=9, leading=9)
    page.lines(330, top, ["federal, state, and local governments", "and private partners."],
               font="Helvetica-Oblique", size=9, leading=9)  # fmt: skip
    names = ["Railways", "Mass Transit", "Pipelines"]
    page.lines(330, top - 24, names, font="Helvetica-Bold", size=10, leading=17)
    page.lines(72, top - 100, _WIDE, size=10, leading=11)
    text = _section_text(_read([page]))
    assert "their port authorities and with federal, state, and local governments" in text


def _page_ending_with(last: list[str], font: str = "Helvetica-Bold", x: float = 72) -> Page:
    """A page of wide text whose last lines are `last`, set at the foot of the page."""
    page = Page()
    page.lines(72, 740, _WIDE * 4, size=10, leading=12)
    page.lines(x, 110, last, font=font, size=10, leading=17)
    return page


def _overleaf(label: str, x: float = 72) -> Page:
    """A next page opening with `label` over wide text."""
    page = Page()
    page.text(x, 740, label, size=10)
    page.lines(72, 720, _WIDE, size=10, leading=12)
    return page


def test_a_short_line_at_the_foot_of_a_page_does_not_run_on_overleaf() -> None:
    """Agency plans list stakeholders down to the foot of a page and print `Performance
    Indicators` over the next page's table: the name does not end a sentence, so the
    label was read into its line (`State Partners Performance Indicators`)."""
    overleaf = _overleaf("Performance Indicators")
    names = ["Tribal Partners", "State Partners"]
    text = _section_text(_read([_page_ending_with(names, font="Helvetica"), overleaf]))
    assert "State Partners Performance" not in text
    assert "\nPerformance Indicators\n" in text


def test_a_row_of_names_at_the_foot_of_a_page_does_not_run_on_overleaf() -> None:
    """Names side by side (a row of cells) reach past the column's middle but are no
    sentence: `Contributing Bureau Contributing Bureau Performance Indicators`."""
    overleaf = _overleaf("Performance Indicators")
    page = _page_ending_with(["Tribal Partners"], font="Helvetica")
    page.text(360, 110, "State Partners", size=10)
    text = _section_text(_read([page, overleaf]))
    assert "State Partners Performance" not in text
    assert "\nPerformance Indicators\n" in text


def test_a_label_flush_right_overleaf_does_not_continue_a_short_line() -> None:
    """A 10-Q's signature page ends with its date; the exhibit after it prints `Exhibit
    15.1` flush right at the top of the next page: far across, not set in under the
    date, so not its continuation (`January 24, 2023 Exhibit 15.1`)."""
    overleaf = _overleaf("Exhibit 15.1", x=480)
    page = _page_ending_with(["January 24, 2023"], font="Helvetica")
    text = _section_text(_read([page, overleaf]))
    assert "2023 Exhibit" not in text
    assert "\nExhibit 15.1" in text


def _writer() -> BlockWriter:
    return BlockWriter(TreeBuilder("pdf"), Vocabulary([], hyphenates=False), line_gap=2.0)


def test_an_italic_line_at_a_page_foot_does_not_run_into_a_bold_label_overleaf() -> None:
    """A strategy's italic subtitle fills the last line of a page, and the next page
    opens with the bold label `Performance Indicators` (too common in the plan to be a
    heading): a new block, not the line's end (`…enhanced risk management Performance
    Indicators`). A plain line going on in plain text overleaf still continues."""
    last = "Leverage the modernization of the department as a gateway to strengthened risk"
    subtitle = Line(last, 1, 72, 540, 700, 710, 10, "Times-Italic", italic_share=1.0)
    label = Line("Performance Indicators", 2, 72, 180, 60, 70, 10, "Times-Bold", bold_share=1.0)
    assert not _writer()._follows(subtitle, label)
    plain = Line(last, 1, 72, 540, 700, 710, 10, "Times-Roman")
    going_on = Line("Management and the agency's partners.", 2, 72, 300, 60, 70, 10, "Times-Roman")
    assert _writer()._follows(plain, going_on)


def test_a_name_in_the_right_half_at_a_page_foot_does_not_run_on_overleaf() -> None:
    """The last of a list's names, set in its right column past the middle of the page,
    is no line of running text for the next page's first line to finish."""
    overleaf = _overleaf("Performance Indicators")
    page = _page_ending_with(["Federal Privacy Council"], font="Helvetica")
    page.text(330, 93, "HHS AI Council", size=10)
    text = _section_text(_read([page, overleaf]))
    assert "Council Performance" not in text


def test_a_term_at_the_foot_of_a_page_goes_on_into_its_definition_set_in_overleaf() -> None:
    """A definition list's term at the foot of a page, its definition set in under it on
    the next page: one paragraph still, as the text under a term is."""
    overleaf = Page()
    overleaf.lines(102, 740, ["A measure of how much demand is being placed on your system,",
                              "measured in a high-level system-specific metric."])  # fmt: skip
    text = _section_text(_read([_page_ending_with(["Traffic"], font="Helvetica"), overleaf]))
    assert "Traffic A measure of how much demand" in text


def test_a_full_line_at_the_foot_of_a_page_goes_on_overleaf() -> None:
    """A line that fills its column and ends mid-sentence goes on at the next page's top,
    a capital there (a name) notwithstanding."""
    overleaf = Page()
    overleaf.lines(72, 740, ["Department of Labor and its partners for the four years.", *_WIDE])
    last = ["The plan was written by the people who serve the public, in partnership with the"]
    page = _page_ending_with(last, font="Helvetica")
    text = _section_text(_read([page, overleaf]))
    assert "in partnership with the Department of Labor" in text


def _set_lines(page: Page, y: float, lines: list[tuple[float, str]], leading: float = 12) -> Page:
    """Lines at their own left edges, one under the other from baseline y."""
    for x, text in lines:
        page.text(x, y, text, size=10)
        y -= leading
    return page


_REFERENCES = [
    (72, "Barling, J. (1990), Employment, Stress and Family Functioning, Wiley, Chichester, and"),
    (90, "the second edition of the same work, Wiley, New York, NY."),
    (72, "Bohle, P. and Quinlan, M. (2000), Managing Occupational Health and Safety: A Multi-"),
    (90, "disciplinary Approach, Macmillan Publishers, South Yarra, with a preface by the"),
    (90, "editors of the series."),
    (72, "Costa, G. (1996), The impact of shift and night work on health, Applied Ergonomics,"),
    (90, "Vol. 27, pp. 9-16."),
]


def test_a_bibliography_set_with_a_hanging_indent_reads_entry_by_entry() -> None:
    """A reference list sets each entry's first line out and the rest in: read with the
    first-line-indent rule every entry broke after its first line and its last line ran
    into the next entry (`...pp. 1005-18. Barling, J. (1990)...`)."""
    paragraphs = _paragraphs(_read([_set_lines(Page(), 700, _REFERENCES)]))
    assert [p.split(",")[0] for p in paragraphs] == ["Barling", "Bohle", "Costa"]
    assert paragraphs[1].endswith("with a preface by the editors of the series.")


def test_first_line_indents_still_start_paragraphs_beside_a_hanging_guess() -> None:
    """The mirror image: paragraphs whose first line is set in stay apart where the
    indents say — one ending mid-sentence on a full line notwithstanding, and one whose
    first line happens to end a sentence."""
    lines = [
        (90, "The Company designs, manufactures and markets smartphones, personal computers"),
        (72, "and wearables, and sells a variety of related services around the world."),
        (90, "The FAA issued an order on March 13, 2019, which prohibits the operation of the"),
        (72, "airplanes by certificated operators until further notice from the agency, as"),
        (72, "set out in the docket of this rule and in the order that the agency issued then"),
        (90, "Quisque ullamcorper placerat ipsum, a sentence ending on the first line. Done."),
        (72, "Morbi vel justo vitae lacus tincidunt ultrices, which is the paragraph's end."),
        (90, "Sed bibendum, nulla a faucibus semper, leo velit ultricies tellus, ac venenatis"),
        (72, "arcu wisi vel nisl, the last of the paragraphs."),
    ]
    paragraphs = _paragraphs(_read([_set_lines(Page(), 700, lines)]))
    assert [p[:10] for p in paragraphs] == ["The Compan", "The FAA is", "Quisque ul", "Sed bibend"]


def test_a_poem_of_long_lines_with_turnovers_set_in_keeps_its_stanzas() -> None:
    """Each verse set out, its turnover set in, stanzas apart by a blank line: the
    turnover belongs to its verse, not to a paragraph of its own."""
    page = _set_lines(Page(), 700, [
        (72, "Here's to the crazy ones, the misfits, the rebels, the troublemakers, and"),
        (90, "the round pegs in the square holes."),
    ])  # fmt: skip
    _set_lines(page, 660, [
        (72, "The ones who see things differently, who are not fond of rules, and who"),
        (90, "have no respect for the status quo."),
    ])  # fmt: skip
    paragraphs = _paragraphs(_read([page]))
    assert len(paragraphs) == 2
    assert "troublemakers, and the round pegs" in paragraphs[0]
    assert "and who have no respect" in paragraphs[1]


_BILL = [
    "The Congress finds that the rivers of the nation are a resource of great value to",
    "the people of the United States, and that their protection from pollution is an",
    "urgent need of the present time. The Secretary shall report on the state of the",
    "rivers each year to the committees of the Senate and the House of Representatives.",
    "In this Act the term river means a natural stream of water flowing in a channel to",
    "the sea, a lake or another river, and includes its tributaries and its banks.",
]


def test_line_numbers_in_the_margin_are_dropped() -> None:
    """A bill, a pleading or a court transcript numbers its lines in the left margin,
    blank lines too; on each line's row they were read into the text (`1 The Congress
    finds…`, `2 the people…`, `11 12 The above-entitled matter`)."""
    page = Page()
    for number, line in enumerate([*_BILL, "", ""], start=1):
        y = 700 - 14 * number
        page.text(60, y, str(number), size=10)
        if line:
            page.text(90, y, line, size=10)
    document = _read([page])
    text = _section_text(document).strip()
    assert document.dropped == [str(n) for n in range(1, 9)]
    assert text.startswith("The Congress finds")
    assert "great value to the people of the United States" in text
    assert not any(f" {n} " in text for n in range(2, 7))


def _journal_page(number: int) -> Page:
    """A journal page with its short title (even pages: volume; odd: title) and page
    number set in the outer margin beside the first lines of text."""
    page = Page()
    words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf"]
    for row, line in enumerate(_WIDE * 3):
        page.text(130, 700 - 12 * row, f"{words[number]} {line}", size=10)
    notes = ["ER", "29,2", str(160 + number)] if number % 2 else ["Shift work", "interventions"]
    x = 30 if number % 2 else 540
    for row, note in zip((0, 1, 5), notes):
        page.text(x, 700 - 12 * row, note, size=13)  # larger than the text, as Emerald's
    return page


def test_margin_notes_beside_the_text_stay_out_of_its_sentences() -> None:
    """An Emerald journal sets `ER`, `29,2` and the page number beside a page's first
    lines: read into their rows they broke sentences (`the 164 so-called shift-lag
    syndrome`) and `ER`, read as a heading, stood over every section. Apart from the
    text, recurring on every other page, they are the journal's running furniture."""
    text = _section_text(_read([_journal_page(n) for n in range(1, 7)]))
    for furniture in ("ER", "29,2", "161", "163", "Shift work", "interventions"):
        assert furniture not in text.split()
    assert f"Bravo {_WIDE[0]} Bravo {_WIDE[1]}" in text


def test_a_table_s_last_column_past_the_text_s_edge_stays_in_its_rows() -> None:
    """The last column of a table wider than the prose above it is no margin note."""
    page = Page()
    y = page.lines(72, 720, _WIDE * 2, size=10, leading=12) - 20
    cells = [
        ("Austria", "8.9", "Vienna", "German"),
        ("Belgium", "11.5", "Brussels", "Dutch"),
        ("Denmark", "5.8", "Copenhagen", "Danish"),
        ("Finland", "5.5", "Helsinki", "Finnish"),
    ]
    for country, people, capital, language in cells:
        for x, cell in zip((72, 200, 300, 500), (country, people, capital, language)):
            page.text(x, y, cell, size=10)
        y -= 14
    text = _section_text(_read([page]))
    assert text.index("German") < text.index("Belgium") < text.index("Dutch")


def test_an_exhibit_index_reads_entry_by_entry() -> None:
    """A 10-Q's exhibit index sets each exhibit's number apart from its description, the
    description's other lines under its text: without a marker the numbers were no list,
    and each entry's last line ran into the next entry's number (`…Exchange Act of 1934
    31.2* Certification…`)."""
    page = Page()
    page.text(72, 730, "ITEM 6. EXHIBITS", font="Helvetica-Bold", size=10)
    page.text(60, 711, "Number      Exhibit Description", size=10)  # right above the first
    y = 700.0
    for number in ("31.1*", "31.2*", "101.INS*"):
        page.text(108 - 5 * len(number), y, number, size=10)  # set flush right
        y = page.lines(130, y, [f"Certification of the officer named in exhibit {number} as",
                                "required by Rule 13a-14(a) of the Securities",
                                "Exchange Act of 1934"], size=10, leading=11) - 6  # fmt: skip
    document = _read([page])
    lists = [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]
    assert [item.marker for item in lists[0].items] == ["31.1*", "31.2*", "101.INS*"]
    assert all(item.text.endswith("Securities Exchange Act of 1934") for item in lists[0].items)


def test_a_page_number_read_into_a_line_of_prose_starts_no_entry() -> None:
    """A journal's page number in the margin, read into a row of its text, is a number a
    gap before words — but the words go on a sentence in lower case: no entry."""
    page = Page()
    y = page.lines(72, 720, _WIDE, size=10, leading=12)
    page.text(40, y, "170", size=10)
    page.lines(72, y, ["the Site C average score was lower than before the interventions."])
    document = _read([page])
    assert not [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]


def test_a_numbered_list_set_flush_right_stays_one_list_past_nine() -> None:
    """Numbers set flush right (`9.` and `10.` start at different x) were one list up to
    `9.`; `10.` and later went into item 9's text (the SRE book's chapter list)."""
    page = Page()
    page.text(72, 720, "The chapters of the book, in order:", size=10)
    for number in range(1, 13):
        marker = f"{number}."
        page.text(100 - 5.6 * len(marker), 700 - 14 * number, marker, size=10)
        page.text(106, 700 - 14 * number, f"Chapter title number {number}", size=10)
    document = _read([page])
    lists = [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]
    assert len(lists) == 1
    assert [item.marker for item in lists[0].items] == [f"{n}." for n in range(1, 13)]


# -- hostile geometry --------------------------------------------------------------------


def _two_column_rows(far_x: float | None = None) -> list[Row]:
    """Twenty rows of two prose columns (x 72–282 and 322–532), and optionally one word
    far off the page on the first row."""
    rows = []
    for i in range(20):
        top = 100.0 + 14 * i
        words = [
            Word(f"left{j}", 72 + 36 * j, 72 + 36 * j + 30, top, top + 10, 10, "Helvetica")
            for j in range(6)
        ] + [
            Word(f"right{j}", 322 + 36 * j, 322 + 36 * j + 30, top, top + 10, 10, "Helvetica")
            for j in range(6)
        ]
        if far_x is not None and i == 0:
            words.append(Word("far", far_x, far_x + 20, top, top + 10, 10, "Helvetica"))
        rows.append(Row(words, top, top + 10))
    return rows


@pytest.mark.parametrize("far_x", [2e8, 1e10, -1e10])
def test_a_word_at_an_absurd_coordinate_costs_no_memory(far_x: float) -> None:
    """Before: the gutter search allocated a list as wide as the text's extent in points —
    1.6 GB for a word at x = 2·10⁸, MemoryError (the file failed) at 10¹⁰."""
    import tracemalloc

    expected = find_gutters(_two_column_rows(), 10.0)
    assert expected == [(283, 322)]
    tracemalloc.start()
    try:
        gutters = find_gutters(_two_column_rows(far_x), 10.0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert all(x0 < x1 for x0, x1 in gutters)


def test_a_two_column_page_with_a_word_at_x_10_to_the_10_converts() -> None:
    """Before: MemoryError, "no page could be read" (and 1.6 GB, 18 s at x = 2·10⁸)."""
    page = Page()
    for i in range(30):
        page.text(72, 700 - 14 * i, f"Left column line {i} has some words.")
        page.text(330, 700 - 14 * i, f"Right column line {i} has words too.")
    page.ops.append("BT /F1 10 Tf 10000000000 630 Td (far away) Tj ET")  # not `:g` notation
    chunks = iter_chunks_from_bytes(pdf_bytes([page]), "far.pdf", "pdf")
    text = " ".join(c.text for c in chunks)
    assert "Left column line 29" in text and "far away" in text


def _page(number: int, chars: int, images: int) -> object:
    from structchunk.parsers.pdf.types import PageContent

    page = PageContent(number, 612.0, 792.0, chars=chars, images=images)
    page.items.append(object())  # type: ignore[arg-type] - only "has text" is asked
    return page


@pytest.mark.parametrize(
    ("pages", "warned"),
    [
        ([(1, 69, 1)], True),  # a trial-version banner over a scanned page
        ([(1, 69, 1), (2, 40, 1)], True),
        ([(1, 40, 1), (2, 2500, 0), (3, 2600, 0)], False),  # a title page with a logo
        ([(1, 69, 0)], False),  # little text, but nothing that could hold more
    ],
)
def test_a_pdf_with_images_and_almost_no_text_is_reported(
    pages: list[tuple[int, int, int]], warned: bool
) -> None:
    """Before: an image-only PDF whose only text was a watermark converted to one chunk,
    exit 0, and no word said that its content was missing."""
    from structchunk.parsers.pdf import DocumentWork, _check_pages

    builder = TreeBuilder("pdf")
    _check_pages(DocumentWork([_page(*p) for p in pages], [], "", builder))  # type: ignore[arg-type]
    assert any("almost no text" in w for w in builder.warnings) is warned


@pytest.mark.slow
def test_the_trial_version_watermark_pdf_warns() -> None:
    from conftest import SHARED_CORPUS

    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    path = SHARED_CORPUS / "robustness" / "pdf" / "pypdf-samples" / "base64image.pdf"
    document = parse(path.read_bytes(), str(path), ParseSettings())
    assert any("almost no text (69 characters on 1 page)" in w for w in document.warnings)


def _banded_table(page: Page, top: float, band: str, rows: list[tuple[str, str]]) -> Page:
    """A ruled table of two columns under a band of one cell across it, as the 2014
    performance report boxes each measure: band, column titles, then label and value."""
    x0, split, x1, height = 72, 162, 540, 20
    bottom = top - height * (len(rows) + 1)
    page.box(x0, bottom, x1 - x0, height * (len(rows) + 1))
    page.text(76, top - 14, band, font="Helvetica-Bold")
    y = top - height
    page.rule(x0, y, x1, y)
    page.rule(split, bottom, split, y)  # the column rule starts below the band
    for label, value in rows:
        page.text(76, y - 14, label, font="Helvetica-Bold")
        page.text(166, y - 14, value)
        y -= height
        if y > bottom:
            page.rule(x0, y, x1, y)
    return page


@pytest.mark.parametrize("engine", ["pdfium", "pdfplumber"])
def test_a_band_across_a_ruled_table_is_read_over_it_not_as_its_first_row(
    engine: PdfEngine,
) -> None:
    """The band made the table's first column as wide as the table, so its columns
    "overlapped" and the table was read as text: `Data Type Program Definition` became
    one header cell over the rows' values."""
    rows = [
        ("Data Type", "Description"),
        ("Program", "Federal Investigative Services (FIS)"),
        ("Definition", "The average number of days to complete the investigation."),
        ("Frequency", "Quarterly"),
    ]
    page = _banded_table(Page(), 700, "PERFORMANCE MEASURE: Claims Inventory", rows)
    document = parse(pdf_bytes([page]), "test.pdf", ParseSettings(pdf_engine=engine))
    (table,) = _tables(document)
    assert table.header == [["Data Type", "Description"]]
    assert table.rows[0] == ["Program", "Federal Investigative Services (FIS)"]
    assert table.rows[-1] == ["Frequency", "Quarterly"]
    assert "PERFORMANCE MEASURE: Claims Inventory" in " ".join(
        [*_paragraphs(document), *(" ".join(path) for path in _paths(document))]
    )


def test_a_banded_frame_without_a_row_of_two_cells_is_no_table() -> None:
    """A plot's frame under a title band holds axis labels, one to a row: text, no grid."""
    rows = [("5 4 3", ""), ("", "2 1 0")]
    page = _banded_table(Page(), 700, "Figure axes", rows)
    assert _tables(_read([page])) == []


def test_a_row_of_form_fields_is_no_header() -> None:
    """An accident report boxes `Aircraft Make: | Cessna | Registration: | N2151J`: a
    record of fields, which as a header was repeated over every piece of the table."""
    form = [
        ["Aircraft Make:", "Cessna", "Registration:", "N2151J"],
        ["Model/Series:", "Skyhawk 172", "Aircraft Category:", "Airplane"],
    ]
    assert header_rows(form) == 0
    titled = [["Accrued Liabilities:", "October 30, 2022", "January 30, 2022"], ["Taxes", "1", "2"]]
    assert header_rows(titled) == 1


def test_chinese_lines_that_wrap_join_without_a_space() -> None:
    """Chinese and Japanese are set without spaces and wrap between any two characters:
    `扣除非经常性损` / `益的净利润` is one word run, not `损 益` (pdfplumber issue 67's
    quarterly report had 146 such spaces in its paragraphs and cells). Latin text beside
    it still joins with a space."""
    join = Vocabulary([], hyphenates=False).join
    assert join("扣除非经常性损", "益的净利润") == "扣除非经常性损益的净利润"
    assert (
        join("保证季度报告内容的真", "实、准确、完整。") == "保证季度报告内容的真实、准确、完整。"
    )
    assert join("净利润（元", "）") == "净利润（元）"
    assert join("报告期 2018", "年第一季度") == "报告期 2018 年第一季度"
    assert join("the report", "covers") == "the report covers"
    assert cell_text("计入营\n业外收入") == "计入营业外收入"
    assert cell_text("Net\nincome") == "Net income"


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_a_chinese_report_keeps_no_spaces_where_its_lines_wrap() -> None:
    """The corpus's Chinese quarterly report: at most as many spaces between two Chinese
    characters as pdfplumber's own text of it has (a space there is a column gap)."""
    path = SHARED_CORPUS / "pdf" / "pdfplumber" / "issue-67-example.pdf"
    chunks = list(iter_chunks_from_bytes(path.read_bytes(), str(path), "pdf", ChunkOptions()))
    between = re.compile(
        r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef] [\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
    )
    assert len(between.findall(" ".join(c.body for c in chunks))) <= 55
