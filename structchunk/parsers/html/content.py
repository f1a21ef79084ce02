"""Choosing the main content of a page: `main`, a dominant `article`, or the densest block.

Works on the counts `boilerplate.measure` took, so no element is read twice. A
document without web-page furniture (no navigation, page header or footer, forms,
hidden elements or furniture-named blocks: HTML exported from Markdown, a plain
document) is taken whole, so nothing of it can be lost to a heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass

from .boilerplate import drop, drop_forms_and_banners, measure
from .dom import heading_parts
from .stats import PageStats
from .tree import Element

DEFAULT_MAIN_MIN_SHARE = 0.25
"""A `main` (or `role="main"`) element is trusted when it holds at least this share of
the page's kept text; below that the page misuses it (an empty `main` beside the text)."""

DEFAULT_UNIT_PENALTY = 30
"""Every block of text costs this many characters in the content score, so a page region
made of many short fragments (menus, bylines, tag clouds, "Share" labels) scores below
one made of paragraphs."""

DEFAULT_LINK_WEIGHT = 1.0
"""Characters of link text count this much against a block (on top of not counting for
it): navigation and lists of related links are mostly links."""

DEFAULT_WIDEN_RATIO = 0.5
"""Widening the chosen element to its parent is worth it while the parent adds at least
half as much prose as noise."""

DEFAULT_NARROW_MIN_SHARE = 0.9
"""Inside a `main` or `article`, a part is chosen over the whole only when it holds at
least this share of the whole's prose (the article body beside a share bar and a list of
related stories, but not a big table inside a long Wikipedia article)."""

DEFAULT_SIBLING_MIN_PROSE = 80
"""A sibling of the chosen element joins it when it holds at least this much prose net
of noise (a lead paragraph is one or two sentences) …"""
DEFAULT_SIBLING_MAX_LINK_DENSITY = 0.25
"""… and at most this share of its text is links."""

DEFAULT_HINT_MAX_SHARE = 0.5
"""A block named as furniture is kept anyway when it holds more than this share of the
chosen content (a site that calls its whole article `post-social`)."""

DEFAULT_ARTICLE_MIN_SHARE = 0.4
"""The largest `article` is dominant when it holds this share of the text around it …"""
DEFAULT_ARTICLE_LEAD = 2.0
"""… and this many times the text of the next largest (teasers of related articles are
`article`s too)."""


@dataclass(slots=True)
class Content:
    """The element to chunk, the elements under it to skip, and the document title."""

    root: Element
    skip: set[Element]
    has_h1: bool
    """The chosen content has its own `h1` (which then heads the section tree)."""
    page_h1: str = ""
    """Otherwise, the text of the page's only kept `h1` outside the content (an article
    title above `main`), if there is exactly one."""
    page_chars: int = 0
    """How much text the page's body holds (`text_weight`), before any is dropped."""


def _landmarks(root: Element, stats: PageStats, skip: set[Element], name: str) -> list[Element]:
    """The outermost `main` (or `article`) elements under `root`, by tag or ARIA role."""
    roles = stats.roles
    return stats.outermost(root, skip, lambda tag: tag.tag == name or roles.get(tag) == name)


def _dominant(
    tags: list[Element], stats: PageStats, around: int, share: float, lead: float
) -> Element | None:
    if not tags or not around:
        return None
    ranked = sorted(tags, key=stats.text_of, reverse=True)
    first = stats.text_of(ranked[0])
    second = stats.text_of(ranked[1]) if len(ranked) > 1 else 0
    if first >= share * around and first >= lead * second:
        return ranked[0]
    return None


def furniture(stats: PageStats, within: Element, skip: set[Element]) -> list[Element]:
    """The outermost negatively named blocks under `within` that hold at most
    `DEFAULT_HINT_MAX_SHARE` of its text (a larger one is a misnamed wrapper)."""
    if not stats.hinted:
        return []
    limit = DEFAULT_HINT_MAX_SHARE * stats.text_of(within)
    hinted = set(stats.hinted)
    return stats.outermost(within, skip, lambda tag: tag in hinted and stats.text_of(tag) <= limit)


def content_scores(
    stats: PageStats, furniture_blocks: set[Element]
) -> tuple[dict[Element, int], dict[Element, int]]:
    """Per element, the prose and the noise in its subtree.

    Each block's value is its text outside links, minus its link text and a fixed cost
    per block; positive values add to *prose*, negative ones to *noise*. Code counts in
    full, headings are neutral unless they are links, and furniture is all noise.
    """
    prose: dict[Element, int] = {}
    noise: dict[Element, int] = {}
    headings = stats.levels
    for key, text in stats.unit_text.items():
        if not text:
            continue
        links = stats.unit_links.get(key, 0)
        if key in furniture_blocks:
            value = -text
        elif key in stats.verbatim:
            value = text
        elif key in headings:
            value = -links
        else:
            value = int(text - links - DEFAULT_LINK_WEIGHT * links - DEFAULT_UNIT_PENALTY)
        if value > 0:
            prose[key] = value
        elif value < 0:
            noise[key] = -value
    stats.sum_up(prose)
    stats.sum_up(noise)
    return prose, noise


