"""Real EPUBs (tests/corpus/epub; sources and licences in tests/corpus/LICENSES.md): every
one converts within budget with nothing lost (`strict`), or fails with its one expected
line; the books' words all come out, counted by an extraction independent of ours."""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from pathlib import Path

import lxml.html
import pytest
from conftest import LOCAL_CORPUS

from structchunk import Chunk, ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import ParseError, StructChunkError
from structchunk.tokenizers import count_words

CORPUS = LOCAL_CORPUS / "epub"
FILES = sorted(CORPUS.glob("*.epub"))
BUDGETS = (64, 256)

FAILURES: dict[str, str] = {
    "epubcheck-ocf-container-not-ocf-error.epub": "the file is a Word document (.docx), not an",
    "epubcheck-ocf-opf-missing-fatal.epub": "the e-book has no package document",
    "epubcheck-ocf-zip-unreadable-empty-fatal.epub": "the file is empty, not an EPUB",
    "epubcheck-ocf-zip-unreadable-image-with-epub-extension-fatal.epub": "not a zip package",
    "epubcheck-ocf-zip-unreadable-no-end-header-fatal.epub": "the file is a damaged zip package",
}
"""Files that must fail, with the start of their one-line message (a ParseError each)."""

BOOKS = ("epubjs-alice.epub", "idpf-childrens-literature.epub", "epubcheck-lorem-epub2.epub")
"""Real prose: every word of their content documents must come out."""


def chunks_of(path: Path, budget: int) -> list[Chunk]:
    options = ChunkOptions(max_tokens=budget, strict=True)  # strict: a lost word raises
    return list(iter_chunks_from_bytes(path.read_bytes(), path.name, "epub", options))


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_real_epub_converts_or_fails_in_one_line(path: Path, budget: int) -> None:
    expected = FAILURES.get(path.name)
    if expected is not None:
        with pytest.raises(StructChunkError) as caught:
            chunks_of(path, budget)
        message = str(caught.value)
        assert isinstance(caught.value, ParseError) and expected in message
        assert "\n" not in message and message.startswith(path.name)
        return
    chunks = chunks_of(path, budget)
    assert chunks
    for chunk in chunks:
        assert chunk.format == "epub"
        assert chunk.n_tokens == count_words(chunk.text) <= budget
        assert chunk.body.strip()


def test_the_corpus_lists_only_files_that_exist() -> None:
    assert set(FAILURES) <= {p.name for p in FILES}
    assert set(BOOKS) <= {p.name for p in FILES}


# -- words kept, by an independent count ---------------------------------------------------

_WORD = re.compile(r"\w+")
_BLOCKS = frozenset(
    {
        *("p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr"),
        *("section", "article", "aside", "blockquote", "figure", "figcaption", "header"),
        *("footer", "dt", "dd", "pre", "ol", "ul", "dl", "table"),
    }
)


def _never_text(element: lxml.html.HtmlElement) -> bool:
    types = (element.get("epub:type") or "").split()
    return (
        element.tag in ("script", "style", "head", "nav")
        or element.get("hidden") is not None
        or "pagebreak" in types
    )


def content_words(data: bytes) -> Counter[str]:
    """Words of every (X)HTML member but the navigation document (the contents page),
    without scripts, styles, heads, navs, hidden text and page-break numbers: what a
    reader shows, counted with lxml alone."""
    words: Counter[str] = Counter()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if not name.lower().endswith((".xhtml", ".html", ".htm")):
                continue
            root = lxml.html.document_fromstring(archive.read(name))
            if any("toc" in (nav.get("epub:type") or "").split() for nav in root.iter("nav")):
                continue
            for element in [e for e in root.iter() if isinstance(e.tag, str)]:
                if _never_text(element) and element.getparent() is not None:
                    element.drop_tree()
                elif element.tag in _BLOCKS:
                    element.tail = " " + (element.tail or "")
            words.update(word.casefold() for word in _WORD.findall(root.text_content()))
    return words


@pytest.mark.parametrize("name", BOOKS)
def test_every_word_of_a_real_book_comes_out(name: str) -> None:
    path = CORPUS / name
    expected = content_words(path.read_bytes())
    produced = Counter(
        word.casefold()
        for chunk in chunks_of(path, 256)
        for word in _WORD.findall(" ".join([*chunk.heading_path, chunk.body]))
    )
    missing = {word: n - produced[word] for word, n in expected.items() if produced[word] < n}
    assert not missing, f"{sum(missing.values())} of {expected.total()} words lost: {missing}"


# -- structure, checked by hand against the sources ----------------------------------------


def paths_of(name: str) -> list[list[str]]:
    seen: list[list[str]] = []
    for chunk in chunks_of(CORPUS / name, 256):
        if not seen or seen[-1] != chunk.heading_path:
            seen.append(chunk.heading_path)
    return seen


def test_alice_chapters_follow_the_spine_under_the_book_title() -> None:
    title = "Alice's Adventures in Wonderland"
    chapters = [path[1] for path in paths_of("epubjs-alice.epub") if len(path) == 2]
    assert chapters[:2] == ["Copyright, 1916, By Sam'l Gabriel Sons & Company New York"] + [
        "Down The Rabbit-Hole"
    ]
    assert chapters[-1] == "Alice's Evidence" and len(chapters) == 11
    assert all(path[0] == title for path in paths_of("epubjs-alice.epub"))


def test_childrens_literature_nests_fragments_by_its_headings() -> None:
    paths = paths_of("idpf-childrens-literature.epub")
    section = ["Children's Literature", "SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES"]
    assert section + ["190", "A FOUR-LEAVED CLOVER", "1. The Rabbi and The Diadem"] in paths
    assert section + ["BIBLIOGRAPHY"] in paths


def test_an_epub2_book_is_read_through_its_ncx() -> None:
    assert paths_of("epubcheck-lorem-epub2.epub") == [
        ["Lorem Ipsum", "Chapter 1"],
        ["Lorem Ipsum", "Chapter 2"],
    ]


def test_w3c_spine_order_and_fallbacks() -> None:
    text = " ".join(chunk.body for chunk in chunks_of(CORPUS / "w3c-pkg-spine-order.epub", 256))
    order = ("first", "second", "third", "last")
    positions = [text.index(f"This page must appear {which}.") for which in order]
    assert positions == sorted(positions)
    (fallback,) = chunks_of(CORPUS / "w3c-pub-foreign_xml-spine.epub", 256)
    assert fallback.body == "Test passes if you see this text."
