"""The `structchunk` command group: `convert`, `inspect`, `eval`, `schema`, `--version`."""

from __future__ import annotations

import json
import logging
import os
from typing import Any

import click

from .. import __version__
from ..batch.logs import configure_logging
from ..records import chunk_schema
from ..tokenizers.downloads import ALLOW_DOWNLOAD_VAR
from .convert import convert
from .evaluate import eval_command
from .inspect import inspect_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="structchunk")
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
@click.option(
    "--allow-download",
    is_flag=True,
    help="Let tiktoken:/hf: tokenizers download their vocabularies (default: offline; "
    f"also ${ALLOW_DOWNLOAD_VAR}=1).",
)
def cli(verbose: int, allow_download: bool) -> None:
    """Structure-aware document chunking for RAG: Markdown, HTML, PDF and text into
    heading-prefixed, budgeted JSONL chunks."""
    if allow_download:  # the environment reaches worker processes too
        os.environ[ALLOW_DOWNLOAD_VAR] = "1"
    level = logging.WARNING - 10 * verbose
    configure_logging(max(level, logging.DEBUG))


@cli.command()
def schema() -> None:
    """Print the JSON Schema of a chunk record."""
    click.echo(json.dumps(chunk_schema(), indent=2))


cli.add_command(convert)
cli.add_command(inspect_command)
cli.add_command(eval_command)


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="structchunk")
