"""Charts: the words printed on a plot — its ticks, data labels, legend, axis titles —
taken out of the page's text as one figure.

Read as text, a chart's labels run into the paragraphs around it (`15000 10000 16618
14551 … Apr-14 May-14`). A chart is known by its **scale**: `DEFAULT_MIN_TICKS` numbers
or more at one pitch along an axis — down a column sharing its right (or left) edge,
values falling, or along a row alone on it, values rising — stepping by one round step
(1, 2, 2.5 or 5 times a power of ten), each a multiple of it; and by its **plot**:
drawing of the scale's size beside it (paths and images clustered by
`DEFAULT_DRAWING_GAP`), right of a vertical scale, above a horizontal one. A table's
column of figures is neither even nor round, its row of years heads the drawing under
it, and a run of numbers in its row sits among other cells.

The **figure** takes the words of the plot and its scales, and short runs within
`DEFAULT_LABEL_REACH` ems of it (the other axis's labels, a legend set close) outside
the page's margin bands — never a run that carries on outside it (a line of the text
beside it) nor a line that reads as prose — as a `PageFigure`, placed in the reading
order where it starts. Pie charts and diagrams have no scale: their labels stay text.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .furniture import DEFAULT_MARGIN_BAND
from .layout import cluster_rows, join_words
from .types import MAX_DRAWINGS, PageFigure, Word

Box = tuple[float, float, float, float]
"""(x0, top, x1, bottom) in the page's reading frame."""

DEFAULT_MIN_TICKS = 4
"""Numbers a scale needs: three in step happen in tables (a load factor falling 76.5,
75.7, 74.9 down three rows of an airline's traffic table); the corpus's charts have 5-15."""
DEFAULT_PITCH_SLACK = 0.15
"""How far (a share of the first pitch) a tick's distance from the one before may differ."""
DEFAULT_EDGE_SLACK = 1.5
"""Points the right edges of a vertical scale's numbers (the tops of a horizontal one's)
may differ by."""
DEFAULT_TICK_GAP = 1.0
"""Ems between the numbers of a horizontal scale at the least: numbers a word space apart
are a line of text (`1 2 3 4` in a sentence)."""
DEFAULT_DRAWING_GAP = 3.0
"""Points between two drawn shapes of one plot (a bar and the axis it stands on touch;
tick marks touch their axis)."""
DEFAULT_AXIS_GAP = 3.0
"""Ems at most between a scale and its plot (tick labels sit past the tick marks, a few
points off the axis)."""
DEFAULT_PLOT_SPAN = 2.0
"""How much longer than its scale a plot may be along the scale's axis (the agency
report's frames, title and legend inside, are 1.6 times their y axis)."""
DEFAULT_PLOT_HEIGHT = 3.0
"""How much taller than its x axis is wide a plot may be."""
DEFAULT_LABEL_REACH = 1.5
"""Ems around the plot and its scales where its labels sit (a date under the axis, the
plot's title in its frame)."""
DEFAULT_LABEL_WORDS = 4
"""Words a label set just outside the plot may have (`Target Not Met`, `Apr-14 May-14`
are runs of one to three)."""
DEFAULT_PROSE_WORDS = 8
"""Words from which a line ending in a full stop is a sentence, kept in the text."""
DEFAULT_BACKGROUND = 0.5
"""A drawn shape covering this share of the page is its background, no plot's."""

_CELL = 50.0
_CELL_FULL = 32
_NUMBER = re.compile(r"^[-−–]?[$€£¥]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?%?$")
"""A tick label: `20000`, `5,000`, `2.5`, `40%`, `$100`, `-10`."""
_ROUND_STEPS = (1.0, 2.0, 2.5, 5.0)
_SENTENCE_END = re.compile(r"[.!?:;][\"”’)\]]*$")


@dataclass(frozen=True, slots=True)
class Scale:
    """An axis's tick labels: their box, and whether they run down the page."""

    box: Box
    vertical: bool


def _value(text: str) -> float | None:
    match = _NUMBER.match(text)
    if match is None:
        return None
    number = float(match.group(1).replace(",", "") + (match.group(2) or ""))
    return -number if text[0] in "-−–" else number


