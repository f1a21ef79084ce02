"""The `structchunk` command group: `convert`, `inspect`, `eval`, `schema`, `--version`.

Each command's module is imported only when that command runs (or help lists it), so
`structchunk --version` starts in a blink and `convert` does not load what `eval` and
`inspect` need."""

from __future__ import annotations

import importlib
import json
import logging
import os
from typing import Any

import click

from .. import __version__
from ..tokenizers.downloads import ALLOW_DOWNLOAD_VAR

COMMANDS: dict[str, tuple[str, str]] = {
    "convert": ("convert", "convert"),
    "eval": ("evaluate", "eval_command"),
    "inspect": ("inspect", "inspect_command"),
}
"""Command name → (module in this package, the click command in it)."""


class LazyGroup(click.Group):
    """A group whose commands listed in `COMMANDS` are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module, attribute = COMMANDS[cmd_name]
            command: click.Command = getattr(
                importlib.import_module(f".{module}", __package__), attribute
            )
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="structchunk")
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
@click.option(
    "--allow-download",
    is_flag=True,
    help="Let tiktoken:/hf: tokenizers download their vocabularies (default: offline; "
    f"also ${ALLOW_DOWNLOAD_VAR}=1).",
)
def cli(verbose: int, allow_download: bool) -> None:
    """Structure-aware document chunking for RAG: Markdown, HTML, PDF, Word,
    PowerPoint, Excel, EPUB and text into heading-prefixed, budgeted JSONL chunks."""
    from ..batch.logs import configure_logging

    if allow_download:  # the environment reaches worker processes too
        os.environ[ALLOW_DOWNLOAD_VAR] = "1"
    level = logging.WARNING - 10 * verbose
    configure_logging(max(level, logging.DEBUG))


@cli.command()
@click.option(
    "--record",
    type=click.Choice(["chunk", "parent"]),
    default="chunk",
    show_default=True,
    help="Which record: a chunk, or a parent record (written with --parents).",
)
def schema(record: str) -> None:
    """Print the JSON Schema of a chunk record (or of a parent record)."""
    from ..records import chunk_schema, parent_schema

    click.echo(json.dumps(chunk_schema() if record == "chunk" else parent_schema(), indent=2))


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="structchunk")
