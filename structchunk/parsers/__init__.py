"""The format table: which parser reads which format, and detection by file extension.

Adding a format is one new module here plus one entry in `FORMATS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from ..document import Document
from ..errors import UnsupportedFormatError
from ..options import ChunkOptions

ParseFunction = Callable[[bytes, str, ChunkOptions], Document]


@dataclass(frozen=True, slots=True)
class FormatSpec:
    name: str
    module: str
    """Module in this package with `parse(data, source, options) -> Document`."""
    extensions: tuple[str, ...]


FORMATS: dict[str, FormatSpec] = {
    spec.name: spec
    for spec in (
        FormatSpec("markdown", "markdown", (".md", ".markdown", ".mdown", ".mkd", ".mdx")),
        FormatSpec("text", "text", (".txt", ".text")),
        FormatSpec("pdf", "pdf", (".pdf",)),
        FormatSpec("html", "html", (".html", ".htm", ".xhtml")),
    )
}

EXTENSIONS: dict[str, str] = {
    ext: spec.name for spec in FORMATS.values() for ext in spec.extensions
}


def detect_format(path: str) -> str:
    """The format name for a path, by extension."""
    suffix = PurePath(path).suffix.lower()
    try:
        return EXTENSIONS[suffix]
    except KeyError:
        known = ", ".join(sorted(EXTENSIONS))
        raise UnsupportedFormatError(
            f"unsupported file extension {suffix or '(none)'!r}; known: {known} "
            "(use --format to override)",
            source=path,
        ) from None


def get_parser(format_name: str) -> ParseFunction:
    try:
        spec = FORMATS[format_name]
    except KeyError:
        raise UnsupportedFormatError(
            f"unknown format {format_name!r}; use one of {', '.join(FORMATS)}"
        ) from None
    module = importlib.import_module(f"{__name__}.{spec.module}")
    parse: ParseFunction = module.parse
    return parse
