"""Step 2, units: a section's blocks as units — whole when they fit, else cut at their
natural joints, in a fixed order.

`SPLIT_ORDER` is the whole policy, as data: for each block kind, the joints to try
from most to least desirable. A block is only split when it alone exceeds the budget,
and each resulting segment is only split further (by the next joint) when it alone
still exceeds it. Sentence splitting therefore runs only on oversized text.

Tables and code are wrapped again after splitting: every piece of a table repeats the
caption and header rows, and every piece of code is fenced with its language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..document import Block, BlockKind, Code, Figure, ListBlock, Paragraph, Provenance, Table
from ..markup import fenced_code
from .context import Segment, SplitContext, by_pattern_gaps
from .grouping import group_units
from .lead_ins import keeps_with_next, within_lead_in_room
from .render import render_block, render_item, render_table_head, render_table_rows
from .room import Room
from .units import Joint, Unit

_WORD = re.compile(r"\S+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def split_words(text: str) -> list[Segment]:
    return by_pattern_gaps(text, [m.span() for m in _WORD.finditer(text)])


def split_lines(text: str) -> list[Segment]:
    return [(line, "\n" if i else "") for i, line in enumerate(text.split("\n"))]


def split_blank_lines(text: str) -> list[Segment]:
    parts = _BLANK_LINE.split(text)
    return [(part, "\n\n" if i else "") for i, part in enumerate(parts) if part or i == 0]


@dataclass(frozen=True, slots=True)
class Step:
    """One joint in a block's split order: how to cut, and how good such a cut is."""

    joint: Joint
    split: Callable[[SplitContext, str], list[Segment]]


SENTENCES = Step(Joint.SENTENCE, SplitContext.sentences)
WORDS = Step(Joint.WORD, lambda ctx, text: split_words(text))
LINES = Step(Joint.LINE, lambda ctx, text: split_lines(text))
BLANK_LINES = Step(Joint.ITEM, lambda ctx, text: split_blank_lines(text))

SPLIT_ORDER: dict[BlockKind, tuple[Step, ...]] = {
    "paragraph": (SENTENCES, WORDS),
    "list": (SENTENCES, WORDS),  # after items: an item too big alone is cut like a paragraph
    "table": (SENTENCES, WORDS),  # after row groups: a row too big alone is cut like text
    "code": (BLANK_LINES, LINES, WORDS),  # never sentences
    "figure": (LINES, WORDS),  # a chart's labels: no sentences to keep whole
}
"""Per block kind, the text joints to try after its structural joint (items, rows).
Characters are always the final fallback, for a single token longer than the budget."""


def explode(
    ctx: SplitContext,
    text: str,
    steps: tuple[Step, ...],
    budget: int,
    *,
    kind: BlockKind,
    prov: Provenance,
    sep: str = "\n\n",
    joint: Joint = Joint.BLOCK,
) -> list[Unit]:
    """`text` as units that each fit `budget`, cut by the first steps that suffice; each
    unit of a block of `kind` at `prov`, the first joined to what comes before it by `sep`
    at `joint`."""
    tokens = ctx.tokenizer.count(text)
    if tokens <= budget:
        return [_unit(ctx, text, tokens=tokens, sep=sep, joint=joint, kind=kind, prov=prov)]
    if not steps:
        return _char_units(ctx, text, budget, kind=kind, prov=prov, sep=sep, joint=joint)
    segments = steps[0].split(ctx, text)
    if len(segments) <= 1:
        return explode(ctx, text, steps[1:], budget, kind=kind, prov=prov, sep=sep, joint=joint)
    units: list[Unit] = []
    for index, (segment, gap) in enumerate(segments):
        first = index == 0
        units.extend(
            explode(
                ctx,
                segment,
                steps[1:],
                budget,
                kind=kind,
                prov=prov,
                sep=sep if first else gap,
                joint=joint if first else steps[0].joint,
            )
        )
    return units


def _char_units(
    ctx: SplitContext,
    text: str,
    budget: int,
    *,
    kind: BlockKind,
    prov: Provenance,
    sep: str,
    joint: Joint,
) -> list[Unit]:
    """Slices of a single over-long token, each as long as still fits (binary search)."""
    units: list[Unit] = []
    start = 0
    while start < len(text):
        low, high = start + 1, len(text)
        while low < high:  # largest end with count(text[start:end]) <= budget
            mid = (low + high + 1) // 2
            if ctx.tokenizer.count(text[start:mid]) <= budget:
                low = mid
            else:
                high = mid - 1
        low = _not_before_bare_punctuation(text, start, low)
        first = not units
        units.append(
            _unit(
                ctx,
                text[start:low],
                sep=sep if first else "",
                joint=joint if first else Joint.CHAR,
                kind=kind,
                prov=prov,
            )
        )
        start = low
    return units


