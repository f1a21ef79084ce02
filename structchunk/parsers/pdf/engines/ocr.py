"""OCR: pages without a text layer rendered by PDFium and read by Tesseract.

`with_ocr` wraps either engine's `OpenPdf`: a page the engine reads no characters off
but which holds images (a scan), a page whose images cover most of it under a thin text
layer that OCR finds far more text than (a scan with a stamp, a Bates number or a
scanner's watermark) — or every page, under `ocr="always"` — is rendered at
`ocr_dpi` and read by Tesseract (the `ocr` extra's pytesseract and the `tesseract`
program with its language data, all installed by the package manager; nothing is
downloaded). Its words, with their boxes in points and each line's height as the font
size (bold where its strokes are heavy, ocr_weight.py), become the page's `PageReading`,
and the table rules found in the image its ruled grids (ocr_rules.py; the rules are
painted out of the image Tesseract reads; lines too light for Tesseract's threshold read
again on their own, ocr_faint.py), so the page stages (rows, columns, lists,
margins, ruled and borderless tables) and the document stages (furniture, headings by
size and weight) read a scan as they read a born-digital page. Pages with a
text layer are never rendered under `auto`.

Tesseract was chosen over RapidOCR by benchmarks/ocr.py (docs/pdf.md, "Scans and OCR").
"""

from __future__ import annotations

import math
import os
import re
import shutil
from dataclasses import dataclass
from functools import cache
from typing import Any
from xml.etree import ElementTree

import pypdfium2

from ....errors import ParseError, install_hint
from ....options import OcrMode
from ..structure import OutlineEntry
from ..types import OCR_FONT, Word
from .base import OpenPdf, PageReading
from .ocr_faint import faint_rows, moved, new_words, stretched
from .ocr_rules import PageRules, erased, ocr_grids, table_rules
from .ocr_skew import skew_angle, straightened
from .ocr_turn import (
    MAX_FRUITLESS_TURNS,
    ORIENTATION_OF_TURN,
    looks_turned,
    reads_better,
    sure_characters,
    upright_turn,
)
from .ocr_weight import otsu, weighed, weighted_median
from .pdfium.api import LOCK

DEFAULT_MAX_PIXELS = 40_000_000
"""Most pixels a page is rendered at for OCR (an A2 page at 300 dpi, 120 MB as RGB): a
larger page is rendered at a lower resolution, so a poster-sized page cannot exhaust
memory."""
DEFAULT_EM_PER_ASCENDER = 1.39
"""Font size over a line's ascender height (baseline to the top of `b`, `d`, `l` and
the capitals): the median of born-digital sizes over it for the same lines is 1.39 by
Tesseract's line model, 1.39 by the words' boxes (1 560 lines of 37 documents from over
fifteen producers, 300 dpi, `benchmarks/ocr.py`'s three sets; 1.37-1.43 set by set).
Gaps measured in font sizes (a numbered heading's quad, a heading's wrapped lines) then
mean on a scan what they mean on the page. Tesseract's `x_size` itself scatters more:
it counts the descenders it fits, fewer on a line without `g`, `p` or `y`."""
DEFAULT_SIZE_STRAY = 0.1
"""A line's size this far from the page's median is off it: a heading, or a misreading."""
_ASCENDING = frozenset("bdfhklABCDEFGHIKLMNOPRSTUVWXYZ")
_DESCENDING = frozenset("gjpqyQJ,;()[]{}/|_@$")
_HOCR = "{http://www.w3.org/1999/xhtml}"
_BAR = re.compile(r"\|[.:]?")
"""A word Tesseract read as a bar: after a word in capitals, the roman numeral or
capital I of a sans-serif face, whose glyph is a bar (`PART | — FINANCIAL INFORMATION`
in a 10-Q; a bar between words elsewhere, as in `Apple Inc. | Q1`, stays one)."""
THIN_LAYER_CHARS = 200
"""Characters below which a page's text layer may be only a stamp or watermark over a
scan (a trial-version banner or a Bates number is under 100; a page of prose 2 000-3 000;
the same bound as the document's "almost no text" warning)."""
SCAN_COVERAGE = 0.5
"""Share of the page its images must cover for a thin text layer to be read as a stamp
over a scan rather than a figure page's caption."""


class OcrUnavailableError(ParseError):
    """OCR was asked for but the extra, the program or a language's data is missing."""


