"""Atomic file writes: an output is complete or absent, never half-written.

Every file structchunk writes (JSONL outputs, the manifest, the errors file, the HTML
report) goes to a temporary file in the target's directory that is renamed over the
target only when the block completes, so readers never see a partial file, even after
a crash.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import IO


@lru_cache(maxsize=1)
def _umask() -> int:
    """The process umask (read once: reading it means setting it, which races threads)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """A UTF-8 text handle whose content replaces `path` only if the block completes."""
    with atomic_binary_writer(path) as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
        try:
            yield handle
            handle.flush()
        finally:
            handle.detach()  # the binary writer closes the file, after fsync


@contextmanager
def atomic_binary_writer(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary handle whose content replaces `path` only if the block completes.

    Writes to a temporary file in the same directory and renames it over `path`, so
    readers never see a half-written JSONL, even after a crash.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get the usual mode
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
