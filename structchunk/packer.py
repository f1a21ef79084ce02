"""The hierarchical splitter and packer: a section tree in, budgeted chunks out.

Per section: the heading prefix is fixed first; blocks that fit become whole units,
blocks that do not are cut at their natural joints (`splitters.SPLIT_ORDER`); units
are grouped greedily under the budget, stepping back to a block boundary when that
costs little room; tiny chunks are merged; overlap is added; and every final text is
recounted with the real tokenizer, and cut again if a sub-word tokenizer disagrees
with the estimate. Chunks never span two sections.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .audit import first_missing_word
from .document import Block, Document, Paragraph, Provenance, Section
from .errors import BudgetError
from .options import ChunkOptions
from .prefix import DEFAULT_MAX_PREFIX_SHARE, heading_prefix
from .render import render_block
from .sentences import SentenceSegmenter, get_segmenter
from .splitters import SPLIT_ORDER, SplitContext, block_units, explode
from .tokenizers import Tokenizer, count_words, get_tokenizer
from .units import Joint, Unit, group_cost, group_units, join_units

PREFIX_JOINER = "\n\n"

LEAD_IN_MAX_WORDS = 40
"""A paragraph this short that ends with a colon right before a list, table or code block
introduces it ("The following names are reserved:"); longer ones are ordinary text."""


def is_lead_in(block: Block, text: str, following: Block | None) -> bool:
    """Whether `block` introduces the block after it and should stay with it."""
    return (
        isinstance(block, Paragraph)
        and following is not None
        and not isinstance(following, Paragraph)
        and text.rstrip().endswith(":")
        and len(text.split()) <= LEAD_IN_MAX_WORDS
    )


@dataclass(slots=True)
class PackedChunk:
    """A chunk before it gets its ids: text, provenance and what it holds."""

    heading_path: tuple[str, ...]
    text: str
    body: str
    n_tokens: int
    block_types: list[str]
    prov: Provenance
    table_rows: tuple[int, int, int] | None
    prefix_shortened: bool


class Packer:
    """Packs documents under one set of options; reusable across documents."""

    def __init__(
        self,
        options: ChunkOptions,
        tokenizer: Tokenizer | None = None,
        segmenter: SentenceSegmenter | None = None,
        strict: bool = False,
    ) -> None:
        self.options = options
        self.tokenizer = tokenizer or get_tokenizer(options.tokenizer)
        self.segmenter = segmenter or get_segmenter(options.sentence_model)
        self.ctx = SplitContext(self.tokenizer, self.segmenter)
        self.strict = strict
        self._prefix_cache: dict[tuple[str, ...], tuple[str, bool]] = {}
        self._head_cache: dict[str, int] = {}

    def pack(self, document: Document) -> Iterator[PackedChunk]:
        """Chunks of `document` in order."""
        for section in document.sections():
            if section.blocks:
                yield from self._pack_section(section)

    # -- one section ---------------------------------------------------------------

    def _prefix(self, path: tuple[str, ...]) -> tuple[str, bool]:
        if not self.options.heading_prefix:
            return "", False
        cached = self._prefix_cache.get(path)
        if cached is None:
            limit = int(self.options.max_tokens * DEFAULT_MAX_PREFIX_SHARE)
            cached = self._prefix_cache[path] = heading_prefix(path, limit, self.tokenizer.count)
        return cached

    def _head_tokens(self, head: str) -> int:
        cached = self._head_cache.get(head)
        if cached is None:
            cached = self._head_cache[head] = self.tokenizer.count(head)
        return cached

    def _pack_section(self, section: Section) -> Iterator[PackedChunk]:
        prefix, shortened = self._prefix(section.path)
        head = prefix + PREFIX_JOINER if prefix else ""
        head_tokens = self._head_tokens(head)
        body_budget = self.options.max_tokens - head_tokens
        overlap = self.options.overlap_tokens
        budget = body_budget - (overlap + self.ctx.sep_tokens("\n\n") if overlap else 0)
        budget = max(budget, 1)
        texts = [render_block(block) for block in section.blocks]
        whole = self._whole_section(section, head, prefix, shortened, texts)
        if whole is not None:
            yield whole
            return
        units: list[Unit] = []
        for index, (block, text) in enumerate(zip(section.blocks, texts)):
            pieces = block_units(self.ctx, block, budget, text)
            following = section.blocks[index + 1] if index + 1 < len(section.blocks) else None
            pieces[-1].keep_with_next = is_lead_in(block, text, following)
            units.extend(pieces)
        groups = group_units(units, budget)
        groups = self._merge_small(groups, budget, head_tokens)
        fitted_groups = [part for group in groups for part in self._fit(group, head, budget)]
        if self.strict:
            self._audit_nothing_lost(section, fitted_groups)
        previous: list[Unit] | None = None
        for fitted in fitted_groups:
            body = join_units(fitted)
            if previous is not None and overlap:
                body = self._with_overlap(previous, fitted, body, head)
            previous = fitted
            yield self._finish(section, head, prefix, shortened, fitted, body)

    def _whole_section(
        self, section: Section, head: str, prefix: str, shortened: bool, texts: list[str]
    ) -> PackedChunk | None:
        """The section as one chunk when it fits — the common case, counted with one call
        instead of one per block (what keeps sub-word tokenizers cheap)."""
        body = "\n\n".join(texts)
        limit = self.options.max_tokens
        if not self.tokenizer.additive and count_words(head + body) > limit:
            return None  # sub-word tokenizers give at least one token per word: skip the count
        n_tokens = self.tokenizer.count(head + body)
        if n_tokens > limit:
            return None
        units = [
            Unit(text, 0, kind=block.kind, prov=block.prov)
            for block, text in zip(section.blocks, texts)
        ]
        return self._finish(section, head, prefix, shortened, units, body, n_tokens)

    def _merge_small(
        self, groups: list[list[Unit]], budget: int, head_tokens: int
    ) -> list[list[Unit]]:
        """No chunk under `min_tokens` where a neighbour in the section can help.

        A small chunk is merged into its predecessor (or a small predecessor into it)
        when the result fits; otherwise, when it is the tail of a longer run, units move
        to it from the end of the previous chunk until it is big enough, as long as the
        previous chunk stays big enough too.
        """
        floor = self.options.min_tokens
        if floor <= 0 or len(groups) < 2:
            return groups

        def small(group: list[Unit]) -> bool:
            return group_cost(group) + head_tokens < floor

        merged: list[list[Unit]] = [groups[0]]
        for group in groups[1:]:
            last = merged[-1]
            if (small(group) or small(last)) and group_cost(last + group) <= budget:
                merged[-1] = last + group
                continue
            while (
                small(group)
                and len(last) > 1
                and not small(last[:-1])
                and group_cost(last[-1:] + group) <= budget
            ):
                group = last[-1:] + group
                last = merged[-1] = last[:-1]
            merged.append(group)
        return merged

    def _fit(self, group: list[Unit], head: str, budget: int) -> list[list[Unit]]:
        """Cut `group` until every piece's real token count is within the budget.

        Exact tokenizers (words, chars) pass first time; sub-word tokenizers may count a
        joined text differently from its pieces, so the budget shrinks by the overshoot
        and the group is regrouped (or its single unit re-split) until it fits.
        """
        limit = self.options.max_tokens
        if self.tokenizer.additive and self._head_tokens(head) + group_cost(group) <= limit:
            return [group]  # additive estimates never undercount: no need to recount
        done: list[list[Unit]] = []
        work = [(group, budget)]
        while work:
            current, current_budget = work.pop(0)
            over = self.tokenizer.count(head + join_units(current)) - limit
            if over <= 0:
                done.append(current)
                continue
            smaller = max(current_budget - over, 1)
            if len(current) > 1:
                parts = group_units(current, smaller)
                if len(parts) == 1:  # estimates say it fits: force a cut
                    parts = [current[:-1], current[-1:]]
            else:
                parts = [[u] for u in self._resplit(current[0], smaller)]
                if len(parts) == 1 and smaller == 1:
                    raise BudgetError(
                        f"cannot fit {current[0].text[:40]!r} into "
                        f"{limit} tokens with its heading prefix"
                    )
            work[0:0] = [(part, smaller) for part in parts]
        return done

    def _resplit(self, unit: Unit, budget: int) -> list[Unit]:
        steps = SPLIT_ORDER["code" if unit.kind == "code" else "paragraph"]
        units = explode(
            self.ctx, unit.text, steps, budget, unit.kind, unit.prov, unit.sep, unit.joint
        )
        for piece in units:
            piece.table_rows = unit.table_rows
        return units

    def _with_overlap(self, previous: list[Unit], group: list[Unit], body: str, head: str) -> str:
        """Prepend whole trailing sentences of the previous chunk, up to `overlap_tokens`."""
        sentences: list[str] = []
        for unit in reversed(previous):
            if unit.kind != "paragraph" or unit.joint < Joint.SENTENCE:
                break
            found = self.segmenter.split(unit.text) if unit.joint == Joint.BLOCK else [unit.text]
            sentences[0:0] = found
            if unit.joint == Joint.BLOCK or self._tokens(sentences) > self.options.overlap_tokens:
                break
        joiner = group[0].sep if group[0].joint < Joint.BLOCK else "\n\n"
        while sentences:
            tail = " ".join(sentences)
            if self._tokens([tail]) <= self.options.overlap_tokens:
                candidate = tail + joiner + body
                if self.tokenizer.count(head + candidate) <= self.options.max_tokens:
                    return candidate
            sentences.pop(0)
        return body

    def _tokens(self, texts: list[str]) -> int:
        return sum(self.tokenizer.count(t) for t in texts)

    def _finish(
        self,
        section: Section,
        head: str,
        prefix: str,
        shortened: bool,
        units: list[Unit],
        body: str,
        n_tokens: int | None = None,
    ) -> PackedChunk:
        text = head + body
        if n_tokens is None:
            n_tokens = self.tokenizer.count(text)
        if n_tokens > self.options.max_tokens:  # _fit guarantees this
            raise BudgetError(
                f"chunk of {n_tokens} tokens exceeds max_tokens {self.options.max_tokens}"
            )
        kinds: list[str] = []
        prov = units[0].prov
        for unit in units:
            if unit.kind not in kinds:
                kinds.append(unit.kind)
            prov = prov.merged(unit.prov)
        table_parts = [u.table_rows for u in units if u.table_rows]
        return PackedChunk(
            heading_path=section.path,
            text=text,
            body=body,
            n_tokens=n_tokens,
            block_types=kinds,
            prov=prov,
            table_rows=table_parts[0] if len(table_parts) == 1 else None,
            prefix_shortened=shortened
            or (bool(section.path) and not prefix and self.options.heading_prefix),
        )

    @staticmethod
    def _audit_nothing_lost(section: Section, groups: list[list[Unit]]) -> None:
        """`--strict`: every word of the section's blocks must come out, in order."""
        expected = (w for block in section.blocks for w in render_block(block).split())
        produced: list[str] = []
        for unit in (u for group in groups for u in group):
            words = unit.text.split()
            if unit.joint == Joint.CHAR and produced and words:  # a giant word cut apart
                produced[-1] += words.pop(0)
            produced.extend(words)
        missing = first_missing_word(expected, produced)
        if missing is not None:
            where = " > ".join(section.path) or "(document start)"
            raise BudgetError(f"text lost while packing section {where!r}: {missing!r}")
