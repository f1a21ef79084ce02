"""A page's characters through PDFium's text page: text, box, style, in runs of one style.

PDFium's text page already does what pdfminer leaves to us: it drops a text object
printed twice over itself (fake bold) and glyphs repeated in place, maps `ﬁ`-style
ligatures to letters and applies `/ActualText`. A ligature it gives no Unicode (a glyph
named `f_f`) is spelt from its glyph name (`Spell`, glyph_names.py); where each object's
characters went is kept (`PageText.placed`) for the double letters it drops as copies
(repeats.py). Its boxes are in PDF user
space (origin bottom left, before `/Rotate`); `PageGeometry` turns them into pdfplumber's
coordinates (points from the top left of the page as displayed, the MediaBox's quirks
included) so both engines place words alike.

Boxes are pdfminer's: from the glyph's origin its advance along the baseline, and from
its font's descent one em up (the standard 14 fonts with Adobe's descents, as pdfminer
has them), so the gaps between glyphs are the typesetter's, not the ink's. PDFium's
loose box covers the ink as well, so it gives the advance only where it reaches past the
ink (`_measure`); the pieces of one glyph (a ligature's letters, an `/ActualText`) share
its origin and its box. PDFium's own spaces and line breaks (`FPDFText_IsGenerated`)
are skipped: words are split by our gap rule, as with pdfplumber, and only spaces
printed in the file end a word.

Generators that set each glyph as its own text object (a filing: 2 500 a page) make the
per-object questions the cost, so consecutive objects of one style share one run and
what an object is asked is kept to its font, render mode, marked content and matrix.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pdfminer.fontmetrics import FONT_METRICS

from ...types import MAX_CHARS_PER_PAGE
from ..words import SPACE, Char, Style
from . import api
from .geometry import PageGeometry, Place, placer

HIDDEN_TEXT_MAX_SIZE = 2.0
"""Points: white text smaller than this is invisible on the page (see ../pdfplumber/page.py)."""
WHITE_MIN = 252
"""Fill colour channels (0-255) at or above this are white (pdfplumber's rule: 0.99)."""
_HORIZONTAL = 0.05
"""A baseline whose slope (|b|/|a|) stays under this runs along the x axis: boxes are
laid out along it directly, and PDFium's loose box measures advances."""
_HIGH, _LOW, _LOW_END = 0xD800, 0xDC00, 0xE000
"""UTF-16 surrogates: PDFium passes a ToUnicode entry beyond the BMP on as two."""
_NOT_SPACE = 0x3001
_SPACES = frozenset(code for code in range(0x21, _NOT_SPACE) if chr(code).isspace())
"""Unicode spaces above U+0020 (no-break, thin, ideographic …): a printed space."""
_HYPHEN_MARK = 0x02
_PRIVATE, _PRIVATE_END = 0xE000, 0xF900
"""The Private Use Area: a ligature's code where a ToUnicode map gives it one there
(glyph_names.spell_private)."""
"""PDFium's code for a line-end hyphen it took as a word break (`FPDFText_IsHyphen`)."""
_SAME_ORIGIN = 0.01
"""Points two glyph origins may differ by and be one glyph's pieces."""
_SAME_WIDTH = 2.0
"""Thousandths of the font size two widths may differ by and be one (float rounding)."""


_VISIBLE, _INVISIBLE, _HIDDEN = 0, 1, 2
"""Where a run's characters go: read, kept apart as invisible, or dropped as hidden."""

Spell = Callable[[str, int], str]
"""(font name, code) → the letters of the ligature glyph the font's glyph names give
code `code`, which PDFium found no Unicode for; "" when they spell none (glyph_names.py)."""


@dataclass(frozen=True, slots=True)
class _Run:
    """The characters of one or more text objects of one style, and how they are placed."""

    style: Style
    font_handle: int
    a: float
    """The text matrix's first entry scaled by the font size (thousandths): along the
    baseline of horizontal text, a width in thousandths of the font size times `a` is
    a width in points."""
    horizontal: bool
    place: Place
    kind: int
    """`_VISIBLE`, `_INVISIBLE` or `_HIDDEN`."""


@dataclass(slots=True)
class PageText:
    """A page's characters in runs of one style, and what was left out."""

    runs: list[tuple[Style, list[Char]]] = field(default_factory=list)
    invisible: list[tuple[Style, list[Char]]] = field(default_factory=list)
    """Runs in an invisible render mode, kept apart (see visibility.py)."""
    hidden: int = 0
    """Characters dropped as hidden text (white and tiny)."""
    left_out: int = 0
    """Characters past `MAX_CHARS_PER_PAGE`, not read."""
    placed: dict[int, tuple[list[Char], int, int]] = field(default_factory=dict)
    """Text object → the character list its characters went to, and their slice there."""
    private: bool = False
    """A private-use code was read (a ligature's, where a ToUnicode map gives it one)."""


class _Reader:
    """One pass over a text page's characters."""

    def __init__(
        self,
        textpage: int,
        geometry: PageGeometry,
        tagged: bool,
        inherited: dict[int, int],
        spell: Spell | None,
    ) -> None:
        self.textpage = textpage
        self.geometry = geometry
        self.tagged = tagged
        self.inherited = inherited
        self.spell = spell
        self.runs: dict[tuple[object, ...], _Run] = {}
        self.fonts: dict[int, tuple[str, float]] = {}
        self.marks: dict[int, str] = {}
        self.widths: dict[tuple[int, int], float] = {}
        self.matrix = api.FSMatrix()
        self.matrix_at = ctypes.addressof(self.matrix)
        self.rect = api.FSRect()
        self.tight = [ctypes.c_double() for _ in range(4)]
        """Left, right, bottom, top of a glyph's ink box (`FPDFText_GetCharBox`)."""
        self.tight_at = [ctypes.addressof(value) for value in self.tight]
        self.pending: tuple[tuple[int, int], float] | None = None
        """A glyph's measured width, kept once the next character shows it was no piece
        of a larger glyph (whose box it has)."""
        self.spellings: dict[tuple[int, int], str] = {}
        """(font, code) → the text a glyph reads as: its character, a ligature's letters,
        or "" (no Unicode and no ligature name: pdfminer's `(cid:N)`)."""
        self.x, self.y = ctypes.c_double(), ctypes.c_double()
        self.x_at, self.y_at = ctypes.addressof(self.x), ctypes.addressof(self.y)
        self.out = PageText()

    def read(self) -> PageText:
        tp = self.textpage
        text_object, unicode_of, char_origin = api.text_object, api.unicode_of, api.char_origin
        x, y, x_at, y_at, widths = self.x, self.y, self.x_at, self.y_at, self.widths
        spellings, placed = self.spellings, self.out.placed
        current = start = 0
        chars: list[Char] = []
        run: _Run | None = None
        place: Place | None = None
        last_x = last_y = math.nan
        last_end = 0.0
        """Origin of the character before, and where its box ends along the baseline."""
        count = api.count_chars(tp)
        if count > MAX_CHARS_PER_PAGE:
            count, self.out.left_out = MAX_CHARS_PER_PAGE, count - MAX_CHARS_PER_PAGE
        skip = -1
        for index in range(count):
            obj = text_object(tp, index)
            if not obj or index == skip:
                continue  # a line break or space PDFium inserted between objects
            code = unicode_of(tp, index)
            if code < 0x21 or _HIGH <= code < _LOW_END or (code < _NOT_SPACE and code in _SPACES):
                code, skip = self._unusual(index, code, chars, skip)
                if not code:
                    continue
            if obj != current:
                if current:
                    placed[current] = (chars, start, len(chars))
                current, last_x = obj, math.nan
                following = self._run(obj, index)
                if run is None or following.style != run.style or following.kind != run.kind:
                    self._close(run, chars)
                    chars = []
                run = following
                place = run.place
                start = len(chars)
            assert run is not None and place is not None
            key = (run.font_handle, code)
            text = spellings.get(key)
            if text is None:
                text = self._spelling(index, key)
            if not text:
                continue  # no Unicode for this glyph (pdfminer's `(cid:N)`)
            char_origin(tp, index, x_at, y_at)
            ox, oy = x.value, y.value
            if abs(ox - last_x) < _SAME_ORIGIN and abs(oy - last_y) < _SAME_ORIGIN:
                # pieces of one glyph (a ligature, `/ActualText`) share its origin and box
                self.pending = None
                end = max(last_end, self._measure(run, index, ox, 0))
            else:
                self._commit()
                end = widths.get(key, -1.0)
                if end < 0:
                    end = self._measure(run, index, ox, code if len(text) == 1 else 0)
                    self.pending = (key, end)
            if len(text) == 1:
                chars.append(place(text, ox, oy, end))
            else:  # a ligature's letters share its box: no gap inside
                chars.extend(place(letter, ox, oy, end) for letter in text)
            last_x, last_y, last_end = ox, oy, end
        if current:
            placed[current] = (chars, start, len(chars))
        self._commit()
        self._close(run, chars)
        return self.out

    def _unusual(self, index: int, code: int, chars: list[Char], skip: int) -> tuple[int, int]:
        """What to do with a control, space or surrogate code: (the code to read, or 0 to
        skip it; the index of a character already consumed)."""
        if _HIGH <= code < _LOW:  # a surrogate pair (an emoji): one character
            low = api.unicode_of(self.textpage, index + 1)
            if _LOW <= low < _LOW_END:
                return 0x10000 + ((code - _HIGH) << 10) + (low - _LOW), index + 1
            return 0, skip
        if code == _HYPHEN_MARK:
            return 0x2D, skip
        if chr(code).isspace():
            if code != 0x20 and api.has_map_error(self.textpage, index):
                return code, skip  # a glyph's own code (`_spelling`), not a space
            if chars and not api.is_generated(self.textpage, index):
                chars.append(SPACE)
            return 0, skip
        return code, skip  # a control code: a glyph's own code, or dropped (`_spelling`)

    def _spelling(self, index: int, key: tuple[int, int]) -> str:
        """What a glyph reads as (see `spellings`), asked once per font and code. Where
        PDFium found no Unicode it gives the glyph's code: the font's glyph names may
        still name a ligature (`f_f`, `uni00660069`)."""
        font, code = key
        text = chr(code)
        if api.has_map_error(self.textpage, index):
            text = ""
            if self.spell is not None and font:
                text = self.spell((self.fonts.get(font) or self._font(font))[0], code)
        elif code < 0x20:
            text = ""  # a control character
        elif _PRIVATE <= code < _PRIVATE_END:
            self.out.private = True
        self.spellings[key] = text
        return text

    def _commit(self) -> None:
        if self.pending is not None:
            self.widths.setdefault(*self.pending)
            self.pending = None

    def _measure(self, run: _Run, index: int, ox: float, code: int) -> float:
        """A glyph's advance (thousandths of the font size) from PDFium's boxes.

        PDFium's loose box is the union of the advance box and the ink, so where it
        reaches past the ink it ends at the advance. Where the ink overhangs (an italic
        `f`), the width PDFium gives for the character's code (`code`; 0: none asked)
        stands, unless it is wider than the box: the reverse lookup from Unicode to the
        font's code can fail and give a default width (an emoji in a CID font).
        """
        guess = api.advance(run.font_handle, code) if code and run.font_handle else 0.0
        if not (run.horizontal and run.a):
            return guess
        rect = self.rect
        api.loose_box(self.textpage, index, ctypes.addressof(rect))
        loose = float(max(rect.left, rect.right) - ox) / run.a
        api.char_box(self.textpage, index, *self.tight_at)
        ink = (max(self.tight[0].value, self.tight[1].value) - ox) / run.a
        if loose > ink + _SAME_WIDTH or not 0 < guess <= loose + _SAME_WIDTH:
            return loose
        return guess

    def _run(self, obj: int, index: int) -> _Run:
        """How the characters of text object `obj`, from character `index` on, are placed.

        Generators that set each glyph as its own object (a filing: 2 500 objects a page)
        make this the per-object cost, so it asks PDFium only what it must: the font,
        render mode, marked content and matrix; the colour only for tiny text.
        """
        font = api.text_font(obj) or 0
        mode = api.render_mode(obj)
        mcid, tag = self._marks(obj) if self.tagged else (None, None)
        m = self.matrix
        api.char_matrix(self.textpage, index, self.matrix_at)
        font_size = api.char_font_size(self.textpage, index)
        key = (font, mode, mcid, tag, m.a, m.b, m.c, m.d, font_size)
        run = self.runs.get(key)
        if run is None:
            run = self.runs[key] = self._new_run(font, mode, mcid, tag, font_size)
        tiny = run.kind == _VISIBLE and run.style.size < HIDDEN_TEXT_MAX_SIZE
        if tiny and min(api.colour(obj)) >= WHITE_MIN:  # white and tiny: hidden
            return replace(run, kind=_HIDDEN)
        return run

    def _marks(self, obj: int) -> tuple[int | None, str | None]:
        """The object's marked-content id (the outermost, or its form's), and when it has
        none, the tag of the innermost marked content it is drawn in."""
        found = api.marked_content_id(obj)
        if found < 0:
            found = self.inherited.get(obj, -1)
        if found >= 0:
            return found, None
        mark = api.innermost_mark(obj)
        if not mark:
            return None, None
        tag = self.marks.get(mark)
        if tag is None:
            tag = self.marks[mark] = api.mark_name_of(mark)
        return None, tag

    def _new_run(
        self, font: int, mode: int, mcid: int | None, tag: str | None, font_size: float
    ) -> _Run:
        m = self.matrix
        name, descent = self.fonts.get(font) or self._font(font)
        size = font_size * math.hypot(m.c, m.d)
        scale = font_size / 1000.0
        style = Style(self.geometry.direction(m.a, m.b, m.c, m.d), round(size, 3), name, mcid, tag)
        horizontal = abs(m.b) <= _HORIZONTAL * abs(m.a) and abs(m.c) <= _HORIZONTAL * abs(m.d)
        a, b, c, d = m.a * scale, m.b * scale, m.c * scale, m.d * scale
        place = placer(self.geometry, (a, b, c, d), descent, descent + 1000.0, horizontal)
        kind = _INVISIBLE if mode in (api.RENDER_INVISIBLE, api.RENDER_CLIP) else _VISIBLE
        return _Run(style, font, a, horizontal, place, kind)

    def _font(self, font: int) -> tuple[str, float]:
        """A font's name and descent. For the standard fonts pdfminer's descent (Adobe's
        metrics): PDFium measures the font it draws them with instead (Times-Roman:
        -249 against -217), which put a 20-point line 0.6 pt lower than pdfminer does."""
        name = api.font_name_of(font) if font else ""
        metrics = FONT_METRICS.get(name)
        standard = metrics[0].get("Descent") if metrics else None
        descent = float(standard) if isinstance(standard, (int, float)) else api.descent(font)
        if metrics and standard is None:
            descent = 0.0  # Symbol and ZapfDingbats: pdfminer has no descent for them
        self.fonts[font] = (name, descent)
        return name, descent

    def _close(self, run: _Run | None, chars: list[Char]) -> None:
        """File a finished run; a space it ends with stays (it parts it from the next)."""
        if run is None or all(c is SPACE for c in chars):
            return
        if run.kind == _HIDDEN:
            self.out.hidden += sum(1 for c in chars if c is not SPACE)
            return
        (self.out.invisible if run.kind == _INVISIBLE else self.out.runs).append((run.style, chars))


def read_text(
    textpage: int,
    geometry: PageGeometry,
    tagged: bool,
    inherited: dict[int, int],
    spell: Spell | None = None,
) -> PageText:
    """A page's characters in runs of one style (see the module docstring).

    `inherited` gives text objects drawn inside a form XObject the marked-content id of
    the form, which PDFium keeps on the form object only; `spell` reads the ligature
    glyphs PDFium gives no Unicode from the font's glyph names.
    """
    return _Reader(textpage, geometry, tagged, inherited, spell).read()
