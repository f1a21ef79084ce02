"""Web-page boilerplate: the rules that need no context, and the text counts the rest use.

One iterative pass marks scripts, styles, media, navigation, asides, form controls,
hidden elements and page-level headers and footers as removed, notes blocks whose
`class`/`id` names page furniture (comments, share bars, related links), and counts
the text and link text every kept element holds. Forms and cookie banners are judged
by those counts. `content.py` then chooses the main content. Nothing is deleted from
the tree: removed elements go into a `skip` set that every walk honours (a set of the
elements themselves, which keeps lxml's element objects, and so their identity, alive).
The counts, and where each element's subtree is, are a `PageStats` (`stats.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from .dom import BLOCK_TAGS, PREFORMATTED_TAGS, TEXTLESS_TAGS, heading_level_of
from .stats import PageStats
from .tree import Element

DROP_TAGS = frozenset(
    {
        "applet",
        "area",
        "audio",
        "base",
        "button",
        "canvas",
        "datalist",
        "dialog",
        "embed",
        "fieldset",
        "frame",
        "frameset",
        "head",
        "iframe",
        "input",
        "label",
        "link",
        "map",
        "meta",
        "meter",
        "nav",
        "noframes",
        "noscript",
        "object",
        "optgroup",
        "option",
        "output",
        "param",
        "picture",
        "progress",
        "script",
        "select",
        "source",
        "style",
        "svg",
        "template",
        "textarea",
        "title",
        "track",
        "video",
        "aside",
    }
)
"""Never content: scripts and styles, embedded objects and media, form controls,
navigation and asides (`form` itself is judged by size, see `DEFAULT_FORM_PAGE_SHARE`)."""

DOCUMENT_TAGS = frozenset(
    {
        "applet",
        "audio",
        "base",
        "canvas",
        "embed",
        "head",
        "link",
        "meta",
        "noscript",
        "object",
        "param",
        "picture",
        "script",
        "source",
        "style",
        "svg",
        "template",
        "title",
        "track",
        "video",
    }
)
"""Dropped tags that any HTML document may have; unlike navigation or forms they do not
show that the document is a web page with furniture around its content."""

DROP_ROLES = frozenset(
    {
        "alertdialog",
        "banner",
        "complementary",
        "contentinfo",
        "dialog",
        "menu",
        "menubar",
        "navigation",
        "search",
        "toolbar",
    }
)
"""ARIA landmark and widget roles of page chrome (`banner` is the page header,
`contentinfo` the page footer)."""

SECTIONING_TAGS = frozenset({"article", "aside", "main", "nav", "section"})
"""A `header`/`footer` inside one of these belongs to it; outside, it is the page's."""

DEFAULT_FORM_PAGE_SHARE = 0.5
"""A `form` is dropped unless it holds more than this share of the page's text: some
sites (ASP.NET WebForms) wrap the whole page in one form."""

DEFAULT_BANNER_MAX_CHARS = 2000
"""Cookie/consent banners are short; an element named `cookie…` holding more text than
this is more likely an article about cookies."""

DEFAULT_CJK_WEIGHT = 3
"""A Chinese, Japanese or Korean character counts as this many characters of text: one
carries about as much as a short word, and the scripts put no spaces between words."""

NEGATIVE_NAME_WORDS = frozenset(
    {
        "ad",
        "ads",
        "adsense",
        "advert",
        "advertisement",
        "author",
        "bio",
        "breadcrumb",
        "breadcrumbs",
        "byline",
        "comment",
        "commentlist",
        "comments",
        "disqus",
        "masthead",
        "modal",
        "newsletter",
        "outbrain",
        "pager",
        "pagination",
        "popup",
        "promo",
        "promotion",
        "recommendations",
        "recommended",
        "related",
        "replies",
        "reply",
        "respond",
        "share",
        "sidebar",
        "signup",
        "social",
        "sponsor",
        "sponsored",
        "subscribe",
        "subscription",
        "taboola",
    }
)
"""Words in a block's `class`/`id` that name page furniture rather than the article:
comments, bylines and author boxes, share bars, related links, ads, newsletter sign-ups.
Matched as whole words (`relatedLinks`, `post-share`), never as substrings, and never
inside `pre`, `code` or tables."""

POSITIVE_NAME_WORDS = frozenset({"article", "body", "content", "main", "story"})
"""…unless the name also says the block is the content (`l-sidebar l-article-body`)."""

DEFAULT_MAX_ID_WORDS = 2
"""An `id` of more words than this is a slug made from a heading (`sharing-with-a-team`):
it names the topic, not the role, and is not read for hints."""

UNIT_TAGS = BLOCK_TAGS - {"caption", "tbody", "td", "tfoot", "th", "thead", "tr"}
"""Blocks whose direct text is scored as one unit. A table is one unit, not one per cell:
a table of short values is data, not a heap of fragments."""

_NEVER_HINTED = frozenset({"html", "body", "main", "article"})
_HINT_FREE = frozenset({"pre", "code", "table"})
"""Class names inside these name code tokens and data, not page furniture."""
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_HIDDEN_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.I)
_BANNER_NAME = re.compile(
    r"cookie|consent|gdpr|onetrust|didomi|cookiebot|qc-cmp|\bcmp\b|cc-window", re.I
)


def text_weight(text: str) -> int:
    """How much text a string holds: its characters without surrounding whitespace, CJK
    characters weighted by `DEFAULT_CJK_WEIGHT`."""
    size = len(text.strip())
    if size and not text.isascii():
        size += (DEFAULT_CJK_WEIGHT - 1) * len(_CJK.findall(text))
    return size


