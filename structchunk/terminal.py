"""What structchunk prints on stderr: one-line errors, log lines, the exit for bad usage."""

from __future__ import annotations

import logging
import sys
from typing import NoReturn

import click

USAGE_EXIT_CODE = 2
LOG_FORMAT = "structchunk: %(levelname)s: %(message)s"


def configure_logging(level: int) -> None:
    """structchunk's log lines on stderr — in the CLI and in its batch worker processes,
    so a warning reads the same whichever process met it."""
    logging.basicConfig(level=level, stream=sys.stderr, format=LOG_FORMAT)


def echo_error(message: str) -> None:
    click.echo(f"structchunk: error: {message}", err=True)


def exit_usage(message: str) -> NoReturn:
    """One line and exit code 2 — for options or resources that cannot work, where click's
    usage banner would only bury the message."""
    echo_error(message)
    raise click.exceptions.Exit(USAGE_EXIT_CODE)
