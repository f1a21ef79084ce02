"""The report's view of a PDF: its pages as images, each chunk's boxes outlined on them.

Pages are rendered with PDFium (pypdfium2, which pdfplumber reads PDFs with too) at a
modest resolution and embedded as JPEG, so the report stays one file; the boxes are an
SVG drawn over each image in PDF points, the coordinates the records give. A long
document draws its first `MAX_REPORT_PAGES` pages and says so.
"""

from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path

from .colours import chunk_hue
from .inspection import InspectedDocument

MAX_REPORT_PAGES = 40
"""Pages drawn per document: a page at `PAGE_SCALE` is 30-80 kB of report."""
PAGE_SCALE = 0.75
"""Pixels per PDF point (54 dpi): text is legible enough to see where a box sits."""
JPEG_QUALITY = 55
HATCH = (
    '<svg class="defs" width="0" height="0" aria-hidden="true"><defs><pattern id="furniture-hatch" '
    'patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">'
    '<rect width="2" height="5" style="fill:#777;stroke:none"/></pattern></defs></svg>'
)
"""The hatching of dropped furniture, defined once per document (ids are page-wide)."""


def page_view(number: int, document: InspectedDocument) -> str:
    """The document's pages with its chunks' boxes, or "" when no chunk has boxes. The
    PDF is read again from its path (a batch's files are not all held in memory)."""
    boxes: dict[int, list[str]] = {}
    for position, chunk in enumerate(document.chunks):
        hue = chunk_hue(position)
        ident = f"d{number}-c{chunk.index}"
        for page, x0, top, x1, bottom in chunk.boxes:
            boxes.setdefault(int(page), []).append(
                f'<rect data-chunks="{ident}" x="{x0}" y="{top}" width="{max(x1 - x0, 1)}" '
                f'height="{max(bottom - top, 1)}" style="--hue:{hue}"/>'
            )
    if not boxes:
        return ""
    for page, x0, top, x1, bottom in document.dropped_boxes:
        boxes.setdefault(int(page), []).append(
            f'<rect class="furniture" x="{x0}" y="{top}" width="{max(x1 - x0, 1)}" '
            f'height="{max(bottom - top, 1)}"><title>left out as furniture</title></rect>'
        )
    import pypdfium2  # only for a PDF report

    from ..parsers.pdf.engines.pdfium.api import LOCK  # PDFium runs in one thread at a time

    with LOCK:
        try:
            pdf = pypdfium2.PdfDocument(Path(document.source).read_bytes())
        except (OSError, pypdfium2.PdfiumError) as error:
            reason = escape(str(error).splitlines()[0] if str(error) else type(error).__name__)
            return f'<p class="source-note">Pages not drawn: {reason}.</p>'
        try:
            count = len(pdf)
            figures = [
                _page_figure(pdf[index], index + 1, boxes.get(index + 1, []))
                for index in range(min(count, MAX_REPORT_PAGES))
            ]
        finally:
            pdf.close()
    note = (
        f'<p class="source-note">Pages {MAX_REPORT_PAGES + 1}–{count} are not drawn '
        f"(the report draws the first {MAX_REPORT_PAGES}).</p>"
        if count > MAX_REPORT_PAGES
        else ""
    )
    return f'<div class="source pages" id="d{number}-source">{HATCH}{"".join(figures)}{note}</div>'


def _page_figure(page: object, number: int, rects: list[str]) -> str:
    width, height = page.get_size()  # type: ignore[attr-defined]
    image = page.render(scale=PAGE_SCALE).to_pil().convert("RGB")  # type: ignore[attr-defined]
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'<figure class="page" data-page="{number}">'
        f'<img alt="page {number}" src="data:image/jpeg;base64,{encoded}">'
        f'<svg viewBox="0 0 {width:g} {height:g}" preserveAspectRatio="none" '
        f'aria-label="chunk boxes on page {number}">{"".join(rects)}</svg>'
        f"<figcaption>page {escape(str(number))}</figcaption></figure>"
    )
