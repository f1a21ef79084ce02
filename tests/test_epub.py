"""The EPUB reader: books the tests write, so the expected section tree is known exactly."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest
from epub_factory import Toc, make_epub, xhtml, zip_members
from package_inputs import BASES, MARK, package_members, with_entities, zip_package

from structchunk import chunk_file
from structchunk.api import iter_chunks_from_bytes
from structchunk.document import Document, Paragraph
from structchunk.errors import EncryptedDocumentError, NoTextError, ParseError
from structchunk.parsers import ParseSettings, detect_format
from structchunk.parsers.epub import parse
from structchunk.parsers.epub.opf import resolve_href


def tree(data: bytes) -> Document:
    return parse(data, "book.epub", ParseSettings())


def paths(doc: Document) -> list[tuple[str, ...]]:
    return [section.path for section in doc.sections()]


def outline(doc: Document) -> list[tuple[tuple[str, ...], list[str]]]:
    """Each section with content: its path and its paragraphs' texts."""
    return [
        (s.path, [b.text for b in s.blocks if isinstance(b, Paragraph)])
        for s in doc.sections()
        if s.blocks
    ]


def texts(doc: Document) -> list[str]:
    return [text for _, section_texts in outline(doc) for text in section_texts]


# -- reading order and title ------------------------------------------------------------


def test_chapters_come_in_spine_order_not_manifest_order() -> None:
    book = make_epub(
        [("a.xhtml", "<p>third</p>"), ("b.xhtml", "<p>first</p>"), ("c.xhtml", "<p>second</p>")],
        spine=["b.xhtml", "c.xhtml", "a.xhtml"],
    )
    assert texts(tree(book)) == ["first", "second", "third"]


def test_the_book_title_is_the_root_of_every_path() -> None:
    doc = tree(make_epub([("c.xhtml", "<h1>One</h1><p>x</p>")], title="The  Book"))
    assert doc.title == "The Book"
    assert paths(doc) == [("The Book",), ("The Book", "One")]


def test_the_main_title_wins_over_a_subtitle_listed_first() -> None:
    book = make_epub([("c.xhtml", "<p>x</p>")])
    opf = (
        b'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        b'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        b'<dc:title id="s">A Subtitle</dc:title><dc:title id="m">Main &amp; Title</dc:title>'
        b'<meta refines="#m" property="title-type">main</meta></metadata>'
        b'<manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>'
        b'<spine><itemref idref="c"/></spine></package>'
    )
    book = _replace(book, "OEBPS/content.opf", opf)
    assert tree(book).title == "Main & Title"


def test_a_book_without_a_title_has_paths_from_its_headings() -> None:
    book = make_epub([("c.xhtml", "<h1>One</h1><p>x</p>")], title="")
    doc = tree(book)
    assert doc.title == "" and outline(doc) == [(("One",), ["x"])]


def test_linear_no_items_come_after_the_main_reading_order() -> None:
    book = make_epub(
        [("notes.xhtml", "<p>a note</p>"), ("c1.xhtml", "<p>one</p>"), ("c2.xhtml", "<p>two</p>")],
        nonlinear=["notes.xhtml"],
    )
    assert texts(tree(book)) == ["one", "two", "a note"]


def test_the_navigation_document_in_the_spine_is_not_read_as_a_chapter() -> None:
    book = make_epub(
        [("c1.xhtml", "<h1>One</h1><p>text</p>")],
        toc=[Toc("One", "c1.xhtml")],
        spine=["nav", "c1.xhtml"],
    )
    doc = tree(book)
    assert paths(doc) == [("A Book",), ("A Book", "One")]
    assert texts(doc) == ["text"]


def test_a_chapter_listed_twice_in_the_spine_is_read_once() -> None:
    book = make_epub([("c1.xhtml", "<p>once</p>")], spine=["c1.xhtml", "c1.xhtml"])
    assert texts(tree(book)) == ["once"]


# -- heading levels and the table of contents ----------------------------------------------


