"""Bytes to text for text formats (Markdown, plain text): BOM, UTF-8, then Windows-1252.

Binary data (an image or a PDF named `.md`) is refused with a clear error instead of
being chunked as mojibake.
"""

from __future__ import annotations

import codecs

from ..errors import OPTION_SLOT, OptionHint, ParseError

BINARY_SAMPLE_BYTES = 8192
BINARY_CONTROL_SHARE = 0.10
"""More than this share of control bytes (other than tab, newline, CR, form feed) in the
first kilobytes means binary data; real text files with stray NULs stay far below it
(random bytes have about 11 %)."""
BINARY_CONTROL_SHARE_NOT_UTF8 = 0.005
"""Bytes that are not UTF-8 either are binary from a much lower share: legacy 8-bit text
(Windows-1252, Latin-1) has no control bytes at all."""

BINARY_MESSAGE = f"binary data, not text (wrong extension? use {OPTION_SLOT})"

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_BINARY_CONTROLS = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def _control_share(data: bytes) -> float:
    sample = data[:BINARY_SAMPLE_BYTES]
    if not sample:
        return 0.0
    return (len(sample) - len(sample.translate(None, _BINARY_CONTROLS))) / len(sample)


def bom_text(data: bytes) -> str | None:
    """The text of bytes that start with a Unicode byte order mark, else None."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace")
    return None


def decode_text(data: bytes) -> str:
    """Decode text bytes; newlines normalised to `\\n`, NUL to U+FFFD (as CommonMark does)."""
    text = bom_text(data)
    if text is None:
        controls = _control_share(data)
        if controls > BINARY_CONTROL_SHARE:
            raise ParseError(BINARY_MESSAGE, hint=OptionHint("format"))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if controls > BINARY_CONTROL_SHARE_NOT_UTF8:
                raise ParseError(BINARY_MESSAGE, hint=OptionHint("format")) from None
            text = data.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")
