"""The scanned set of `ocr.py`: corpus pages rendered, degraded as a scanner or a copier
would, and wrapped into image-only PDFs; and the measures both OCR readers are scored by.

Degradations, applied to the rendered grey page before it is wrapped, each seeded by the
page so every run makes the same images:

- `clean`: the render as it is;
- `noise`: Gaussian speckle (σ 25 grey levels) and 0.5% of the pixels set black or white
  (salt and pepper);
- `skew`: turned 1.5° counter-clockwise about the centre, the corners filled white;
- `jpeg`: a JPEG round trip at quality 30 (blocks and ringing around the letters);
- `all`: noise, then skew, then the JPEG round trip.

The image-only PDF stores each page lossless (8-bit grey, Flate), so `clean` carries no
JPEG artefacts of its own (Pillow's PDF writer would store JPEG at quality 75).
"""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable

import numpy
import pypdfium2
from PIL import Image

NOISE_SIGMA = 25.0
"""Grey levels: speckle a cheap flatbed or a fax leaves; letters stay legible."""
NOISE_SALT = 0.005
"""Share of pixels set black or white (dust, toner specks)."""
SKEW_DEGREES = 1.5
"""A page laid a little crooked on the glass; more than most scanners' feeders leave."""
JPEG_QUALITY = 30
"""A scanner's 'small file' setting: visible blocks, letters still read by a person."""


def _rng(seed: int) -> numpy.random.Generator:
    return numpy.random.default_rng(seed)


def noise(image: Image.Image, seed: int) -> Image.Image:
    rng = _rng(seed)
    pixels = numpy.asarray(image, dtype=numpy.float32)
    pixels = pixels + rng.normal(0.0, NOISE_SIGMA, pixels.shape)
    salt = rng.random(pixels.shape)
    pixels[salt < NOISE_SALT / 2] = 0.0
    pixels[salt > 1 - NOISE_SALT / 2] = 255.0
    return Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8), "L")


def skew(image: Image.Image, seed: int) -> Image.Image:
    return image.rotate(SKEW_DEGREES, Image.Resampling.BICUBIC, fillcolor=255)


def jpeg(image: Image.Image, seed: int) -> Image.Image:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY)
    return Image.open(io.BytesIO(out.getvalue())).convert("L")


def _all(image: Image.Image, seed: int) -> Image.Image:
    return jpeg(skew(noise(image, seed), seed), seed)


DEGRADATIONS: dict[str, Callable[[Image.Image, int], Image.Image]] = {
    "clean": lambda image, seed: image,
    "noise": noise,
    "skew": skew,
    "jpeg": jpeg,
    "all": _all,
}


def cut_pages(data: bytes, first: int, count: int) -> bytes:
    """`count` pages of `data` from `first` (0-based), cut out by PDFium: the file itself
    when that is all of it, else a new file without the tags and bookmarks."""
    source = pypdfium2.PdfDocument(data)
    try:
        if first == 0 and len(source) <= count:
            return data
        cut = pypdfium2.PdfDocument.new()
        cut.import_pages(source, list(range(first, min(first + count, len(source)))))
        out = io.BytesIO()
        cut.save(out)
        cut.close()
        return out.getvalue()
    finally:
        source.close()


def scanned(data: bytes, dpi: int, degradation: str) -> bytes:
    """`data`'s pages rendered grey at `dpi`, degraded, as an image-only PDF of the same
    page sizes."""
    document = pypdfium2.PdfDocument(data)
    pages = []
    try:
        for index, page in enumerate(document):
            image = page.render(scale=dpi / 72).to_pil().convert("L")
            image = DEGRADATIONS[degradation](image, 1000 * dpi + index)
            pages.append((page.get_width(), page.get_height(), image))
    finally:
        document.close()
    return image_pdf(pages)


def image_pdf(pages: list[tuple[float, float, Image.Image]]) -> bytes:
    """A PDF of one grey image per page, filling a page of (width, height) points."""
    objects: list[bytes] = [b"", b""]  # catalog, pages: filled in below
    kids = []
    for width, height, image in pages:
        raw = zlib.compress(image.tobytes(), 6)
        image_number = len(objects) + 1
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray"
            b" /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream"
            % (image.width, image.height, len(raw), raw)
        )
        content = b"q %.3f 0 0 %.3f 0 0 cm /Im0 Do Q" % (width, height)
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
        kids.append(len(objects) + 1)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.3f %.3f] /Contents %d 0 R"
            b" /Resources << /XObject << /Im0 %d 0 R >> >> >>"
            % (width, height, len(objects), image_number)
        )
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


_EDGE = re.compile(r"^\W+|\W+$")


def key(word: str) -> str:
    """A word as compared: case kept, punctuation at its ends stripped."""
    return _EDGE.sub("", word)


def word_recall(truth: Iterable[str], read: Iterable[str]) -> tuple[int, int]:
    """(truth words read, truth words), as multisets."""
    want = Counter(k for k in map(key, truth) if k)
    got = Counter(k for k in map(key, read) if k)
    return sum((want & got).values()), sum(want.values())


def levenshtein(a: str, b: str) -> int:
    """Character edit distance, bit-parallel (Myers 1999, Hyyrö's form): a page of 3 000
    characters in milliseconds where the full table takes seconds."""
    if not a or not b:
        return len(a) + len(b)
    masks: dict[str, int] = {}
    for i, char in enumerate(a):
        masks[char] = masks.get(char, 0) | 1 << i
    full = (1 << len(a)) - 1
    high = 1 << (len(a) - 1)
    plus, minus, score = full, 0, len(a)
    for char in b:
        equal = masks.get(char, 0)
        vertical = equal | minus
        horizontal = (((equal & plus) + plus) ^ plus) | equal
        up = minus | ~(horizontal | plus)
        down = plus & horizontal
        if up & high:
            score += 1
        elif down & high:
            score -= 1
        up = ((up << 1) | 1) & full
        down = (down << 1) & full
        plus = (down | ~(vertical | up)) & full
        minus = up & vertical
    return score


def title_key(title: str) -> str:
    """A heading as compared: its letters and digits, lower case."""
    return re.sub(r"\W+", "", title).lower()


def f1(want: set[str], got: set[str]) -> tuple[int, int, int]:
    """(hits, wanted, found) for a heading F1 summed over documents."""
    return len(want & got), len(want), len(got)


TITLE_MISREAD = 0.2
"""A heading found counts as a wanted one whose key it spells within this share of
edits (of the longer key): the same heading with a letter in five misread (`Einfiihrung`
for `Einführung`, `ll` for `II`, accents lost), which the CER counts; a heading split
or joined with the next line differs by more (`Shift work` for `Shift work
interventions`: 59 %)."""


def f1_read(want: set[str], got: set[str]) -> tuple[int, int, int]:
    """(hits, wanted, found) as `f1`, each heading found matching at most one wanted,
    within `TITLE_MISREAD` edits: structure apart from the letters OCR reads."""
    hits = len(want & got)
    left = sorted(want - got)
    for title in sorted(got - want):
        for other in left:
            if levenshtein(title, other) <= TITLE_MISREAD * max(len(title), len(other)):
                left.remove(other)
                hits += 1
                break
    return hits, len(want), len(got)