def _not_before_bare_punctuation(text: str, start: int, end: int) -> int:
    """`end`, or earlier when all that would be left after it is punctuation (a Chinese
    sentence one `，` or `。` over the budget): the last word character goes with it, so
    no chunk is a lone mark."""
    tail = text[end : end + 9]
    if not tail or len(tail) > 8 or any(char.isalnum() for char in tail):
        return end
    last = max((i for i in range(start + 1, end) if text[i].isalnum()), default=start)
    return last if last > start else end


def _unit(
    ctx: SplitContext,
    text: str,
    *,
    tokens: int | None = None,
    sep: str,
    joint: Joint,
    kind: BlockKind,
    prov: Provenance,
    table_rows: tuple[int, int, int] | None = None,
) -> Unit:
    """A unit of `text` (of `tokens`, when the caller counted them) and its joiner, counted."""
    return Unit(
        text=text,
        tokens=ctx.tokenizer.count(text) if tokens is None else tokens,
        sep=sep,
        sep_tokens=ctx.sep_tokens(sep),
        joint=joint,
        kind=kind,
        prov=prov,
        table_rows=table_rows,
    )


def section_units(
    ctx: SplitContext, blocks: Sequence[Block], texts: Sequence[str], room: Room
) -> list[Unit]:
    """The units of a section's blocks (rendered as `texts`), each fitting `room.content`.

    Lead-ins and labels are marked to stay with what they introduce, and a table or code
    block split after a run of them leaves room for it in its first piece (filled to the
    room, that piece would push the run back to the end of the chunk before, away from
    what it introduces)."""
    units: list[Unit] = []
    kept = 0  # tokens of the run of lead-ins and labels just before this block
    for block, text, keep in zip(blocks, texts, keeps_with_next(blocks, texts)):
        short = kept > 0 and within_lead_in_room(kept, room.content)
        lead_in = kept + ctx.sep_tokens("\n\n") if short else 0
        pieces = block_units(ctx, block, room.content, text=text, lead_in=lead_in)
        last = pieces[-1]
        last.keep_with_next = keep
        if not keep:
            kept = 0
        elif len(pieces) == 1 and kept:
            kept += last.cost_after()
        else:
            kept = last.tokens
        units.extend(pieces)
    return units


def resplit(ctx: SplitContext, unit: Unit, budget: int) -> list[Unit]:
    """A unit cut again to a smaller budget (when a sub-word count overshot), by the text
    joints of its kind."""
    steps = SPLIT_ORDER[unit.kind if unit.kind in ("code", "figure") else "paragraph"]
    units = explode(
        ctx,
        unit.text,
        steps,
        budget,
        kind=unit.kind,
        prov=unit.prov,
        sep=unit.sep,
        joint=unit.joint,
    )
    for piece in units:
        piece.table_rows = unit.table_rows
    return units


def block_units(
    ctx: SplitContext, block: Block, budget: int, *, text: str | None = None, lead_in: int = 0
) -> list[Unit]:
    """The units of one block (rendered as `text`, when the caller already did): itself
    when it fits, else its pieces by `SPLIT_ORDER` (a table's or code block's first piece
    `lead_in` tokens smaller, for the lead-ins and labels before it)."""
    if text is None:
        text = render_block(block)
    tokens = ctx.tokenizer.count(text)
    if tokens <= budget:
        whole = _unit(
            ctx,
            text,
            tokens=tokens,
            sep="\n\n",
            joint=Joint.BLOCK,
            kind=block.kind,
            prov=block.prov,
        )
        return [whole]
    if isinstance(block, Paragraph):
        return explode(
            ctx, text, SPLIT_ORDER["paragraph"], budget, kind="paragraph", prov=block.prov
        )
    if isinstance(block, ListBlock):
        return _list_units(ctx, block, budget)
    if isinstance(block, Table):
        return _table_units(ctx, block, budget, lead_in=lead_in)
    if isinstance(block, Code):
        return _code_units(ctx, block, budget, lead_in=lead_in)
    if isinstance(block, Figure):
        return explode(ctx, text, SPLIT_ORDER["figure"], budget, kind="figure", prov=block.prov)
    raise TypeError(f"not a block: {block!r}")


