"""A zip written member by member, each from pieces, so a test can build a 1 GiB bomb or
200 000 members without holding them: only the central directory entries stay in memory.

`zipfile` cannot write what the hostile cases need — a member whose deflated data is
given ready-made, a declared size that lies, 200 000 members without 200 000 `ZipInfo`
objects — so the few records of the format (APPNOTE 4.3) are written here.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

_DEFLATED, _STORED = 8, 0
_MAX_16 = 0xFFFF


class ZipStream:
    """Write `add`ed members to `path`; the central directory is written on `close`."""

    def __init__(self, path: Path) -> None:
        self.file: BinaryIO = open(path, "wb")  # noqa: SIM115 (closed by `close`)
        self.central: list[bytes] = []

    def __enter__(self) -> ZipStream:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def add(self, name: str, data: bytes, deflate: bool = True) -> None:
        """One member from its bytes."""
        self.add_pieces(name, [data], deflate)

    def add_pieces(self, name: str, pieces: Iterable[bytes], deflate: bool = True) -> None:
        """One member from pieces, deflated as they come (its header is patched after)."""
        if not deflate:
            data = b"".join(pieces)
            self._write(name, _STORED, [data], lambda: (zlib.crc32(data), len(data)))
            return
        crc, size = 0, 0
        compressor = zlib.compressobj(1, zlib.DEFLATED, -15)  # fast: sizes, not ratios, matter

        def deflated() -> Iterator[bytes]:
            nonlocal crc, size
            for piece in pieces:
                crc = zlib.crc32(piece, crc)
                size += len(piece)
                yield compressor.compress(piece)
            yield compressor.flush()

        self._write(name, _DEFLATED, deflated(), lambda: (crc, size))

    def add_compressed(
        self, name: str, data: Iterable[bytes], crc: int, declared: int, method: int = _DEFLATED
    ) -> None:
        """A member whose compressed stream (raw deflate, or `method`'s) is given,
        declaring `declared` bytes uncompressed, true or not, and the CRC `crc`."""
        self._write(name, method, data, lambda: (crc, declared))

    def add_listing(self, name: str) -> None:
        """A directory entry `name` for the first member's data (no local header of its
        own): a directory that lists far more than the file holds."""
        first = self.central[0]
        encoded = name.encode()
        self.central.append(
            first[:28] + struct.pack("<HH", len(encoded), 0) + first[32:46] + encoded
        )

    def close(self) -> None:
        if self.file.closed:
            return
        start = self.file.tell()
        for entry in self.central:
            self.file.write(entry)
        end = self.file.tell()
        count = len(self.central)
        if count > _MAX_16:  # zip64 end record and its locator
            self.file.write(
                struct.pack(
                    "<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, end - start, start
                )
            )
            self.file.write(struct.pack("<IIQI", 0x07064B50, 0, end, 1))
        short = min(count, _MAX_16)
        self.file.write(
            struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, short, short, end - start, start, 0)
        )
        self.file.close()

    def _write(
        self,
        name: str,
        method: int,
        data: Iterable[bytes],
        header: Callable[[], tuple[int, int]],
    ) -> None:
        """Write one member; `header` gives its CRC and declared size once `data` is
        written."""
        encoded = name.encode()
        offset = self.file.tell()
        self.file.write(b"\0" * (30 + len(encoded)))  # the local header, patched below
        written = 0
        for piece in data:
            self.file.write(piece)
            written += len(piece)
        crc, declared = header()
        fields = (20, 0, method, 0, 0x21, crc, written, declared, len(encoded), 0)
        end = self.file.tell()
        self.file.seek(offset)
        self.file.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields) + encoded)
        self.file.seek(end)
        self.central.append(
            struct.pack("<IH", 0x02014B50, 20)
            + struct.pack("<HHHHHIIIHH", *fields)
            + struct.pack("<HHHII", 0, 0, 0, 0, offset)
            + encoded
        )
