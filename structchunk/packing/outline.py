"""Step 0, outline: which sections the packer packs, in document order.

Every section with blocks is packed. A heading with nothing under it — no blocks, no
subsections (a page of headings, a contents-like outline, a heading before an image) —
is document text too, but no section of its own would carry it: it is in no chunk's
heading path. So each run of such sibling headings becomes text under their parent's
path, at their place in the document: the last paragraphs of the parent's own text when
they follow it directly, else the body of one extra section.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Block, Paragraph, Section


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
