"""Ligature glyphs PDFium gives no letters, spelt from their names in the font's encoding.

A font without a Unicode entry for a glyph leaves its text to the glyph's name, and the
Adobe Glyph List names ligatures by their letters: `f_f`, `f_f_i`, `T_h`, `uni00660069`
(and `ff`, `fi`, `uniFB00`, which PDFium reads). PDFium knows only the names of single
characters, so it gives the others no Unicode: the glyph was dropped, its gap read as a
space (`a ect`), where pdfminer spells the name. And a ToUnicode map may give a ligature
a private-use code (U+F001) that no reader can spell.

Here the names come from the font's `/Encoding /Differences`, read with pdfminer's
objects (the file opened with pdfplumber once, the first time a page needs it) for the
fonts with such a glyph only, each once; a name counts when it spells two letters or
more (`spell_glyph`). Other unmapped glyphs (icons, math symbols) stay dropped, and a
private-use code stays as it is.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Iterator
from io import BytesIO
from typing import Any

from pdfminer.cmapdb import CMapParser, FileUnicodeMap
from pdfminer.glyphlist import glyphname2unicode
from pdfminer.pdftypes import PDFStream, resolve1
from pdfminer.psparser import PSLiteral, literal_name

log = logging.getLogger("structchunk")

MAX_FORM_DEPTH = 4
"""Form XObjects looked into for the fonts they use, nested at most this deep."""
MAX_FORMS = 200
"""Form XObjects looked into at most per page."""
_PRIVATE, _PRIVATE_END = 0xE000, 0xF900
_UNI = re.compile(r"uni((?:[0-9A-F]{4})+)")
_U = re.compile(r"u([0-9A-F]{4,6})")
_PRESENTATION = re.compile("[\ufb00-\ufb06]")
"""The Latin ligatures of Unicode's presentation forms (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ)."""


def _component(name: str) -> str:
    """The text of one component of a glyph name (the Adobe Glyph List's rules)."""
    text = glyphname2unicode.get(name)
    if text is not None:
        return text
    match = _UNI.fullmatch(name)
    if match:
        codes = [int(match.group(1)[i : i + 4], 16) for i in range(0, len(match.group(1)), 4)]
        if all(not 0xD800 <= code < 0xE000 for code in codes):
            return "".join(map(chr, codes))
    match = _U.fullmatch(name)
    if match:
        code = int(match.group(1), 16)
        if not 0xD800 <= code < 0xE000 and code <= 0x10FFFF:
            return chr(code)
    return ""


def spell_glyph(name: str) -> str:
    """The letters a glyph name spells when it names a ligature: `f_f_i`, `ffi`,
    `uniFB03`, `uni006600660069`, `f_f_i.alt` all give `ffi`; "" for any other name
    (a single letter, a symbol, a name the Glyph List does not know)."""
    parts = [_component(part) for part in name.split(".", 1)[0].split("_")]
    if not all(parts):
        return ""
    text = _PRESENTATION.sub(lambda m: unicodedata.normalize("NFKC", m.group()), "".join(parts))
    return text if len(text) >= 2 and text.isalpha() else ""


def _ligatures(spec: dict[str, Any]) -> dict[int, str]:
    """Code → letters, for the ligature glyphs a font's `/Differences` names."""
    encoding = resolve1(spec.get("Encoding"))
    differences = resolve1(encoding.get("Differences")) if isinstance(encoding, dict) else None
    out: dict[int, str] = {}
    code = 0
    for item in differences if isinstance(differences, list) else ():
        item = resolve1(item)
        if isinstance(item, int):
            code = item
        elif isinstance(item, PSLiteral):
            spelled = spell_glyph(literal_name(item))
            if spelled:
                out[code] = spelled
            code += 1
    return out


