"""How structchunk's log lines look on stderr, set up the same way in the CLI and in every
batch worker process, so a warning reads the same whichever process met it."""

from __future__ import annotations

import logging
import sys

LOG_FORMAT = "structchunk: %(levelname)s: %(message)s"


def configure_logging(level: int, replace: bool = False) -> None:
    """structchunk's log lines on stderr at `level`; `replace` drops the handlers a
    forked worker inherited (the CLI's, which redraw its progress bars)."""
    logging.basicConfig(level=level, stream=sys.stderr, format=LOG_FORMAT, force=replace)
