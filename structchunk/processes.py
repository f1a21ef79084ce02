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
