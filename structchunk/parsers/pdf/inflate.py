"""A bound on what one compressed PDF stream may inflate to (decompression bombs).

pdfminer inflates each Flate stream whole, so a few KB of nested Flate layers become
gigabytes in memory before any text is seen. It looks `zlib` and
`decompress_corrupted` up in its `pdftypes` module when it decodes a stream, so
`install()` gives it a `zlib` whose `decompress` stops past `MAX_INFLATED_BYTES` and a
`decompress_corrupted` that is linear (pdfminer's own re-joins its output byte by
byte, quadratic in the stream's size) and bounded the same way.

A stream over the limit raises `StreamTooLarge`; the page reader then skips that page
with a warning naming the reason, and the rest of the document is read as usual.
"""

from __future__ import annotations

import logging
import types
import zlib

from ...errors import ParseError

log = logging.getLogger("structchunk")

MAX_INFLATED_BYTES = 256 << 20
"""The most one stream may inflate to, per Flate layer. Page content streams of real
documents stay far below (the corpus's largest: a few MB); set this module attribute
to read a document with larger ones."""
_FIRST_PIECE = 16 << 20
"""Inflated bytes kept from a stream's first step; larger streams are measured first."""
_BLOCK = 1 << 16
"""Input bytes inflated at a time when a damaged stream's bad byte must be found."""
_CHECKSUM_BYTES = 3
"""A damaged stream is kept when only its last bytes (the checksum) are bad, as
pdfminer keeps it."""


class StreamTooLarge(ParseError):
    """A compressed stream inflates past `MAX_INFLATED_BYTES`."""


def _too_large() -> StreamTooLarge:
    return StreamTooLarge(
        f"a compressed stream inflates past {MAX_INFLATED_BYTES >> 20} MB (a decompression bomb?)"
    )


def _inflate_part(inflater: zlib._Decompress, data: bytes, out: bytearray) -> None:
    """Inflate `data` into `out`; StreamTooLarge past the limit."""
    out += inflater.decompress(data, MAX_INFLATED_BYTES + 1 - len(out))
    if len(out) > MAX_INFLATED_BYTES:
        raise _too_large()


def decompress(data: bytes) -> bytes:
    """`zlib.decompress(data)`, bounded: zlib.error on a damaged or truncated stream.

    A stream that is not done after `_FIRST_PIECE` is measured piece by piece, pieces
    dropped, before it is inflated whole, so a bomb never holds more than one piece.
    """
    inflater = zlib.decompressobj()
    piece = min(_FIRST_PIECE, MAX_INFLATED_BYTES + 1)
    out = inflater.decompress(data, piece)  # the common case ends here
    size = len(out)
    while not inflater.eof and inflater.unconsumed_tail:
        size += len(inflater.decompress(inflater.unconsumed_tail, piece))
        if size > MAX_INFLATED_BYTES:
            raise _too_large()
    if not inflater.eof:
        raise zlib.error("Error -5 while decompressing data: incomplete or truncated stream")
    return out if size == len(out) else zlib.decompress(data)


def decompress_corrupted(data: bytes) -> bytes:
    """What a damaged stream inflates to up to its bad byte (pdfminer's fallback).

    Raises zlib.error unless the damage is in the checksum at the very end.
    """
    inflater = zlib.decompressobj()
    out = bytearray()
    for start in range(0, len(data), _BLOCK):
        if inflater.eof:
            break
        saved = inflater.copy()
        try:
            _inflate_part(inflater, data[start : start + _BLOCK], out)
            continue
        except zlib.error:
            inflater = saved
        for offset in range(start, min(start + _BLOCK, len(data))):
            try:
                _inflate_part(inflater, data[offset : offset + 1], out)
            except zlib.error:
                if offset < len(data) - _CHECKSUM_BYTES:
                    raise
                log.debug("a stream's checksum is damaged; its content is kept")
                return bytes(out)
    return bytes(out)


_BOUNDED_ZLIB = types.SimpleNamespace(
    decompress=decompress, decompressobj=zlib.decompressobj, error=zlib.error
)


def install() -> None:
    """Bound pdfminer's stream decoding (idempotent; a pdfminer without these names is
    left as it is, and the test suite says so)."""
    from pdfminer import pdftypes

    if hasattr(pdftypes, "zlib") and hasattr(pdftypes, "decompress_corrupted"):
        pdftypes.zlib = _BOUNDED_ZLIB
        pdftypes.decompress_corrupted = decompress_corrupted