def test_flat_h1_chapters_take_their_levels_from_the_nested_contents() -> None:
    book = make_epub(
        [
            ("p1.xhtml", "<h1>Part One</h1><p>intro</p>"),
            ("c1.xhtml", "<h1>Chapter 1</h1><p>a</p><h2>A section</h2><p>b</p>"),
            ("c2.xhtml", "<h1>Chapter 2</h1><p>c</p>"),
            ("p2.xhtml", "<h1>Part Two</h1><p>d</p>"),
        ],
        toc=[
            Toc(
                "Part One", "p1.xhtml", (Toc("Chapter 1", "c1.xhtml"), Toc("Chapter 2", "c2.xhtml"))
            ),
            Toc("Part Two", "p2.xhtml"),
        ],
    )
    assert outline(tree(book)) == [
        (("A Book", "Part One"), ["intro"]),
        (("A Book", "Part One", "Chapter 1"), ["a"]),
        (("A Book", "Part One", "Chapter 1", "A section"), ["b"]),
        (("A Book", "Part One", "Chapter 2"), ["c"]),
        (("A Book", "Part Two"), ["d"]),
    ]


def test_headings_that_already_nest_like_the_contents_keep_their_levels() -> None:
    chapters: list[tuple[str, str | bytes]] = [
        ("p1.xhtml", "<h1>Part One</h1><p>intro</p>"),
        ("c1.xhtml", "<h2>Chapter 1</h2><p>a</p><h4>Deep</h4><p>b</p>"),
        ("p2.xhtml", "<h1>Part Two</h1><p>d</p>"),
    ]
    nested = [
        Toc("Part One", "p1.xhtml", (Toc("Chapter 1", "c1.xhtml"),)),
        Toc("Part Two", "p2.xhtml"),
    ]
    flat = [Toc("Part One", "p1.xhtml"), Toc("Chapter 1", "c1.xhtml"), Toc("Part Two", "p2.xhtml")]
    expected = [
        (("A Book", "Part One"), ["intro"]),
        (("A Book", "Part One", "Chapter 1"), ["a"]),
        (("A Book", "Part One", "Chapter 1", "Deep"), ["b"]),
        (("A Book", "Part Two"), ["d"]),
    ]
    assert outline(tree(make_epub(chapters, toc=nested))) == expected
    assert outline(tree(make_epub(chapters, toc=flat))) == expected  # flat contents never flatten


def test_a_chapter_without_a_heading_is_named_by_its_contents_label() -> None:
    book = make_epub(
        [("c1.xhtml", "<p>first words</p>"), ("c2.xhtml", "<p>second words</p>")],
        toc=[Toc("Chapter One", "c1.xhtml"), Toc("Chapter Two", "c2.xhtml")],
    )
    assert outline(tree(book)) == [
        (("A Book", "Chapter One"), ["first words"]),
        (("A Book", "Chapter Two"), ["second words"]),
    ]


def test_part_pages_without_headings_put_h1_chapters_below_them() -> None:
    book = make_epub(
        [
            ("p1.xhtml", "<p>Epigraph of the part.</p>"),
            ("c1.xhtml", "<h1>Chapter 1</h1><p>a</p>"),
            ("c2.xhtml", "<h1>Chapter 2</h1><p>b</p>"),
        ],
        toc=[
            Toc("Part I", "p1.xhtml", (Toc("Chapter 1", "c1.xhtml"), Toc("Chapter 2", "c2.xhtml")))
        ],
    )
    assert outline(tree(book)) == [
        (("A Book", "Part I"), ["Epigraph of the part."]),
        (("A Book", "Part I", "Chapter 1"), ["a"]),
        (("A Book", "Part I", "Chapter 2"), ["b"]),
    ]


def test_a_part_and_its_first_chapter_pointing_at_one_file() -> None:
    book = make_epub(
        [("c1.xhtml", "<h1>Chapter 1</h1><p>a</p>"), ("c2.xhtml", "<h1>Chapter 2</h1><p>b</p>")],
        toc=[
            Toc("Part I", "c1.xhtml", (Toc("Chapter 1", "c1.xhtml"), Toc("Chapter 2", "c2.xhtml")))
        ],
    )
    assert outline(tree(book)) == [
        (("A Book", "Part I", "Chapter 1"), ["a"]),
        (("A Book", "Part I", "Chapter 2"), ["b"]),
    ]


def test_a_label_without_a_link_adds_no_level() -> None:
    book = make_epub(
        [("s.xhtml", '<h2>Section</h2><p>s</p><h3 id="t1">Story</h3><p>t</p>')],
        toc=[Toc("Section", "s.xhtml", (Toc("An author", None, (Toc("Story", "s.xhtml#t1"),)),))],
    )
    assert outline(tree(book)) == [
        (("A Book", "Section"), ["s"]),
        (("A Book", "Section", "Story"), ["t"]),
    ]


