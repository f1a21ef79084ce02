"""Every PDF of the shared corpus converts, or fails with its one-line error; never a
traceback. Slow (the whole corpus is about 100 PDFs): `pytest -m slow tests/test_pdf_corpus.py`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_CORPUS, corpus_params
from corpus_pdf import read_corpus_pdf

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import Document, Table
from structchunk.errors import EncryptedDocumentError, NoTextError, ParseError, StructChunkError
from structchunk.packing import Packer
from structchunk.parsers import ParseSettings
from structchunk.parsers import pdf as pdf_parser
from structchunk.parsers.pdf.engines.ocr import ocr_missing
from structchunk.tokenizers import count_words

OPTIONS = ChunkOptions(max_tokens=200)
EXPECTED_ERRORS: dict[str, type[StructChunkError]] = {
    "aes256-user-password.pdf": EncryptedDocumentError,
    "password-example.pdf": EncryptedDocumentError,
    "libreoffice-writer-password.pdf": EncryptedDocumentError,
    "html-named-pdf.pdf": ParseError,
    "empty.pdf": ParseError,
    "truncated-half.pdf": ParseError,
    "imagemagick-CCITTFaxDecode.pdf": NoTextError,  # a 4-point scan: no text, by OCR either
    "issue-297-example.pdf": NoTextError,  # a document without pages
}
SCANS = ("issue-203-decimalize.pdf",)
"""Scans without a text layer (images of a table): read by OCR where it is installed,
else a `NoTextError`."""
if ocr_missing("eng"):
    EXPECTED_ERRORS.update(dict.fromkeys(SCANS, NoTextError))
"""The corpus files that must fail, and how; every other PDF must convert."""


def _passwords() -> dict[str, str]:
    """File name → user password, from the robustness manifest's notes."""
    if SHARED_CORPUS is None:
        return {}
    manifest = json.loads((SHARED_CORPUS / "robustness" / "manifest.json").read_text())
    found = {}
    for entry in manifest:
        match = re.search(r"(?:user )?password: (\w+)", entry.get("note", ""))
        if match:
            found[Path(entry["path"]).name] = match.group(1)
    return found


def _convert(path: Path, options: ChunkOptions = OPTIONS) -> list[Any]:
    return list(iter_chunks_from_bytes(path.read_bytes(), str(path), "pdf", options))


def _read(path: Path) -> Document:
    """The session's one reading of a corpus PDF (tests/corpus_pdf.py)."""
    reading = read_corpus_pdf(path)
    if reading.error is not None:
        raise reading.error
    assert reading.document is not None
    return reading.document


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["usgov/NARA2022.pdf", "sec-10q/2023-Q1-MSFT.pdf", "untagged/readability-v8-blog.pdf"]
)
def test_the_shared_reading_is_the_parsers(name: str) -> None:
    """The corpus tests read each PDF once through tests/corpus_pdf.py; it must give the
    document `parse` gives (tagged and untagged, several page workers)."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    path = SHARED_CORPUS / "pdf" / name
    parsed = pdf_parser.parse(path.read_bytes(), str(path), ParseSettings(page_workers=2))
    assert _read(path) == parsed


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", corpus_params("pdf", "*.pdf") + corpus_params("robustness/pdf", "*.pdf")
)
def test_every_corpus_pdf_converts_or_fails_in_one_line(path: Path) -> None:
    expected = EXPECTED_ERRORS.get(path.name)
    if expected is None:  # the session's shared reading, packed
        chunks = list(Packer(OPTIONS).pack(_read(path)))
        assert chunks, f"{path.name}: no chunks"
        assert all(chunk.prov.pages for chunk in chunks)
        return
    with pytest.raises(StructChunkError) as caught:  # the public API: its one-line errors
        _convert(path)
    error = caught.value
    assert isinstance(error, expected), error
    assert "\n" not in str(error) and str(error).startswith(str(path))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["password-example.pdf", "libreoffice-writer-password.pdf", "aes256-user-password.pdf"]
)
def test_encrypted_corpus_pdfs_open_with_their_password(name: str) -> None:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    path = next((SHARED_CORPUS / "robustness" / "pdf").rglob(name))
    chunks = _convert(path, ChunkOptions(max_tokens=200, pdf_password=_passwords()[name]))
    assert chunks


@pytest.mark.slow
def test_reading_with_two_processes_gives_the_same_document() -> None:
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    data = (SHARED_CORPUS / "pdf" / "usgov" / "NARA2022.pdf").read_bytes()
    one = pdf_parser.parse(data, "NARA2022.pdf", ParseSettings(page_workers=1))
    two = pdf_parser.parse(data, "NARA2022.pdf", ParseSettings(page_workers=2))
    assert repr(two.root) == repr(one.root)


@pytest.mark.slow
def test_a_10q_index_and_its_metrics_beside_their_definitions_read_right() -> None:
    """Microsoft's 10-Q: the index (a table under a `Page` title whose entries often say
    more than the headings they point to) was kept as two chunks that won questions
    about the sections it names; the metrics printed beside their definitions read as
    all the terms, then all the definitions."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    document = _read(SHARED_CORPUS / "pdf" / "sec-10q" / "2023-Q1-MSFT.pdf")
    assert any("Quantitative and Qualitative Disclosures" in text for text in document.dropped)
    assert not any("INDEX" in title for section in document.sections() for title in section.path)
    tables = [b for section in document.sections() for b in section.blocks if isinstance(b, Table)]
    assert [
        "Microsoft 365 Consumer subscribers",
        "The number of Microsoft 365 Consumer subscribers at end of period",
    ] in [row for table in tables for row in table.rows]


@pytest.mark.slow
def test_nvidias_index_goes_whole_and_its_headings_nest_right() -> None:
    """NVIDIA's 10-Q: the index entries that say more than their headings (`a) Condensed
    Consolidated Statements of Income for the three and nine months…`) stayed as a
    chunk under a heading `TABLE OF CONTENTS Page…`; the bold heading `COVID-19`, being
    in capitals, took the headings after it as its children; the balance sheet, its
    title over `(In millions)` in the same bold, sat under the statement before it."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    document = _read(SHARED_CORPUS / "pdf" / "sec-10q" / "2022-Q3-NVDA.pdf")
    paths = [section.path for section in document.sections()]
    assert not any("TABLE OF CONTENTS" in title for path in paths for title in path)
    assert any("Statements of Income for the three" in text for text in document.dropped)
    assert not any("COVID-19" in path[:-1] for path in paths)
    assert any(
        path[-2:] == ("Recent Developments, Future Objectives and Challenges", "Russia")
        for path in paths
    )
    assert any(path[-1] == "CONDENSED CONSOLIDATED BALANCE SHEETS" for path in paths)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("relative", "sentence"),
    [
        pytest.param(
            "pypdf-samples/GeoTopo-komprimiert.pdf",
            "Das Zusammensetzen von Wegen ist nur bis auf Homotopie assoziativ",
            id="formula-lines-no-contents-page",
        ),
        pytest.param(
            "pdfplumber/issue-71-duplicate-chars-2.pdf",
            "Le TA plasmatique doit être ajusté",
            id="plot-lines-no-contents-page",
        ),
        pytest.param(
            "usgov/DOSAID2022.pdf",
            "secure international commitments, and build capacity to curb illicit finance",
            id="stakeholder-names-beside-their-text",
        ),
        pytest.param(
            "usgov/DOT2022.pdf",
            "supply chain disruptions that threaten post-pandemic economic recovery.",
            id="stakeholder-names-beside-their-text-2",
        ),
        pytest.param(
            "usgov/DOL2022.pdf",
            "Labor unions advance the economic aspirations of many communities",
            id="heading-after-two-columns",
        ),
        pytest.param(
            "usgov/DOL2022.pdf",
            "Office of Federal Contract Compliance Programs (OFCCP)",
            id="columns-after-a-paragraph-s-last-line",
        ),
        pytest.param(
            "usgov/DOL2022.pdf",
            "accurate, objective, relevant, timely, and accessible information",
            id="columns-ending-on-one-baseline",
        ),
        pytest.param(
            "usgov/DHS2020.pdf",
            "in close coordination with federal, state, local, and tribal governments",
            id="description-wrapping-below-the-names-beside-it",
        ),
        pytest.param(
            "pdfplumber/issue-316-example.pdf",
            "problems, process and relationships”, unpublished thesis, The University of"
            " Alabama, Tuscaloosa, AL.\n\nBurke",
            id="bibliography-with-a-hanging-indent",
        ),
        pytest.param(
            "pypdf-samples/crazyones-pdfa.pdf",
            "Theyre not fond of rules. And they have no respect for the status quo.",
            id="verses-with-turnovers-set-in",
        ),
        pytest.param(
            "pdfplumber/issue-316-example.pdf",
            "These efforts tend to result in the so-called shift-lag syndrome",
            id="margin-notes-beside-the-text",
        ),
        pytest.param(
            "usgov/DOSAID2022.pdf",
            "enhancing the effectiveness, independence, and accountability of public sector",
            id="two-descriptions-at-one-pitch",
        ),
        pytest.param(
            "pdfplumber/scotus-transcript-p1.pdf",
            "The above-entitled matter came on for oral argument before the Supreme Court",
            id="line-numbers-in-the-margin",
        ),
        pytest.param(
            "sec-10q/2022-Q3-NVDA.pdf",
            "31.1* Certification of Chief Executive Officer as required by Rule 13a-14(a)",
            id="exhibit-index-entries",
        ),
        pytest.param(
            "sec-10q/2023-Q1-AAPL.pdf",
            "10.1* Form of CEO Restricted Stock Unit Award Agreement under 2022 Employee Stock"
            " Plan effective as of September 25, 2022.",
            id="exhibit-entry-under-the-index-header",
        ),
    ],
)
def test_sentences_a_reading_error_lost_or_broke_are_whole(relative: str, sentence: str) -> None:
    """Formula and plot lines ending in a number (`γ(t) = 1`, `100 5`) looked like
    contents entries whose titles recur later, and the prose between them was dropped;
    agency plans set stakeholder names beside their text at another line pitch, and read
    row by row the names landed inside its sentences; a heading under two columns was
    read between them, and the lines of a column below the other one's end after it; a
    hanging indent broke every entry after its first line and ran it into the next; a
    journal's margin notes were read into the rows beside them, and two descriptions
    side by side on shared baselines read across."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    chunks = _convert(SHARED_CORPUS / "pdf" / relative, OPTIONS)
    assert any(sentence in chunk.body for chunk in chunks)


@pytest.mark.parametrize(
    ("relative", "joined"),
    [
        pytest.param("usgov/HHS2022.pdf", "OASH Performance Indicators", id="narrow-column"),
        pytest.param(
            "usgov/DOC2022.pdf",
            "Contributing Bureau Contributing Bureau Performance Indicators",
            id="row-of-names",
        ),
    ],
)
def test_names_at_a_page_foot_keep_apart_from_the_label_overleaf(
    relative: str, joined: str
) -> None:
    """Agency plans list stakeholders to the foot of a page, in a column too narrow for
    running text or as names side by side, and print `Performance Indicators` overleaf:
    neither is a sentence that goes on."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    chunks = _convert(SHARED_CORPUS / "pdf" / relative, OPTIONS)
    assert not any(joined in chunk.body for chunk in chunks)


_INDICATOR_NAME = re.compile(r"(?:KPI|LTPG|APG|(?:Key )?Performance (?:Goal|Measure)) \d")


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["EPA2022", "DOC2022", "DOSAID2022", "HHS2022", "DOT2022", "GSA2022"]
)
def test_an_indicators_name_is_in_the_chunk_of_its_table(name: str) -> None:
    """The plans set each indicator's name (`LTPG 8.4.2 FOIA Backlog`) as a bold line over
    its table, and 171 of those names ended the chunk before their table's. A name may
    end a chunk only when what opens the next, its table or the table's first row, does
    not fit with it (a block or row that fits is not cut): one in DOSAID's plan, whose
    16-word title leads every path, over a table row of some 160 words."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    chunks = list(Packer(OPTIONS).pack(_read(SHARED_CORPUS / "pdf" / "usgov" / f"{name}.pdf")))
    for chunk, following in zip(chunks, chunks[1:]):
        last = chunk.body.split("\n\n")[-1]
        if _INDICATOR_NAME.match(last):
            assert following.body.startswith("| "), last
            assert following.n_tokens + count_words(last) > OPTIONS.max_tokens, last
    assert any(
        _INDICATOR_NAME.match(chunk.body) and "| Description |" in chunk.body for chunk in chunks
    )


@pytest.mark.slow
def test_a_mathematics_text_keeps_its_paragraphs_whole() -> None:
    """GeoTopo's lines with a math symbol overlap their neighbours; measured on them,
    the usual line gap made every plain line a paragraph of its own."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    chunks = _convert(SHARED_CORPUS / "pdf" / "pypdf-samples" / "GeoTopo-komprimiert.pdf")
    assert any("Es beinhaltet die Mitschriften aus der Vorlesung" in c.body for c in chunks)


@pytest.mark.slow
def test_symbol_font_bullets_and_letters_are_read_as_drawn() -> None:
    """The French medical text embeds Wingdings and Symbol without a Unicode map."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    relative = "pdfplumber/issue-71-duplicate-chars-2.pdf"
    bodies = "\n".join(c.body for c in _convert(SHARED_CORPUS / "pdf" / relative, OPTIONS))
    assert "- Sang prélevé sans air" in bodies
    assert "11β-hydroxystéroïde" in bodies
