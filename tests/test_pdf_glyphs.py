"""Glyphs PDFium reads without their letters: double letters its text page drops as
overprints (engines/pdfium/repeats.py) and ligatures named only in the font's encoding
(engines/pdfium/glyph_names.py). A lost or broken word is lost for search: `Af ect`
matches neither `affect` nor `effect`.

The corpus check (slow) reads every corpus PDF with both engines and lists each word
pdfplumber reads whole that PDFium's reading splits (see `split_words`).
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from conftest import corpus_params
from corpus_pdf import read_corpus_pdf
from pdf_factory import Font, Page, pdf_bytes
from pdfminer.fontmetrics import FONT_METRICS

from structchunk.options import PdfEngine
from structchunk.parsers.pdf import read_all_pages
from structchunk.parsers.pdf.engines import open_document
from structchunk.parsers.pdf.engines.pdfium.engine import PdfiumPdf
from structchunk.parsers.pdf.engines.pdfium.glyph_names import spell_glyph

ENGINES: tuple[PdfEngine, ...] = ("pdfium", "pdfplumber")
BOLD_ITALIC = "F20"
"""Resource name of Times-BoldItalic: its `f` reaches well past its advance both ways."""
NAMED = "F21"
"""Resource name of a Times-Roman whose codes 128 on are named by `/Differences`."""


def _lines(data: bytes, engine: PdfEngine) -> list[str]:
    pdf = open_document(engine, data)
    try:
        pages = read_all_pages(pdf, pdf.tagged())
    finally:
        pdf.close()
    return [line.printed() for page in pages for line in page.lines()]


def _glyph_by_glyph(
    text: str, y: float, kern: float = 0.0, copy: float = 0.0, size: float = 13.33
) -> list[str]:
    """`text` in Times-BoldItalic as a filing sets it: each glyph its own text object,
    at 0.67 scale; `kern` points taken off after each `f`, and (`copy` > 0) each glyph
    printed again `copy` points to its right (fake bold)."""
    widths = FONT_METRICS["Times-BoldItalic"][1]
    ops, x = [], 72.0
    for char in text:
        for shift in (0.0, copy) if copy else (0.0,):
            ops.append(f"BT /{BOLD_ITALIC} {size:g} Tf 0.67 0 0 0.67 {x + shift:.2f} {y:g} Tm "
                       f"({char}) Tj ET")  # fmt: skip
        x += widths[char] * size * 0.67 / 1000 - (kern if char == "f" else 0.0)
    return ops


def _bold_italic(pages: list[Page]) -> bytes:
    entries = "/Type /Font /Subtype /Type1 /BaseFont /Times-BoldItalic /Encoding /WinAnsiEncoding"
    return pdf_bytes(pages, fonts={BOLD_ITALIC: Font(entries)})


def test_a_kerned_double_letter_set_glyph_by_glyph_is_read_whole() -> None:
    """A 10-Q's bold-italic risk factors read `Af ect`, `Suf ers`, `dif er`: PDFium took
    the second `f` of each `ff`, its ink overlapping the first's by half and its origin
    closer than the unscaled width, for a fake-bold copy, and the gap for a space."""
    page = Page()
    page.ops += _glyph_by_glyph("Could Negatively Affect Our Business", 700, kern=0.3)
    page.ops += _glyph_by_glyph("Actual results could differ; Suffers", 680, kern=0.3)
    data = _bold_italic([page])
    expected = ["Could Negatively Affect Our Business", "Actual results could differ; Suffers"]
    assert _lines(data, "pdfium") == expected
    assert _lines(data, "pdfplumber") == expected


def test_a_fake_bold_copy_set_glyph_by_glyph_stays_out() -> None:
    """Each glyph printed twice, 0.3 points apart: the copy is an overprint, not the
    next letter, and PDFium's own rule leaving it out still holds."""
    page = Page()
    page.ops += _glyph_by_glyph("Bold heading", 700, copy=0.3)
    assert _lines(_bold_italic([page]), "pdfium") == ["Bold heading"]


