"""benchmarks/ocr_scans.py and benchmarks/ocr.py: the scanned set and its measures.

The OCR runs themselves (Tesseract, the peers' Unstructured) are the benchmark's; these
tests check what they are scored with and that a scan holds no text of its own.
"""

from __future__ import annotations

import io
import random
from types import ModuleType

import pypdfium2
from conftest import load_benchmark
from PIL import Image, ImageDraw


def _scans() -> ModuleType:
    return load_benchmark("ocr_scans")


def _naive(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def test_levenshtein_agrees_with_the_full_table() -> None:
    scans, rng = _scans(), random.Random(46)
    for _ in range(300):
        a = "".join(rng.choice("ab c") for _ in range(rng.randint(0, 90)))
        b = "".join(rng.choice("abd ") for _ in range(rng.randint(0, 90)))
        assert scans.levenshtein(a, b) == _naive(a, b), (a, b)
    assert scans.levenshtein("kitten", "sitting") == 3


def test_word_recall_counts_words_as_multisets_without_end_punctuation() -> None:
    scans = _scans()
    assert scans.word_recall(["the", "cat,", "the", "hat."], ["The", "cat", "the", "hat"]) == (3, 4)
    assert scans.word_recall(["--"], ["x"]) == (0, 0)


def _page() -> Image.Image:
    image = Image.new("L", (300, 200), 255)
    ImageDraw.Draw(image).text((20, 80), "Scanned text", fill=0)
    return image


def test_degradations_are_deterministic_and_change_the_page() -> None:
    scans, page = _scans(), _page()
    for name, degrade in scans.DEGRADATIONS.items():
        once, again = degrade(page.copy(), 7), degrade(page.copy(), 7)
        assert once.mode == "L" and once.size == page.size, name
        assert once.tobytes() == again.tobytes(), name
        assert (once.tobytes() == page.tobytes()) == (name == "clean"), name


def test_image_pdf_holds_the_image_lossless_and_no_text() -> None:
    scans, page = _scans(), _page()
    data = scans.image_pdf([(216.0, 144.0, page), (100.0, 50.0, page)])
    document = pypdfium2.PdfDocument(data)
    try:
        assert len(document) == 2
        assert document[0].get_size() == (216.0, 144.0)
        assert document[0].get_textpage().get_text_range() == ""
        (image,) = list(document[0].get_objects())
        assert image.get_bitmap().to_pil().convert("L").tobytes() == page.tobytes()
    finally:
        document.close()


def test_cut_pages_keeps_the_range_and_short_files_whole() -> None:
    scans, page = _scans(), _page()
    data = scans.image_pdf([(100.0 + n, 50.0, page) for n in range(4)])
    assert scans.cut_pages(data, 0, 4) == data
    document = pypdfium2.PdfDocument(io.BytesIO(scans.cut_pages(data, 2, 5)))
    try:
        assert [document[n].get_width() for n in range(len(document))] == [102.0, 103.0]
    finally:
        document.close()


def test_unstructured_reading_by_page_with_its_titles() -> None:
    _scans()
    ocr = load_benchmark("ocr")
    line = {
        "elements": [
            ["Title", "1. Getting Started", 1],
            ["NarrativeText", "Install it  now.", 1],
            ["Title", "--", 2],
            ["ListItem", "one two", 2],
        ]
    }
    pages, titles = ocr.unstructured_reading(line)
    assert pages == {1: "1. Getting Started Install it now.", 2: "-- one two"}
    assert titles == {"1gettingstarted"}


def test_a_heading_misread_by_a_letter_is_found_but_a_split_one_is_not() -> None:
    scans = _scans()
    want = {"einführungindiegeometrieundtopologie", "shiftworkinterventions", "vision"}
    got = {"einfiihrungindiegeometrieundtopologie", "shiftwork", "vision", "mission"}
    assert scans.f1(want, got) == (1, 3, 4)
    assert scans.f1_read(want, got) == (2, 3, 4)
    # one found heading matches one wanted heading at most
    assert scans.f1_read({"parti", "partii"}, {"partl"}) == (1, 2, 1)
