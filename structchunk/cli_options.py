"""The chunking flags shared by `convert`, `inspect` and `eval`, and their mapping onto
one `ChunkOptions` (checked before any file is read)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from .api import resolve_options
from .errors import StructChunkError
from .options import DEFAULT_MAX_TOKENS, ChunkOptions
from .parsers import FORMATS
from .sentences import get_segmenter
from .terminal import exit_usage
from .tokenizers import get_tokenizer

F = TypeVar("F", bound=Callable[..., Any])

CHUNKING_FLAGS = (
    "max_tokens",
    "min_tokens",
    "overlap_tokens",
    "tokenizer",
    "format_",
    "no_heading_prefix",
    "sentence_model",
    "password",
)
"""The parameter names `chunking_options` adds to a command."""


def chunking_options(command: F) -> F:
    """Add the chunking flags, with the same names, defaults and meanings everywhere."""
    decorators = [
        click.option(
            "--max-tokens",
            type=int,
            default=DEFAULT_MAX_TOKENS,
            show_default=True,
            help="Token budget per chunk, heading prefix included.",
        ),
        click.option(
            "--min-tokens",
            type=int,
            default=0,
            show_default=True,
            help="Merge smaller chunks into a neighbour in the same section.",
        ),
        click.option(
            "--overlap-tokens",
            type=int,
            default=0,
            show_default=True,
            help="Repeat up to this many tokens of trailing sentences (same section).",
        ),
        click.option(
            "--tokenizer",
            default="words",
            show_default=True,
            help="words, chars, tiktoken:<encoding> or hf:<name-or-path>.",
        ),
        click.option(
            "--format",
            "format_",
            type=click.Choice(sorted(FORMATS)),
            default=None,
            help="Override detection by extension (required for stdin).",
        ),
        click.option(
            "--no-heading-prefix",
            is_flag=True,
            help="Do not start chunk text with the heading path.",
        ),
        click.option(
            "--sentence-model",
            default="bundled",
            show_default=True,
            help="bundled, or nltk:<language> for an installed punkt_tab model.",
        ),
        click.option(
            "--password",
            default=None,
            envvar="STRUCTCHUNK_PDF_PASSWORD",
            help="Password for encrypted PDFs (or $STRUCTCHUNK_PDF_PASSWORD).",
        ),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def options_from_flags(params: dict[str, Any]) -> ChunkOptions:
    """ChunkOptions from the chunking flags, with the tokenizer and sentence model resolved
    once up front: anything invalid or unavailable is one line and exit code 2."""
    try:
        options = resolve_options(
            max_tokens=params["max_tokens"],
            min_tokens=params["min_tokens"],
            overlap_tokens=params["overlap_tokens"],
            tokenizer=params["tokenizer"],
            format=params["format_"],
            heading_prefix=not params["no_heading_prefix"],
            sentence_model=params["sentence_model"],
            pdf_password=params["password"],
        )
        get_tokenizer(options.tokenizer)
        get_segmenter(options.sentence_model)
    except StructChunkError as error:
        exit_usage(str(error))
    return options
