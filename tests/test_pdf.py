"""The PDF parser: the sample, regressions named for what broke, and bad input.

Tests that need a PDF other than the sample read it from the shared corpus and are
skipped without it; the pure stages (hyphens, running headers) need no PDF at all.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SHARED_CORPUS

from structchunk import chunk_file
from structchunk.document import Code, Document, ListBlock, Paragraph, Table
from structchunk.errors import EncryptedDocumentError, NoTextError, ParseError
from structchunk.options import PdfEngine
from structchunk.parsers import ParseSettings, detect_format
from structchunk.parsers import pdf as pdf_parser
from structchunk.parsers.pdf.cleanup import Vocabulary, clean_text
from structchunk.parsers.pdf.engines import open_document
from structchunk.parsers.pdf.engines.pdfplumber.page import is_hidden_text
from structchunk.parsers.pdf.furniture import drop_furniture
from structchunk.parsers.pdf.types import Line, PageContent

SAMPLE = ROOT / "samples" / "rust-data-types.pdf"
ENGINES: tuple[PdfEngine, ...] = ("pdfium", "pdfplumber")


def parse(path: Path, **options: Any) -> Document:
    return pdf_parser.parse(path.read_bytes(), str(path), ParseSettings(**options))


def corpus_pdf(relative: str) -> Path:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    path = SHARED_CORPUS / relative
    if not path.exists():
        pytest.skip(f"{relative} is not in the corpus")
    return path


def headings(document: Document) -> list[tuple[int, str]]:
    return [(s.level, s.title) for s in document.sections() if s.level]


def text_of(document: Document) -> str:
    parts = []
    for section in document.sections():
        parts.append(section.title)
        for block in section.blocks:
            if isinstance(block, Paragraph | Code):
                parts.append(block.text)
            elif isinstance(block, ListBlock):
                parts.extend(item.text for item in block.items)
            elif isinstance(block, Table):
                parts.extend(" ".join(row) for row in block.header + block.rows)
    return "\n".join(parts)


# -- the sample -------------------------------------------------------------------


def test_pdf_is_registered() -> None:
    assert detect_format("manual.PDF") == "pdf"


@pytest.mark.parametrize("engine", ENGINES)
def test_sample_headings_come_from_the_tags(engine: PdfEngine) -> None:
    found = headings(parse(SAMPLE, pdf_engine=engine))
    assert found[:4] == [
        (2, "Data Types"),
        (3, "Scalar Types"),
        (4, "Integer Types"),
        (5, "Integer Overflow"),
    ]
    assert (4, "Invalid Array Element Access") in found
    assert len(found) == 13


@pytest.mark.parametrize("engine", ENGINES)
def test_sample_table_continued_on_the_next_page_is_one_table(engine: PdfEngine) -> None:
    document = parse(SAMPLE, pdf_engine=engine)
    tables = [b for s in document.sections() for b in s.blocks if isinstance(b, Table)]
    first = tables[0]
    assert first.caption == "Table 3-1: Integer Types in Rust"
    assert first.header == [["Length", "Signed", "Unsigned"]]
    assert first.rows[0] == ["8-bit", "i8", "u8"]
    assert first.rows[-1] == ["Architecture-dependent", "isize", "usize"]
    assert len(first.rows) == 6  # the header repeated on page 2 is not a row
    assert [p.pages for p in first.row_provs] == [(1,)] * 5 + [(2,)]
    assert first.prov.pages == (1, 2)


def test_every_block_and_chunk_knows_its_pages() -> None:
    document = parse(SAMPLE)
    for section in document.sections():
        for block in section.blocks:
            assert block.prov.pages, block
    chunks = chunk_file(SAMPLE, max_tokens=128)
    assert chunks and all(c.pages for c in chunks)
    assert chunks[-1].pages == [7]


@pytest.mark.parametrize("engine", ENGINES)
def test_paragraph_continues_across_a_page_break(engine: PdfEngine) -> None:
    document = parse(SAMPLE, pdf_engine=engine)
    spanning = [
        b
        for s in document.sections()
        for b in s.blocks
        if isinstance(b, Paragraph) and len(b.prov.pages) > 1
    ]
    assert spanning, "no paragraph runs over a page break in the sample"
    assert all("  " not in b.text and "\n" not in b.text for b in spanning)


@pytest.mark.parametrize("engine", ENGINES)
def test_code_blocks_keep_their_lines(engine: PdfEngine) -> None:
    document = parse(SAMPLE, pdf_engine=engine)
    code = [b for s in document.sections() for b in s.blocks if isinstance(b, Code)]
    months = next(c for c in code if "January" in c.text)
    assert months.text.count("\n") == 1  # two source lines, the second indented
    assert months.text.splitlines()[1].startswith('              "August"')


# -- text clean-up ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "joined"),
    [
        ("the infor-", "mation age", "the information age"),  # seen elsewhere joined
        ("a well-", "known fact", "a well-known fact"),  # seen elsewhere hyphenated
        ("the COVID-", "19 pandemic", "the COVID-19 pandemic"),  # not a word break
        ("see Jean-", "Paul", "see Jean-Paul"),  # capital: a real hyphen
        ("plain", "text", "plain text"),
    ],
)
def test_line_end_hyphens(left: str, right: str, joined: str) -> None:
    vocabulary = Vocabulary(["information is power", "a well-known name"], hyphenates=False)
    assert vocabulary.join(left, right) == joined


def test_line_end_hyphen_without_evidence_follows_the_document_habit() -> None:
    assert Vocabulary([], hyphenates=True).join("adip-", "iscing") == "adipiscing"
    assert Vocabulary([], hyphenates=False).join("build-", "essential") == "build-essential"


def test_ligatures_and_unmapped_glyphs_are_normalised() -> None:
    assert clean_text("ﬁnal  ﬂow\u00a0(cid:12) of\u00adfice") == "final flow office"


# -- running headers and page numbers ----------------------------------------------


def _line(text: str, page: int, top: float) -> Line:
    return Line(
        text=text, page=page, x0=72, x1=300, top=top, bottom=top + 10, size=10, font="Times"
    )


def test_running_header_and_page_numbers_are_dropped_body_text_is_not() -> None:
    pages = []
    for number in range(1, 6):
        page = PageContent(number, 612, 792)
        page.items = [
            _line(f"Annual Report 2022 — page {number} of 5", number, 30),
            _line(f"Body text that differs on page {number}.", number, 300),
            _line("Repeated body sentence.", number, 400),
            _line(str(number), number, 760),
        ]
        pages.append(page)
    assert len(drop_furniture(pages)) == 10
    assert [line.text for line in pages[2].lines()] == [
        "Body text that differs on page 3.",
        "Repeated body sentence.",
    ]


def test_a_piece_of_a_running_header_printed_alone_is_dropped() -> None:
    """Agency plans print `Strategic Plan` in a coloured band at the left and the agency
    at the right: one line on most pages, two where the page's columns part it, and the
    contents pages print `Strategic Plan` alone. Those pieces were kept, and ran into
    the text (`radiation U.S. Environmental Protection Agency monitoring system`)."""
    pages = []
    for number in range(1, 8):
        page = PageContent(number, 612, 792)
        if number in (6, 7):  # parted, or one piece only
            header = [replace(_line("Strategic Plan", number, 30), x1=130)]
            if number == 6:
                header.append(replace(_line("Agency Name", number, 30), x0=480, x1=546))
        else:
            header = [replace(_line("Strategic Plan Agency Name", number, 30), x1=546)]
        page.items = [*header, _line("The body text of the page.", number, 300)]
        pages.append(page)
    title = replace(_line("Agency Name", 7, 60), x0=200, x1=280)  # not flush with it: kept
    pages[-1].items.insert(1, title)
    drop_furniture(pages)
    assert all(line.text == "The body text of the page." for line in pages[5].lines())
    assert [line.text for line in pages[6].lines()] == ["Agency Name", "The body text of the page."]


@pytest.mark.parametrize(("under_the_header", "kept"), [(True, True), (False, False)])
def test_a_large_line_recurring_under_the_running_header_is_a_heading(
    under_the_header: bool, kept: bool
) -> None:
    """The 2014 performance report tops each goal's results page, under its running
    header, with `FY 2014 Results` at 15 pt: on 4 of 20 pages at one height, enough for a
    part's own running header, it was dropped as one. Large type under the running header
    is a heading; a part's running header is small or the page's outermost text."""
    pages = []
    for number in range(1, 21):
        page = PageContent(number, 612, 792)
        items = [_line("Annual Performance Report", number, 30)] if under_the_header else []
        if number % 5 == 0:
            items.append(replace(_line("FY 2014 Results", number, 60), size=15, bottom=75))
        items.append(_line("The body text of the page, in the body's size.", number, 300))
        page.items = items
        pages.append(page)
    drop_furniture(pages)
    texts = [line.text for page in pages for line in page.lines()]
    assert ("FY 2014 Results" in texts) is kept
    assert "Annual Performance Report" not in texts


def test_running_header_of_a_real_report_is_dropped() -> None:
    path = corpus_pdf("pdf/pdfplumber/federal-register-2020-17221.pdf")
    text = text_of(parse(path))
    # `Federal Register / Vol. 85, No. 152 / Thursday, …` tops pages 2–15; the masthead of
    # page 1 prints it once as the title
    assert text.count("Vol. 85, No. 152") == 1


def _char(size: float, color: Any) -> dict[str, Any]:
    return {"object_type": "char", "text": "x", "size": size, "non_stroking_color": color}


@pytest.mark.parametrize(
    ("size", "color", "hidden"),
    [
        (1.0, (1.0, 1.0, 1.0), True),  # 1-pt white ids some generators print on every page
        (1.1, (1,), True),
        (1.0, (0, 0, 0, 0), True),  # CMYK white
        (1.0, (0.0,), False),  # small black type is printed to be read (scaled tables)
        (10.0, (1.0, 1.0, 1.0), False),  # white on a dark box is visible
        (1.0, None, False),
        (1.0, ("P0",), False),  # a pattern colour
        (0.0, (1.0,), False),  # no size known: not evidence of anything
    ],
)
def test_hidden_text_is_tiny_and_white(size: float, color: Any, hidden: bool) -> None:
    assert is_hidden_text(_char(size, color)) is hidden


def test_hidden_ids_of_a_real_report_are_dropped() -> None:
    path = corpus_pdf("pdf/usgov/DHS2020.pdf")
    text = text_of(parse(path))
    assert "c0c9-11ec" not in text  # `_63ec12c0-c0c9-11ec-a4ba-aeec1c83ea00` on each page
    assert "A secure Homeland" in text


# -- reading order -------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_two_column_page_is_read_column_by_column(engine: PdfEngine) -> None:
    path = corpus_pdf("pdf/pypdf-samples/multicolumn.pdf")
    text = text_of(parse(path, pdf_engine=engine))
    left_end = text.index("Pellentesque cursus luctus mauris.")
    right_start = text.index("pellentesque ante. Phasellus adipiscing")
    assert left_end < right_start
    assert "adipiscing elit. Ut purus elit" in text  # `adip-` / `iscing` repaired


def test_three_column_register_keeps_sentences_together() -> None:
    path = corpus_pdf("pdf/pdfplumber/federal-register-2020-17221.pdf")
    text = " ".join(text_of(parse(path)).split())
    assert "Investigation of the accident has been completed by the Indonesian authorities" in text


# -- headings -------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_tagged_heading_with_a_ligature_stays_one_heading(engine: PdfEngine) -> None:
    """pdfplumber drops the marked-content id after a nested `fi` ligature span."""
    path = corpus_pdf("pdf/fastapi/tutorial-request-files.pdf")
    found = [title for _, title in headings(parse(path, pdf_engine=engine))]
    assert "Define File Parameters" in found
    assert "File Parameters with UploadFile" in found  # `{ #file-` / `…}` over two lines


def test_untagged_heading_with_inline_code_is_found_by_typography() -> None:
    path = corpus_pdf("pdf/untagged/rust-book-appendix-03-derivable-traits.pdf")
    found = headings(parse(path))
    assert (2, "Debug for Programmer Output") in found
    assert found[0] == (1, "Appendix C: Derivable Traits")


def test_bold_body_font_pseudo_headings_are_not_headings() -> None:
    path = corpus_pdf("pdf/untagged/awsdocs-CHAP_BestPractices.pdf")
    titles = [title for _, title in headings(parse(path))]
    assert "Topics" not in titles and "Note" not in titles


def test_bookmarks_give_headings_when_there_are_no_tags() -> None:
    path = corpus_pdf("pdf/usgov/NARA2022.pdf")
    titles = [title for _, title in headings(parse(path))]
    assert len(titles) >= 20


@pytest.mark.parametrize("engine", ENGINES)
def test_nested_lists_from_drawn_bullets(engine: PdfEngine) -> None:
    path = corpus_pdf("pdf/untagged/fastapi-deployment-concepts.pdf")
    document = parse(path, pdf_engine=engine)
    lists = [b for s in document.sections() for b in s.blocks if isinstance(b, ListBlock)]
    tools = next(b for b in lists if b.items[0].text == "Traefik")
    # the page prints a sparkle emoji after "renewals": pdfminer finds no Unicode for it
    assert [(i.depth, i.text.removesuffix(" ✨")) for i in tools.items[:2]] == [
        (0, "Traefik"),
        (1, "Automatically handles certificate renewals"),
    ]


# -- bad input -------------------------------------------------------------------------


def test_encrypted_pdf_asks_for_a_password() -> None:
    path = corpus_pdf("robustness/pdf/pdfplumber/password-example.pdf")
    with pytest.raises(EncryptedDocumentError, match="pdf_password="):
        parse(path)
    with pytest.raises(EncryptedDocumentError, match="wrong"):
        parse(path, pdf_password="nope")
    assert text_of(parse(path, pdf_password="test")).strip()


def test_aes256_pdf_opens_with_its_password() -> None:
    path = corpus_pdf("robustness/pdf/generated/aes256-user-password.pdf")
    assert headings(parse(path, pdf_password="secret"))


def test_not_a_pdf_and_empty_file() -> None:
    with pytest.raises(ParseError, match="not a PDF"):
        pdf_parser.parse(b"<html><body>hello</body></html>", "x.pdf", ParseSettings())
    with pytest.raises(ParseError, match="empty"):
        pdf_parser.parse(b"", "x.pdf", ParseSettings())


def test_scan_without_text_layer_is_a_no_text_error() -> None:
    path = corpus_pdf("robustness/pdf/pypdf-samples/imagemagick-CCITTFaxDecode.pdf")
    with pytest.raises(NoTextError, match="OCR"):
        parse(path, ocr="never")


@pytest.mark.parametrize("engine", ENGINES)
def test_truncated_file_is_repaired_with_a_warning(engine: PdfEngine) -> None:
    path = corpus_pdf("robustness/pdf/generated/truncated-no-eof.pdf")
    document = parse(path, pdf_engine=engine)
    assert any("repaired" in w for w in document.warnings)
    assert headings(document)


@pytest.mark.parametrize("engine", ENGINES)
def test_junk_before_the_header_is_skipped(engine: PdfEngine) -> None:
    data = b"junk line\r\n" * 10 + SAMPLE.read_bytes()
    document = pdf_parser.parse(data, "junk.pdf", ParseSettings(pdf_engine=engine))
    assert headings(document)[0] == (2, "Data Types")


@pytest.mark.parametrize("engine", ENGINES)
def test_rotated_pages_are_read_in_their_reading_frame(engine: PdfEngine) -> None:
    plain = text_of(
        parse(corpus_pdf("robustness/pdf/generated/object-streams.pdf"), pdf_engine=engine)
    )
    turned = text_of(
        parse(corpus_pdf("robustness/pdf/generated/rotated-pages-1-5.pdf"), pdf_engine=engine)
    )
    assert "Strategic Plan" in turned
    words = set(plain.split())
    assert len(words & set(turned.split())) > 0.8 * len(words)


@pytest.mark.parametrize("engine", ENGINES)
def test_one_bad_page_does_not_lose_the_others(
    monkeypatch: pytest.MonkeyPatch, engine: PdfEngine
) -> None:
    from structchunk.parsers.pdf.engines.base import OpenPdf, PageReading

    reader = type(open_document(engine, SAMPLE.read_bytes()))
    real = reader.read_page

    def broken(self: OpenPdf, index: int, tagged: bool) -> PageReading:
        if index == 1:
            raise ValueError("bad content stream")
        return real(self, index, tagged)

    monkeypatch.setattr(reader, "read_page", broken)
    document = parse(SAMPLE, pdf_engine=engine)
    assert any("page 2" in w and "bad content stream" in w for w in document.warnings)
    pages = {p for s in document.sections() for b in s.blocks for p in b.prov.pages}
    assert 2 not in pages and {1, 3, 7} <= pages


def test_cli_reports_an_encrypted_pdf_in_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from structchunk.cli import cli

    path = corpus_pdf("robustness/pdf/pypdf-samples/libreoffice-writer-password.pdf")
    result = CliRunner().invoke(cli, ["convert", str(path), "-o", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if "error" in line]
    assert len(errors) == 1 and "--password" in errors[0]
    assert "Traceback" not in result.output
    ok = CliRunner().invoke(
        cli,
        ["convert", str(path), "--password", "openpassword", "-o", str(tmp_path / "p.jsonl"), "-q"],
    )
    assert ok.exit_code == 0 and (tmp_path / "p.jsonl").read_text().strip()