def test_without_a_table_of_contents_the_chapters_headings_are_used() -> None:
    book = make_epub([("c1.xhtml", "<h2>One</h2><p>a</p><h3>Sub</h3><p>b</p>")])
    assert outline(tree(book)) == [
        (("A Book", "One"), ["a"]),
        (("A Book", "One", "Sub"), ["b"]),
    ]


def test_an_empty_nav_falls_back_to_the_ncx() -> None:
    book = make_epub(
        [("p.xhtml", "<p>no heading</p>")], toc=[Toc("From the NCX", "p.xhtml")], ncx=True
    )
    members = _members(book)
    opf = members["OEBPS/content.opf"].replace(
        b"</manifest>",
        b'<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" '
        b'properties="nav"/></manifest>',
    )
    book = _replace(_replace(book, "OEBPS/content.opf", opf), "OEBPS/nav.xhtml", b"<html/>")
    assert outline(tree(book)) == [(("A Book", "From the NCX"), ["no heading"])]


# -- fragments: several sections in one file --------------------------------------------


def test_fragment_entries_find_their_headings_however_the_id_is_placed() -> None:
    body = (
        '<section id="s1"><h1>First</h1><p>one</p></section>'
        '<a id="s2"></a><h1>Second</h1><p>two</p>'
        '<h1><a id="s3"/>Third</h1><p>three</p>'
        '<h1 id="s4">Fourth</h1><p>four</p>'
    )
    book = make_epub(
        [("all.xhtml", body)],
        toc=[
            Toc("Top", "all.xhtml#s1", (Toc("Second", "all.xhtml#s2"),)),
            Toc("Third", "all.xhtml#s3", (Toc("Fourth", "all.xhtml#s4"),)),
        ],
    )
    assert outline(tree(book)) == [
        (("A Book", "First"), ["one"]),
        (("A Book", "First", "Second"), ["two"]),
        (("A Book", "Third"), ["three"]),
        (("A Book", "Third", "Fourth"), ["four"]),
    ]


def test_a_fragment_on_a_paragraph_starts_a_section_named_by_its_label() -> None:
    body = '<p>Opening words.</p><p id="later">Words of the second part.</p>'
    book = make_epub(
        [("c.xhtml", body)],
        toc=[Toc("Beginning", "c.xhtml"), Toc("The Second Part", "c.xhtml#later")],
    )
    assert outline(tree(book)) == [
        (("A Book", "Beginning"), ["Opening words."]),
        (("A Book", "The Second Part"), ["Words of the second part."]),
    ]


def test_epub2_ncx_gives_levels_and_fragments() -> None:
    body = (
        '<div id="ch1"><h1>Chapter 1</h1><p>a</p></div>'
        '<div id="ch2"><h1>Chapter 2</h1><p>b</p></div>'
    )
    book = make_epub(
        [("part.xhtml", "<h1>Part</h1><p>p</p>"), ("text.xhtml", body)],
        toc=[
            Toc(
                "Part",
                "part.xhtml",
                (Toc("Chapter 1", "text.xhtml#ch1"), Toc("Chapter 2", "text.xhtml#ch2")),
            )
        ],
        ncx=True,
    )
    assert outline(tree(book)) == [
        (("A Book", "Part"), ["p"]),
        (("A Book", "Part", "Chapter 1"), ["a"]),
        (("A Book", "Part", "Chapter 2"), ["b"]),
    ]


# -- what is kept and what is dropped ----------------------------------------------------------


def test_footnotes_are_kept_and_note_references_bracketed() -> None:
    body = (
        '<p>A claim<a epub:type="noteref" href="#n1">1</a> stands.</p>'
        '<aside epub:type="footnote" id="n1"><p>1. The source of the claim.</p></aside>'
    )
    assert texts(tree(make_epub([("c.xhtml", body)]))) == [
        "A claim [1] stands.",
        "1. The source of the claim.",
    ]


def test_scripts_styles_contents_lists_hidden_text_and_page_numbers_are_dropped() -> None:
    body = (
        "<script>var x = 1;</script><style>p {}</style>"
        '<nav epub:type="landmarks"><ol><li><a href="#x">Start</a></li></ol></nav>'
        '<section epub:type="toc"><ol><li>Chapter listing</li></ol></section>'
        '<p hidden="">hidden words</p>'
        '<p>before <span epub:type="pagebreak" id="p7">7</span>after</p>'
        '<p>page <span role="doc-pagebreak" aria-label="8">8</span>break</p>'
    )
    assert texts(tree(make_epub([("c.xhtml", body)]))) == ["before after", "page break"]