@dataclass(frozen=True, slots=True)
class OcrSettings:
    """Which pages are OCRed, in which languages, at which resolution."""

    mode: OcrMode = "auto"
    language: str = "eng"
    dpi: int = 300


@cache
def ocr_missing(language: str) -> str:
    """What is missing to OCR in `language` (`eng+deu`) and how to install it; "" when
    nothing is."""
    try:
        import pytesseract
    except ImportError:
        return (
            f"OCR needs the ocr extra ({install_hint('ocr')}) and the tesseract program "
            "(Debian/Ubuntu: apt-get install tesseract-ocr; macOS: brew install tesseract)"
        )
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        return (
            "OCR needs the tesseract program (Debian/Ubuntu: apt-get install "
            "tesseract-ocr; macOS: brew install tesseract)"
        )
    installed = set(pytesseract.get_languages(config=""))
    absent = [name for name in language.split("+") if name not in installed]
    if absent:
        packages = " ".join("tesseract-ocr-" + name.lower().replace("_", "-") for name in absent)
        return (
            f"Tesseract has no language data for {', '.join(absent)} "
            f"(Debian/Ubuntu: apt-get install {packages})"
        )
    return ""


def _title_value(title: str, key: str) -> list[str]:
    """The values of one property of an hOCR `title` (`bbox 1 2 3 4; x_wconf 96`)."""
    for part in title.split(";"):
        name, _, value = part.strip().partition(" ")
        if name == key:
            return value.split()
    return []


def hocr_lines(hocr: bytes, scale: float) -> tuple[list[list[Word]], list[float]]:
    """The lines of Tesseract's hOCR, each a list of its words, boxes scaled to points,
    each word with its line's font size (`line_sizes`); and the words' confidences
    (0-100), in the same order."""
    lines: list[list[Word]] = []
    confidences: list[float] = []
    fitted: list[float] = []
    boxed: list[float | None] = []
    root = ElementTree.fromstring(hocr)
    for line in root.iter(f"{_HOCR}span"):
        if line.get("class") not in ("ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat"):
            continue
        words: list[Word] = []
        for word in line.iter(f"{_HOCR}span"):
            text = "".join(word.itertext()).strip()
            if word.get("class") != "ocrx_word" or not text:
                continue
            box = [float(v) * scale for v in _title_value(word.get("title", ""), "bbox")]
            x0, top, x1, bottom = box
            if words and _BAR.fullmatch(text) and _capitals(words[-1].text):
                text = "I" + text[1:]  # `PART |`: Tesseract's bar for a capital I
            confidence = float((_title_value(word.get("title", ""), "x_wconf") or ["0"])[0])
            words.append(Word(text, x0, x1, top, bottom, 0.0, OCR_FONT, confidence=confidence))
            confidences.append(confidence)
        if words:
            title = line.get("title", "")
            x_size = float((_title_value(title, "x_size") or ["0"])[0])
            descenders = float((_title_value(title, "x_descenders") or ["0"])[0])
            fitted.append((x_size - descenders) * scale * DEFAULT_EM_PER_ASCENDER)
            boxed.append(_ascender_height(words))
            lines.append(words)
    for words, size in zip(lines, line_sizes(fitted, boxed, [len(w) for w in lines])):
        for item in words:
            item.size = size or item.bottom - item.top
    return lines, confidences


