"""Atomic file writes: an output is complete or absent, never half-written.

Every file structchunk writes (JSONL outputs, the manifest, the errors file, the HTML
report) goes to a temporary file in the target's directory that is renamed over the
target only when the block completes, so readers never see a partial file, even after
a crash.
"""

from __future__ import annotations

import errno
import io
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import IO

from ..errors import OutputError

OUTPUT_ERRNOS = frozenset(
    {
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EFBIG,
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
        errno.EISDIR,
        errno.ENOTDIR,
        errno.EEXIST,
    }
)
"""Write failures that are the destination's fault (full, read-only, in the way), not a
bug: reported as one line naming the output."""


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
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
    except OSError as error:
        if error.errno in OUTPUT_ERRNOS:
            raise output_error(target, error) from None
        raise
    os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get the usual mode
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(tmp)
        if isinstance(error, OSError) and error.errno in OUTPUT_ERRNOS:
            raise output_error(target, error) from None
        raise


TMP_SUFFIX = ".tmp"

_LEFTOVER = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")
"""The name `atomic_binary_writer` gives its temporary files: `.NAME.XXXXXXXX.tmp`."""


def remove_leftovers(folder: Path, recursive: bool = False, name: str = "") -> int:
    """Delete temporary files a killed run left in `folder` (its tree, if `recursive`;
    only those for outputs whose name starts with `name`, if given); returns how many.
    Only names of the writer's own pattern are touched."""
    if not folder.is_dir():
        return 0
    removed = 0
    for path in folder.rglob("*.tmp") if recursive else folder.glob(f".{name}*.tmp"):
        if _LEFTOVER.match(path.name) and path.is_file():
            with suppress(OSError):
                path.unlink()
                removed += 1
    return removed


def output_error(target: Path, error: OSError) -> OutputError:
    """One line naming the output."""
    return OutputError(f"cannot write {target}: {error.strerror or error}")