def best_subtree(
    root: Element, stats: PageStats, skip: set[Element], min_share: float = 0.0
) -> Element:
    """The element under `root` whose subtree has the most prose net of noise, widened
    to its ancestors while each adds prose at least at `DEFAULT_WIDEN_RATIO` times the
    noise it adds (an article whose best paragraph outscores the whole because of a
    byline and a list of links). `root` itself unless the winner keeps `min_share` of
    its prose."""
    blocks = {tag for outer in furniture(stats, root, skip) for tag in stats.below(outer)}
    prose, noise = content_scores(stats, blocks)
    best, best_score = root, prose.get(root, 0) - noise.get(root, 0)
    for tag in stats.kept(root, skip):
        score = prose.get(tag, 0) - noise.get(tag, 0)
        if score > best_score:
            best, best_score = tag, score
    while best is not root and best.getparent() is not None:
        parent = best.getparent()
        added_prose = prose.get(parent, 0) - prose.get(best, 0)
        added_noise = noise.get(parent, 0) - noise.get(best, 0)
        if added_noise and added_prose < DEFAULT_WIDEN_RATIO * added_noise:
            break
        best = parent
    kept_prose = prose.get(best, 0)
    if best is root or not kept_prose or kept_prose < min_share * prose.get(root, 0):
        return root  # nothing reads as prose, or the part would lose too much of it
    return _with_siblings(best, stats, skip, prose, noise)


def _with_siblings(
    best: Element,
    stats: PageStats,
    skip: set[Element],
    prose: dict[Element, int],
    noise: dict[Element, int],
) -> Element:
    """The chosen element's parent, minus the siblings that are not prose, when some
    sibling is prose (a lead paragraph or the title outside the article body)."""
    parent = best.getparent()
    if parent is None:
        return best
    siblings = [child for child in parent if child is not best and child not in skip]
    keep = [
        child
        for child in siblings
        if _is_prose(child, stats, prose, noise)
        or any(stats.levels.get(tag) == 1 for tag in stats.kept(child, skip))
    ]
    if not keep:
        return best
    for child in siblings:
        if not any(child is kept for kept in keep):
            drop(child, stats, skip)
    return parent


def _is_prose(
    tag: Element, stats: PageStats, prose: dict[Element, int], noise: dict[Element, int]
) -> bool:
    """Enough prose net of noise and few links; or any prose and no noise at all (a short
    code block)."""
    kept, lost = prose.get(tag, 0), noise.get(tag, 0)
    if kept and not lost:
        return True
    return kept - lost >= DEFAULT_SIBLING_MIN_PROSE and (
        stats.link_density(tag) <= DEFAULT_SIBLING_MAX_LINK_DENSITY
    )


def choose_root(body: Element, stats: PageStats, skip: set[Element]) -> Element:
    """`main` if the page has a real one, then a single dominant `article` inside it,
    narrowed to the part with nearly all its prose; without either, the element with the
    highest content score — unless the page has no furniture at all."""
    root = body
    main = _dominant(
        _landmarks(body, stats, skip, "main"),
        stats,
        stats.text_of(body),
        DEFAULT_MAIN_MIN_SHARE,
        1.0,
    )
    if main is not None:
        root = main
    article = _dominant(
        _landmarks(root, stats, skip, "article"),
        stats,
        stats.text_of(root),
        DEFAULT_ARTICLE_MIN_SHARE,
        DEFAULT_ARTICLE_LEAD,
    )
    if article is not None:
        root = article
    if root is not body:
        return best_subtree(root, stats, skip, DEFAULT_NARROW_MIN_SHARE)
    if not stats.page_chrome and not stats.hinted:
        return body
    return best_subtree(body, stats, skip)


def drop_clutter(root: Element, stats: PageStats, skip: set[Element]) -> None:
    """Inside the chosen content, drop blocks named as page furniture (comments, share
    bars, bylines, related links) unless one holds most of the content."""
    for tag in furniture(stats, root, skip):
        drop(tag, stats, skip)


def _h1s(root: Element, stats: PageStats, skip: set[Element]) -> list[Element]:
    """Kept level-1 headings with visible text (an `h1` holding only a logo is none)."""
    levels = stats.levels
    return [
        tag
        for tag in stats.kept(root, skip)
        if levels.get(tag) == 1 and heading_parts(tag, skip)[0]
    ]


def select_content(body: Element) -> Content:
    """Mark boilerplate in `body` and choose the element whose content is the page's."""
    skip: set[Element] = set()
    stats = measure(body, skip)
    page_chars = stats.text_of(body)
    drop_forms_and_banners(stats, skip, page_chars)
    root = choose_root(body, stats, skip)
    drop_clutter(root, stats, skip)
    if _h1s(root, stats, skip):
        return Content(root, skip, True, page_chars=page_chars)
    outside = _h1s(body, stats, skip)
    title = heading_parts(outside[0], skip)[0] if len(outside) == 1 else ""
    return Content(root, skip, False, title, page_chars)
