"""Bytes to text for text formats (Markdown, plain text): BOM, UTF-8, then Windows-1252.

Binary data (an image or a PDF named `.md`) is refused with a clear error instead of
being chunked as mojibake.
"""

from __future__ import annotations

import codecs

from ..errors import ParseError

BINARY_SAMPLE_BYTES = 8192
BINARY_CONTROL_SHARE = 0.10
"""More than this share of control bytes (other than tab, newline, CR, form feed) in the
first kilobytes means binary data; real text files with stray NULs stay far below it."""

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_BINARY_CONTROLS = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def _looks_binary(data: bytes) -> bool:
    sample = data[:BINARY_SAMPLE_BYTES]
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(None, _BINARY_CONTROLS))
    return controls / len(sample) > BINARY_CONTROL_SHARE


def decode_text(data: bytes) -> str:
    """Decode text bytes; newlines normalised to `\\n`, NUL to U+FFFD (as CommonMark does)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data[len(bom):].decode(encoding, errors="replace")
            break
    else:
        if _looks_binary(data):
            raise ParseError("binary data, not text (wrong extension? use --format)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")
