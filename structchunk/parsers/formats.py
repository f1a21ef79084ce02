"""The format table: each format's `FormatSpec`, everything the rest of the code asks about it.

Nothing outside `parsers/` names a format: extension detection, a Haystack ByteStream's
media type, the decoded source that chunk offsets index, whether a long input is packed
as it is parsed, what `eval`'s fixed-size baseline may cut as it is, what a LlamaIndex
node parser may read from a node's text, and whether batch runs convert it in a worker
all read the spec. The hooks import their parser's module only when called, so the
table itself is light.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING

from ..document import GrowingDocument
from .decode import decode_text

if TYPE_CHECKING:
    from .settings import ParseSettings

StreamFunction = Callable[[bytes, str, "ParseSettings"], GrowingDocument | None]


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """A format's whole passport (a new format is its parser plus one of these)."""

    name: str
    """The `format` of its records, and the value of `--format` (`options.FormatName`)."""
    extensions: tuple[str, ...]
    """File extensions (lower case, with the dot) detected as this format."""
    _: KW_ONLY
    module: str = ""
    """Module with `parse(data, source, settings) -> Document`: relative to this package
    when it starts with a dot; `.<name>` when empty."""
    media_types: tuple[str, ...] = ()
    """MIME types of inputs without a file name (a Haystack ByteStream)."""
    source_text: Callable[[bytes], str] | None = None
    """The decoded source text that chunk `offsets` index (`decoded_source`), the same
    `Document.source_text` the parser gives; None for a format whose source is not text
    (PDF: its chunks carry boxes; the zip packages: neither)."""
    markup: bool = False
    """The source text is markup (HTML): offsets are found in its visible text, and it
    is no text a fixed-size splitter would cut as it is."""
    stream: StreamFunction | None = None
    """A document that is read a piece at a time, its settled sections packed as they
    come (`GrowingDocument`), or None for one read whole (so is every input when the
    hook is None)."""
    native: Callable[[ParseSettings], bool] | None = None
    """Whether, with these settings, C code that a damaged file could crash reads it:
    batch runs then convert even a single file in a worker."""

    @property
    def parser_module(self) -> str:
        return self.module or f".{self.name}"

    @property
    def is_text(self) -> bool:
        """Whether the source is text (it can be given as a string: `chunk_text`, a
        LlamaIndex node)."""
        return self.source_text is not None

    @property
    def raw_text(self) -> bool:
        """Whether the bytes already are the text a fixed-size splitter cuts (as the
        shared harness's `fixed_chars` does); other formats go through the parser first."""
        return self.is_text and not self.markup

    def reads_natively(self, settings: ParseSettings) -> bool:
        return self.native is not None and self.native(settings)


def _html_source(data: bytes) -> str:
    from .html.encoding import decode_html  # lxml only when HTML is asked for

    return decode_html(data)


def _markdown_stream(data: bytes, source: str, settings: ParseSettings) -> GrowingDocument | None:
    from .markdown import stream  # markdown-it only when Markdown is asked for

    return stream(data, source, settings)


def _pdfium(settings: ParseSettings) -> bool:
    return settings.pdf_engine == "pdfium"


_OOXML = "application/vnd.openxmlformats-officedocument."

FORMATS: dict[str, FormatSpec] = {
    spec.name: spec
    for spec in (
        FormatSpec(
            "markdown",
            (".md", ".markdown", ".mdown", ".mkd", ".mdx"),
            media_types=("text/markdown", "text/x-markdown"),
            source_text=decode_text,
            stream=_markdown_stream,
        ),
        FormatSpec("text", (".txt", ".text"), media_types=("text/plain",), source_text=decode_text),
        FormatSpec("pdf", (".pdf",), media_types=("application/pdf",), native=_pdfium),
        FormatSpec(
            "html",
            (".html", ".htm", ".xhtml"),
            media_types=("text/html", "application/xhtml+xml"),
            source_text=_html_source,
            markup=True,
        ),
        FormatSpec("epub", (".epub",), media_types=("application/epub+zip",)),
        FormatSpec(
            "docx",
            (".docx", ".docm", ".dotx"),
            media_types=(
                _OOXML + "wordprocessingml.document",
                _OOXML + "wordprocessingml.template",
                "application/vnd.ms-word.document.macroEnabled.12",
            ),
        ),
        FormatSpec(
            "pptx",
            (".pptx", ".pptm", ".ppsx", ".potx"),
            media_types=(
                _OOXML + "presentationml.presentation",
                "application/vnd.ms-powerpoint.presentation.macroEnabled.12",
                _OOXML + "presentationml.slideshow",
                _OOXML + "presentationml.template",
            ),
        ),
        FormatSpec(
            "xlsx",
            (".xlsx", ".xlsm", ".xltx"),
            media_types=(
                _OOXML + "spreadsheetml.sheet",
                "application/vnd.ms-excel.sheet.macroEnabled.12",
                _OOXML + "spreadsheetml.template",
            ),
        ),
    )
}
"""Every format, by name (`options.FormatName` lists the same names; a test holds them
equal)."""

EXTENSIONS: dict[str, str] = {
    ext: spec.name for spec in FORMATS.values() for ext in spec.extensions
}
"""The format of each file extension."""


def register(spec: FormatSpec) -> None:
    """Add a format (or replace the one of its name) for everything that reads the table:
    a format kept outside the package, or a test's. An extension is one format's only."""
    taken = [ext for ext in spec.extensions if EXTENSIONS.get(ext, spec.name) != spec.name]
    if taken:
        raise ValueError(f"{', '.join(taken)} already read as {EXTENSIONS[taken[0]]}")
    unregister(spec.name)
    FORMATS[spec.name] = spec
    EXTENSIONS.update(dict.fromkeys(spec.extensions, spec.name))


def unregister(name: str) -> None:
    """Take a format out of the table (nothing if it is not in it)."""
    spec = FORMATS.pop(name, None)
    for ext in spec.extensions if spec is not None else ():
        if EXTENSIONS.get(ext) == name:
            del EXTENSIONS[ext]


def format_of_media_type(media_type: str) -> str | None:
    """The format whose spec lists a MIME type."""
    return next((spec.name for spec in FORMATS.values() if media_type in spec.media_types), None)