def test_images_leave_no_text_but_captions_stay() -> None:
    body = (
        '<figure><img src="i.png" alt="Illo1"/><figcaption>The caption.</figcaption></figure>'
        '<p>text <img src="x.png" alt="inline alt"/>goes on</p>'
    )
    assert texts(tree(make_epub([("c.xhtml", body)]))) == ["The caption.", "text goes on"]


def test_chapters_in_their_own_encodings() -> None:
    latin = (
        '<?xml version="1.0" encoding="iso-8859-1"?><html xmlns="http://www.w3.org/1999/xhtml">'
        "<body><p>Caf\xe9 cr\xe8me</p></body></html>"
    ).encode("latin-1")
    utf16 = "\ufeff<html><body><p>Stra\xdfe \u6771\u4eac</p></body></html>".encode("utf-16-le")
    meta = (
        '<html><head><meta charset="windows-1252"/></head>'
        "<body><p>\u201cquoted\u201d</p></body></html>"
    ).encode("cp1252")
    book = make_epub([("l.xhtml", latin), ("u.xhtml", utf16), ("m.xhtml", meta)])
    assert texts(tree(book)) == ["Caf\xe9 cr\xe8me", "Stra\xdfe \u6771\u4eac", "\u201cquoted\u201d"]


def test_an_internal_doctype_subset_leaves_no_markup_and_is_not_expanded() -> None:
    chapter = (
        b'<?xml version="1.0"?>\n<!DOCTYPE html [\n <!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n'
        b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>safe</p><p>&xxe;</p></body></html>'
    )
    assert texts(tree(make_epub([("c.xhtml", chapter)]))) == ["safe", "&xxe;"]


# -- DRM and damage: one line, or a bounded conversion ------------------------------------------


def _encryption(algorithm: str, uri: str) -> bytes:
    return (
        '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
        'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
        f'<enc:EncryptionMethod Algorithm="{algorithm}"/><enc:CipherData>'
        f'<enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData></encryption>'
    ).encode()


def test_a_drm_encrypted_book_fails_in_one_line() -> None:
    book = make_epub(
        [("c1.xhtml", b"\x8a\x01garbage")],
        extra={
            "META-INF/encryption.xml": _encryption(
                "http://www.w3.org/2001/04/xmlenc#aes128-cbc", "OEBPS/c1.xhtml"
            ),
            "META-INF/rights.xml": b"<rights/>",
        },
    )
    with pytest.raises(EncryptedDocumentError) as caught:
        tree(book)
    message = str(caught.value)
    assert "\n" not in message
    assert "Adobe DRM" in message and "1 of its chapters" in message


def test_obfuscated_fonts_are_not_drm() -> None:
    book = make_epub(
        [("c1.xhtml", "<p>readable</p>")],
        extra={
            "OEBPS/font.otf": b"\x00obfuscated",
            "META-INF/encryption.xml": _encryption(
                "http://www.idpf.org/2008/embedding", "OEBPS/font.otf"
            ),
        },
    )
    assert texts(tree(book)) == ["readable"]


def test_hrefs_never_leave_the_package() -> None:
    assert resolve_href("OEBPS/text/c.xhtml", "../../../../etc/passwd") == ("etc/passwd", "")
    assert resolve_href("OEBPS/c.xhtml", "/abs/x.xhtml#f") == ("abs/x.xhtml", "f")
    assert resolve_href("OEBPS/c.xhtml", "sub%20dir/./y.xhtml") == ("OEBPS/sub dir/y.xhtml", "")
    assert resolve_href("OEBPS/c.xhtml", "#note") == ("OEBPS/c.xhtml", "note")
    assert resolve_href("OEBPS/c.xhtml", "https://example.com/x") is None


def test_a_spine_item_outside_the_package_is_skipped_with_a_warning() -> None:
    # the zip even holds a member literally named OEBPS/../../../etc/passwd
    book = make_epub([("c1.xhtml", "<p>kept</p>"), ("../../../etc/passwd", "<p>x</p>")])
    doc = tree(book)
    assert texts(doc) == ["kept"]
    assert doc.warnings == ["spine item 'etc/passwd' is not in the package; skipped"]


