"""PowerPoint decks (.pptx, .pptm, .ppsx, .potx) into the section tree: a section a slide.

The stages, in order:

    packages.py     the zip checked: a presentation, not encrypted, not a bomb
    (python-pptx)   the deck opened; slides in order, hidden ones left out
    shapes.py       a slide's shapes in reading order; its title; footer, date and
                    slide-number placeholders set aside as furniture
    slides.py       each shape into blocks (text.py: paragraphs and bullet lists, with
                    styles.py resolving inherited bullets; graphics.py: tables, chart
                    data, SmartArt); speaker notes as a "Notes" section under the slide

Headings: the deck title (core properties) is the document title; each slide is a level-1
section titled by its title placeholder, or "Slide N". Every block's `pages` is its slide
number (hidden slides keep their place in the numbering).
"""

from __future__ import annotations

import re
import zipfile
import zlib

from lxml import etree
from pptx.exc import PythonPptxError
from pptx.package import Package as PptxPackage
from pptx.parts.presentation import PresentationPart
from pptx.presentation import Presentation as PresentationType
from pptx.slide import Slide

from ...document import Document, Provenance
from ...errors import ParseError
from ..builder import TreeBuilder, collapse_whitespace
from ..packages import Package, open_package
from ..settings import ParseSettings
from .slides import NOTES_TITLE, SHAPE_ERRORS, SlideContent, one_line, read_slide

OPEN_ERRORS = (*SHAPE_ERRORS, zipfile.BadZipFile, zlib.error, EOFError, OSError, TypeError)
"""What opening a damaged package through python-pptx raises (zlib's error for a part
whose compressed data is corrupt, zipfile's for a bad checksum or a cut-off part)."""


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse a PowerPoint package into a `Document` with one section per visible slide."""
    package = open_package(data, "pptx")
    try:
        deck = open_deck(package)
        slides = list(deck.slides)
    except OPEN_ERRORS as error:
        raise ParseError(f"the presentation cannot be read ({one_line(error)})") from None
    builder = TreeBuilder("pptx", _core_title(deck))
    hidden: list[int] = []
    for number, slide in enumerate(slides, start=1):
        if is_hidden(slide):
            hidden.append(number)
            continue
        try:
            content = read_slide(slide, number)
        except SHAPE_ERRORS as error:
            builder.warnings.append(f"slide {number} skipped: {one_line(error)}")
            continue
        add_slide(builder, content)
    if hidden:
        numbers = ", ".join(map(str, hidden))
        builder.warnings.append(
            f"hidden slides left out: {numbers} (unhide them in PowerPoint to include them)"
        )
    document = builder.finish()
    if not document.has_headings():  # nothing to read: no title alone in the records
        document.title = document.root.title = ""
        document.root.path = ()
        if slides and not hidden:
            document.warnings.append("the presentation has no text (pictures only?)")
    return document


def open_deck(package: Package) -> PresentationType:
    """The presentation in the package. `pptx.Presentation()` accepts only the .pptx and
    .pptm main parts; a slide show (.ppsx) or template (.potx) has the same parts under
    another content type, so the package is opened directly."""
    main = PptxPackage.open(package.stream()).main_document_part
    if not isinstance(main, PresentationPart):
        raise ParseError("the package's main part is not a presentation")
    presentation: PresentationType = main.presentation
    return presentation


def add_slide(builder: TreeBuilder, content: SlideContent) -> None:
    """Report one slide to the builder: heading, blocks, then its notes section."""
    builder.dropped.extend(content.furniture)
    builder.warnings.extend(content.problems)
    if content.empty:
        return  # a picture-only slide: no heading with nothing under it
    prov = Provenance(pages=(content.number,))
    builder.heading(1, content.title or f"Slide {content.number}", prov)
    for block in content.blocks:
        builder.add(block)
    if content.notes:
        builder.heading(2, NOTES_TITLE, prov)
        for block in content.notes:
            builder.add(block)


def is_hidden(slide: Slide) -> bool:
    """Hidden in the slide show (`<p:sld show="0">`)."""
    return slide.element.get("show") in ("0", "false")


DEFAULT_TITLES = re.compile(r"(?:PowerPoint[ -])?Presentation\s*\d*", re.IGNORECASE)
"""Titles that tools, not authors, write into the core properties ("PowerPoint
Presentation", python-pptx's "Presentation"): no part of any heading path."""


def _core_title(deck: PresentationType) -> str:
    try:
        title = collapse_whitespace(deck.core_properties.title or "")
    except (PythonPptxError, KeyError, ValueError, etree.LxmlError):
        return ""
    return "" if DEFAULT_TITLES.fullmatch(title) else title
