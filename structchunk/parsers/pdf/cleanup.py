"""Text clean-up for PDF lines: ligatures, odd characters, fonts, list markers, hyphens."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .types import Line

_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\u00ad": "",
        "\u200b": "",
        "\u200c": "",
        "\u200d": "",
        "\ufeff": "",
    }
)
"""Typographic ligatures to their letters, odd spaces to a space, invisible marks away."""
_CID = re.compile(r"\(cid:\d+\)")
"""pdfminer's placeholder for a glyph without a Unicode mapping (icons, emoji)."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"[ \t]+")


def clean_text(text: str) -> str:
    """Ligatures expanded, unmapped glyphs and control characters dropped, spaces collapsed."""
    text = text.translate(_LIGATURES)
    if "(cid:" in text:
        text = _CID.sub("", text)
    text = _CONTROL.sub("", text)
    return _SPACES.sub(" ", text).strip()


def font_name(raw: str | None) -> str:
    """`ABCDEF+DejaVuSans-Bold` → `DejaVuSans-Bold`."""
    name = raw or ""
    if len(name) > 7 and name[6] == "+":
        name = name[7:]
    return name


_BOLD = re.compile(r"bold|black|heavy|demi|[-,]bd\b|cmbx|[-,]medi(?:um)?\b", re.I)
_MONO = re.compile(
    r"mono|courier|consol|menlo|monaco|inconsolata|typewriter|cmtt|"
    r"fixed|code|lucidaconsole",
    re.I,
)
_STYLE_SUFFIX = re.compile(r"[-,].*$")
_VENDOR_SUFFIX = re.compile(r"(?:PS)?MT$|PS$")
_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")


def is_bold(font: str) -> bool:
    return bool(_BOLD.search(font))


_ITALIC = re.compile(r"italic|oblique|[-,]it\b|[a-z]it$|cmti|slanted", re.I)


def is_italic(font: str) -> bool:
    return bool(_ITALIC.search(font))


_BARE_NUMBER = re.compile(r"\d{1,4}")


def is_bare_number(text: str) -> bool:
    """A whole number of up to four digits and nothing else: how a page number is
    printed in a footer, a contents list or a table of contents' last column."""
    return bool(_BARE_NUMBER.fullmatch(text))


def is_mono(font: str) -> bool:
    return bool(_MONO.search(font))


def font_family(font: str) -> str:
    """`DejaVuSans-Bold` → `DejaVuSans`; `Arial,Bold` → `Arial`; `ArialMT` → `Arial`;
    `TimesNewRomanPS-BoldMT` → `TimesNewRoman` (the style suffix first, then the
    vendor's); a subset's `ABCDEF+` prefix dropped."""
    name = _SUBSET_PREFIX.sub("", font)
    return _VENDOR_SUFFIX.sub("", _STYLE_SUFFIX.sub("", name)) or font


BULLET_GLYPHS = frozenset("•◦▪▫■□●○◆◇►▸▹‣⁃∙·\uf0b7\uf0a7\uf0d8\uf076\uf0fc❖➢✓✔")
"""Bullet characters seen at line starts (the `\\uf0..` ones are Symbol/Wingdings bullets
as Word exports them)."""
CURRENCY_SIGNS = frozenset("$€£¥")
"""Printed apart from a figure, before it (`$` `17,002`), in financial tables."""
CLOSERS = frozenset({")", "%", ")%"})
"""Printed apart from the figure they close (`(8` `)`), joined back without a space."""
DASH_BULLETS = frozenset("-–—*+")
"""Markers that are bullets only where a paragraph could start (not mid-paragraph)."""
_NUMBERED = re.compile(r"^(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)]|\(\d{1,3}\))$")
"""`1.`, `12)`, `a)`, `(b)`, `iv.`, `(3)`: an ordered-list marker as a separate word."""


def split_marker(words: list[str]) -> str:
    """The list marker a line's words start with, if any.

    A bullet glyph starts an item anywhere; a dash or a number only where a paragraph
    could start, which the block stage decides (`pdf_blocks`).
    """
    if len(words) < 2:
        return ""
    first = words[0]
    if len(first) == 1 and (first in BULLET_GLYPHS or first in DASH_BULLETS):
        return first
    return first if _NUMBERED.match(first) else ""


def bullet_marker(glyph: str) -> str:
    """Markers as the chunk text shows them: bullets become `-`, numbers stay as printed."""
    if glyph in BULLET_GLYPHS or glyph in DASH_BULLETS:
        return "-"
    return glyph


_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_HYPHEN_END = re.compile(r"([^\W\d_]+)-$")
_FIRST_WORD = re.compile(r"^([^\W\d_]+)")


