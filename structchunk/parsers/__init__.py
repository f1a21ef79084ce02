"""Which parser reads which format, and detection by file extension or signature.

Every parser is `parse(data, source, settings) -> Document`: bytes in, the section tree
out, knowing nothing of budgets or tokenizers (`ParseSettings` is all it is told).
Adding a format is one new module (or subpackage) here plus its `FormatSpec` in
`formats.FORMATS` (and its name in `options.FormatName`, for `--format`).

    settings.py   ParseSettings (what a parser is told) and the parser signature
    formats.py    the format table: each format's FormatSpec (extensions, media types,
                  source text for offsets, streaming, native reading)
    builder.py    the heading stack every parser reports to, and nested-block flattening
    decode.py     bytes to text for the text formats
    packages.py   zip packages (DOCX, PPTX, XLSX, EPUB): the real kind, opened within bounds
    relationships.py  how an Office package names its parts (`.rels`), for DOCX and XLSX
    markdown.py   Markdown (markdown-it-py), a long text packed as it is parsed
                  (`stream`); markdown_pieces.py: where such a text is cut into pieces
    text.py       plain text
    html/         HTML (lxml's HTML parser)
    pdf/          PDF (PDFium, or pdfplumber)
    epub/         EPUB e-books (zip + OPF with lxml; chapters through html/chapter.py)
    docx/         Word documents (the package XML through lxml)
    pptx/         PowerPoint decks (python-pptx): a section per slide
    xlsx/         Excel workbooks (sheet XML streamed with lxml; openpyxl's number formats):
                  a section per sheet, its tables
    numbers.py    numbers as a spreadsheet shows them (XLSX cells, PPTX chart data)
    counters.py   list counters as Office shows them (roman numerals, letters)
"""

from __future__ import annotations

import importlib
from pathlib import PurePath

from ..errors import OPTION_SLOT, OptionHint, UnsupportedFormatError
from .formats import EXTENSIONS, FORMATS, FormatSpec, format_of_media_type
from .settings import ParseFunction, ParseSettings

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "FormatSpec",
    "ParseFunction",
    "ParseSettings",
    "detect_format",
    "format_of_media_type",
    "format_spec",
    "get_parser",
    "sniff_format",
]


def detect_format(path: str) -> str:
    """The format name for a path, by extension."""
    suffix = PurePath(path).suffix.lower()
    try:
        return EXTENSIONS[suffix]
    except KeyError:
        known = ", ".join(sorted(EXTENSIONS))
        raise UnsupportedFormatError(
            f"unsupported file extension {suffix or '(none)'!r}; known: {known} "
            f"(use {OPTION_SLOT} to override)",
            source=path,
            hint=OptionHint("format"),
        ) from None


def sniff_format(data: bytes) -> str | None:
    """The format of bytes that say what they are: a PDF (`%PDF-`), or a zip package of
    DOCX, PPTX, XLSX or EPUB (by its parts); None for the rest, text formats included,
    which carry no signature. For inputs without a name (stdin)."""
    if data.startswith(b"%PDF-"):
        return "pdf"
    if not data.startswith(b"PK"):
        return None
    from .packages import package_kind  # zipfile and lxml only when a zip is read

    return package_kind(data)


def format_spec(format_name: str) -> FormatSpec:
    """The spec of a format by name; an `UnsupportedFormatError` for an unknown one."""
    try:
        return FORMATS[format_name]
    except KeyError:
        raise UnsupportedFormatError(
            f"unknown format {format_name!r}; use one of {', '.join(FORMATS)}"
        ) from None


def get_parser(format_name: str) -> ParseFunction:
    module = importlib.import_module(format_spec(format_name).parser_module, __name__)
    parse: ParseFunction = module.parse
    return parse