LIGATURE_NAMES = ("f_f", "f_f_i", "uni00660069", "f_l.alt", "T_h", "glyph12", "bullet")
"""Glyph names PDFium reads no Unicode from (the last two name no ligature), given codes
128 on (`\\200` …)."""
WORDS = [f"(a\\{128 + i:o}ect)" for i in range(6)]
"""`a`, the glyph named `LIGATURE_NAMES[i]`, `ect`: a string per line."""


def _cmap(pairs: list[tuple[int, int]]) -> bytes:
    """A ToUnicode CMap mapping one-byte codes to single characters."""
    entries = "\n".join(f"<{code:02X}> <{unicode:04X}>" for code, unicode in pairs)
    return (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"{len(pairs)} beginbfchar\n{entries}\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    ).encode()


PRIVATE = _cmap([(128 + i, 0xF001 + i) for i in range(len(LIGATURE_NAMES))])
"""The ligatures given private-use codes U+F001 on."""


def _named(lines: list[str], to_unicode: bytes | None = None) -> bytes:
    """`lines` (content-stream strings, or operators showing them) in a Times-Roman whose
    codes 128 on are the glyphs `LIGATURE_NAMES`."""
    names = " ".join(f"/{name}" for name in LIGATURE_NAMES)
    entries = (
        "/Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Type /Encoding "
        f"/BaseEncoding /WinAnsiEncoding /Differences [128 {names}] >>"
    )
    page = Page()
    for i, line in enumerate(lines):
        shown = line if line.endswith("TJ") else f"{line} Tj"
        page.ops.append(f"BT /{NAMED} 12 Tf 72 {700 - 20 * i} Td {shown} ET")
    return pdf_bytes([page], fonts={NAMED: Font(entries, to_unicode)})


def test_ligatures_named_only_in_the_encoding_are_spelt() -> None:
    """PDFium gives `f_f` no Unicode: the glyph was dropped and its gap read as a space
    (`a ect`). Spelt from its name, as pdfminer spells it; a name that spells no
    ligature stays dropped (`glyph12`)."""
    expected = ["affect", "affiect", "afiect", "aflect", "aThect", "a ect"]
    assert _lines(_named(WORDS), "pdfium") == expected


def test_a_ligature_given_a_private_use_code_is_spelt_from_its_name() -> None:
    """A ToUnicode map giving the ligatures U+F001 on: both engines pass the code on;
    PDFium's reading spells the glyph's name instead, at the start of a word too."""
    lines = _lines(_named([*WORDS, "(\\202rst)"], PRIVATE), "pdfium")
    assert lines == ["affect", "affiect", "afiect", "aflect", "aThect", "a\uf006ect", "first"]
    assert _lines(_named(WORDS, PRIVATE), "pdfplumber")[0] == "a\uf001ect"


def test_unicode_ligatures_read_as_letters_under_both_engines() -> None:
    """A ToUnicode map giving the ligatures' own code points (U+FB00 ﬀ, U+FB03 ﬃ, U+FB01
    ﬁ, U+FB02 ﬂ): PDFium reads their letters, pdfplumber's `ﬀ` is cleaned up to them."""
    cmap = _cmap([(128, 0xFB00), (129, 0xFB03), (130, 0xFB01), (131, 0xFB02)])
    expected = ["affect", "affiect", "afiect", "aflect"]
    for engine in ENGINES:
        assert _lines(_named(WORDS[:4], cmap), engine) == expected, engine


def test_a_private_use_bullet_costs_no_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bullet a ToUnicode map gives a private-use code (Word's Symbol bullets come as
    U+F0B7) stands apart from its item's words: its font is not looked up."""

    opened: list[PdfiumPdf] = []
    monkeypatch.setattr(PdfiumPdf, "_open_plumber", lambda self: opened.append(self))
    lines = _lines(_named(["[(\\206) -1500 (Item one)] TJ"], PRIVATE), "pdfium")
    assert lines == ["\uf007 Item one"]
    assert not opened  # no lookup of the document's fonts


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("f_f", "ff"),
        ("f_f_i", "ffi"),
        ("ffi", "ffi"),
        ("uniFB00", "ff"),
        ("uni00660069", "fi"),
        ("u0066_u006C", "fl"),
        ("f_f_i.alt", "ffi"),
        ("s_t.dlig", "st"),
        ("T_h", "Th"),
        ("f", ""),
        ("f.sc", ""),
        ("glyph12", ""),
        ("f_period", ""),
        ("uniD800", ""),
        ("f_", ""),
    ],
)
def test_glyph_names_spell_ligatures_only(name: str, letters: str) -> None:
    assert spell_glyph(name) == letters


