"""The packer: a section tree in, budgeted chunks out, one section at a time.

`Packer.pack_section` is the design's steps in order, each a pure function in its own
module: prefix → units → group → merge small → fit → overlap → finish. Chunks never
span two sections.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..document import Document, Section
from ..options import ChunkOptions
from ..sentences import SentenceSegmenter, get_segmenter
from ..tokenizers import Tokenizer, get_tokenizer
from .audit import audit_headings, audit_section
from .context import SplitContext
from .finish import PackedChunk, finish, whole_section
from .fitting import fit
from .grouping import group_units
from .language import with_languages
from .merging import merge_small
from .outline import sections_to_pack
from .overlap import overlap_bodies
from .page_audit import audit_reading
from .parents import PackedParent, ParentRule
from .prefix import Head, section_head
from .render import render_block
from .room import section_room
from .splitters import section_units
from .units import Joint, join_units


class Packer:
    """Packs documents under one set of options; reusable across documents."""

    def __init__(
        self,
        options: ChunkOptions,
        tokenizer: Tokenizer | None = None,
        segmenter: SentenceSegmenter | None = None,
    ) -> None:
        self.options = options
        self.tokenizer = tokenizer or get_tokenizer(options.tokenizer)
        self.segmenter = segmenter or get_segmenter(options.sentence_model)
        self.ctx = SplitContext(self.tokenizer, self.segmenter)
        self._fixed_segmenter = segmenter is not None

    def pack(self, document: Document) -> Iterator[PackedChunk]:
        """Chunks of `document` in order."""
        strict = self.options.strict
        if strict:
            audit_reading(document)
        packed: list[PackedChunk] = []  # kept only for the heading audit
        for chunk in self.pack_sections(sections_to_pack(document.root)):
            if strict:
                packed.append(chunk)
            yield chunk
        if strict:
            audit_headings(document.root, packed)

    def parents(self, chunks: Iterable[PackedChunk], root_depth: int) -> Iterator[PackedParent]:
        """`chunks` (a document's, in order, as `pack` gives them) grouped into parents
        within `options.parent_limit` (`parents.py`); `root_depth` is the length of the
        root section's path."""
        options, count = self.options, self.tokenizer.count

        def head_of(path: tuple[str, ...]) -> Head:
            return section_head(path, options.heading_prefix, options.max_tokens, count)

        rule = ParentRule(options.parent_limit, self.tokenizer, head_of, root_depth)
        return rule.parents(chunks)

    def pack_sections(self, sections: Iterable[Section]) -> Iterator[PackedChunk]:
        """Chunks of sections given in document order (as `sections_to_pack` or an
        `OutlineStream` gives them)."""
        for section, language in with_languages(sections, self.options.language):
            for chunk in self.pack_section(section, language):
                chunk.language = language
                yield chunk

    def _context(self, language: str | None) -> SplitContext:
        """The split context for a section in `language`: its sentence segmenter."""
        if self._fixed_segmenter or language is None:
            return self.ctx
        segmenter = get_segmenter(self.options.sentence_model, language)
        if segmenter is self.segmenter:
            return self.ctx
        return SplitContext(self.tokenizer, segmenter)

    def pack_section(self, section: Section, language: str | None = None) -> Iterator[PackedChunk]:
        """The chunks of one section (which has blocks), its sentences split as `language`
        splits them (None: by the sentence model alone)."""
        options, ctx, count = self.options, self._context(language), self.tokenizer.count
        head = section_head(section.path, options.heading_prefix, options.max_tokens, count)
        room = section_room(
            limit=options.max_tokens,
            head_tokens=head.tokens,
            overlap_tokens=options.overlap_tokens,
            count=count,
        )
        texts = [render_block(block) for block in section.blocks]
        whole = whole_section(section, head, texts, self.tokenizer, room)
        if whole is not None:
            yield whole
            return
        units = section_units(ctx, section.blocks, texts, room)
        groups = group_units(units, room.content)
        groups = merge_small(groups, room, floor=options.min_tokens)
        groups = [piece for group in groups for piece in fit(group, head, room, ctx)]
        if options.strict:
            audit_section(section, groups)
        bodies = overlap_bodies(
            groups,
            head.text,
            room,
            ctx,
            overlap_tokens=options.overlap_tokens,
            repeat_lead_ins=options.repeat_lead_ins,
        )
        for index, (group, body) in enumerate(zip(groups, bodies)):
            chunk = finish(section.path, head, group, body, tokenizer=self.tokenizer, room=room)
            own = join_units(group)
            first = group[0]
            chunk.own = None if own == body else own
            chunk.at_block = first.joint == Joint.BLOCK
            chunk.joiner = "\n\n" if chunk.at_block else first.sep
            chunk.opens_section = index == 0
            yield chunk