def _round_step(step: float) -> bool:
    """1, 2, 2.5 or 5 times a power of ten."""
    if step <= 0:
        return False
    exponent = math.floor(math.log10(step))
    mantissa = step / 10**exponent
    return any(math.isclose(mantissa, m, rel_tol=1e-6) for m in _ROUND_STEPS)


def _multiple(value: float, step: float) -> bool:
    ratio = value / step
    return math.isclose(ratio, round(ratio), abs_tol=1e-6)


def _ticks(run: list[tuple[float, float, Word]], rising: bool, em: float) -> bool:
    """Whether positioned values (position along the axis, value, word) make a scale:
    one pitch, one round step in the axis's direction, every value a multiple of it."""
    if len(run) < DEFAULT_MIN_TICKS:
        return False
    pitch = run[1][0] - run[0][0]
    step = run[1][1] - run[0][1]
    if pitch < em or (step > 0) != rising or not _round_step(abs(step)):
        return False
    return all(
        abs((b[0] - a[0]) - pitch) <= DEFAULT_PITCH_SLACK * pitch
        and math.isclose(b[1] - a[1], step, rel_tol=1e-6, abs_tol=1e-9)
        for a, b in zip(run, run[1:])
    ) and all(_multiple(value, abs(step)) for _, value, _ in run)


def _runs(items: list[tuple[float, float, Word]], rising: bool, em: float) -> list[list[Word]]:
    """The scales among values sorted by position: maximal runs of neighbours in step."""
    found: list[list[Word]] = []
    start = 0
    while start < len(items) - 1:
        end = start + 2
        while end <= len(items) and _ticks_so_far(items[start:end]):
            end += 1
        run = items[start : end - 1]
        if _ticks(run, rising, em):
            found.append([word for _, _, word in run])
            start = end - 2
        else:
            start += 1
    return found


def _ticks_so_far(run: list[tuple[float, float, Word]]) -> bool:
    """The run keeps one pitch and one step so far (direction and roundness aside)."""
    if len(run) < 3:
        return True
    pitch, step = run[1][0] - run[0][0], run[1][1] - run[0][1]
    a, b = run[-2], run[-1]
    return abs((b[0] - a[0]) - pitch) <= DEFAULT_PITCH_SLACK * abs(pitch) and math.isclose(
        b[1] - a[1], step, rel_tol=1e-6, abs_tol=1e-9
    )


def _aligned(items: Iterable[tuple[float, Word]]) -> list[list[Word]]:
    """Words grouped by a coordinate within `DEFAULT_EDGE_SLACK` of the group's first."""
    groups: list[list[Word]] = []
    last = -math.inf
    for key, word in sorted(items, key=lambda item: item[0]):
        if key - last > DEFAULT_EDGE_SLACK or not groups:
            groups.append([])
            last = key
        groups[-1].append(word)
    return [group for group in groups if len(group) >= DEFAULT_MIN_TICKS]


def find_scales(words: list[Word], em: float) -> list[Scale]:
    """The page's axis scales (see the module docstring)."""
    numbers = [(word, value) for word in words if (value := _value(word.text)) is not None]
    if len(numbers) < DEFAULT_MIN_TICKS:
        return []
    values = {id(word): value for word, value in numbers}
    scales = []
    columns = [
        *_aligned((word.x1, word) for word, _ in numbers),
        *_aligned((word.x0, word) for word, _ in numbers),
    ]
    for column in columns:
        items = sorted(((w.top, values[id(w)], w) for w in column), key=lambda i: i[0])
        for run in _runs(items, False, em):
            scales.append(Scale(_box(run), True))
    for row in _aligned((word.top, word) for word, _ in numbers):
        items = sorted(((w.x0, values[id(w)], w) for w in row), key=lambda i: i[0])
        for run in _runs(items, True, em):
            apart = all(b.x0 - a.x1 >= DEFAULT_TICK_GAP * em for a, b in zip(run, run[1:]))
            if apart and _alone(run, words):
                scales.append(Scale(_box(run), False))
    return scales


def _alone(run: list[Word], words: list[Word]) -> bool:
    """No other word on the row of a horizontal scale within a pitch of its ends: an x
    axis's row holds its ticks, a table's row a label and other cells too (`For
    mechanical/technical reasons 0 - 0 0 1 2 3` in an airline's operations table)."""
    x0, top, x1, bottom = _box(run)
    pitch = run[1].x0 - run[0].x0
    ticks = {id(w) for w in run}
    return not any(
        id(w) not in ticks
        and w.top < bottom
        and w.bottom > top
        and w.x1 > x0 - pitch
        and w.x0 < x1 + pitch
        for w in words
    )