def split_words(whole: list[str], parts: list[str]) -> list[tuple[str, list[str]]]:
    """Words of `whole` that `parts` writes as 2-4 consecutive tokens.

    The two readings are aligned token by token (difflib); where they differ, a word of
    `whole` matches a run of tokens of `parts` that joined give it (`Cocoriko.....6`
    against `Cocoriko.....` `6`), or give it with one or two characters lost but its
    first and last kept (`Affect` against `Af` `ect`: a glyph lost and its gap read as a
    space).
    """
    found = []
    matcher = difflib.SequenceMatcher(None, whole, parts, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        j = j1  # tokens before j are taken
        for word in whole[i1:i2]:
            if len(word) < 3 or not any(c.isalpha() for c in word):
                continue
            for start in range(j, j2 - 1):
                ends = (start + k for k in (2, 3, 4) if start + k <= j2)
                end = next((e for e in ends if _writes(parts[start:e], word)), 0)
                if end:
                    found.append((word, parts[start:end]))
                    j = end
                    break
    return found


def _writes(tokens: list[str], word: str) -> bool:
    """`tokens` joined give `word`, or `word` with one or two characters lost but its
    first and last."""
    joined = "".join(tokens)
    letters = iter(word)
    return joined == word or (
        0 < len(word) - len(joined) <= 2
        and joined[:1] == word[:1]
        and joined[-1:] == word[-1:]
        and all(c in letters for c in joined)
    )


def test_split_words_finds_words_broken_or_split_and_nothing_else() -> None:
    line = "Risks Could Negatively Affect Our Business, see page 12 of 40"
    broken = "Risks Could Negatively Af ect Our Busi ness, see page 12 of forty"
    whole, parts = line.split(" "), broken.split(" ")
    assert split_words(whole, parts) == [
        ("Affect", ["Af", "ect"]),
        ("Business,", ["Busi", "ness,"]),
    ]


KNOWN_SPLITS = {
    "rotated-pages-1-5.pdf": (136, "pdfplumber glues the words of turned pages"),
    "issue-848.pdf": (52, "mirrored text: each engine orders its glyphs otherwise"),
    "GeoTopo-komprimiert.pdf": (
        30,
        "math glyphs PDFium has no Unicode for (CMSY's prime, "
        "which pdfplumber reads as `0`), and subscripts",
    ),
    "chelsea_pdta.pdf": (1, "a leader's dots against its page number"),
    "HHS2022.pdf": (1, "a leader's dots against its page number"),
    "issue-71-duplicate-chars-2.pdf": (1, "a subscript (`PaCO2`) printed apart"),
}
"""Corpus files whose PDFium words differ from pdfplumber's by engine, not by a glyph
lost (none is a ligature or a double letter): at most this many split words each (as
measured), and why."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", corpus_params("pdf", "*.pdf") + corpus_params("robustness/pdf", "*.pdf")
)
def test_no_word_pdfplumber_reads_whole_is_split_by_pdfium(path: Path) -> None:
    """Ligatures and double letters read whole by both engines: every word pdfplumber
    reads whole is whole in PDFium's reading, but where the engines read the page
    otherwise (`KNOWN_SPLITS`)."""
    pdfium = read_corpus_pdf(path, "pdfium")
    if pdfium.error is not None:
        return  # the files that must fail (test_pdf_corpus)
    plumber = read_corpus_pdf.__wrapped__(path, "pdfplumber")  # not kept for the session
    splits = split_words(list(plumber.words), list(pdfium.words))
    allowed, why = KNOWN_SPLITS.get(path.name, (0, ""))
    assert len(splits) <= allowed, f"{path.name}: {len(splits)} split words ({why}): {splits}"
