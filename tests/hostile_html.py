"""Hostile HTML for the gate (see hostile_cases.py): nesting past any recursion limit,
one huge page, entities that would read a local file or expand without end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hostile_cases import HostileCase

LEVELS = 100_000


def _written(make: Callable[[], str]) -> HostileCase.Builder:
    def build(path: Path) -> None:
        path.write_text(make(), "utf-8")

    return build


def _unclosed_headings() -> str:
    return "<body>" + "".join(f"<h{i % 6 + 1}>Heading {i}" for i in range(LEVELS))


def _nested_lists() -> str:
    return "<body>" + "".join(f"<ul><li>item {i}" for i in range(LEVELS)) + "</li></ul>" * LEVELS


def _huge_page() -> str:
    """50 MB of plain paragraphs in one section."""
    paragraph = "<p>" + "The service keeps every key for a day after rotation. " * 20 + "</p>\n"
    return (
        "<html><body><h1>Keys</h1>" + paragraph * (50_000_000 // len(paragraph)) + "</body></html>"
    )


_SECRET = "/etc/passwd"


def _external_entity() -> str:
    return (
        f'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY secret SYSTEM "file://{_SECRET}">]>'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Before &secret; after.</p>'
        "</body></html>"
    )


def _laughs() -> str:
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10)
    ]
    return (
        f'<?xml version="1.0"?><!DOCTYPE html [{"".join(entities)}]>'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>&lol9;</p></body></html>'
    )


CASES = [
    HostileCase("html-100000-unclosed-headings.html", _written(_unclosed_headings), "converted"),
    HostileCase("html-100000-nested-lists.html", _written(_nested_lists), "converted"),
    HostileCase("html-50mb-page.html", _written(_huge_page), "converted", peak_mb=1024),
    HostileCase(
        "html-external-entity.xhtml",
        _written(_external_entity),
        "converted",
        never_in_output=("root:x:0",),
        slow=False,
    ),
    HostileCase(
        "html-billion-laughs.xhtml", _written(_laughs), "either", never_in_output=("lol" * 1000,)
    ),
]