class Vocabulary:
    """Words seen inside lines of the whole document: the evidence for line-end hyphens.

    `infor-` / `mation` is joined to `information` when `information` occurs elsewhere;
    `well-` / `known` keeps its hyphen when `well-known` does. With no evidence, the
    document's own habit decides (`hyphenates`, see `document_hyphenates`).
    """

    def __init__(self, lines: Iterable[str], hyphenates: bool) -> None:
        self.words: set[str] = set()
        self.hyphenates = hyphenates
        for line in lines:
            tokens = _WORD.findall(line.casefold())
            if tokens and line.endswith("-"):
                tokens.pop()  # the broken fragment itself is no evidence
            self.words.update(tokens)

    def join(self, left: str, right: str) -> str:
        """Two consecutive lines of a paragraph as one text, line-end hyphen repaired.

        `left` is the paragraph so far: the broken word is searched for after its last
        space (it holds none), so a long paragraph is not searched again at each line.
        """
        end = _HYPHEN_END.search(left, left.rfind(" ") + 1)
        start = _FIRST_WORD.match(right)
        if not end or not start:
            glued = left.endswith(("-", "\u2010")) or (
                left.endswith("\u2013") and right[:1].isdigit()
            )
            return f"{left}{right}" if glued or wraps_unspaced(left, right) else f"{left} {right}"
        head, tail = end.group(1), start.group(1)
        if tail[0].isupper():  # `COVID-` / `19`, `Jean-` / `Paul`: a real hyphen
            return f"{left}{right}"
        compound = f"{head}-{tail}".casefold() in self.words
        joined = (head + tail).casefold() in self.words
        if compound != joined:  # the document itself spells it one way
            return f"{left[:-1]}{right}" if joined else f"{left}{right}"
        return f"{left[:-1]}{right}" if self.hyphenates else f"{left}{right}"


DEFAULT_HYPHENATION_SHARE = 0.02
"""Share of prose lines ending in `letter-` above which justified text is taken to
hyphenate words at line ends (the corpus's two-column LaTeX paper: 9%)."""
DEFAULT_HYPHENATION_MIN = 3
"""Fewest broken words before a document counts as hyphenating."""
DEFAULT_JUSTIFIED_SHARE = 0.5
"""Share of a column's lines ending at its right edge above which text is justified.
Word-breaking hyphenation comes with justified text (LaTeX, typeset reports); browsers
and word processors set ragged text and break lines only at real hyphens."""


def is_justified(lines: list[Line]) -> bool:
    """Do most prose lines end at their column's right edge?"""
    ends: dict[tuple[int, int], Counter[int]] = {}
    for line in lines:
        ends.setdefault((line.page, line.region), Counter())[round(line.x1)] += 1
    edges = {key: counts.most_common(1)[0][0] for key, counts in ends.items()}
    flush = sum(1 for line in lines if abs(line.x1 - edges[(line.page, line.region)]) <= 1.5)
    return bool(lines) and flush / len(lines) > DEFAULT_JUSTIFIED_SHARE


def document_hyphenates(lines: list[Line]) -> bool:
    """Does the document break words with hyphens at line ends (prose lines only)?"""
    broken = sum(1 for line in lines if _HYPHEN_END.search(line.text))
    return (
        broken >= DEFAULT_HYPHENATION_MIN
        and broken > DEFAULT_HYPHENATION_SHARE * len(lines)
        and is_justified(lines)
    )


def hyphen_votes(lines: list[str], vocabulary: Vocabulary) -> int:
    """Broken words the document also spells joined, minus those it spells hyphenated."""
    votes = 0
    for left, right in zip(lines, lines[1:]):
        end, start = _HYPHEN_END.search(left), _FIRST_WORD.match(right)
        if end and start and not start.group(1)[0].isupper():
            head, tail = end.group(1), start.group(1)
            votes += ((head + tail).casefold() in vocabulary.words) - (
                f"{head}-{tail}".casefold() in vocabulary.words
            )
    return votes


DEFAULT_HYPHEN_VOTES = 2
"""Broken words spelt joined (or hyphenated) elsewhere, net, that settle whether the
document hyphenates; one could be a coincidence."""


def document_vocabulary(lines: list[Line]) -> Vocabulary:
    """The document's words, and its habit at line ends: its own spellings first, then
    justified text with many broken lines."""
    prose = [line for line in lines if not line.mono]
    vocabulary = Vocabulary((line.text for line in lines), document_hyphenates(prose))
    votes = hyphen_votes([line.text for line in prose], vocabulary)
    if abs(votes) >= DEFAULT_HYPHEN_VOTES:
        vocabulary.hyphenates = votes > 0
    return vocabulary


_TERMINAL = re.compile(r"[.!?:;][\"'”’»)\]]*$")


def ends_sentence(text: str) -> bool:
    """The line ends a sentence (or a lead-in ending in a colon)."""
    return bool(_TERMINAL.search(text))


_UNSPACED_CHAR = re.compile(
    "[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uff00-\uffef\U00020000-\U0003ffff]"
)
"""Han, kana, CJK punctuation and full-width forms: text set without spaces, where a
line wraps between any two characters and a space there is not in the text."""


def wraps_unspaced(left: str, right: str) -> bool:
    """Whether a line ending in `left` wraps mid-text into `right` in Chinese or Japanese
    (both sides such characters): the lines join without a space."""
    return bool(
        left and right and _UNSPACED_CHAR.match(left[-1]) and _UNSPACED_CHAR.match(right[0])
    )


def starts_lower(text: str) -> bool:
    return bool(text) and text[0].islower()


def ends_in_hyphen(text: str) -> bool:
    """The line ends in a hyphen right after a letter (`infor-`, `data-`)."""
    return bool(_HYPHEN_END.search(text))


_NORM = re.compile(r"[\W_]+")


def match_key(text: str) -> str:
    """Text reduced to lower-case letters and digits, for matching titles to lines."""
    return _NORM.sub("", text.translate(_LIGATURES).casefold())
