"""One run at a time per output folder: an advisory lock file held for the whole run.

Two runs into one `--out-dir` would delete each other's temporary files (each removes
what a killed run left) and race on the manifest; the second one fails at once instead,
naming the first. The lock is the kernel's (`flock`), so it ends with the process that
holds it, however it ends: a `kill -9` leaves no stale lock to clean up. The same lock
marks a scratch folder as in use, so a later run can tell an abandoned one (its run was
killed) from a live one and remove it.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import OutputLockedError
from .atomic import OUTPUT_ERRNOS, output_error

log = logging.getLogger("structchunk")

LOCK_NAME = ".structchunk-lock"


@contextlib.contextmanager
def holding(folder: Path, label: str) -> Iterator[None]:
    """Hold `folder`'s lock for the block; `OutputLockedError` naming `label` (what the
    user asked to write) and the holder when another run has it."""
    fd = _open(folder)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputLockedError(
                f"{label}: another structchunk run is writing there ({_holder(fd)}); "
                "wait for it to finish, or write elsewhere"
            ) from None
        except OSError as error:  # a file system without locks: run, as before locks
            log.warning("%s: cannot be locked (%s)", folder, error.strerror or error)
        os.ftruncate(fd, 0)
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}, {started} UTC\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def _open(folder: Path) -> int:
    path = folder / LOCK_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as error:
        if error.errno in OUTPUT_ERRNOS:
            raise output_error(folder, error) from None
        raise


def _holder(fd: int) -> str:
    """What the holding run wrote in the lock file: its pid, host and start time."""
    with contextlib.suppress(OSError):
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
        if text:
            return text
    return "it has not said which yet"


def remove_abandoned(parent: Path, prefix: str) -> int:
    """Remove the folders `prefix*` in `parent` whose run is gone (their lock file is
    free and names its run); returns how many. A folder whose lock file is missing or
    empty may be one whose run is starting (between creating and locking it), and is
    left alone."""
    removed = 0
    for folder in parent.glob(f"{prefix}*"):
        try:
            fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if not os.pread(fd, 1, 0):
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # held: its run is alive
        finally:
            os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed
