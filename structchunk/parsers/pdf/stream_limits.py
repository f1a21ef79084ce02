"""Bounds on what one stream of a PDF may make an engine hold, kept before it is parsed.

PDFium inflates and parses in C, where Python cannot stop it half way: a 6 KB file whose
page inflates twice to 1 GiB, or a page of 4 million text objects, takes gigabytes and
minutes inside one call. So the file's bytes are bounded first, the same for both
engines, and each engine reads what is left:

- **Inflated size.** A stream whose Flate layers inflate past `inflate.MAX_INFLATED_BYTES`
  (per layer, the limit pdfplumber's own decoder keeps, inflate.py) is a decompression
  bomb: its data becomes an empty stream and a warning says so.
- **Text objects.** A stream showing text more than `MAX_TEXT_OBJECTS` times (the
  operators `Tj`, `TJ`, `'` and `"`; a dense page has a few thousand) is cut after
  that many; the rest of its page is left out, and the warning says how much.

Streams are found by their keyword after a dictionary (`>> stream`), not through the
cross-reference table, so a damaged file is bounded as well; a replacement is written
over the old data in the same number of bytes (an empty or shorter Flate stream, then
spaces), so every offset in the file still holds. Each stream is inflated in pieces
that are counted and dropped, never held whole. Image streams are not inflated: neither
engine decodes an image to read text.

What this does not see: streams of an encrypted file (their bytes are not Flate until
decrypted) and other filters (ASCII85, LZW). For those the per-file memory limit of a
run holds (docs/limits.md).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from . import inflate

MAX_TEXT_OBJECTS = 200_000
"""Text-showing operators one stream may hold. A page of a filing that sets each glyph
on its own holds about 2 500; PDFium keeps about 700 bytes per text object, so this
many cost it some 140 MB."""
_STREAM = re.compile(rb">>\s*stream(?:\r\n|\n|\r)")
_SHOWS = re.compile(rb"T[jJ]|['\"]")
_OPERATORS = (b"Tj", b"TJ", b"'", b'"')
_OBJECT = re.compile(rb"(\d+)\s+\d+\s+obj\b")
_IMAGE = re.compile(rb"/Subtype\s*/Image\b")
_DICTIONARY_REACH = 4096
"""Bytes before a stream searched for its `obj` keyword and dictionary."""
_IN = 1 << 16
"""Compressed bytes fed to the inflater at a time."""
_OUT = 1 << 20
"""The most inflated bytes held at a time."""
_MAX_LAYERS = 8


class _Bomb(Exception):
    """A layer inflated past the limit."""


@dataclass
class _Span:
    """Where a stream's data lies, and how its Flate layers read it."""

    start: int
    end: int
    """Where `endstream` begins (a Flate stream's data may end before)."""
    layers: int = 0


def _zlib_header(head: bytes) -> bool:
    return len(head) >= 2 and head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0