def _ascender_height(words: list[Word]) -> float | None:
    """The line's ascender height in font sizes from its words' boxes: the median height
    of the words reaching the ascender line (`b d f h k l`, capitals) and holding no
    letter or mark below the baseline or above the capitals (`g`, `,`, `(`, accents)."""
    heights = sorted(
        word.bottom - word.top
        for word in words
        if any(ch in _ASCENDING for ch in word.text)
        and not any(ch in _DESCENDING or not ch.isascii() for ch in word.text)
    )
    if not heights:
        return None
    return heights[len(heights) // 2] * DEFAULT_EM_PER_ASCENDER


def line_sizes(fitted: list[float], boxed: list[float | None], weights: list[int]) -> list[float]:
    """Each line's font size: from Tesseract's line model (`x_size` less its descenders:
    the baseline-to-ascender height) or from its words' boxes, whichever agrees better
    with itself over the page — most lines of a page are one body size, so the measure
    that scatters them less is the one reading this page well. The model fails on small
    print (150 dpi: a tenth of the lines off by more than a fifth), the boxes on specks
    and skew (a noisy, crooked scan); each holds on the other's pages."""
    pairs = [(f, b, w) for f, b, w in zip(fitted, boxed, weights) if b is not None and f > 0]
    if not pairs or _scatter([(f, w) for f, _b, w in pairs]) <= _scatter(
        [(b, w) for _f, b, w in pairs]
    ):
        return fitted
    return [b if b is not None else f for f, b in zip(fitted, boxed)]


def _scatter(values: list[tuple[float, int]]) -> float:
    """The share (by weight) of the values more than `DEFAULT_SIZE_STRAY` away from
    their weighted median."""
    middle = weighted_median(values)
    if middle <= 0:
        return math.inf
    stray = sum(w for v, w in values if abs(v - middle) > DEFAULT_SIZE_STRAY * middle)
    return stray / max(sum(w for _v, w in values), 1)


def _capitals(text: str) -> bool:
    """A word of two or more letters, all capitals (`PART`, `ITEM`, `SECTION`)."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def recognise(image: Any, language: str) -> bytes:
    """Tesseract's hOCR of a rendered page (one thread: pages run in parallel workers)."""
    import pytesseract

    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    hocr: bytes = pytesseract.image_to_pdf_or_hocr(image, lang=language, extension="hocr")
    return hocr


def render_zoom(width: float, height: float, dpi: int) -> float:
    """Pixels per point to render a page of `width` x `height` points at: `dpi`, or less
    for a page that would take more than `DEFAULT_MAX_PIXELS`."""
    return min(dpi / 72, math.sqrt(DEFAULT_MAX_PIXELS / max(width * height, 1.0)))


class OcrPdf(OpenPdf):
    """An engine's `OpenPdf` whose pages without text (or all, under `always`) are OCRed."""

    def __init__(self, inner: OpenPdf, settings: OcrSettings) -> None:
        self.inner = inner
        self.settings = settings
        self.engine = inner.engine
        self.data = inner.data
        self.password = inner.password
        self.repaired = inner.repaired
        self.notes = inner.notes
        self._rendering: pypdfium2.PdfDocument | None = None
        self._fruitless_turns = 0
        """Pages in a row that looked turned but were not (noise, a drawing, another
        script): after `MAX_FRUITLESS_TURNS` the document stops asking."""

    @property
    def count(self) -> int:
        return self.inner.count

    def tagged(self) -> bool:
        return self.inner.tagged()

    def outline(self, warnings: list[str]) -> list[OutlineEntry]:
        return self.inner.outline(warnings)

    def title(self) -> str:
        return self.inner.title()

    def extractable(self) -> bool:
        return self.inner.extractable()

    def wanted(self, reading: PageReading) -> bool:
        """Whether the page is read by OCR: every page under `always`; under `auto`, a
        page with images and no characters, or (`_stamped`) a thin layer over a scan."""
        if self.settings.mode == "always":
            return True
        if not reading.images or reading.chars >= THIN_LAYER_CHARS:
            return False
        return not ocr_missing(self.settings.language)

    def read_page(self, index: int, tagged: bool) -> PageReading:
        reading = self.inner.read_page(index, tagged)
        if not self.wanted(reading):
            return reading
        thin = self.settings.mode == "auto" and reading.chars > 0
        if thin and image_coverage(self._page_document(), index) < SCAN_COVERAGE:
            return reading
        ocr, sure = self._ocr_page(index, reading)
        if thin and not _stamped(reading, sure):
            return reading
        return ocr

    def _page_document(self) -> pypdfium2.PdfDocument:
        """The file opened a second time for rendering (PDFium's pages are not shared
        with the engine's reading)."""
        if self._rendering is None:
            self._rendering = pypdfium2.PdfDocument(self.data, password=self.password or None)
        return self._rendering

    def _ocr_page(self, index: int, reading: PageReading) -> tuple[PageReading, int]:
        """The page rendered and read by Tesseract (upright, its tables' rules painted
        out), and how many of its characters Tesseract is sure of."""
        with LOCK:
            page = self._page_document()[index]
            width, height = page.get_size()
            zoom = render_zoom(width, height, self.settings.dpi)
            image = page.render(scale=zoom).to_pil()
            page.close()
        scale = 1 / zoom
        grey = _grey(image)
        if grey is not None and (angle := skew_angle(grey, otsu(grey))):
            image = straightened(image, angle)
            grey = _grey(image)
        words, confidences, rules = self._read_image(image, grey, scale)
        orientation = "ltr"
        if self._fruitless_turns < MAX_FRUITLESS_TURNS and looks_turned(words, confidences):
            self._fruitless_turns += 1
            if turn := upright_turn(image):
                upright = image.rotate(-turn, expand=True)
                again, sure, upright_rules = self._read_image(upright, _grey(upright), scale)
                if reads_better(again, sure, words, confidences):
                    image, words, confidences, rules = upright, again, sure, upright_rules
                    orientation = ORIENTATION_OF_TURN[turn]
                    self._fruitless_turns = 0
        page_reading = PageReading(
            reading.number,
            image.width * scale,
            image.height * scale,
            orientation,
            chars=sum(len(word.text) for word in words),
            images=reading.images,
            words=words,
            grids=[] if rules is None else ocr_grids(rules, words),
            ocr_confidence=sum(confidences) / len(confidences) if confidences else 0.0,
        )
        return page_reading, sure_characters(words, confidences)

    def _read_image(
        self, image: Any, grey: Any, scale: float
    ) -> tuple[list[Word], list[float], PageRules | None]:
        """Tesseract's words and confidences of a rendered page (`grey`: the same page
        as `_grey` gives it, made once a page), read with the rules of its tables painted
        out (they would read as letters), and those rules."""
        rules = None if grey is None else table_rules(grey, scale)
        read = image if rules is None else erased(image, rules)
        lines, _confidences = hocr_lines(recognise(read, self.settings.language), scale)
        if grey is None:
            words = [word for line in lines for word in line]
        else:
            words = weighed(grey, lines + self._faint_lines(read, grey, lines, scale), scale)
        return words, [word.confidence or 0.0 for word in words], rules

    def _faint_lines(
        self, read: Any, grey: Any, lines: list[list[Word]], scale: float
    ) -> list[list[Word]]:
        """The lines printed too light for Tesseract's page-wide threshold, each faint
        row read again on its own (ocr_faint.py)."""
        words = [word for line in lines for word in line]
        more: list[list[Word]] = []
        for box in faint_rows(grey, otsu(grey), words, scale):
            crop = stretched(read.crop(box))
            found, _confidences = hocr_lines(recognise(crop, self.settings.language), scale)
            more += new_words(moved(found, box[0] * scale, box[1] * scale), words)
        return more

    def close(self) -> None:
        if self._rendering is not None:
            self._rendering.close()
        self.inner.close()


def image_coverage(document: pypdfium2.PdfDocument, index: int) -> float:
    """The share of page `index` its images cover (their areas summed, at most 1: the
    strips or layers of one scan add up to the page, a logo and a photo to a part)."""
    with LOCK:
        page = document[index]
        try:
            width, height = (float(side) for side in page.get_size())
            area = 0.0
            for image in page.get_objects(filter=(pypdfium2.raw.FPDF_PAGEOBJ_IMAGE,)):
                left, bottom, right, top = (float(v) for v in image.get_bounds())
                across = max(min(right, width) - max(left, 0.0), 0.0)
                area += across * max(min(top, height) - max(bottom, 0.0), 0.0)
        finally:
            page.close()
    return min(area / max(width * height, 1.0), 1.0)


def _stamped(layer: PageReading, sure: int) -> bool:
    """Whether OCR found the page's text under a thin layer: the characters of the words
    it is sure of (a photograph's texture reads as a few unsure "words") are a page's
    worth more than the layer's (a cover's title over a photograph reads the same either
    way, and keeps its text layer)."""
    return sure >= 2 * layer.chars + THIN_LAYER_CHARS


def _grey(image: Any) -> Any:
    """The rendered page as a grey numpy array, for its table rules (ocr_rules.py) and
    its lines' weights (ocr_weight.py); None without numpy, which the ocr extra brings
    (a scan's ruled tables are then read by alignment only, and no line is bold)."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy.asarray(image.convert("L"))


def with_ocr(pdf: OpenPdf, settings: OcrSettings) -> OpenPdf:
    """`pdf` with OCR for the pages `settings` choose (itself under `never`); under
    `always`, what is missing to run it is a one-line `OcrUnavailableError`."""
    if settings.mode == "never":
        return pdf
    if settings.mode == "always" and (missing := ocr_missing(settings.language)):
        pdf.close()
        raise OcrUnavailableError(missing)
    return OcrPdf(pdf, settings)


def ocr_settings(pdf: OpenPdf) -> OcrSettings:
    """The OCR settings an open PDF reads with (for a worker reopening it)."""
    return pdf.settings if isinstance(pdf, OcrPdf) else OcrSettings("never")
