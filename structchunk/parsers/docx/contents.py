"""What of a Word contents page is dropped, and the little of it a reader still needs.

Contents (a `TOC` field's result, the `TOC n` styles, a "Table of Contents" content
control) only repeat the headings with page numbers, so the walker drops them. Two
things around them are decided here:

- **a contents heading is not the document's title**: "CONTENTS" set in the `Title`
  style heads the contents page, not the document (Word's navigation pane does not
  show it: `Title` has no outline level), so it is dropped with the contents instead of
  rooting every heading path;
- **an empty contents field says so**: a table of figures in a document without
  captions shows "No table of figures entries found." — that sentence is what a reader
  sees on the page (and often the only text of its section), so it is kept as a
  paragraph.
"""

from __future__ import annotations

import re

_CONTENTS_TITLE = re.compile(r"(?:table of )?contents?", re.IGNORECASE)
"""A title that names a contents page ("CONTENTS", "Table of Contents")."""
_EMPTY_CONTENTS = re.compile(
    r"No table of (?:contents|figures|authorities) entries found\.?", re.IGNORECASE
)
"""Word's text for a contents field with no entries (in an English Word)."""
_NON_WORD = re.compile(r"[\W_]+")


def names_contents(title: str) -> bool:
    """Whether a title paragraph's text names a contents page."""
    return bool(_CONTENTS_TITLE.fullmatch(" ".join(_NON_WORD.sub(" ", title).split())))


def empty_contents_notice(contents: str) -> str:
    """The notice of an empty contents field when `contents` (the text of a contents
    field's result) is one, else ""."""
    text = contents.strip()
    return text if _EMPTY_CONTENTS.fullmatch(text) else ""
