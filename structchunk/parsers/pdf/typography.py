"""Headings from typography alone: lines set apart by size, weight, slant or capitals.

Body text is the most common size and family of the nearby pages, so an exhibit set in
another size keeps its own body. A line is a heading candidate when it is short, in one
style, not code, not a list item, not a form line and not a label; it is a heading when

- it is clearly larger than the body text (`DEFAULT_HEADING_SIZE_RATIO`), or
- it is a little larger (`DEFAULT_NUDGE_RATIO`: 10 over 9 points) and stands apart, with
  space above and below, over smaller text, or
- it is bold in another font family at about body size (a sans-serif run of headings
  over serif text), or
- at body size it is bold, italic or in capitals all through and stands on a line of its
  own (space above and below it, or a change of style), in a style that running text
  does not use for emphasis more often than for such lines.

Lines of one heading printed over several lines are joined. A cover page (page 1 with
little body text: the title block of a report or a filing) holds no headings; its
largest line can title the document, as can the large lines opening page 1 when the
bookmarks or tags left them out (`opening_title`). Levels come from `levels.py`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..table_titles import is_figure
from .cleanup import BULLET_GLYPHS, ends_in_hyphen, font_family, match_key
from .layout import DEFAULT_PARAGRAPH_GAP
from .levels import HeadingStyle, assign_levels, numbering
from .types import Line, PageContent, measured

DEFAULT_HEADING_SIZE_RATIO = 1.12
"""Font size, relative to the body size, from which a short standalone line is a heading
(browsers' h4 is 1.0, h3 1.17, h2 1.5 of the body; LaTeX's \\subsection is 1.2)."""
DEFAULT_NUDGE_RATIO = 1.08
"""A line this much larger than the body (a 10-point line over 9-point text), but not
`DEFAULT_HEADING_SIZE_RATIO` larger, is a heading only when it stands on its own as a
body-size bold line must; a document marking its main headings by a larger size keeps
these as its smallest heading level rather than taking them for emphasis."""
DEFAULT_NUDGE_STEP = 0.5
"""...and the text after it is at least this many points smaller."""
DEFAULT_BOLD_MIN_RATIO = 0.75
"""A bold line in another font family counts down to this size ratio (browsers' h5 and
h6 are 0.83 and 0.67 of the body size)."""
DEFAULT_BODY_SIZE_RATIO = 0.95
"""A bold, italic or capitalised line at body size is at least this share of it."""
DEFAULT_HEADING_MAX_WORDS = 24
"""Longest heading, in words, after joining its lines."""
DEFAULT_CAPTION_MIN_WORDS = 6
DEFAULT_CAPTION_MAX_WORDS = 60
"""Shortest and longest caption sentence (a bold risk factor over its paragraphs), in
words: `Apple Inc.` ends in a full stop but is no sentence."""
DEFAULT_MAIN_SHARE = 0.7
"""A bold other-family heading is mostly in its bold font (code spans aside)."""
DEFAULT_STYLED_SHARE = 0.95
"""A body-size heading is bold (or italic) in all its letters, not a run-in bold phrase."""
DEFAULT_INLINE_USES = 3
"""A bold style used inside this many body lines is emphasis, not a heading style."""
DEFAULT_EMPHASIS_RATIO = 2.0
"""A body-size style used inside running text this many times more often than on lines
of its own is emphasis: its lines of their own are emphasised sentences, not headings."""
DEFAULT_SIZE_DEVICE_PAGES = 0.25
"""Size marks the headings of a document with larger-than-body headings on at least this
share of its pages; its body-size bold and italic lines are then labels and emphasis,
not headings (a 10-Q prints one `ITEM` larger every few pages, and marks everything
else in bold at body size)."""
DEFAULT_LABEL_REPEATS = 6
"""A body-size line printed this many times is a recurring label (`Example`,
`Performance Indicators`), not a section title..."""
DEFAULT_LABEL_MAX_WORDS = 4
"""...when it is this short: a long title recurs as the same subsection of parallel
sections (Microsoft's `Three Months Ended December 31, 2022 Compared with Three Months
Ended December 31, 2021` under each segment)."""
DEFAULT_MAX_STYLE_SHARE = 0.2
"""A style holding more than this share of the text is a body style, not a heading one."""
DEFAULT_MERGE_GAP = 0.8
"""Lines of one heading are at most this many font sizes apart (gap between boxes)."""
DEFAULT_BODY_WINDOW = 2
"""Pages on either side that count towards a page's body style."""
DEFAULT_BODY_MIN_CHARS = 1000
"""Text (characters) a window of pages needs to set its own body style: half a page;
a window with less widens until it has that much."""
DEFAULT_COVER_BODY_SHARE = 0.3
"""Page 1 is a cover when less than this share of its text is in the body style."""
DEFAULT_COVER_MIN_PAGES = 4
"""Only a document of this many pages has a cover page."""
DEFAULT_TITLE_SIZE_RATIO = 1.5
"""The lines opening page 1 title the document when set at least this much larger than
the body and in the page's largest size."""
DEFAULT_TITLE_MAX_LINES = 3
"""A title opening page 1 is at most this many lines."""
DEFAULT_CENTER_TOLERANCE = 0.06
"""A line is centred when its middle is this close (share of the text width) to the
middle of the page's text and it does not start at the left margin."""
DEFAULT_WIDE_SHARE = 0.7
"""A line spanning this share of its page's text width is a full line, whose alignment
says nothing."""
DEFAULT_MEASURED_SIZE_ERROR = 0.07
"""Lines read by OCR whose sizes differ by at most this share are one size: the sizes
OCR gives lines set in one size are within 3 % of their median for 90 % of them and 4 %
for 95 % (1 493 lines of 37 documents, 300 dpi clean, `benchmarks/ocr.py --set ...`);
0.04 and 0.07 find the same headings on the three sets at 150 and 300 dpi, clean and
degraded (pooled F1 within 0.04), and the wider margin holds for worse scans. A
measured line's floor for body size (`DEFAULT_BODY_SIZE_RATIO`) is lowered by as much:
over the three sets' 30 rows (dpi by condition), 10 documents' headings gained and 2
lost (a court transcript's capitals, apart from the text around them only on the scan)."""
_ENDS_LIKE_SENTENCE = re.compile(r"[.,;:]$")
_FORM_MARKS = frozenset("☐☑☒□■✓✔")
_LABEL_VALUE = re.compile(r"^[^:]{1,40}:\s+\S")
_PARENTHESISED = re.compile(r"^\(.*\)$")
_SIGNATURES = frozenset({"signature", "signatures"})

Style = tuple[float, bool, bool]


def _style(line: Line) -> Style:
    return (round(line.size * 2) / 2, line.bold, line.italic_share >= DEFAULT_STYLED_SHARE)


def _caps(text: str) -> bool:
    """Whether a line is set in capitals. Words holding a digit are left out: they are
    names and codes written in capitals anyway (`COVID-19`, `10-Q`, `H100`), so a heading
    `COVID-19` is as plain as its sibling `Russia`."""
    words = [word for word in text.split() if not any(ch.isdigit() for ch in word)]
    letters = [ch for word in words for ch in word if ch.isalpha()]
    return len(letters) >= 4 and all(ch.isupper() for ch in letters)


@dataclass(frozen=True)
class _Body:
    """What body text looks like on and around a page."""

    size: float
    family: str


def body_style(lines: list[Line]) -> tuple[float, str]:
    """(size, family) of the most common text (by characters), code and bold excluded."""
    sizes: Counter[float] = Counter()
    families: Counter[tuple[float, str]] = Counter()
    for line in lines:
        if not line.mono:
            size = round(line.size * 2) / 2
            sizes[size] += line.chars
            families[(size, font_family(line.font))] += line.chars
    if not sizes:
        return 10.0, ""
    size = sizes.most_common(1)[0][0]
    family = max((f for s, f in families if s == size), key=lambda f: families[(size, f)])
    return size, family


def _page_bodies(pages: list[PageContent], cover: PageContent | None) -> dict[int, _Body]:
    """Each page's body style, from the text that is not bold on it and on
    `DEFAULT_BODY_WINDOW` pages either side, the cover left out: its small print is no
    body. A window with less text than `DEFAULT_BODY_MIN_CHARS` (statement pages, whose
    figures are tables) widens to the nearest pages that have it — not to the whole
    document, whose longest part may be an exhibit set in another size."""
    plain = [
        [line for line in page.lines() if not line.bold] if page is not cover else []
        for page in pages
    ]
    if not any(plain):
        return {page.number: _Body(*body_style(page.lines())) for page in pages}
    before = [0]
    for lines in plain:
        before.append(before[-1] + sum(line.chars for line in lines))
    out = {}
    for index, page in enumerate(pages):
        radius = DEFAULT_BODY_WINDOW
        while True:
            low, high = max(0, index - radius), min(len(pages), index + radius + 1)
            if before[high] - before[low] >= DEFAULT_BODY_MIN_CHARS or (
                low == 0 and high == len(pages)
            ):
                break
            radius *= 2
        out[page.number] = _Body(*body_style([line for lines in plain[low:high] for line in lines]))
    return out


def cover_page(pages: list[PageContent]) -> PageContent | None:
    """Page 1 when it is a cover: a long document whose first page is mostly not body
    text (title blocks, form fields, small print)."""
    readable = [page for page in pages if page.items]
    if len(pages) < DEFAULT_COVER_MIN_PAGES or not readable or readable[0] is not pages[0]:
        return None
    first = pages[0]
    body, _ = body_style([line for page in pages[1:] for line in page.lines() if not line.bold])
    lines = first.lines()
    total = sum(line.chars for line in lines) or 1
    in_body = sum(line.chars for line in lines if not line.bold and abs(line.size - body) <= 0.3)
    return first if in_body < DEFAULT_COVER_BODY_SHARE * total else None


def cover_title(pages: list[PageContent]) -> str:
    """The largest text of the cover page, its lines joined ("" without a cover)."""
    cover = cover_page(pages)
    if cover is None:
        return ""
    lines = [
        line for line in cover.lines() if any(ch.isalpha() for ch in line.text) and not line.turned
    ]
    if not lines:
        return ""
    largest = max(line.size for line in lines)
    return " ".join(line.text for line in lines if line.size >= largest - 0.1)


def opening_title(pages: list[PageContent]) -> str:
    """The title printed at the head of page 1, which the headings found did not take
    (bookmarks and tags often start at the first chapter): its first lines, up to
    `DEFAULT_TITLE_MAX_LINES` of one style, when set `DEFAULT_TITLE_SIZE_RATIO` times the
    body or larger and in the largest size on the page (`THE DHS STRATEGIC PLAN
    Fiscal Years 2020-2024` over an agency plan's opening text). The lines become one
    heading, and the title is returned for the document's root ("" when there is none)."""
    first = pages[0] if pages else None
    if first is None or not first.items:
        return ""
    run: list[Line] = []
    for item in first.items:
        if not isinstance(item, Line) or item.heading or item.turned:
            break
        if run and (abs(item.size - run[0].size) > 0.1 or item.bold != run[0].bold):
            break
        if len(run) == DEFAULT_TITLE_MAX_LINES:
            return ""  # a block of text in one style, not a title
        run.append(item)
    if not run or any(line.marker or line.mono or not line.uniform for line in run):
        return ""
    lines = [line for page in pages for line in page.lines()]
    body, _ = body_style([line for line in lines if not line.bold] or lines)
    largest = max(line.size for line in first.lines())
    size = run[0].size
    words = sum(len(line.text.split()) for line in run)
    if size < DEFAULT_TITLE_SIZE_RATIO * body or size < largest - 0.1:
        return ""
    if words > DEFAULT_HEADING_MAX_WORDS or not any(ch.isalpha() for ch in run[0].text):
        return ""
    for line in run:
        line.heading = 1
    opening = set(map(id, run))
    merge_runs([first], lambda a, b: id(a) in opening and id(b) in opening)
    return run[0].text


def _looks_like_heading(line: Line) -> bool:
    text = line.printed()
    words = text.split()
    if line.mono or not line.uniform or line.turned or line.unsure or not words:
        return False
    if line.cells > 1 and not _numbered_apart(line):
        return False
    if line.marker in BULLET_GLYPHS or not any(ch.isalpha() for ch in text):
        return False
    if _FORM_MARKS & set(text) or _PARENTHESISED.match(text):
        return False
    if len(words) > DEFAULT_HEADING_MAX_WORDS:
        return False
    return not _ends_like_sentence(text) or _caption_line(line)


def _numbered_apart(line: Line) -> bool:
    """A heading whose number is set apart from its title (`Item 1.` a tab before
    `Financial Statements`, as filings converted from HTML tables print them): two
    cells, a number opening the first, and no figure closing the second (a table row)."""
    text = line.printed()
    last = text.rsplit(" ", 1)[-1]
    return line.cells == 2 and numbering(text) is not None and not is_figure(last)


def _ends_like_sentence(text: str) -> bool:
    """Ends in `.` `,` `;` or `:` and is not a numbered heading (`2.3 Title.`)."""
    return bool(_ENDS_LIKE_SENTENCE.search(text)) and not numbering(text)


def _caption_line(line: Line) -> bool:
    """A bold line that may belong to a caption sentence (see `_is_caption`); a bold
    line ending in a colon is a lead-in (`Strategies:`)."""
    return line.bold_share >= DEFAULT_STYLED_SHARE and not line.printed().endswith(":")


def _captions(run: list[Line]) -> list[list[Line]]:
    """`run` when it is a whole caption (bold throughout, a sentence ending in a full
    stop) or holds no sentence end; else its parts between the lines that end like
    sentences, which are text, not heading."""
    if not _is_caption(run) or (
        run[-1].printed().endswith(".")
        and all(_caption_line(line) for line in run)
        and sum(len(line.printed().split()) for line in run) >= DEFAULT_CAPTION_MIN_WORDS
    ):
        return [run]
    parts: list[list[Line]] = [[]]
    for line in run:
        if _ends_like_sentence(line.printed()):
            parts.append([])
        else:
            parts[-1].append(line)
    return [part for part in parts if part]


def _is_caption(run: list[Line]) -> bool:
    """A bold sentence set as a paragraph of its own over the text it heads: the risk
    factors of a filing (`We depend on third parties and their technology to
    manufacture… which could harm our business.`), a plan's `Strategy: 1.01 - Deploy…`.
    It ends in a full stop and may run to `DEFAULT_CAPTION_MAX_WORDS`. Once `_captions`
    has split the runs, a run holding a sentence end is a whole caption."""
    return any(_ends_like_sentence(line.printed()) for line in run)


@dataclass(frozen=True)
class _Document:
    """What the heading decision needs to know about the whole document."""

    bodies: dict[int, _Body]
    inline: Counter[tuple[str, float]]
    share: Counter[Style]
    total: int
    line_gap: float
    centred: set[int]
    """ids of the lines set in the middle of their page's text (`_alignment`)..."""
    wide: set[int]
    """...and of those spanning most of its width (`DEFAULT_WIDE_SHARE`)."""


def _document(pages: list[PageContent], line_gap: float, cover: PageContent | None) -> _Document:
    inline: Counter[tuple[str, float]] = Counter()
    share: Counter[Style] = Counter()
    total = 0
    for page in pages:
        for line in page.lines():
            inline.update(set(line.inline_styles))
            share[_style(line)] += line.chars
            total += line.chars
    return _Document(
        _page_bodies(pages, cover),
        inline,
        share,
        total or 1,
        line_gap,
        *_alignment(pages),
    )


def _prominent(line: Line, doc: _Document) -> bool:
    """Larger than body text, or bold in another family at about body size."""
    body = doc.bodies.get(line.page, _Body(10.0, ""))
    if doc.share[_style(line)] > DEFAULT_MAX_STYLE_SHARE * doc.total:
        return False
    if line.size >= body.size * DEFAULT_HEADING_SIZE_RATIO:
        return True
    return (
        line.bold
        and line.size >= body.size * DEFAULT_BOLD_MIN_RATIO
        and line.main_share >= DEFAULT_MAIN_SHARE
        and font_family(line.font) != body.family
        and doc.inline[(line.font, round(line.size, 1))] < DEFAULT_INLINE_USES
    )


def _nudged(line: Line, doc: _Document) -> bool:
    """A little larger than the body text: a heading when it stands on its own."""
    body = doc.bodies.get(line.page, _Body(10.0, ""))
    if doc.share[_style(line)] > DEFAULT_MAX_STYLE_SHARE * doc.total:
        return False
    return line.size >= body.size * DEFAULT_NUDGE_RATIO


def _heads_smaller_text(run: list[Line], lines: list[Line], doc: _Document) -> bool:
    """Space above and below the run, and smaller text after it in its region: a label
    in a diagram or a side panel is followed closely by more labels or by text of its
    own size."""
    before, after = _neighbours(run, lines)
    if after is None or after.region != run[-1].region:
        return False
    spaced_above = before is None or before.region != run[0].region or _spaced(before, run[0], doc)
    return (
        spaced_above
        and _spaced(run[-1], after, doc)
        and after.size <= run[-1].size - DEFAULT_NUDGE_STEP
    )


def _spaced(a: Line, b: Line, doc: _Document) -> bool:
    return b.top - a.bottom > doc.line_gap + DEFAULT_PARAGRAPH_GAP * max(a.size, b.size, 1.0)


def _styled_at_body_size(line: Line, doc: _Document) -> bool:
    """Bold, italic or capitals through a body-size line that is no label. A line read by
    OCR is measured against its page's body as read, each a few per cent off
    (`DEFAULT_MEASURED_SIZE_ERROR`): a 10-Q's `PART I — FINANCIAL INFORMATION`, bold
    capitals at body size, reads 8.0 points over a body read 8.3-8.7."""
    body = doc.bodies.get(line.page, _Body(10.0, ""))
    slack = DEFAULT_MEASURED_SIZE_ERROR if measured(line) else 0.0
    if line.size < body.size * (DEFAULT_BODY_SIZE_RATIO - slack):
        return False
    text = line.printed()
    if _LABEL_VALUE.match(text) and not numbering(text):
        return False
    if _caps(text):
        return True  # capitals set a line apart even in the body font
    if doc.share[_style(line)] > DEFAULT_MAX_STYLE_SHARE * doc.total:
        return False
    return line.bold_share >= DEFAULT_STYLED_SHARE or line.italic_share >= DEFAULT_STYLED_SHARE


def _runs(page: PageContent, keep: Callable[[Line], bool], doc: _Document) -> list[list[Line]]:
    """Consecutive lines of one style that `keep` accepts, close enough to be one heading."""
    runs: list[list[Line]] = []
    for line in page.lines():
        if not keep(line):
            runs.append([])
            continue
        last = runs[-1][-1] if runs and runs[-1] else None
        if last is not None and _same_heading_run(last, line, doc):
            runs[-1].append(line)
        else:
            runs.append([line])
    return [run for run in runs if run]


def _same_heading_run(a: Line, b: Line, doc: _Document) -> bool:
    """`b` goes on with the heading `a` started: same style and alignment, close below
    it, and not a second numbered heading (`PART I` over `Item 1.`)."""
    return (
        _same_style(a, b)
        and not _realigned(a, b, doc)
        and not (numbering(a.printed()) and numbering(b.printed()))
        and a.region == b.region
        and b.top - a.bottom <= DEFAULT_MERGE_GAP * max(a.size, 1.0)
    )


def _same_style(a: Line, b: Line) -> bool:
    """One style: the same size (within Tesseract's error for lines read by OCR), weight
    and slant."""
    if not (measured(a) and measured(b)):
        return _style(a) == _style(b)
    return (
        abs(a.size - b.size) <= DEFAULT_MEASURED_SIZE_ERROR * max(a.size, b.size)
        and _style(a)[1:] == _style(b)[1:]
    )


def _realigned(a: Line, b: Line, doc: _Document) -> bool:
    """One line centred, the other not, and neither wide: a heading's wrapped lines
    share their alignment (a full line over its short rest is no change of it)."""
    if id(a) in doc.wide or id(b) in doc.wide:
        return False
    return (id(a) in doc.centred) != (id(b) in doc.centred)


def _isolated(run: list[Line], lines: list[Line], doc: _Document) -> bool:
    """The run stands on its own: space or a change of style above and below it."""
    before, after = _neighbours(run, lines)
    return _apart(before, run[0], doc, above=True) and _apart(run[-1], after, doc, above=False)


def _neighbours(run: list[Line], lines: list[Line]) -> tuple[Line | None, Line | None]:
    """The lines of the page just before and just after the run (None at its ends)."""
    start = next(i for i, line in enumerate(lines) if line is run[0])
    end = next(i for i, line in enumerate(lines) if line is run[-1])
    before = lines[start - 1] if start > 0 else None
    after = lines[end + 1] if end + 1 < len(lines) else None
    return before, after


def _apart(a: Line | None, b: Line | None, doc: _Document, above: bool) -> bool:
    if a is None or b is None or a.region != b.region:
        return not (above is False and b is not None and _continues_text(b))
    if _spaced(a, b, doc):
        return True
    if not above and _continues_text(b):
        return False  # the text goes on: a bold start of a paragraph
    if not above and numbering(b.printed()) and _looks_like_heading(b):
        return True  # a numbered heading of its own follows (`PART I` over `Item 1.`)
    if above and numbering(a.printed()) and numbering(b.printed()) and _looks_like_heading(a):
        return True  # ...or stands above a numbered line (`Item 1.` under `Part I`)
    if _realigned(a, b, doc):
        return True  # centred over set left, or the other way round
    if not above and _PARENTHESISED.match(b.printed()):
        return True  # a title's qualifier: `BALANCE SHEETS` over `(In millions)`
    return _style(a) != _style(b)


def _emphasis_styles(
    pages: list[PageContent], candidates: list[list[Line]]
) -> set[tuple[str, float]]:
    """Body-size styles used inside running text more often than on lines of their own."""
    standalone: Counter[tuple[str, float]] = Counter()
    for run in candidates:
        standalone[(run[0].font, round(run[0].size, 1))] += 1
    inline: Counter[tuple[str, float]] = Counter()
    for page in pages:
        for line in page.lines():
            inline.update(set(line.inline_styles))
    return {
        style
        for style, count in standalone.items()
        if inline[style] > DEFAULT_EMPHASIS_RATIO * count
    }


def _weak_headings(
    pages: list[PageContent], weak: list[list[Line]], size_marked: bool
) -> list[list[Line]]:
    """The body-size candidates that are headings.

    A document that marks its headings by size uses bold and italic at body size for
    labels and emphasis (`Note`, `Performance Indicators`): there only `Part`/`Item`/
    `Note N` lines count. Where size marks few headings, body-size styles are the
    headings — unless running text uses the style for emphasis more than for lines of
    their own, or the same short text recurs as a label (`Example`).
    """
    weak = _standing(weak, pages)
    if size_marked:
        return [run for run in weak if _keyword_numbered(run[0])]
    emphasis = _emphasis_styles(pages, weak)
    return [
        run
        for run in _without_recurring_labels(weak)
        if (run[0].font, round(run[0].size, 1)) not in emphasis or _caps(run[0].printed())
    ]


def _nudged_headings(pages: list[PageContent], nudged: list[list[Line]]) -> list[list[Line]]:
    """The slightly larger candidates that are headings: aligned, not going on from the
    text before, not a recurring label, and wrapped over a few lines at most — a column
    of names one under the other (a panel's `AHRQ`, `ACF`, `ACL`, ...) is a list."""
    few_lines = [run for run in nudged if len(run) <= DEFAULT_TITLE_MAX_LINES]
    return _without_recurring_labels(_standing(few_lines, pages))


def _standing(runs: list[list[Line]], pages: list[PageContent]) -> list[list[Line]]:
    """The runs that do not go on from the text before and start at the left edge of the
    text or are centred."""
    return [run for run in runs if not _continues_text(run[0]) and _aligned(run[0], pages)]


def _without_recurring_labels(runs: list[list[Line]]) -> list[list[Line]]:
    """The runs whose text is no label recurring among them (`_recurring_label`)."""
    texts = [" ".join(line.printed() for line in run) for run in runs]
    counts = Counter(match_key(text) for text in texts)
    return [
        run for run, text in zip(runs, texts) if not _recurring_label(text, counts[match_key(text)])
    ]


def _recurring_label(text: str, count: int) -> bool:
    return count >= DEFAULT_LABEL_REPEATS and len(text.split()) <= DEFAULT_LABEL_MAX_WORDS


def _continues_text(line: Line) -> bool:
    """A line starting with a lower-case word (`using Emscripten`, not `iPhone`) goes on
    from the line before: it cannot start a heading."""
    first = line.text.split(" ", 1)[0]
    return first.isalpha() and first.islower()


def _aligned(line: Line, pages: list[PageContent]) -> bool:
    """A body-size heading starts at the left edge of the text or is centred; a label at
    the right margin (`Exhibit 31.1`) is not one."""
    page = next(p for p in pages if p.number == line.page)
    left = min(item.x0 for item in page.items)
    right = max(item.x1 for item in page.items)
    middle = (left + right) / 2
    width = max(right - left, 1.0)
    return line.x0 - left <= 0.15 * width or abs((line.x0 + line.x1) / 2 - middle) <= (
        DEFAULT_CENTER_TOLERANCE * width
    )


def _keyword_numbered(line: Line) -> bool:
    scheme = numbering(line.printed())
    return scheme is not None and scheme[0] == "kw"


def _alignment(pages: list[PageContent]) -> tuple[set[int], set[int]]:
    """ids of the lines set in the middle of their page's text block, and of the lines
    spanning most of its width."""
    centred, wide = set(), set()
    for page in pages:
        lines = page.lines()
        if not lines:
            continue
        left = min(item.x0 for item in page.items)
        right = max(item.x1 for item in page.items)
        width = max(right - left, 1.0)
        middle = (left + right) / 2
        for line in lines:
            if (
                abs((line.x0 + line.x1) / 2 - middle) <= DEFAULT_CENTER_TOLERANCE * width
                and line.x0 - left >= 2 * DEFAULT_CENTER_TOLERANCE * width
            ):
                centred.add(id(line))
            if line.x1 - line.x0 >= DEFAULT_WIDE_SHARE * width:
                wide.add(id(line))
    return centred, wide


def typography_headings(pages: list[PageContent], line_gap: float) -> None:
    """Mark heading lines by typography (levels included) and join wrapped headings."""
    cover = cover_page(pages)
    doc = _document(pages, line_gap, cover)
    headings: list[list[Line]] = []
    weak: list[list[Line]] = []
    nudged: list[list[Line]] = []
    for page in pages:
        if page is cover:
            continue
        lines = page.lines()
        runs = [
            part for found in _runs(page, _looks_like_heading, doc) for part in _captions(found)
        ]
        for run in runs:
            if all(_prominent(line, doc) for line in run) and not _is_caption(run):
                headings.append(run)
            elif all(_nudged(line, doc) for line in run) and _heads_smaller_text(run, lines, doc):
                nudged.append(run)
            elif all(_styled_at_body_size(line, doc) for line in run) and _isolated(
                run, lines, doc
            ):
                weak.append(run)
    headings = [run for run in headings if not _continues_text(run[0])]
    text_pages = sum(1 for page in pages if page is not cover and page.lines())
    marked = len({run[0].page for run in headings}) >= DEFAULT_SIZE_DEVICE_PAGES * text_pages
    headings += _weak_headings(pages, weak, marked)
    headings += _nudged_headings(pages, nudged)
    order = {id(line): i for i, line in enumerate(line for p in pages for line in p.lines())}
    headings.sort(key=lambda run: order[id(run[0])])
    centred = doc.centred
    merged: list[Line] = []
    removed: set[int] = set()
    for run in headings:
        longest = DEFAULT_CAPTION_MAX_WORDS if _is_caption(run) else DEFAULT_HEADING_MAX_WORDS
        if sum(len(line.printed().split()) for line in run) > longest:
            continue
        removed.update(id(line) for line in run[1:])
        merged.append(merge_lines(run))
    for page in pages:
        page.items = [item for item in page.items if id(item) not in removed]
    outermost = back_matter(merged, pages)
    styles = [_heading_style(line, id(line) in centred, id(line) in outermost) for line in merged]
    for line, level in zip(merged, assign_levels(styles)):
        line.heading = level


def back_matter(headings: list[Line], pages: list[PageContent]) -> set[int]:
    """ids of the headings that end the body and follow it: `SIGNATURES`, and after it
    every heading opening a page — a certification, an auditor's letter, an exhibit
    appended to a filing or a contract is a document of its own, not a part of the last
    section before the signatures."""
    signed = next(
        (i for i, line in enumerate(headings) if match_key(line.printed()) in _SIGNATURES),
        None,
    )
    if signed is None:
        return set()
    openers = {id(next((i for i in p.items if isinstance(i, Line)), None)) for p in pages}
    after = [line for line in headings[signed + 1 :] if id(line) in openers]
    return {id(headings[signed]), *map(id, after)}


def _heading_style(line: Line, centred: bool, outermost: bool = False) -> HeadingStyle:
    text = line.printed()
    upright = line.italic_share < DEFAULT_STYLED_SHARE
    bold = line.bold_share >= DEFAULT_STYLED_SHARE or line.bold
    size = round(line.size * 2) / 2
    prominence = (size, upright, _caps(text), bold, centred)
    return HeadingStyle(numbering(text), size, prominence, outermost)


def merge_lines(lines: list[Line]) -> Line:
    """A heading printed over several lines, as one line (the first, extended). A line
    ending in a hyphen after a letter is glued to the next word with the hyphen kept:
    headings are set ragged, so the hyphen is the word's own (`data-` / `driven` is
    `data-driven`, not `data- driven`; capitals too: `PRO-` / `MOTE`, `COVID-` / `19`)."""
    first = lines[0]
    for other in lines[1:]:
        text = other.printed()
        glued = ends_in_hyphen(first.text) and text[:1].isalnum()
        first.text = f"{first.text}{text}" if glued else f"{first.text} {text}"
        first.x0, first.x1 = min(first.x0, other.x0), max(first.x1, other.x1)
        first.bottom = max(first.bottom, other.bottom)
        first.chars += other.chars
    return first


def merge_runs(pages: list[PageContent], same: Callable[[Line, Line], bool]) -> None:
    """Merge consecutive heading lines of one page for which `same(previous, line)` holds."""
    for page in pages:
        items: list[Line | object] = []
        run: list[Line] = []
        for item in page.items:
            if isinstance(item, Line) and item.heading and run and same(run[-1], item):
                run.append(item)
                continue
            if run:
                items.append(merge_lines(run))
                run = []
            if isinstance(item, Line) and item.heading:
                run.append(item)
            else:
                items.append(item)
        if run:
            items.append(merge_lines(run))
        page.items = items  # type: ignore[assignment]