def test_spine_items_missing_from_the_zip_are_skipped_and_none_left_is_one_line() -> None:
    book = _drop_member(
        make_epub([("c1.xhtml", "<p>a</p>"), ("c2.xhtml", "<p>b</p>")]), "OEBPS/c2.xhtml"
    )
    assert texts(tree(book)) == ["a"]
    with pytest.raises(NoTextError, match="spine lists no readable chapters"):
        tree(_drop_member(book, "OEBPS/c1.xhtml"))


def test_member_names_differing_only_in_case_are_found() -> None:
    book = make_epub([("Chapter.xhtml", "<p>found</p>")])
    book = _rename_member(book, "OEBPS/Chapter.xhtml", "OEBPS/chapter.XHTML")
    assert texts(tree(book)) == ["found"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("no container, no opf", "has no package document"),
        ("opf not xml", "is not XML"),
        ("opf without spine", "has no spine"),
        ("opf is html", "has no <package> root"),
    ],
)
def test_a_missing_or_broken_package_document_is_one_line(damage: str, message: str) -> None:
    book = make_epub([("c1.xhtml", "<p>a</p>")])
    if damage == "no container, no opf":
        book = _drop_member(_drop_member(book, "META-INF/container.xml"), "OEBPS/content.opf")
        book = _replace(book, "META-INF/other.xml", b"<x/>")
    elif damage == "opf not xml":
        book = _replace(book, "OEBPS/content.opf", b"\x00\x01 not xml at all")
    elif damage == "opf without spine":
        book = _replace(
            book, "OEBPS/content.opf", b'<package xmlns="http://www.idpf.org/2007/opf"/>'
        )
    else:
        book = _replace(book, "OEBPS/content.opf", b"<html><body>no</body></html>")
    with pytest.raises(ParseError, match=message) as caught:
        tree(book)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("container", "warning"),
    [
        (None, "META-INF/container.xml is missing; read OEBPS/content.opf"),
        (b"\x00 not xml", "META-INF/container.xml is broken (the book's container is not XML"),
        (b"<container/>", "names no package document that exists; read OEBPS/content.opf"),
    ],
)
def test_without_a_usable_container_the_zips_opf_is_used(
    container: bytes | None, warning: str
) -> None:
    book = make_epub([("c1.xhtml", "<p>a</p>")])
    book = (
        _drop_member(book, "META-INF/container.xml")
        if container is None
        else _replace(book, "META-INF/container.xml", container)
    )
    doc = tree(book)
    assert texts(doc) == ["a"]
    assert len(doc.warnings) == 1 and warning in doc.warnings[0]


def test_a_spine_of_only_the_contents_page_has_no_text() -> None:
    book = make_epub([("c1.xhtml", "<p>a</p>")], toc=[Toc("A", "c1.xhtml")], spine=["nav"])
    with pytest.raises(NoTextError, match="lists only its contents page"):
        tree(book)


def test_a_binary_chapter_is_skipped_with_a_warning() -> None:
    doc = tree(make_epub([("c1.xhtml", "<p>a</p>"), ("c2.xhtml", b"\x89PNG\r\n\x1a\n\x00\x00")]))
    assert texts(doc) == ["a"]
    assert len(doc.warnings) == 1 and "chapter 'OEBPS/c2.xhtml' skipped" in doc.warnings[0]


def test_an_image_only_book_has_no_text() -> None:
    with pytest.raises(NoTextError, match="no text"):
        tree(make_epub([("c1.xhtml", '<img src="page1.jpg" alt="page"/>')]))


