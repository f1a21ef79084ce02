"""Bytes of an HTML page to text: BOM, `<meta charset>`, HTTP-equiv meta, then detection.

Follows the order a browser uses (the WHATWG encoding sniffing steps, simplified): a
byte-order mark wins; then a charset declared in a `<meta>` tag near the top; then a
guess from the bytes (UTF-16 without BOM, UTF-8, the common Japanese and Chinese
multi-byte encodings, and Windows-1252 as the web's fallback). Undecodable bytes become
U+FFFD instead of an error; binary data is refused with a one-line `ParseError`.
"""

from __future__ import annotations

import codecs
import re

from ...errors import OPTION_SLOT, OptionHint, ParseError
from ..decode import bom_text

DEFAULT_PRESCAN_BYTES = 16384
"""How far to look for a `<meta charset>`. The WHATWG prescan reads 1024 bytes; real pages
put long `<script>` blocks before their meta tag, so we look further (cost: one regex)."""

DEFAULT_SNIFF_BYTES = 262144
"""Bytes examined when guessing an undeclared legacy encoding (the whole page is decoded
with the winner)."""

DEFAULT_BINARY_CONTROL_SHARE = 0.05
"""Share of C0 control bytes (other than tab, newline, form feed, CR, ESC) above which a
page is binary. Text has almost none; uniformly random bytes have 27/256 ≈ 10.5 %."""

DEFAULT_CJK_MIN_SHARE = 0.9
"""A multi-byte candidate must decode the sample without error and turn at least this
share of its non-ASCII characters into characters of its own script."""

DEFAULT_KANA_MIN_SHARE = 0.05
"""Japanese prose is rich in kana (particles, endings): Japanese candidates need at least
this share of kana among non-ASCII characters, which Chinese text decoded as Japanese
never reaches."""

_MAGIC = (
    b"%PDF-",
    b"\x89PNG",
    b"GIF87a",
    b"GIF89a",
    b"\xff\xd8\xff",
    b"PK\x03\x04",
    b"\x1f\x8b",
    b"\x7fELF",
    b"BZh",
    b"\xfd7zXZ",
    b"7z\xbc\xaf",
)
"""Signatures of common binary formats (PDF, images, archives, executables)."""

_META_CHARSET = re.compile(rb"<meta\b[^>]*?\bcharset\s*=\s*[\"']?\s*([-\w.:]+)", re.I)
_XML_DECLARATION = re.compile(rb"^\s*<\?xml\b[^>]*?\bencoding\s*=\s*[\"']([-\w.:]+)")
"""XHTML files may declare their encoding only in the XML declaration."""
_META_HTTP_EQUIV = re.compile(
    rb"<meta\b(?=[^>]*http-equiv\s*=\s*[\"']?\s*content-type)[^>]*?\bcontent\s*=\s*"
    rb"[\"']?[^\"'>]*?charset\s*=\s*[\"']?\s*([-\w.:]+)",
    re.I,
)

_LABEL_OVERRIDES = {
    # WHATWG maps these labels onto wider encodings, and so do browsers.
    "ascii": "cp1252",
    "us-ascii": "cp1252",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "iso8859-1": "cp1252",
    "l1": "cp1252",
    "x-user-defined": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "ms_kanji": "cp932",
    "euc-kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "big5": "big5hkscs",
    "tis-620": "cp874",
    "iso-8859-11": "cp874",
    # A page can only say "UTF-16" in a meta tag if it is ASCII-compatible: WHATWG reads UTF-8.
    "utf-16": "utf-8",
    "utf-16le": "utf-8",
    "utf-16be": "utf-8",
}

_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


