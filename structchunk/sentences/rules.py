"""The post-pass over Punkt's sentence boundaries: what Punkt gets wrong in technical text.

Punkt decides each candidate stop from word statistics alone. It does not know that a
sentence boundary needs whitespace, that an ellipsis or a quotation is a unit, that a
list marker starts an item, or that a blank line ends a paragraph. `RULES` fixes those
cases, in order, as data: each rule takes the text and the *cuts* (offsets where a new
sentence starts) and returns new cuts. Every rule keeps the cuts sorted and each one on
a non-space character right after whitespace, so the spans built from them always
cover all of the text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Collection
from itertools import accumulate

from .full_width import CJK_QUOTES, full_width_stops

Cuts = list[int]
"""Sorted offsets where a sentence starts; never 0, always right after whitespace."""

RuleFunction = Callable[[str, Cuts, Collection[str]], Cuts]
"""(text, cuts, the model's sentence starters) -> cuts."""

CLOSERS = "\"')]}’”»›"
"""Closing quotes and brackets: after a final stop they still belong to its sentence."""
OPENERS = "\"'([{‘“«‹"
BULLETS = "•◦▪‣⁃●○■□►▸"
"""Characters that only ever start a list item (ASCII `-`, `*`, `+` only at line starts)."""

TITLES = frozenset(
    (
        "adm",
        "atty",
        "brig",
        "capt",
        "cmdr",
        "col",
        "cpl",
        "cpt",
        "dr",
        "fr",
        "gen",
        "gov",
        "hon",
        "lt",
        "maj",
        "messrs",
        "mlle",
        "mme",
        "mr",
        "mrs",
        "ms",
        "msgr",
        "mt",
        "pres",
        "prof",
        "rep",
        "rev",
        "sen",
        "sgt",
        "supt",
    )
)
"""Abbreviations that stand before a name (`Mr. Brown`, `Mt. Fuji`). Punkt may end a
sentence after them when the name is also a word it has seen in lower case (`brown`).
From the curated list of the bundled model (scripts/punkt_curated.txt)."""

DEFAULT_MAX_ENCLOSED_CHARS = 300
"""Longest quotation or bracketed aside kept whole. Long enough for the two or three
sentences quoted in narrative text (pySBD's test cases quote up to ~200 characters);
short enough that a stray unmatched quote cannot swallow a paragraph."""


def _compile(pattern: str) -> re.Pattern[str]:
    """`pattern` with LIMIT, CLOSERS, BULLETS and QUOTE_CONTEXT filled in."""
    for name, value in (
        ("LIMIT", str(DEFAULT_MAX_ENCLOSED_CHARS)),
        ("CLOSERS", re.escape(CLOSERS)),
        ("BULLETS", BULLETS),
        ("QUOTE_CONTEXT", r"\s(\[{/—–-"),
    ):
        pattern = pattern.replace(name, value)
    return re.compile(pattern)


_NON_SPACE = re.compile(r"\S")
_ALNUM = re.compile(r"[^\W_]")
_WORD = re.compile(r"\S+")
_DOTS = re.compile(r"\.(?: ?\.){2,}")
_ELLIPSIS_CHAR = re.compile(r"…+(?: ?\.)?")
_PRONOUN_I = re.compile(r"I(?:['’](?:m|d|ve|ll))?\b")
"""`I` is capitalised anywhere, so after an ellipsis it is no sign of a new sentence."""
_QUESTION_OR_EXCLAMATION = re.compile(r"[!?]+(?:\s|$)")
_BLANK_LINE = re.compile(r"(?:\r\n|\r|\n)[^\S\r\n]*(?:\r\n|\r|\n)\s*")
_CONTINUED_STOP = _compile(r"(?:[!?][!?.]*[CLOSERS]*|\.+[CLOSERS]+|(?:^|\s)\.)$")
_ENCLOSURES = (
    (
        '"',
        True,
        _compile(
            r'"(?<=[QUOTE_CONTEXT]")(?=[^\s"])[^"`]{0,LIMIT}(?<=[^\s"])"'
            r"(?![^\s.,;:!?)\]}—–’”-])"
        ),
    ),
    ("'", True, _compile(r"'(?<=[QUOTE_CONTEXT]')(?=\w)(?:[^'`]|'(?=\w)){0,LIMIT}?(?<=\S)'(?!\w)")),
    ("“", False, _compile(r"“[^“”]{1,LIMIT}”")),
    ("‘", False, _compile(r"‘(?:[^‘’]|’(?=\w)){1,LIMIT}?’(?!\w)")),
    ("«", False, _compile(r"«[^«»]{1,LIMIT}»")),
    ("(", False, _compile(r"\([^()]{1,LIMIT}\)")),
    ("[", False, _compile(r"\[[^\[\]]{1,LIMIT}\]")),
    *((char, False, pattern) for char, pattern in CJK_QUOTES),
)
"""(opening character, whether it is a straight quote, pattern) for quotations and
brackets. A straight quote opens only after whitespace, an opening bracket, a slash or a
dash, so apostrophes (`they'll`, `agents'`) and code (`&'a str`) are not quotes; those
patterns run on the text with a space in front, so their offsets are one too high."""
_ASIDE = _compile(r"\([^()]{1,LIMIT}[.!?][\"'’”]?\)|\[[^\[\]]{1,LIMIT}[.!?][\"'’”]?\]")
_CITED_STOP = _compile(r"[.!?][CLOSERS]*(?:\[[^\[\]\s][^\[\]\n]{0,29}\])+(?=\s)")
"""A final stop, its closing quotes, and the reference marks printed after it: `.[40]`,
`."[12][13]`, `.[note 3]`, `.[citation needed]`."""
_MARKER = re.compile(r"(?:(\d{1,2})|([a-z])|([A-Z]))(\.\)|[.)])(?=\s+\S)")
"""An enumerator: `1.`, `2)`, `3.)`, `a.`, `B)` (found by `_markers`)."""
_MARKER_END = _compile(
    r"[.)](?:(?<=[\sBULLETS][^\W_][.)])|(?<=[\sBULLETS]\d\d[.)])"
    r"|(?<=[\sBULLETS][^\W_]\.\))|(?<=[\sBULLETS]\d\d\.\)))(?=\s+\S)"
)
"""The last character of a possible `_MARKER`, run on the text with a space in front:
a scan for `.` and `)` is much faster than trying `_MARKER` at every offset."""
_BULLET = _compile(r"[BULLETS]")
_LINE_DASH = re.compile(r"[\r\n][^\S\r\n]*[-*+](?=[^\S\r\n])")
"""`-`, `*`, `+` are bullets only at the start of a line."""


def _skip_spaces(text: str, pos: int) -> int:
    match = _NON_SPACE.search(text, pos)
    return match.start() if match else len(text)


def _trim_end(text: str, pos: int) -> int:
    while pos > 0 and text[pos - 1].isspace():
        pos -= 1
    return pos


def _sorted_cuts(text: str, cuts: Collection[int]) -> Cuts:
    return sorted(c for c in set(cuts) if 0 < c < len(text))


def _drop_within(cuts: Cuts, ranges: list[tuple[int, int]]) -> Cuts:
    """`cuts` without those in any range `(low, high]`, in O((cuts + ranges) log ranges)."""
    if not ranges:
        return cuts
    ranges.sort()
    lows = [low for low, _ in ranges]
    reach = list(accumulate((high for _, high in ranges), max))
    out: list[int] = []
    for cut in cuts:
        last = bisect_left(lows, cut) - 1  # the ranges that start before the cut
        if last < 0 or reach[last] < cut:
            out.append(cut)
    return out


def inside_a_token(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """No boundary inside a whitespace-free token: decimals and versions (`12.3%`,
    `v2.0.1`), file names and URLs (`config.yaml`, `https://x.io/a.b`), e-mail
    addresses, `foo.(bar)`. Punkt cuts where a stop meets other punctuation."""
    return [c for c in cuts if 0 < c < len(text) and text[c - 1].isspace()]


def ellipses(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """An ellipsis (`...`, `…`, `. . .`) is one unit: never cut between its dots.

    After it, a new sentence starts only before an upper-case word, and only when the
    ellipsis can end one: four dots (`that.... She`, `period . . . . Next`), or an
    unspaced `...`/`…`. A spaced three-dot ellipsis marks an omission inside a
    sentence (`the thing is . . . I didn't`); nor is the pronoun `I` a sign of a new
    sentence. `word. . . . Next` is the sentence's own period followed by an ellipsis
    that opens the next sentence.
    """
    found = list(_DOTS.finditer(text))
    if "…" in text:
        found = sorted(found + list(_ELLIPSIS_CHAR.finditer(text)), key=lambda m: m.start())
    if not found:
        return cuts
    added: list[int] = []
    owned: list[tuple[int, int]] = []  # where the ellipses decide
    for match in found:
        start, end = match.span()
        after = end
        while after < len(text) and text[after] in CLOSERS:
            after += 1
        following = _skip_spaces(text, after)
        owned.append((start, following))
        if (
            following == after
            or following >= len(text)
            or not _starts_upper(text, following)
            or _PRONOUN_I.match(text, following)
        ):
            continue
        if start > 0 and text[start - 1] in "[(":
            continue  # `[...]` marks an omission, never an end
        run = match.group()
        dots = run.count(".") + 3 * run.count("…")
        spaced = " " in run
        if spaced and dots >= 4 and start > 0 and not text[start - 1].isspace():
            added.append(_skip_spaces(text, start + 1))
        elif dots >= 4 or not spaced:
            added.append(following)
    return _sorted_cuts(text, _drop_within(cuts, owned) + added)


def reference_marks(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """A sentence ends after the reference marks that follow its stop, when the next
    word starts like a sentence: `…for Māori to sign.[44] With the signing…`. Punkt sees
    no boundary there (no space after the stop), so a Wikipedia paragraph was one
    "sentence" and a long one was cut between words."""
    if "[" not in text:
        return cuts
    ends = []
    for match in _CITED_STOP.finditer(text):
        start = _skip_spaces(text, match.end())
        if _starts_upper(text, start):
            ends.append(start)
    return _sorted_cuts(text, cuts + ends) if ends else cuts


def _starts_upper(text: str, pos: int) -> bool:
    while pos < len(text) and text[pos] in OPENERS:
        pos += 1
    return pos < len(text) and text[pos].isupper()


def quotations_and_brackets(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """No boundary inside a short quotation or bracketed aside: `'Well!' thought
    Alice`, `(He worked as an engineer.) at the University`. Straight quotes count
    only when they open after whitespace and close before whitespace or punctuation,
    so apostrophes (`they'll`, `agents'`) and code (`&'a str`) are not quotes."""
    if not cuts:
        return cuts
    enclosed: list[tuple[int, int]] = []
    padded = " " + text
    for char, with_context, pattern in _ENCLOSURES:
        if char in text:
            if with_context:
                enclosed += [(m.start() - 1, m.end() - 1) for m in pattern.finditer(padded)]
            else:
                enclosed += [m.span() for m in pattern.finditer(text)]
    return _drop_within(cuts, [(start, end - 1) for start, end in enclosed])


def closing_punctuation(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """Closing quotes and brackets after the final stop belong to the sentence they
    close: `He said "stop." Then…` cuts after the quote, not before it."""
    out: list[int] = []
    for cut in cuts:
        if text[cut] in CLOSERS:
            end = cut
            while end < len(text) and text[end] in CLOSERS:
                end += 1
            if end == len(text) or text[end].isspace():
                cut = _skip_spaces(text, end)
        out.append(cut)
    return _sorted_cuts(text, out)


def lowercase_continuation(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """Before a lower-case word, the sentence goes on after `!` or `?`, after a stop and a
    closing quote or bracket, and after a lone `.`: `Yahoo! in the accounting
    department`, `'This is great.' she said`, `use a . followed by the index`. Other
    periods before a lower-case word are left to Punkt, which knows the abbreviations
    (and lower-cased text, where `for cash. each ...` is two sentences)."""
    out: list[int] = []
    for cut in cuts:
        if text[cut].islower():
            end = _trim_end(text, cut)
            if _CONTINUED_STOP.search(text, max(0, end - 8), end):
                continue
        out.append(cut)
    return out


def initials(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """Initials are not sentence ends: no cut between `J. R. R.`, nor after an initial
    that follows a name and precedes another (`Jonas E. Smith`). The pronoun `I` and a
    capitalised sentence starter (`... plan B. The ...`) still end a sentence."""
    out: list[int] = []
    for cut in cuts:
        end = _trim_end(text, cut)
        initial = _word_before(text, end) if text[end - 2 : end - 1].isupper() else ""
        if _is_initial(initial.lstrip(OPENERS)) and _joins_initial(
            initial,
            _word_before(text, _trim_end(text, end - len(initial))),
            _WORD.match(text, cut),
            starters,
        ):
            continue
        out.append(cut)
    return out


def _is_initial(word: str) -> bool:
    return len(word) == 2 and word[0].isupper() and word[1] == "."


def _joins_initial(
    initial: str, previous: str, following: re.Match[str] | None, starters: Collection[str]
) -> bool:
    if following is None:
        return False
    word = following.group()
    if _is_initial(word):
        return True  # J. R.
    return (
        initial[-2] != "I"
        and word[0].isupper()
        and _bare(word) not in starters
        and bool(previous)
        and (previous[0].isupper() or _is_initial(previous))
    )


def titles(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """A title is followed by a name, not by a new sentence: `at 10 a.m. Mr. Brown will
    chair it`. Only a capitalised sentence starter after it (`... see a Dr. The ...`)
    keeps the cut."""
    out: list[int] = []
    longest = max(map(len, TITLES)) + 2  # with an opening bracket or quote, and the stop
    for cut in cuts:
        end = _trim_end(text, cut)
        title = text[max(0, end - longest) : end].rsplit(None, 1)[-1].lstrip(OPENERS)
        if (
            title[-1:] == "."
            and title[:-1].lower() in TITLES
            and _bare(text[cut : cut + 40].split(None, 1)[0]) not in starters
        ):
            continue
        out.append(cut)
    return out


def _word_before(text: str, end: int) -> str:
    """The whitespace-delimited word that ends at `end`."""
    start = end
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return text[start:end]


def _bare(word: str) -> str:
    """`word` lower-cased, without the punctuation around it."""
    return word.strip(",;:.!?" + OPENERS + CLOSERS).lower()


def list_items(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """A list item is its own sentence: cut before bullets (`•`, `⁃`; `-`, `*`, `+` at
    line starts), before enumerators at line starts, and before each marker of an
    inline run (`1. … 2. …`, `a) … b) …`) that starts the text, a line, or follows a
    colon or a bullet. Never cut right after a marker (`1.` | `The first item`)."""
    items = (
        []
        if text.isascii()
        else [  # every bullet character is non-ASCII
            m.start()
            for m in _BULLET.finditer(text)
            if m.start() == 0 or text[m.start() - 1].isspace()
        ]
    )
    if "\n" in text or "\r" in text:
        items += [m.end() - 1 for m in _LINE_DASH.finditer(text)]
    markers: list[tuple[int, int, bool]] = []  # (item start, marker end, cut before it)
    for run in _marker_runs(text):
        for index, marker in enumerate(run):
            markers.append(
                (
                    _item_start(text, marker.start()),
                    marker.end(),
                    index > 0 or _at_line_start(text, marker.start()),
                )
            )
    if not items and not markers:
        return cuts
    items += [start for start, _, cut_before in markers if cut_before]
    prefixes = [(start, _skip_spaces(text, end)) for start, end, _ in markers]
    prefixes += [(start, _skip_spaces(text, start + 1)) for start in items]
    return _sorted_cuts(text, _drop_within(cuts, prefixes) + items)


def _item_start(text: str, pos: int) -> int:
    """Where the item of the marker at `pos` starts: at a bullet just before it."""
    before = _trim_end(text, pos)
    if before > 0 and text[before - 1] in BULLETS:
        return before - 1
    return pos


def _at_line_start(text: str, pos: int) -> bool:
    """Whether only whitespace with a line break (or nothing) precedes the item at `pos`."""
    item = _item_start(text, pos)
    before = _trim_end(text, item)
    return before == 0 or "\n" in text[before:item] or "\r" in text[before:item]


def _marker_runs(text: str) -> list[list[re.Match[str]]]:
    """Enumerators that form lists: runs of consecutive markers of one style (`1.` then
    `2.`; `a)` then `b)`) whose first marker opens the text or a line, or follows a
    bullet, a colon or a stop, plus a lone numeric marker at a line start. Inside a
    line, an item must not start in lower case: `net of: 1) fuel, 2) power` is one
    sentence that enumerates."""
    runs: list[list[re.Match[str]]] = []
    open_runs: dict[tuple[int, str], list[re.Match[str]]] = {}
    for marker in _markers(text):
        if text[_skip_spaces(text, marker.end())].islower() and not _at_line_start(
            text, marker.start()
        ):
            continue
        key = (1 if marker.group(1) else 2 if marker.group(2) else 3, marker.group(4))
        run = open_runs.get(key)
        if (
            run is not None
            and _value(marker) == _value(run[-1]) + 1
            and _NON_SPACE.search(text, _skip_spaces(text, run[-1].end()), marker.start())
        ):
            run.append(marker)
        elif _opens_list(text, marker.start()):
            open_runs[key] = run = [marker]
            runs.append(run)
    return [
        run
        for run in runs
        if len(run) > 1 or (run[0].group(1) and _at_line_start(text, run[0].start()))
    ]


def _markers(text: str) -> list[re.Match[str]]:
    """Every `_MARKER` that starts the text or follows whitespace or a bullet."""
    found: list[re.Match[str]] = []
    for hit in _MARKER_END.finditer(" " + text):
        end = hit.end() - 1
        for start in (end - 4, end - 3, end - 2):  # longest first: `10.` not `0.`
            marker = _MARKER.match(text, start) if start >= 0 else None
            if marker is not None and marker.end() == end:
                found.append(marker)
                break
    return found


def _value(marker: re.Match[str]) -> int:
    number = marker.group(1)
    return int(number) if number else ord(marker.group(2) or marker.group(3))


def _opens_list(text: str, pos: int) -> bool:
    """Whether a marker at `pos` can open a list: at the start of the text or a line,
    after a bullet, a colon, or a sentence's final stop."""
    if _item_start(text, pos) != pos or _at_line_start(text, pos):
        return True
    before = _trim_end(text, pos)
    return text[before - 1] in ":.!?"


def blank_lines(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """A blank line ends a paragraph, and so a sentence, punctuation or not (PDF text:
    `10. Get some rest \\n \\nYou have ...`)."""
    if "\n" not in text and "\r" not in text:
        return cuts
    ends = [match.end() for match in _BLANK_LINE.finditer(text)]
    return _sorted_cuts(text, cuts + ends) if ends else cuts


def bracketed_asides(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """A sentence wholly in brackets after another comments on it and stays with it:
    `... off the top of the house!' (Which was very likely true.)`. Enumerators such
    as `(b)` are not asides: the aside must end with its own stop."""
    if "(" not in text and "[" not in text:
        return cuts
    out: list[int] = []
    for index, cut in enumerate(cuts):
        if text[cut] in "([":
            end = _trim_end(text, cuts[index + 1] if index + 1 < len(cuts) else len(text))
            if _ASIDE.fullmatch(text, cut, end):
                continue
        out.append(cut)
    return out


def punctuation_only(text: str, cuts: Cuts, starters: Collection[str]) -> Cuts:
    """A piece without letters or digits (`??`, `! ! !`) is not a sentence: it joins the
    one before it, or the one after when it comes first. Nor does a sentence start with
    `?` or `!`: `As shown in Fig. ?? the rate rose` is one sentence."""
    out: list[int] = []
    bounds = [*cuts, len(text)]
    before_has_alnum = bool(cuts) and _ALNUM.search(text, 0, cuts[0]) is not None
    for cut, end in zip(cuts, bounds[1:]):
        has_alnum = _ALNUM.search(text, cut, end) is not None
        if before_has_alnum and has_alnum and not _QUESTION_OR_EXCLAMATION.match(text, cut):
            out.append(cut)
        before_has_alnum = before_has_alnum or has_alnum  # the piece before the next cut
    return out


RULES: tuple[RuleFunction, ...] = (
    inside_a_token,
    full_width_stops,
    ellipses,
    reference_marks,
    quotations_and_brackets,
    closing_punctuation,
    lowercase_continuation,
    initials,
    titles,
    list_items,
    blank_lines,
    bracketed_asides,
    punctuation_only,
)
"""The post-pass, in order: first drop or move Punkt's wrong cuts and add the ones it
cannot see (after reference marks, before the quotation rule drops any inside a quote),
then add the structural ones (list items, blank lines), last merge pieces that are not
sentences."""


def apply_rules(
    text: str, cuts: Cuts, starters: Collection[str], rules: tuple[RuleFunction, ...] = RULES
) -> Cuts:
    """Punkt's cuts corrected by `rules`."""
    for rule in rules:
        cuts = rule(text, cuts, starters)
    return cuts


def spans_from_cuts(text: str, cuts: Cuts) -> list[tuple[int, int]]:
    """Spans between consecutive cuts, whitespace trimmed, empty ones dropped: in order,
    non-overlapping, and covering every non-space character."""
    spans: list[tuple[int, int]] = []
    bounds = [0, *cuts, len(text)]
    for start, end in zip(bounds, bounds[1:]):
        start = _skip_spaces(text, start)
        end = _trim_end(text, end)
        if start < end:
            spans.append((start, end))
    return spans
