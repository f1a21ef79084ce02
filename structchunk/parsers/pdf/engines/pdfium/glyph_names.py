"""Ligature glyphs PDFium gives no letters, spelt from their names in the font's encoding.

A font without a Unicode entry for a glyph leaves its text to the glyph's name, and the
Adobe Glyph List names ligatures by their letters: `f_f`, `f_f_i`, `T_h`, `uni00660069`
(and `ff`, `fi`, `uniFB00`, which PDFium reads). PDFium knows only the names of single
characters, so it gives the others no Unicode: the glyph was dropped, its gap read as a
space (`a ect`), where pdfminer spells the name. And a ToUnicode map may give a ligature
a private-use code (U+F001), which both engines pass on (`a\\uf001ect`).

Here the names come from the font's `/Encoding /Differences`, read with pdfminer's
objects (the file opened with pdfplumber the first time a glyph needs it; a page's fonts
read when it uses one not met before, kept by name); a name counts when it spells two
letters or more (`spell_glyph`). Other unmapped glyphs (icons, math symbols) stay
dropped. A private-use code is looked up only where it is printed inside a word (a
letter touching it): bullets and icons in such fonts cost no lookup.
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

from ...cleanup import font_name
from ..words import DEFAULT_WORD_GAP, SPACE, Char, Style

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
                letters = ligatures[code]
                out[private] = letters if out.get(private, letters) == letters else ""
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


class _Font:
    """One font dictionary's ligature glyphs: by code, and by the private-use code its
    ToUnicode map gives them (read when first asked)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.codes: dict[int, str] = {}
        self.private: dict[int, str] | None = None
        try:
            self.codes = _ligatures(spec)
        except Exception as error:  # pdfminer on a broken font raises many kinds
            log.debug("glyph names unreadable: %s", error)

    def letters(self, code: int, private: bool) -> str | None:
        if not private:
            return self.codes.get(code)
        if self.private is None:
            self.private = {}
            try:
                self.private = _private(self.spec, self.codes)
            except Exception as error:  # pdfminer on a broken map raises many kinds
                log.debug("ToUnicode map unreadable: %s", error)
        return self.private.get(code)


class GlyphNames:
    """A document's fonts' ligature names, looked up where PDFium gives a glyph no
    letters (see the module docstring). `open_document` gives the file opened with
    pdfplumber (None when it cannot be), called the first time a name is needed; a
    page's fonts are read when it uses one not met before, and kept by name."""

    def __init__(self, open_document: Callable[[], Any]) -> None:
        self.open_document = open_document
        self.fonts: dict[str, list[_Font]] = {}
        """Base name without a subset prefix (PDFium leaves out some fonts' prefix) → the
        font dictionaries of that name read so far."""
        self.read: set[int] = set()
        """Pages whose fonts were read."""

    def spell(self, page: int, font: str, code: int) -> str:
        """The letters of glyph `code` of font `font` on page `page` (0-based), which
        PDFium found no Unicode for, when its name spells a ligature; "" otherwise."""
        if code > 0xFF:
            return ""  # a composite font's code: its glyphs have no names here
        return self._letters(page, font, code, False)

    def spell_private(self, page: int, font: str, code: int) -> str:
        """The letters of the glyph of font `font` a ToUnicode map gives private-use
        code `code`, when its name spells a ligature; "" otherwise."""
        return self._letters(page, font, code, True)

    def _letters(self, page: int, font: str, code: int, private: bool) -> str:
        font = font_name(font)
        fonts = self.fonts.get(font)
        if fonts is None and page not in self.read:
            self._read(page)
            fonts = self.fonts.get(font)
        found = {each.letters(code, private) for each in fonts or ()}
        found.discard(None)
        letters = found.pop() if len(found) == 1 else None  # fonts of one name may disagree
        return letters or ""

    def _read(self, page: int) -> None:
        self.read.add(page)
        try:
            pdf = self.open_document()
            if pdf is None:
                return
            resources = pdf.pages[page].page_obj.resources
            for name, spec in _fonts(resources, MAX_FORM_DEPTH, [0]):
                fonts = self.fonts.setdefault(font_name(name), [])
                if all(spec is not font.spec for font in fonts):
                    fonts.append(_Font(spec))
        except Exception as error:  # pdfminer on a broken file raises many kinds
            log.debug("fonts of page %d unreadable: %s", page + 1, error)


def _private_at(chars: list[Char], index: int) -> bool:
    """The character is a private-use code printed inside a word: a letter of its run
    touches it on either side (`of\\uf001ce`, `\\uf001rst`), not a bullet apart from its
    item's first word."""
    char = chars[index]
    if len(char.text) != 1 or not _PRIVATE <= ord(char.text) < _PRIVATE_END:
        return False
    em = char.bottom - char.top
    for side in (-1, 1):
        if not 0 <= index + side < len(chars):
            continue
        other = chars[index + side]
        if other is SPACE or not other.text.isalpha() or abs(other.top - char.top) > em / 4:
            continue
        gap = char.x0 - other.x1 if side < 0 else other.x0 - char.x1
        if gap <= DEFAULT_WORD_GAP * em:
            return True
    return False


def spell_private_codes(
    runs: list[tuple[Style, list[Char]]], spell: Callable[[str, int], str]
) -> None:
    """Spell out the private-use codes of a page's runs that stand for ligatures:
    `spell(font, code)` is asked for each code found inside a word (see
    `_private_at`), and every character of that code in that font reads as the letters
    it gives, sharing its box (a word may start with the ligature)."""
    letters: dict[tuple[str, str], str] = {}
    for style, chars in runs:
        for index, char in enumerate(chars):
            if (style.font, char.text) not in letters and _private_at(chars, index):
                letters[(style.font, char.text)] = spell(style.font, ord(char.text))
    if not any(letters.values()):
        return
    for style, chars in runs:
        spelt: list[Char] = []
        for char in chars:
            text = letters.get((style.font, char.text)) if char is not SPACE else None
            if text:
                spelt.extend(Char(letter, *char[1:]) for letter in text)
            else:
                spelt.append(char)
        chars[:] = spelt