def _list_units(ctx: SplitContext, block: ListBlock, budget: int) -> list[Unit]:
    units: list[Unit] = []
    for item in block.items:
        first = not units
        sep = "\n\n" if first else "\n"
        joint = Joint.BLOCK if first else (Joint.ITEM if item.depth == 0 else Joint.NESTED_ITEM)
        units.extend(
            explode(
                ctx,
                render_item(item),
                SPLIT_ORDER["list"],
                budget,
                kind="list",
                prov=item.prov if item.prov.lines or item.prov.pages else block.prov,
                sep=sep,
                joint=joint,
            )
        )
    return units


def _wrapped_groups(
    ctx: SplitContext,
    inner: list[Unit],
    budget: int,
    wrap: Callable[[str], str],
    *,
    lead_in: int,
) -> list[tuple[list[Unit], str]]:
    """Group inner units to fit once wrapped (the first group `lead_in` tokens smaller);
    returns each group and its wrapped text."""
    overhead = max(ctx.tokenizer.count(wrap("")), 0)
    space = max(budget - overhead, 1)
    groups = group_units(inner, space, first_budget=max(space - lead_in, 1))
    out = []
    for group in groups:
        body = group[0].text + "".join(u.sep + u.text for u in group[1:])
        out.append((group, wrap(body)))
    return out


MAX_TABLE_HEAD_SHARE = 0.5
"""A table head (caption + header rows) larger than this share of the budget is not
repeated: the table is then cut like text, between lines."""


def _table_units(ctx: SplitContext, table: Table, budget: int, *, lead_in: int) -> list[Unit]:
    head = render_table_head(table)
    rows = render_table_rows(table)
    head_tokens = ctx.tokenizer.count(head + "\n")
    if head_tokens > budget * MAX_TABLE_HEAD_SHARE:
        text = "\n".join([head, *rows])
        return explode(ctx, text, (LINES, WORDS), budget, kind="table", prov=table.prov)
    row_budget = max(budget - head_tokens, 1)
    inner: list[Unit] = []
    for number, row in enumerate(rows, start=1):
        prov = table.row_provs[number - 1] if number <= len(table.row_provs) else table.prov
        for unit in explode(
            ctx,
            row,
            SPLIT_ORDER["table"],
            row_budget,
            kind="table",
            prov=prov,
            sep="\n",
            joint=Joint.ITEM,
        ):
            unit.table_rows = (number, number, len(rows))
            inner.append(unit)
    units: list[Unit] = []
    for group, text in _wrapped_groups(
        ctx, inner, budget, lambda body: f"{head}\n{body}", lead_in=lead_in
    ):
        first_row = group[0].table_rows[0] if group[0].table_rows else 0
        last_row = group[-1].table_rows[1] if group[-1].table_rows else 0
        prov = group[0].prov
        for unit in group[1:]:
            prov = prov.merged(unit.prov)
        rows_held = (first_row, last_row, len(rows))
        units.append(
            _piece_unit(ctx, text, not units, kind="table", prov=prov, table_rows=rows_held)
        )
    return units


def _code_units(ctx: SplitContext, code: Code, budget: int, *, lead_in: int) -> list[Unit]:
    fence_budget = budget - ctx.tokenizer.count(fenced_code("", code.language))
    inner = explode(
        ctx,
        code.text,
        SPLIT_ORDER["code"],
        max(fence_budget, 1),
        kind="code",
        prov=code.prov,
        sep="",
    )
    units: list[Unit] = []
    for _, text in _wrapped_groups(
        ctx, inner, budget, lambda body: fenced_code(body, code.language), lead_in=lead_in
    ):
        units.append(_piece_unit(ctx, text, not units, kind="code", prov=code.prov))
    return units


def _piece_unit(
    ctx: SplitContext,
    text: str,
    first: bool,
    *,
    kind: BlockKind,
    prov: Provenance,
    table_rows: tuple[int, int, int] | None = None,
) -> Unit:
    """One re-wrapped piece of a split table or code block: the block's own joint before
    the first piece, an item joint between pieces."""
    joint = Joint.BLOCK if first else Joint.ITEM
    return _unit(ctx, text, sep="\n\n", joint=joint, kind=kind, prov=prov, table_rows=table_rows)