def _inflated(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """One Flate layer over `pieces`, in pieces of at most `_OUT` bytes; `_Bomb` past
    the limit. It ends where the Flate data ends or turns bad (PDFium, too, keeps what
    inflated before the damage)."""
    inflater = zlib.decompressobj()
    size = 0
    try:
        for piece in pieces:
            while piece and not inflater.eof:
                out = inflater.decompress(piece, _OUT)
                piece = inflater.unconsumed_tail
                size += len(out)
                if size > inflate.MAX_INFLATED_BYTES:
                    raise _Bomb
                if out:
                    yield out
            if inflater.eof:
                break
    except zlib.error:
        pass


def _content(data: bytes, span: _Span) -> Iterator[bytes]:
    """The stream's content in pieces: through each Flate layer it has (known by the
    zlib header each layer's output starts with), or its raw bytes."""
    if not _zlib_header(data[span.start : span.start + 2]):
        return (data[i : min(i + _OUT, span.end)] for i in range(span.start, span.end, _OUT))
    source = (data[i : i + _IN] for i in range(span.start, len(data), _IN))
    pieces = _inflated(source)
    span.layers = 1
    while span.layers < _MAX_LAYERS:
        first = next(pieces, b"")
        pieces = _chain(first, pieces)
        if not _zlib_header(first[:2]):
            break
        pieces = _inflated(pieces)
        span.layers += 1
    return pieces


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


def _raw_end(data: bytes, start: int) -> int:
    end = data.find(b"endstream", start)
    return len(data) if end < 0 else end


@dataclass(frozen=True)
class _Finding:
    """A stream to rewrite: its span, how much of its content to keep, and why."""

    span: _Span
    keep: int
    warning: str


def _count_shows(data: bytes, span: _Span) -> tuple[int, int]:
    """Text-showing operators in the stream, and where (in its content) the first one
    past `MAX_TEXT_OBJECTS` begins: the cut (-1 when there is none). Its operands stay
    before the cut, where a parser drops them unused."""
    shows, done, cut, tail = 0, 0, -1, b""
    for piece in _content(data, span):
        window = tail + piece
        found = sum(window.count(operator) for operator in _OPERATORS)
        if cut < 0 and shows + found > MAX_TEXT_OBJECTS:
            match = next(
                m for i, m in enumerate(_SHOWS.finditer(window), shows + 1) if i > MAX_TEXT_OBJECTS
            )
            cut = done - len(tail) + match.start()
        shows += found
        done += len(piece)
        tail = piece[-1:] if piece[-1:] == b"T" else b""  # a `Tj` cut between pieces
    return shows, cut


def _finding(data: bytes, at: int) -> _Finding | None:
    """What a stream whose data starts at `at` needs, if anything."""
    span = _Span(at, _raw_end(data, at))
    try:
        shows, cut = _count_shows(data, span)
    except _Bomb:
        limit = inflate.MAX_INFLATED_BYTES >> 20
        reason = f"inflates past {limit} MB (a decompression bomb?); its content was left out"
        return _Finding(span, 0, f"{_name(data, at)} {reason}")
    if cut < 0:
        return None
    return _Finding(
        span,
        cut,
        f"{_name(data, at)} shows text {shows:,} times; only the first "
        f"{MAX_TEXT_OBJECTS:,} were read and the rest of its page was left out",
    )


def _name(data: bytes, at: int) -> str:
    """The stream as a warning names it: by its object number, else where it is."""
    numbers = _OBJECT.findall(data, max(0, at - _DICTIONARY_REACH), at)
    return f"a stream (object {int(numbers[-1])})" if numbers else f"a stream (at byte {at})"


def _is_image(data: bytes, at: int) -> bool:
    """Whether the dictionary before the stream at `at` makes it an image."""
    head = data[max(0, at - _DICTIONARY_REACH) : at]
    opens = head.rfind(b"obj")
    return _IMAGE.search(head, opens + 1 if opens >= 0 else 0) is not None


def _replacement(data: bytes, finding: _Finding) -> bytes:
    """What to write over the stream's data: its first `keep` content bytes, in as many
    Flate layers as before, padded with spaces to the old length (or an empty stream
    when the kept part does not fit)."""
    span = finding.span
    length = span.end - span.start
    if span.layers:
        content = _take(_content(data, _Span(span.start, span.end)), finding.keep)
        empty = iter(())
        kept = _packed(content, span.layers, length) or _packed(empty, span.layers, length) or b""
    else:
        kept = data[span.start : span.start + finding.keep]
    return kept + b" " * (length - len(kept))


def _take(pieces: Iterator[bytes], count: int) -> Iterator[bytes]:
    """The first `count` bytes of `pieces`."""
    for piece in pieces:
        if count <= 0:
            return
        yield piece[:count]
        count -= len(piece)


def _packed(pieces: Iterator[bytes], layers: int, room: int) -> bytes | None:
    """`pieces` Flate-compressed `layers` times, or None past `room` bytes."""
    packers = [zlib.compressobj(9) for _ in range(layers)]
    out = bytearray()

    def push(piece: bytes, flush: bool) -> bool:
        for packer in packers:
            piece = packer.compress(piece) + (packer.flush() if flush else b"")
        out.extend(piece)
        return len(out) <= room

    for piece in pieces:
        if not push(piece, False):
            return None
    return bytes(out) if push(b"", True) else None


def bound_streams(data: bytes) -> tuple[bytes, list[str]]:
    """The PDF's bytes with every stream within the bounds (the same object when all
    are), and a warning for each one that was not."""
    findings = [
        finding
        for match in _STREAM.finditer(data)
        if not _is_image(data, match.start())
        and (finding := _finding(data, match.end())) is not None
    ]
    if not findings:
        return data, []
    bounded = bytearray(data)
    for finding in findings:
        bounded[finding.span.start : finding.span.end] = _replacement(data, finding)
    return bytes(bounded), [finding.warning for finding in findings]
