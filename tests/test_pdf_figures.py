"""Charts in PDFs: the words printed on a plot (ticks, data labels, legend, axis titles)
are one `figure` block with its caption, never text run into a paragraph.

The pure stages (scales, areas, taking the words) work on built words and boxes; a
bar chart written by the test (tests/pdf_factory) goes through both engines; the agency
report's charts are read from the shared corpus."""

from __future__ import annotations

import time

import pytest
from conftest import SHARED_CORPUS
from corpus_pdf import read_corpus_pdf
from pdf_factory import Page, pdf_bytes

from structchunk import ChunkOptions, chunk_text
from structchunk.document import Document, Figure, Paragraph
from structchunk.options import PdfEngine
from structchunk.packing import Packer
from structchunk.parsers import ParseSettings
from structchunk.parsers.pdf import parse
from structchunk.parsers.pdf.figures import (
    MAX_DRAWINGS,
    drawing_clusters,
    figure_areas,
    find_scales,
    take_figures,
)
from structchunk.parsers.pdf.types import Word

ENGINES: tuple[PdfEngine, ...] = ("pdfium", "pdfplumber")
EM = 10.0


def _word(text: str, x0: float, top: float, size: float = 10.0) -> Word:
    return Word(text, x0, x0 + 5.5 * len(text) * size / 10, top, top + size, size, "Helvetica")


def _column(
    values: list[str], right: float = 140, top: float = 100, pitch: float = 36
) -> list[Word]:
    """Numbers right-aligned on `right`, one under the other."""
    words = []
    for index, value in enumerate(values):
        word = _word(value, 0, top + index * pitch)
        width = word.x1 - word.x0
        word.x0, word.x1 = right - width, right
        words.append(word)
    return words


@pytest.mark.parametrize(
    ("values", "scale"),
    [
        (["20000", "15000", "10000", "5000", "0"], True),  # a y axis: falling by a round step
        (["100%", "75%", "50%", "25%", "0%"], True),
        (["76.5", "75.7", "74.9", "74.1", "73.3"], False),  # a table column: not a round step
        (["2023", "2024", "2025", "2026", "2027"], False),  # rising down the page: a table's
        (["20000", "15000", "10000"], False),  # three in step happen anywhere
        (["20000", "15000", "12000", "5000", "0"], False),
    ],
)
def test_a_vertical_scale_falls_by_a_round_step(values: list[str], scale: bool) -> None:
    assert bool(find_scales(_column(values), EM)) is scale


def test_a_horizontal_scale_rises_apart_and_numbers_in_a_sentence_are_no_scale() -> None:
    ticks = [_word(f"{10 * i}%", 100 + 60 * i, 500) for i in range(6)]
    assert [s.vertical for s in find_scales(ticks, EM)] == [False]
    sentence = [_word(str(i), 100 + 9 * i, 500) for i in range(1, 7)]  # `1 2 3 4 5 6`
    assert find_scales(sentence, EM) == []


def _run(text: str, x0: float, top: float) -> list[Word]:
    """Words of a line of text, a word space apart."""
    words = []
    for token in text.split():
        words.append(_word(token, x0, top))
        x0 = words[-1].x1 + 3
    return words


def _chart_words() -> list[Word]:
    """A y axis right-aligned at x=140 from top 100, bars' data labels, dates under it."""
    words = _column(["20000", "15000", "10000", "5000", "0"])
    words += [_word(value, 170 + 60 * i, 136) for i, value in enumerate(["16618", "14551"])]
    words += [_word(date, 165 + 60 * i, 258) for i, date in enumerate(["Apr-14", "May-14"])]
    return words


def _plot() -> list[tuple[float, float, float, float]]:
    """An axis from (148, 105) down to 250 and across to 400, two bars on it."""
    return [
        (148, 105, 148.5, 250),
        (148, 249.5, 400, 250),
        (160, 160, 200, 250),
        (220, 170, 260, 250),
    ]


def test_a_scale_beside_a_plot_makes_a_figure_area_and_without_one_none() -> None:
    words = _chart_words()
    assert figure_areas(words, [], (612, 792), EM) == []
    assert figure_areas(words, [(500, 600, 560, 700)], (612, 792), EM) == []  # drawing elsewhere
    (area,) = figure_areas(words, _plot(), (612, 792), EM)
    assert area[0] < 140 and area[2] >= 400 and area[1] <= 105 and area[3] >= 250


def test_the_figure_takes_its_labels_and_leaves_the_text_around_it() -> None:
    """Labels in the plot or just under it go to the figure; a line of text crossing
    the figure's edge, a sentence inside it and a footer in the margin band stay text."""
    words = _chart_words()
    crossing = _run("The claims fell.", 100, 272)
    footer = _run("Annual Report", 150, 740)
    sentence = _run("Claims are counted at the end of each month in the year.", 160, 200)
    page_words = [*words, *crossing, *footer, *sentence]
    areas = figure_areas(page_words, [*_plot(), (150, 735, 300, 736)], (612, 792), EM)
    figures, rest, _ = take_figures(page_words, [], areas, (1, 792.0), EM)
    (figure,) = figures
    assert figure.lines == ["20000", "15000 16618 14551", "10000", "5000", "0", "Apr-14 May-14"]
    assert {w.text for w in rest} == {w.text for w in [*crossing, *footer, *sentence]}


