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
import secrets
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import IO

from ..errors import DestinationError, OutputError

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
        errno.ENOENT,
    }
)
"""Write failures that are the destination's fault (full, read-only, in the way), not a
bug: reported as one line naming the output. (ENOENT: the folder or the temporary file
was removed from under the writer.)"""
DESTINATION_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})
"""Of those, the ones that say every other output there would fail too."""


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
    readers never see a half-written JSONL, even after a crash. Where Linux allows, the
    temporary file has no name until it is complete (`O_TMPFILE`), so a run killed
    mid-write (`kill -9`, the OOM killer) leaves nothing behind at all. A device or a
    pipe (`/dev/null`, `/dev/stdout`) is written in place: it cannot be renamed over.
    """
    target = Path(path)
    if is_special_file(target):
        with _in_place(target) as handle:
            yield handle
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temporary(target)
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
            tmp = _name(handle.fileno(), tmp, target)
            os.replace(tmp, target)
    except BaseException as error:
        if tmp is not None:
            with suppress(OSError):
                os.unlink(tmp)
        if isinstance(error, OSError) and error.errno in OUTPUT_ERRNOS:
            raise output_error(target, error) from None
        raise


def is_special_file(path: Path) -> bool:
    """Whether `path` exists and is neither a regular file nor a folder (a device, a
    pipe, a socket): something to write to, never to replace."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def _in_place(target: Path) -> Iterator[IO[bytes]]:
    try:
        with open(target, "wb") as handle:
            yield handle
    except OSError as error:
        if error.errno in OUTPUT_ERRNOS:
            raise output_error(target, error) from None
        raise


_PROC_FD = Path("/proc/self/fd")


def _temporary(target: Path) -> tuple[int, str | None]:
    """An open temporary file in `target`'s folder, and its name (None: it has none yet)."""
    unnamed = getattr(os, "O_TMPFILE", 0)
    if unnamed and _PROC_FD.is_dir():  # /proc gives it a name when it is complete
        try:
            return os.open(target.parent, unnamed | os.O_RDWR | os.O_CLOEXEC, 0o600), None
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise  # else a file system without O_TMPFILE (NFS, some FUSE): a named one
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
    return fd, tmp


def _name(fd: int, tmp: str | None, target: Path) -> str:
    """The temporary file's name, giving the unnamed one a name beside `target` (it can
    only be linked under a new name, then renamed over the old file)."""
    if tmp is not None:
        return tmp
    folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        while tmp is None:
            name = f".{target.name}.{secrets.token_hex(4)}{TMP_SUFFIX}"
            with suppress(FileExistsError):  # a folder fd makes it linkat, which follows
                os.link(_PROC_FD / str(fd), name, dst_dir_fd=folder, follow_symlinks=True)
                tmp = str(target.parent / name)
    except OSError:  # /proc refuses the link (a sandbox): copy it to a named file
        return _copied(fd, target)
    finally:
        os.close(folder)
    return tmp


def _copied(fd: int, target: Path) -> str:
    """A named temporary copy of the unnamed file `fd`, written to disk."""
    copy, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(copy, "wb") as handle:
            offset = 0
            while block := os.pread(fd, COPY_BLOCK, offset):
                handle.write(block)
                offset += len(block)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


COPY_BLOCK = 1 << 20


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
    """One line naming the output; a `DestinationError` when the whole location is at
    fault (full, over quota, read-only), which ends a batch run."""
    kind = DestinationError if error.errno in DESTINATION_ERRNOS else OutputError
    blocker = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:  # mkdir's "File exists" would not say which
        return kind(f"cannot write {target}: {blocker} is a file, not a folder")
    return kind(f"cannot write {target}: {error.strerror or error}")
