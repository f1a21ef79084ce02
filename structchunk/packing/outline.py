"""Step 0, outline: which sections the packer packs, in document order.

Every section with blocks is packed. A heading with nothing under it — no blocks, no
subsections (a page of headings, a contents-like outline, a heading before an image) —
is document text too, but no section of its own would carry it: it is in no chunk's
heading path. So each run of such sibling headings becomes text under their parent's
path, at their place in the document: the last paragraphs of the parent's own text when
they follow it directly, else the body of one extra section.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from ..document import Block, GrowingDocument, Paragraph, Section


def _bare(section: Section) -> bool:
    """A heading with nothing under it."""
    return not section.blocks and not section.children and bool(section.title)


def _paragraphs(run: list[Section]) -> list[Block]:
    """Bare headings as paragraphs, each with its heading's provenance."""
    return [Paragraph(section.title, section.prov) for section in run]


def _headings_section(parent: Section, run: list[Section]) -> Section:
    """The run of bare headings as paragraphs of a section with the parent's path."""
    prov = run[0].prov
    for section in run[1:]:
        prov = prov.merged(section.prov)
    return Section(parent.title, parent.level, _paragraphs(run), [], parent.path, prov)


def sections_to_pack(root: Section) -> Iterator[Section]:
    """Sections with blocks, and runs of bare headings as their own sections, in order
    (iterative: no recursion limit on deep documents)."""
    stack: list[Section | tuple[Section, list[Section]]] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            yield _headings_section(*item)
            continue
        children = item.children
        if item.blocks:
            leading = 0  # bare headings right after the section's own text join it
            while leading < len(children) and _bare(children[leading]):
                leading += 1
            yield _with_headings(item, children[:leading]) if leading else item
            children = children[leading:]
        pending: list[Section | tuple[Section, list[Section]]] = []
        run: list[Section] = []
        for child in children:
            if _bare(child):
                run.append(child)
                continue
            if run:
                pending.append((item, run))
                run = []
            pending.append(child)
        if run:
            pending.append((item, run))
        stack.extend(reversed(pending))


def _with_headings(section: Section, run: list[Section]) -> Section:
    """`section` with the bare headings that follow its text as its last paragraphs (a
    copy: the document tree is not changed)."""
    blocks = [*section.blocks, *_paragraphs(run)]
    return Section(section.title, section.level, blocks, [], section.path, section.prov)


class OutlineStream:
    """`sections_to_pack` over a tree still being built, for a long text read a piece
    at a time: after each piece, the sections no later piece can change, in the same
    order and the same form as `sections_to_pack` gives them over the whole tree, each
    once — and taken out of the tree, so a long document's tree never exists whole.

    What a later piece can change: blocks go only to the current section (the last on
    the open path, the builder's stack), which a later piece may go on filling, so it
    is never handed out here; every other block so far is final, and so is every
    section off the open path. A section on the open path may still gain subsections,
    so whether it is bare, and how long a run of bare headings before it is, may be
    unsettled; the stream waits there.
    """

    def __init__(self, root: Section) -> None:
        self.root = root
        self._headed: dict[int, Section] = {}
        """Sections on the open path whose own text was handed out (by `id`, holding
        the section, so no new section can take a finished one's `id`)."""
        self._pruned: dict[int, Section] = {}
        """Sections some of whose subsections were handed out and taken away (not bare,
        though their list of subsections may now be empty)."""

    def ready(self, open_path: list[Section]) -> Iterator[Section]:
        """What may be packed now; `open_path` is the root, then each open section."""
        for section, following in zip(open_path, open_path[1:]):  # not the current one
            settled = yield from self._settle(section, following, final=False)
            if not settled:
                return

    def rest(self) -> Iterator[Section]:
        """Everything not yet handed out, once the whole text has been read."""
        yield from self._settle(self.root, None, final=True)

    def _is_bare(self, section: Section) -> bool:
        return _bare(section) and id(section) not in self._pruned

    def _settle(
        self, section: Section, following: Section | None, final: bool
    ) -> Generator[Section, None, bool]:
        """Hand out what is settled of `section` before `following` (its open last
        subsection); returns whether all of it was, so the walk may go on into
        `following`."""
        children = section.children
        if id(section) not in self._headed:
            if section.blocks:
                leading = 0
                while leading < len(children) and self._is_bare(children[leading]):
                    leading += 1
                if not final and leading == len(children):
                    return False  # every subsection so far is bare: more may join them
                yield _with_headings(section, children[:leading]) if leading else section
                if leading:
                    del children[:leading]
                    self._pruned[id(section)] = section
            self._headed[id(section)] = section
        run: list[Section] = []
        done = 0
        for at, child in enumerate(children):
            if child is following and not final:
                break
            if self._is_bare(child):
                run.append(child)
                continue
            if run:
                yield _headings_section(section, run)
                run = []
            if id(child) in self._headed:  # once on the open path: partly handed out
                yield from self._settle(child, None, final=True)
            else:
                yield from sections_to_pack(child)
            done = at + 1
        if run and (final or (following is not None and not self._is_bare(following))):
            yield _headings_section(section, run)
            done += len(run)
            run = []
        if done:
            del children[:done]
            self._pruned[id(section)] = section
        if final:  # all of it handed out: its parent drops it next
            self._headed.pop(id(section), None)
            self._pruned.pop(id(section), None)
        return not run


def settled_sections(document: GrowingDocument) -> Iterator[Section]:
    """`sections_to_pack` of a document built a piece at a time: after each piece, the
    sections it settled (`OutlineStream`), and at the end the rest."""
    outline = OutlineStream(document.root)
    for open_path in document.open_paths:
        yield from outline.ready(open_path)
    yield from outline.rest()