def _box(words: list[Word]) -> Box:
    return (
        min(w.x0 for w in words),
        min(w.top for w in words),
        max(w.x1 for w in words),
        max(w.bottom for w in words),
    )


def _union(boxes: Iterable[Box]) -> Box:
    boxes = list(boxes)
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def drawing_clusters(drawings: list[Box], gap: float = DEFAULT_DRAWING_GAP) -> list[Box]:
    """The boxes of groups of drawn shapes that touch or nearly (`gap` points), found on
    a grid of `_CELL`-point cells so that no two far-apart shapes are compared; a cell
    holding `_CELL_FULL` shapes already is one dense drawing, and a shape more in it
    joins the drawing without being compared (a page of many shapes costs no pairwise
    comparison of all of them)."""
    cell = _CELL
    parent = list(range(len(drawings)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    for index, (x0, top, x1, bottom) in enumerate(drawings):
        for gx in range(int((x0 - gap) // cell), int((x1 + gap) // cell) + 1):
            for gy in range(int((top - gap) // cell), int((bottom + gap) // cell) + 1):
                here = grid[(gx, gy)]
                if len(here) >= _CELL_FULL:
                    parent[find(index)] = find(here[0])
                    continue
                for other in here:
                    a, b = drawings[index], drawings[other]
                    if (
                        b[0] <= a[2] + gap
                        and a[0] <= b[2] + gap
                        and b[1] <= a[3] + gap
                        and a[1] <= b[3] + gap
                    ):
                        parent[find(index)] = find(other)
                here.append(index)
    groups: dict[int, list[Box]] = defaultdict(list)
    for index, box in enumerate(drawings):
        groups[find(index)].append(box)
    return [_union(group) for group in groups.values()]


def _beside(plot: Box, scale: Scale, em: float) -> bool:
    """The plot lies right of a vertical scale or above a horizontal one, against it,
    and is of the scale's size: along the axis at most `DEFAULT_PLOT_SPAN` times the
    scale (and a title and legend, 4 ems), above an x axis at most
    `DEFAULT_PLOT_HEIGHT` times its width (a curve clipped to its plot has the bounds
    of the whole curve, and a table's ruling can hold a row of numbers in step)."""
    x0, top, x1, bottom = scale.box
    reach = DEFAULT_AXIS_GAP * em
    if scale.vertical:
        span, extent = bottom - top, plot[3] - plot[1]
        overlap = min(plot[3], bottom) - max(plot[1], top)
        beside = plot[2] > x1 + em and plot[0] <= x1 + reach and overlap >= 0.5 * span
        return beside and extent <= DEFAULT_PLOT_SPAN * span + 4 * em
    span, extent = x1 - x0, plot[2] - plot[0]
    overlap = min(plot[2], x1) - max(plot[0], x0)
    beside = plot[1] < top - em and plot[3] >= top - reach and overlap >= 0.5 * span
    return (
        beside
        and extent <= DEFAULT_PLOT_SPAN * span + 4 * em
        and plot[3] - plot[1] <= DEFAULT_PLOT_HEIGHT * span + 4 * em
    )


def figure_areas(
    words: list[Word], drawings: list[Box], size: tuple[float, float], em: float
) -> list[Box]:
    """The charts of a page: each plot with its scales (see the module docstring)."""
    scales = find_scales(words, em)
    if not scales or not drawings or len(drawings) > MAX_DRAWINGS:
        return []
    width, height = size
    page_area = width * height
    clipped = [
        (max(x0, 0.0), max(top, 0.0), min(x1, width), min(bottom, height))
        for x0, top, x1, bottom in drawings
    ]
    shapes = [
        box
        for box in clipped
        if (box[2] - box[0]) * (box[3] - box[1]) < DEFAULT_BACKGROUND * page_area
        and box[0] <= box[2]
        and box[1] <= box[3]
    ]
    plots = drawing_clusters(shapes)
    areas: list[Box] = []
    for scale in scales:
        beside = [plot for plot in plots if _beside(plot, scale, em)]
        if beside:
            areas.append(_union([*beside, scale.box]))
    return _merged(areas)


def _merged(areas: list[Box]) -> list[Box]:
    """Overlapping areas as one (a chart's two scales give it twice)."""
    out: list[Box] = []
    for area in sorted(areas):
        for index, other in enumerate(out):
            if _overlap(area, other):
                out[index] = _union([area, other])
                break
        else:
            out.append(area)
    return out


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _within(words: list[Word], area: Box) -> bool:
    return all(
        area[0] <= w.x0 and w.x1 <= area[2] and area[1] <= w.top and w.bottom <= area[3]
        for w in words
    )


def _widened(area: Box, by: float) -> Box:
    return (area[0] - by, area[1] - by, area[2] + by, area[3] + by)


@dataclass(frozen=True, slots=True)
class _Page:
    """What deciding a run of words needs of its page: where its margin bands end (the
    top and bottom of its text area) and its body size."""

    text_top: float
    text_bottom: float
    em: float


def take_figures(
    words: list[Word], aside: list[Word], areas: list[Box], page: tuple[int, float], em: float
) -> tuple[list[PageFigure], list[Word], list[Word]]:
    """The figures of the chart `areas` of a page (`page`: its number and height), and the
    words and sideways words left to the page's text.

    A figure takes the runs of words (a row's words parted by gaps of
    `DEFAULT_LABEL_REACH` ems) that lie in its area, and the short ones (up to
    `DEFAULT_LABEL_WORDS` words) that lie within that reach of it, outside the page's
    margin bands (running headers and footers are furniture's); but no line that reads
    as prose."""
    if not areas:
        return [], words, aside
    number, height = page
    where = _Page(DEFAULT_MARGIN_BAND * height, (1 - DEFAULT_MARGIN_BAND) * height, em)
    taken: dict[int, list[Word]] = defaultdict(list)
    for row in cluster_rows(words):
        for run in _runs_of(row.words, DEFAULT_LABEL_REACH * em):
            index = _figure_of(run, areas, where)
            if index is not None:
                taken[index].extend(run)
    turned: dict[int, list[Word]] = defaultdict(list)
    for word in aside:
        index = _figure_of([word], areas, where)
        if index is not None:
            turned[index].append(word)
    figures: list[PageFigure] = []
    used: set[int] = set()
    for index, area in enumerate(areas):
        lines, prose = _figure_lines(taken[index], turned[index])
        given_back = {id(w) for w in prose}
        used.update(id(w) for w in [*taken[index], *turned[index]] if id(w) not in given_back)
        if lines:
            x0, top, x1, bottom = area
            figures.append(PageFigure(lines, number, x0, x1, top, bottom))
    rest = [w for w in words if id(w) not in used]
    rest_aside = [w for w in aside if id(w) not in used]
    return figures, rest, rest_aside


def _runs_of(words: list[Word], gap: float) -> list[list[Word]]:
    """A row's words (left to right) in runs parted by gaps of `gap` points or more."""
    runs: list[list[Word]] = []
    for word in words:
        if runs and word.x0 - runs[-1][-1].x1 < gap:
            runs[-1].append(word)
        else:
            runs.append([word])
    return runs


def _figure_of(run: list[Word], areas: list[Box], page: _Page) -> int | None:
    """The index of the figure a run of words belongs to, if any."""
    reach = DEFAULT_LABEL_REACH * page.em
    for index, area in enumerate(areas):
        if _within(run, area):
            return index
    if len(run) > DEFAULT_LABEL_WORDS:
        return None
    if any(w.top < page.text_top or w.bottom > page.text_bottom for w in run):
        return None
    for index, area in enumerate(areas):
        if _within(run, _widened(area, reach)):
            return index
    return None


def _figure_lines(words: list[Word], turned: list[Word]) -> tuple[list[str], list[Word]]:
    """A figure's text, line by line from the top, and the words of its lines that read
    as prose (given back to the page's text)."""
    lines: list[tuple[float, str]] = []
    prose: list[Word] = []
    for row in cluster_rows(words):
        text = join_words(row.words)
        if len(text.split()) >= DEFAULT_PROSE_WORDS and _SENTENCE_END.search(text):
            prose.extend(row.words)
        elif text:
            lines.append((row.top, text))
    lines.extend((word.top, word.text) for word in turned)
    return [text for _, text in sorted(lines, key=lambda line: line[0])], prose
