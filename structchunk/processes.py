"""How structchunk starts helper processes (batch workers, a large PDF's page readers)."""

from __future__ import annotations

import multiprocessing
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.context import ForkContext, SpawnContext


def start_context() -> ForkContext | SpawnContext:
    """`fork` (no start-up cost) when this process has no other thread to break; else
    `spawn`, the only safe choice in a threaded host (a web server, a Ray worker)."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this helper process when its parent (pid `parent`, taken in
    the parent before the start) dies (Linux).

    A forked helper holds copies of its parent's pipe ends, so it would never see the
    end of its input and would wait forever after the parent was killed (kill -9, the
    OOM killer, a CI timeout). Elsewhere helpers are spawned, hold only their own end,
    and stop when it closes.
    """
    if sys.platform != "linux":
        return
    import ctypes
    import os
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the request was made: we were adopted
        os._exit(1)
