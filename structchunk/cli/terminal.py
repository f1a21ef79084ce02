"""What structchunk prints on stderr: one-line errors and the exit for bad usage."""

from __future__ import annotations

from typing import NoReturn

import click

from ..errors import StructChunkError
from ..options import as_flag
from ..records import printable_path

EXIT_INPUT_FAILED = 1
"""Some input could not be read or chunked (its error was printed; the others were used)."""
USAGE_EXIT_CODE = 2


def echo_error(message: str | StructChunkError) -> None:
    """One line on stderr; an error names the option that fixes it as a flag."""
    if isinstance(message, StructChunkError):
        message = message.in_terms(as_flag)
    click.echo(f"structchunk: error: {printable_path(message)}", err=True)


def exit_usage(message: str | StructChunkError) -> NoReturn:
    """One line and exit code 2 — for options or resources that cannot work, where click's
    usage banner would only bury the message."""
    echo_error(message)
    raise click.exceptions.Exit(USAGE_EXIT_CODE)