def test_absurd_nesting_converts_in_bounded_time() -> None:
    depth = 20_000
    deep_nav = Toc("Deep", "c1.xhtml")
    for _ in range(depth // 100):
        deep_nav = Toc("Level", "c1.xhtml", (deep_nav,))
    chapter = "<div>" * depth + "<h1>Title</h1><p>deep text</p>" + "</div>" * depth
    book = make_epub([("c1.xhtml", chapter)], toc=[deep_nav])
    started = time.perf_counter()
    doc = tree(book)
    assert time.perf_counter() - started < 20
    assert texts(doc) == ["deep text"]


# -- end to end ------------------------------------------------------------------------------


def test_epub_files_are_detected_by_extension() -> None:
    assert detect_format("Some Book.EPUB") == "epub"


def test_chunk_file_reads_an_epub(tmp_path: Path) -> None:
    path = tmp_path / "book.epub"
    path.write_bytes(
        make_epub(
            [("c1.xhtml", "<h1>One</h1><p>Alpha beta.</p>")],
            toc=[Toc("One", "c1.xhtml")],
            title="B",
        )
    )
    chunks = chunk_file(path, max_tokens=64)
    assert [(c.format, c.heading_path, c.body) for c in chunks] == [
        ("epub", ["B", "One"], "Alpha beta.")
    ]
    assert chunks[0].pages is None and chunks[0].lines is None and chunks[0].offsets is None


def test_the_cli_converts_an_epub_and_names_a_renamed_file(tmp_path: Path) -> None:
    book = tmp_path / "book.epub"
    book.write_bytes(make_epub([("c1.xhtml", "<h1>One</h1><p>Alpha beta.</p>")]))
    fake = tmp_path / "fake.epub"
    fake.write_bytes(b"%PDF-1.4 not a book")
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "structchunk", "convert", str(book), str(fake), "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["format"], r["heading_path"], r["body"]) for r in records] == [
        ("epub", ["A Book", "One"], "Alpha beta.")
    ]
    errors = [line for line in done.stderr.splitlines() if "fake.epub" in line]
    assert len(errors) == 1 and "the file is a PDF, not an EPUB e-book" in errors[0]
    assert "Traceback" not in done.stderr


def test_warnings_are_logged_with_the_file_name(caplog: pytest.LogCaptureFixture) -> None:
    book = _drop_member(
        make_epub([("c1.xhtml", "<p>a</p>"), ("c2.xhtml", "<p>b</p>")]), "OEBPS/c2.xhtml"
    )
    with caplog.at_level(logging.WARNING, logger="structchunk"):
        list(iter_chunks_from_bytes(book, "b.epub", "epub"))
    assert any("b.epub" in r.getMessage() and "c2.xhtml" in r.getMessage() for r in caplog.records)


# -- zip surgery ------------------------------------------------------------------------------


def _members(book: bytes) -> dict[str, bytes]:
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(book)) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "mimetype"}


def _replace(book: bytes, name: str, data: bytes) -> bytes:
    members = _members(book)
    members[name] = data
    return zip_members(members)


def _drop_member(book: bytes, name: str) -> bytes:
    members = _members(book)
    del members[name]
    return zip_members(members)


def _rename_member(book: bytes, old: str, new: str) -> bytes:
    members = _members(book)
    members[new] = members.pop(old)
    return zip_members(members)


def test_the_factory_writes_what_the_reader_expects() -> None:
    members = _members(make_epub([("c.xhtml", "<p>x</p>")], toc=[Toc("C", "c.xhtml")]))
    assert set(members) == {
        "META-INF/container.xml",
        "OEBPS/c.xhtml",
        "OEBPS/nav.xhtml",
        "OEBPS/content.opf",
    }
    assert members["OEBPS/c.xhtml"] == xhtml("<p>x</p>")


def test_an_entity_bomb_in_the_package_document_says_which_limit_it_hit() -> None:
    """Before: "the book's package document (OEBPS/content.opf) is not XML", no reason."""
    members = package_members(BASES["epub"]())
    members["OEBPS/content.opf"] = with_entities(members["OEBPS/content.opf"], "laughs")
    with pytest.raises(ParseError, match=r"content\.opf\) is not XML \(Maximum entity amplif"):
        parse(zip_package(members), "book.epub", ParseSettings())


@pytest.mark.parametrize("part", ["META-INF/container.xml", "OEBPS/nav.xhtml", "OEBPS/toc.ncx"])
@pytest.mark.parametrize("attack", ["xxe", "laughs"])
def test_entities_in_a_book_are_never_expanded(part: str, attack: str, tmp_path: Path) -> None:
    """An e-book may declare a DTD; its entities stay unexpanded and the book converts."""
    members = package_members(BASES["epub"]())
    members[part] = with_entities(members[part], attack)
    if part.endswith(".ncx"):
        members["OEBPS/content.opf"] = members["OEBPS/content.opf"].replace(
            b' properties="nav"', b""
        )
    text = " ".join(c.text for c in iter_chunks_from_bytes(zip_package(members), "b.epub", None))
    assert MARK in text and "root:" not in text and "haha" not in text
