"""How structchunk's log lines look on stderr, set up the same way in the CLI and in every
batch worker process, so a warning reads the same whichever process met it."""

from __future__ import annotations

import logging
import sys

LOG_FORMAT = "structchunk: %(levelname)s: %(message)s"


def configure_logging(level: int) -> None:
    """structchunk's log lines on stderr at `level` (a spawned worker starts with none)."""
    logging.basicConfig(level=level, stream=sys.stderr, format=LOG_FORMAT)