@lru_cache(maxsize=4096)
def _negative_words(classes: str, ident: str) -> bool:
    words = {word.lower() for word in _NAME_WORD.findall(classes)}
    id_words = {word.lower() for word in _NAME_WORD.findall(ident)}
    if len(id_words) <= DEFAULT_MAX_ID_WORDS:
        words |= id_words
    return words.isdisjoint(POSITIVE_NAME_WORDS) and not words.isdisjoint(NEGATIVE_NAME_WORDS)


def has_negative_name(name: str, attrs: Mapping[str, str]) -> bool:
    """A block whose `class` or `id` names page furniture (comments, share bar, ...)."""
    if name not in BLOCK_TAGS or name in _NEVER_HINTED:
        return False
    classes = attrs.get("class", "")
    ident = attrs.get("id", "") if name != "section" else ""
    return bool(classes or ident) and _negative_words(classes, ident)


def is_hidden(attrs: Mapping[str, str]) -> bool:
    """`hidden`, `aria-hidden="true"` or an inline `display:none`/`visibility:hidden`."""
    hidden = attrs.get("hidden")
    if hidden is not None and hidden != "until-found":
        return True
    if attrs.get("aria-hidden", "").strip().lower() == "true":
        return True
    style = attrs.get("style")
    return style is not None and bool(_HIDDEN_STYLE.search(style))


def is_chrome(name: str, attrs: Mapping[str, str], in_section: bool) -> bool:
    """Context-free boilerplate: dropped tags, chrome roles, hidden elements,
    page-level headers and footers."""
    if name in DROP_TAGS:
        return True
    if name in ("header", "footer") and not in_section:
        return True
    if not attrs:
        return False
    role = attrs.get("role")
    if role is not None and role.strip().lower() in DROP_ROLES:
        return True
    return is_hidden(attrs)


_NO_ATTRIBUTES: Mapping[str, str] = {}


def measure(body: Element, skip: set[Element]) -> PageStats:
    """Mark chrome in `skip` and count text per kept element, in one iterative pass.

    An element's own text is its `text` and the `tail`s of its children (skipped ones
    too: the text after a removed element is still there). Each element's attributes
    are read from lxml once, as one list."""
    stats = PageStats()
    # (tag, its parent, inside a sectioning element, inside a link, nearest block,
    # inside pre/code/table)
    stack: list[tuple[Element, Element | None, bool, bool, Element, bool]] = [
        (body, None, False, False, body, False)
    ]
    while stack:
        tag, parent, in_section, in_link, block, exempt = stack.pop()
        name = tag.tag
        items = tag.items()
        attrs = dict(items) if items else _NO_ATTRIBUTES
        if parent is not None and is_chrome(name, attrs, in_section):
            skip.add(tag)
            if name not in DOCUMENT_TAGS:
                stats.page_chrome += 1
            continue
        stats.keep(tag, parent)
        if name in UNIT_TAGS:
            block = tag
            if name in PREFORMATTED_TAGS:
                stats.verbatim.add(tag)
        level = heading_level_of(name, attrs)
        if level is not None:
            stats.levels[tag] = level
        if attrs:
            _note_names(stats, tag, name, attrs, exempt)
        exempt = exempt or name in _HINT_FREE
        own = 0
        if name not in TEXTLESS_TAGS:
            text = tag.text  # lxml makes a new string at every read: read each once
            if text:
                own = text_weight(text)
            child_section = in_section or name in SECTIONING_TAGS
            child_link = in_link or name == "a"
            for child in reversed(tag):
                stack.append((child, tag, child_section, child_link, block, exempt))
                tail = child.tail
                if tail:
                    own += text_weight(tail)
        stats.text[tag] = own
        stats.unit_text[block] = stats.unit_text.get(block, 0) + own
        if in_link or name == "a":
            stats.links[tag] = own
            stats.unit_links[block] = stats.unit_links.get(block, 0) + own
    stats.finish()
    return stats


def _note_names(
    stats: PageStats, tag: Element, name: str, attrs: Mapping[str, str], exempt: bool
) -> None:
    """Keep an element's `role`, and its `class` and `id` for the banner rule; note it as
    furniture when they name it so (never inside `pre`, `code` or a table, nor those)."""
    role = attrs.get("role")
    if role is not None:
        stats.roles[tag] = role
    classes, ident = attrs.get("class"), attrs.get("id")
    if classes is None and ident is None:
        return
    stats.names[tag] = f"{classes or ''} {ident}" if ident is not None else classes or ""
    if not exempt and name not in _HINT_FREE and has_negative_name(name, attrs):
        stats.hinted.append(tag)


def drop(tag: Element, stats: PageStats, skip: set[Element]) -> None:
    """Mark `tag` removed and take its text out of its ancestors' counts."""
    if tag in skip:
        return
    ancestors = []
    for parent in tag.iterancestors():
        if parent in skip:  # already gone with an ancestor
            skip.add(tag)
            return
        if parent not in stats.text:
            break
        ancestors.append(parent)
    skip.add(tag)
    text, links = stats.text.get(tag, 0), stats.links.get(tag, 0)
    for parent in ancestors:
        stats.text[parent] -= text
        stats.links[parent] -= links


def drop_forms_and_banners(stats: PageStats, skip: set[Element], page_text: int) -> None:
    """Forms smaller than most of the page, and cookie/consent banners."""
    names = stats.names
    for tag in stats.order:
        if tag.tag == "form":
            if stats.text_of(tag) <= DEFAULT_FORM_PAGE_SHARE * page_text:
                drop(tag, stats, skip)
                stats.page_chrome += 1
        elif (
            tag in names
            and stats.text_of(tag) <= DEFAULT_BANNER_MAX_CHARS
            and _BANNER_NAME.search(names[tag])
        ):
            drop(tag, stats, skip)
            stats.page_chrome += 1
