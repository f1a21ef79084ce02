"""What `boilerplate.measure` learns about a page in its one pass: the kept elements in
document order, their text counts, and the few attributes the later rules ask about.

Kept elements are numbered in document order, so the kept elements under any one of
them are a run of that order (`position` to `ends`): the content rules read subtrees as
slices of one list instead of walking the tree again, and jump over a subtree removed
since (`skip`) in one step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .tree import Element


@dataclass(slots=True)
class PageStats:
    """Text counts per kept element, and where each element's subtree is in `order`.

    `text`/`links` are characters of text (and of text inside links) in the element's
    whole subtree. A *unit* is the text a block (see `UNIT_TAGS`) holds directly, not
    inside a nested block: `unit_text`/`unit_links` count it per block.
    """

    order: list[Element] = field(default_factory=list)
    """Kept elements in document order."""
    position: dict[Element, int] = field(default_factory=dict)
    """Where each kept element is in `order`."""
    ends: list[int] = field(default_factory=list)
    """`order[i + 1 : ends[i]]` are the kept elements below `order[i]`."""
    parent: dict[Element, Element] = field(default_factory=dict)
    text: dict[Element, int] = field(default_factory=dict)
    links: dict[Element, int] = field(default_factory=dict)
    unit_text: dict[Element, int] = field(default_factory=dict)
    unit_links: dict[Element, int] = field(default_factory=dict)
    verbatim: set[Element] = field(default_factory=set)
    """Units that are preformatted text (code)."""
    levels: dict[Element, int] = field(default_factory=dict)
    """The kept headings' levels (1–6)."""
    names: dict[Element, str] = field(default_factory=dict)
    """`class` and `id` of the kept elements that have either, as one string."""
    roles: dict[Element, str] = field(default_factory=dict)
    """The kept elements' ARIA `role`s."""
    hinted: list[Element] = field(default_factory=list)
    """Elements with a negative name (see `NEGATIVE_NAME_WORDS`), in document order."""
    page_chrome: int = 0
    """How many elements of web-page chrome (navigation, page header and footer, forms,
    hidden elements …; not scripts or styles) were removed."""

    def keep(self, tag: Element, parent: Element | None) -> None:
        """Add the next kept element in document order (its parent added before it)."""
        self.position[tag] = len(self.order)
        self.order.append(tag)
        self.ends.append(len(self.order))
        if parent is not None:
            self.parent[tag] = parent

    def finish(self) -> None:
        """Close the subtrees (`ends`) and turn `text` and `links` into subtree totals,
        once every element is kept. (Every kept element but the first has a kept parent:
        the pass never enters a removed one.)"""
        order, ends, position, parents = self.order, self.ends, self.position, self.parent
        text, links = self.text, self.links
        for index in range(len(order) - 1, 0, -1):  # children before parents
            tag = order[index]
            parent = parents[tag]
            at = position[parent]
            if ends[index] > ends[at]:
                ends[at] = ends[index]
            text[parent] += text[tag]
            links[parent] = links.get(parent, 0) + links.get(tag, 0)

    def text_of(self, tag: Element) -> int:
        return self.text.get(tag, 0)

    def link_density(self, tag: Element) -> float:
        total = self.text.get(tag, 0)
        return self.links.get(tag, 0) / total if total else 0.0

    def sum_up(self, values: dict[Element, int]) -> None:
        """Turn per-element counts into subtree totals, in place."""
        parents = self.parent
        for tag in reversed(self.order):  # children before parents
            parent = parents.get(tag)
            if parent is not None:
                values[parent] = values.get(parent, 0) + values.get(tag, 0)

    def below(self, root: Element) -> list[Element]:
        """`root` and the elements under it that were kept when the page was measured."""
        at = self.position[root]
        return self.order[at : self.ends[at]]

    def kept(self, root: Element, skip: set[Element]) -> list[Element]:
        """`root` and the elements under it that are not removed, in document order."""
        return self._collect(root, skip, lambda tag: True, inside=False)

    def outermost(
        self, root: Element, skip: set[Element], match: Callable[[Element], bool]
    ) -> list[Element]:
        """The kept elements under `root` (not `root` itself) that `match` accepts and
        that are not inside another accepted one, in document order."""
        return self._collect(root, skip, match, inside=True)

    def _collect(
        self, root: Element, skip: set[Element], match: Callable[[Element], bool], inside: bool
    ) -> list[Element]:
        """The kept elements of `root`'s subtree that `match` accepts; with `inside`, not
        `root` itself and nothing below an accepted one."""
        if root in skip:
            return []
        order, ends = self.order, self.ends
        at = self.position[root]
        end = ends[at]
        found: list[Element] = []
        index = at + 1 if inside else at
        while index < end:
            tag = order[index]
            if tag in skip:
                index = ends[index]
            elif match(tag):
                found.append(tag)
                index = ends[index] if inside else index + 1
            else:
                index += 1
        return found