def _private(spec: dict[str, Any], ligatures: dict[int, str]) -> dict[int, str]:
    """Private-use code → letters, for the ligature glyphs the font's ToUnicode map gives
    a private-use code; a code two glyphs share with different letters is left out."""
    stream = resolve1(spec.get("ToUnicode")) if ligatures else None
    if not isinstance(stream, PDFStream):
        return {}
    cmap = FileUnicodeMap()
    CMapParser(cmap, BytesIO(stream.get_data())).run()
    out: dict[int, str] = {}
    for code, text in cmap.cid2unichr.items():
        if isinstance(code, int) and code in ligatures and len(text) == 1:
            private = ord(text)
            if _PRIVATE <= private < _PRIVATE_END:
                out[private] = (
                    ligatures[code] if out.get(private, ligatures[code]) == ligatures[code] else ""
                )
    return out


def _fonts(resources: Any, depth: int, forms: list[int]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(base name, font dictionary) of every font a page's (or form's) resources hold,
    and its forms' in turn."""
    resources = resolve1(resources)
    if not isinstance(resources, dict):
        return
    fonts = resolve1(resources.get("Font"))
    for ref in fonts.values() if isinstance(fonts, dict) else ():
        spec = resolve1(ref)
        name = resolve1(spec.get("BaseFont")) if isinstance(spec, dict) else None
        if isinstance(name, PSLiteral):
            yield literal_name(name), spec
    xobjects = resolve1(resources.get("XObject"))
    for ref in xobjects.values() if isinstance(xobjects, dict) and depth else ():
        stream = resolve1(ref)
        if isinstance(stream, PDFStream) and literal_name(stream.get("Subtype")) == "Form":
            forms[0] += 1
            if forms[0] > MAX_FORMS:
                return
            yield from _fonts(stream.get("Resources"), depth - 1, forms)


class GlyphNames:
    """A document's fonts' ligature names, looked up where PDFium gives a glyph no
    letters (see the module docstring). `open_document` gives the file opened with
    pdfplumber (None when it cannot be), called the first time a name is needed."""

    def __init__(self, open_document: Callable[[], Any]) -> None:
        self.open_document = open_document
        self.pages: dict[int, dict[str, list[dict[str, Any]]]] = {}
        self.tables: dict[tuple[int, bool], tuple[dict[str, Any], dict[int, str]]] = {}
        """(id of a font dictionary, private) → the dictionary (kept, so the id stays
        its own) and its code → letters."""

    def spell(self, page: int, font: str, code: int, private: bool) -> str:
        """The letters of the glyph `code` (its code in the font, or with `private` the
        private-use code PDFium gave it) of font `font` on page `page` (0-based), when
        its name spells a ligature; "" otherwise."""
        if not private and code > 0xFF:
            return ""  # a composite font's code: its glyphs have no names here
        found = set()
        for spec in self._page(page).get(font, ()):
            letters = self._table(spec, private).get(code)
            if letters is not None:
                found.add(letters)
        return found.pop() if len(found) == 1 else ""

    def _page(self, index: int) -> dict[str, list[dict[str, Any]]]:
        fonts = self.pages.get(index)
        if fonts is None:
            fonts = self.pages[index] = {}
            try:
                pdf = self.open_document()
                if pdf is not None:
                    resources = pdf.pages[index].page_obj.resources
                    for name, spec in _fonts(resources, MAX_FORM_DEPTH, [0]):
                        if all(spec is not other for other in fonts.get(name, ())):
                            fonts.setdefault(name, []).append(spec)
            except Exception as error:  # pdfminer on a broken file raises many kinds
                log.debug("fonts of page %d unreadable: %s", index + 1, error)
        return fonts

    def _table(self, spec: dict[str, Any], private: bool) -> dict[int, str]:
        key = (id(spec), private)
        found = self.tables.get(key)
        if found is None:
            table: dict[int, str] = {}
            try:
                table = _ligatures(spec)
                if private:
                    table = _private(spec, table)
            except Exception as error:  # pdfminer on a broken font raises many kinds
                log.debug("glyph names unreadable: %s", error)
            found = self.tables[key] = (spec, table)
        return found[1]
