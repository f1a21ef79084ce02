"""EPUB e-books (2 and 3) into one section tree: the chapters in reading order through
the HTML reader, their heading levels reconciled with the table of contents.

The stages, in order:

    packages.py     the zip checked: an EPUB, within the size bounds (`open_package`)
    opf.py          container.xml → the package document: title, spine, navigation
    encryption.py   DRM-encrypted chapters refused in one line (obfuscated fonts are fine)
    navigation.py   the EPUB 3 nav's toc, or the EPUB 2 NCX, as entries with depths
    html/chapter.py each chapter walked, reporting headings, blocks and entry targets …
    anchors.py      … to `Anchors`, which ties the entries to headings or makes labels headings
    levels.py       heading levels: the chapters' own, or the contents' depths
    (TreeBuilder)   the book title as root, then every heading and block replayed
"""

from __future__ import annotations

from ...document import Document
from ...errors import NoTextError, ParseError
from ..builder import TreeBuilder
from ..html.chapter import walk_chapter
from ..packages import Package, open_package
from ..settings import ParseSettings
from .anchors import Anchors, Title
from .encryption import check_encryption
from .levels import heading_levels
from .navigation import read_toc
from .opf import Book, Members, read_book


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """Parse EPUB bytes into a `Document` titled by the book's `dc:title`."""
    package = open_package(data, "epub")
    members = Members(package.names())
    book = read_book(package, members)
    chapters = [path for path in book.reading_order() if path != book.nav_path]
    check_encryption(package, members, chapters)
    anchors = Anchors(read_toc(package, book))
    unreadable = _walk_chapters(package, chapters, anchors, book.warnings)
    if not anchors.items:
        raise NoTextError(_no_text(book, chapters, unreadable))
    builder = TreeBuilder("epub", book.title)
    builder.warnings.extend(book.warnings)
    levels = iter(heading_levels(anchors.items))
    for item in anchors.items:
        if isinstance(item, Title):
            builder.heading(next(levels), item.text)
        else:
            builder.add(item)
    return builder.finish()


def _walk_chapters(
    package: Package, chapters: list[str], anchors: Anchors, warnings: list[str]
) -> int:
    """Walk every chapter into `anchors`; a chapter that is not text is skipped with a
    warning. Returns how many were skipped."""
    unreadable = 0
    for path in chapters:
        anchors.start(path)
        try:
            walk_chapter(package.read(path), anchors, anchors.targets(path))
        except ParseError as error:
            unreadable += 1
            warnings.append(f"chapter {path!r} skipped: {error.message}")
    return unreadable


def _no_text(book: Book, chapters: list[str], unreadable: int) -> str:
    if not book.spine:
        return "the e-book's spine lists no readable chapters (XHTML documents)"
    if not chapters:
        return "the e-book's spine lists only its contents page (the navigation document)"
    if unreadable == len(chapters):
        return (
            f"none of the e-book's {len(chapters)} chapters is readable text "
            "(encrypted without an encryption list, or damaged)"
        )
    return "the e-book has no text (its chapters hold only images or are empty)"
