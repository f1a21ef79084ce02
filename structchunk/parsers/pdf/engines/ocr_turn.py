"""Scans fed sideways or upside down: which way up a page is, for OCR.

Tesseract reads a page turned a quarter turn word by word, but gives each word a box
standing on end, which the layout stages cannot make lines of; a page upside down reads
as confident-looking nonsense at low confidence. Either is noticed from the first
reading (`looks_turned`), and only then is Tesseract's orientation detection (OSD, a few
seconds a page) asked which way is up (`upright_turn`); the page is read again turned
upright, in the reading frame the PDF stages already know from born-digital pages set
sideways (`ttb`, `btt`) or upside down (`rtl`), so chunk `boxes` map back to the page.
"""

from __future__ import annotations

from typing import Any

from ..types import Word

TURNED_SHARE = 0.5
"""Share of a page's words standing on end, or unsure, above which the page may be
turned."""
MIN_WORDS = 5
"""Fewer words than this say nothing about a page's orientation."""
SURE_WORD = 60.0
"""Tesseract's word confidence below which a word counts as unsure."""
KEPT_SHARE = 0.9
"""Share of the first reading's sure characters the upright reading must reach."""
MIN_OSD_CONFIDENCE = 1.0
"""Tesseract's orientation confidence below which its answer is not acted on."""
MAX_FRUITLESS_TURNS = 2
"""Pages in a row that looked turned but were not, after which a document's other pages
are not asked about (a scan of noise or of another script looks unsure on every page,
and each question costs seconds)."""
ORIENTATION_OF_TURN = {90: "btt", 180: "rtl", 270: "ttb"}
"""The reading frame of a page whose image is turned upright by PIL's `rotate(-turn)`:
OSD's `rotate` 270 turns the image a quarter counter-clockwise, so x runs down the page
(ttb); 90 a quarter clockwise (btt); 180 upside down (rtl)."""


def looks_turned(words: list[Word], confidences: list[float]) -> bool:
    """Whether a page's OCR words look like a page read the wrong way up: most of its
    longer words standing on end, or most of its words unsure."""
    long_words = [w for w in words if len(w.text) >= 3]
    standing = sum(w.bottom - w.top > w.x1 - w.x0 for w in long_words)
    if len(long_words) >= MIN_WORDS and standing > TURNED_SHARE * len(long_words):
        return True
    unsure = sum(c < SURE_WORD for c in confidences)
    return len(words) >= 2 * MIN_WORDS and unsure > TURNED_SHARE * len(words)


def upright_turn(image: Any) -> int:
    """Degrees (90, 180, 270) to turn `image` clockwise to set it upright, by Tesseract's
    orientation detection; 0 when it is upright, unsure, or the detection's data
    (`osd.traineddata`, Debian's tesseract-ocr-osd) is missing."""
    import pytesseract

    try:
        found = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:  # too few characters, or no osd data
        return 0
    turn = int(found.get("rotate", 0)) % 360
    if (
        turn not in ORIENTATION_OF_TURN
        or float(found.get("orientation_conf", 0)) < MIN_OSD_CONFIDENCE
    ):
        return 0
    return turn


def sure_characters(words: list[Word], confidences: list[float]) -> int:
    """Characters of the words Tesseract is sure of: how two readings of a page compare."""
    return sum(len(w.text) for w, c in zip(words, confidences, strict=True) if c >= SURE_WORD)


def reads_better(
    upright: list[Word], upright_sure: list[float], first: list[Word], first_sure: list[float]
) -> bool:
    """Whether the reading of the page turned upright is the one to keep: it no longer
    looks turned and is sure of about as many characters as the first reading or more
    (a quarter-turned page reads as surely either way, but only upright in lines)."""
    return not looks_turned(upright, upright_sure) and sure_characters(
        upright, upright_sure
    ) >= KEPT_SHARE * sure_characters(first, first_sure)