def _bar_chart(caption: str = "Figure 2: Claims pending, April and May 2014") -> Page:
    page = Page()
    page.lines(72, 720, ["Claims went down over the spring, as the chart below shows."])
    page.text(72, 690, caption)
    for index, value in enumerate(["20000", "15000", "10000", "5000", "0"]):
        page.text(110, 640 - 30 * index, value, size=8)
    page.rule(150, 645, 150, 518).rule(150, 518, 400, 518)
    page.ops.append("170 518 40 110 re f 250 518 40 97 re f")
    page.text(178, 632, "16618", size=8).text(258, 619, "14551", size=8)
    page.text(178, 506, "Apr-14", size=8).text(258, 506, "May-14", size=8)
    page.lines(72, 470, ["The backlog is expected to keep falling through the summer."])
    return page


@pytest.mark.parametrize("engine", ENGINES)
def test_a_charts_labels_are_a_figure_with_its_caption(engine: PdfEngine) -> None:
    """The agency report's charts ran into the text as `15000 10000 16618 14551 …
    Apr-14 May-14`."""
    document = parse(pdf_bytes([_bar_chart()]), "chart.pdf", ParseSettings(pdf_engine=engine))
    blocks = [block for section in document.sections() for block in section.blocks]
    figures = [block for block in blocks if isinstance(block, Figure)]
    assert [(f.caption, f.text.split("\n")[0], f.text.split("\n")[-1]) for f in figures] == [
        ("Figure 2: Claims pending, April and May 2014", "20000", "Apr-14 May-14")
    ]
    paragraphs = [block.text for block in blocks if isinstance(block, Paragraph)]
    assert not any("15000" in text or "Apr-14" in text for text in paragraphs)
    assert any(text.startswith("Claims went down") for text in paragraphs)
    assert any(text.startswith("The backlog") for text in paragraphs)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_figure_in_the_chunks(engine: PdfEngine) -> None:
    """A figure renders as its caption over its lines, a block of kind `figure`; too
    big for the budget, it is cut between its lines."""
    chart = _bar_chart("Figure 2: Claims pending")
    document = parse(pdf_bytes([chart]), "chart.pdf", ParseSettings(pdf_engine=engine))
    (figure,) = [b for s in document.sections() for b in s.blocks if isinstance(b, Figure)]
    rendered = f"{figure.caption}\n{figure.text}"
    chunks = Packer(ChunkOptions(max_tokens=40, heading_prefix=False)).pack(document)
    (chunk,) = [c for c in chunks if "figure" in c.block_types]
    assert rendered in chunk.body
    pieces = Packer(ChunkOptions(max_tokens=8, heading_prefix=False)).pack(document)
    cut = [c.body for c in pieces if "figure" in c.block_types]
    assert len(cut) > 1
    lines = {line for body in cut for line in body.split("\n")}
    assert set(rendered.split("\n")) <= lines  # cut between its lines only


def test_other_formats_have_no_figures() -> None:
    chunks = chunk_text("<figure><figcaption>Figure 1</figcaption>1 2 3</figure>", "html")
    assert all("figure" not in chunk.block_types for chunk in chunks)


@pytest.mark.slow
def test_the_agency_reports_charts_are_figures_not_paragraphs() -> None:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    reading = read_corpus_pdf(SHARED_CORPUS / "pdf/usgov/2014-annual-performance-report.pdf")
    assert isinstance(reading.document, Document)
    blocks = [b for s in reading.document.sections() for b in s.blocks]
    figures = [b.text for b in blocks if isinstance(b, Figure)]
    assert any("16618" in text and "Apr-14" in text for text in figures)
    paragraphs = [b.text for b in blocks if isinstance(b, Paragraph)]
    assert not any("15000" in text and "10000" in text for text in paragraphs)


def test_drawings_cluster_by_touching_and_a_dense_page_stays_cheap() -> None:
    apart = [(0.0, 0.0, 10.0, 10.0), (12.0, 0.0, 20.0, 10.0), (100.0, 100.0, 110.0, 110.0)]
    assert sorted(drawing_clusters(apart)) == [(0.0, 0.0, 20.0, 10.0), (100.0, 100.0, 110.0, 110.0)]
    dense = [
        (i % 40 * 0.5, i // 40 * 0.5, i % 40 * 0.5 + 0.2, i // 40 * 0.5 + 0.2)
        for i in range(MAX_DRAWINGS)
    ]
    started = time.process_time()
    assert len(drawing_clusters(dense)) == 1
    assert time.process_time() - started < 2.0