def _normalise_label(label: bytes) -> str | None:
    """A Python codec name for a declared charset label, or None if unknown."""
    name = label.decode("ascii", "ignore").strip().lower()
    name = _LABEL_OVERRIDES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def declared_encoding(data: bytes) -> str | None:
    """The encoding a `<meta charset>`, an HTTP-equiv Content-Type meta or (XHTML) the
    XML declaration declares."""
    head = data[:DEFAULT_PRESCAN_BYTES]
    for pattern in (_META_CHARSET, _META_HTTP_EQUIV, _XML_DECLARATION):
        match = pattern.search(head)
        if match:
            encoding = _normalise_label(match.group(1))
            if encoding:
                return encoding
    return None


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 of mostly-ASCII markup shows as NUL in every other byte."""
    sample = data[:1024]
    half = len(sample) // 2
    if half < 8:
        return None
    even_nuls = sample[0::2].count(0)
    odd_nuls = sample[1::2].count(0)
    if odd_nuls > 0.4 * half and even_nuls < 0.05 * half:
        return "utf-16-le"
    if even_nuls > 0.4 * half and odd_nuls < 0.05 * half:
        return "utf-16-be"
    return None


def looks_binary(data: bytes) -> bool:
    """Known binary signatures, or too many control bytes for any text."""
    if data.startswith(_MAGIC):
        return True
    sample = data[:8192]
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls / len(sample) > DEFAULT_BINARY_CONTROL_SHARE


def _script_shares(text: str) -> tuple[float, float]:
    """(share of CJK-script characters, share of kana) among the non-ASCII characters."""
    total = cjk = kana = 0
    for ch in text:
        code = ord(ch)
        if code < 128:
            continue
        total += 1
        if 0x3040 <= code <= 0x30FF:  # hiragana, katakana
            kana += 1
            cjk += 1
        elif (
            0x4E00 <= code <= 0x9FFF
            or 0x3000 <= code <= 0x303F
            or 0xFF01 <= code <= 0xFF5E
            or 0x2010 <= code <= 0x2027
            or code in (0xA7, 0xB7, 0xD7, 0xF7)
        ):
            cjk += 1
    if not total:
        return 0.0, 0.0
    return cjk / total, kana / total


_CJK_CANDIDATES = (("cp932", True), ("euc_jp", True), ("gb18030", False), ("big5hkscs", False))
"""(codec, is Japanese) in the order tried; Japanese first, since kana settle it."""


def _guess_legacy(sample: bytes) -> str:
    """The most plausible legacy encoding of non-UTF-8 bytes; Windows-1252 if no CJK fits."""
    for encoding, japanese in _CJK_CANDIDATES:
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            text = decoder.decode(sample, final=False)
        except UnicodeDecodeError:
            continue
        script, kana = _script_shares(text)
        if script >= DEFAULT_CJK_MIN_SHARE and (not japanese or kana >= DEFAULT_KANA_MIN_SHARE):
            return encoding
    return "cp1252"


def sniff_encoding(data: bytes) -> str:
    """The encoding to decode `data` with (BOM-less input; BOMs are handled by the caller)."""
    utf16 = _utf16_without_bom(data)
    if utf16:
        return utf16
    if looks_binary(data):
        raise ParseError(
            f"binary data, not HTML (wrong extension? use {OPTION_SLOT})", hint=OptionHint("format")
        )
    declared = declared_encoding(data)
    if declared:
        return declared
    sample = data[:DEFAULT_SNIFF_BYTES]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
    except UnicodeDecodeError:
        return _guess_legacy(sample)
    return "utf-8"


def _decode(data: bytes) -> tuple[str, str]:
    """The page's text, and the encoding it was read with ("bom" after a byte-order mark)."""
    text = bom_text(data)
    encoding = "bom"
    if text is None:
        encoding = sniff_encoding(data)
        text = data.decode(encoding, errors="replace")
    return text.replace("\x00", "\ufffd"), encoding


def decode_html(data: bytes) -> str:
    """Decode an HTML page's bytes to text; NUL becomes U+FFFD as in browsers."""
    return _decode(data)[0]


def decode_for_parsing(data: bytes) -> tuple[str, bytes]:
    """The page's text (`decode_html`), and that text as UTF-8 for the parser: the
    page's own bytes when they already are exactly that (valid UTF-8 without BOM or NUL,
    the common case: no copy of a large page)."""
    text, encoding = _decode(data)
    if encoding == "utf-8" and "\ufffd" not in text:
        return text, data
    return text, text.encode("utf-8")
