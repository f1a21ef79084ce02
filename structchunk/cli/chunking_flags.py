"""The chunking flags of `convert`, `inspect` and `eval`, generated from `ChunkOptions`.

Each field of `ChunkOptions` is one flag with the field's default and description, so a
new option is one new field. The few places where the command line differs from the
field are the tables of `options.py` (`FLAG_NAMES`, `ENV_VARS`). Values are checked by
`ChunkOptions` itself, before any file is read, so a bad value is the same one-line error
as in the library.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import click
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from ..errors import StructChunkError
from ..options import ENV_VARS, ChunkOptions, flag_name
from ..sentences import get_segmenter
from ..tokenizers import get_tokenizer
from .terminal import exit_usage

F = TypeVar("F", bound=Callable[..., Any])

NOT_FLAGS = frozenset({"page_workers"})
"""Fields the command line sets itself: one file being converted gets the cores of `-j`."""


def _option_type(annotation: Any) -> Any:
    """The click type for a field: a choice for a `Literal`, else int or plain text."""
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return _option_type(args[0])
    if typing.get_origin(annotation) is typing.Literal:
        return click.Choice(sorted(args))
    if annotation is int:
        return int
    return None  # text; the field validates it


def _flag(name: str, field: FieldInfo) -> Callable[[F], F]:
    """The click option for one field of `ChunkOptions`."""
    flag = flag_name(name)
    help_text = field.description or ""
    if field.annotation is bool:
        if field.default:  # on by default: the flag that matters is the one turning it off
            off = "--no-" + flag.removeprefix("--")
            return click.option(
                f"{flag}/{off}", name, default=True, show_default=True, help=help_text
            )
        return click.option(flag, name, is_flag=True, default=False, help=help_text)
    return click.option(
        flag,
        name,
        type=_option_type(field.annotation),
        default=field.default,
        show_default=field.default is not None,
        envvar=ENV_VARS.get(name),
        show_envvar=name in ENV_VARS,
        help=help_text,
    )


_BOUNDS = {"greater_than_equal": ("ge", "at least"), "less_than_equal": ("le", "at most")}
_FIELD_NAMES = re.compile(r"\b(" + "|".join(ChunkOptions.model_fields) + r")\b")


def _in_flag_terms(problem: Any, values: dict[str, Any]) -> str:
    """A validation problem as the command line says it: `--max-tokens 4: must be at
    least 8`, not the pydantic field and its wording."""
    location = problem.get("loc") or ()
    if not location or location[0] not in values:  # a rule across options
        message = str(problem["msg"]).removeprefix("Value error, ")
        return _FIELD_NAMES.sub(lambda m: flag_name(m.group(1)), message)
    field = str(location[0])
    bound = _BOUNDS.get(problem.get("type", ""))
    if bound is not None and bound[0] in (problem.get("ctx") or {}):
        message = f"must be {bound[1]} {problem['ctx'][bound[0]]}"
    else:
        message = str(problem["msg"]).removeprefix("Value error, ")
        message = message[:1].lower() + message[1:]
    return f"{flag_name(field)} {values[field]}: {message}"


def chunking_options(command: F) -> F:
    """Add the chunking flags, with the same names, defaults and meanings everywhere."""
    for name, field in reversed(ChunkOptions.model_fields.items()):
        if name not in NOT_FLAGS:
            command = _flag(name, field)(command)
    return command


def options_from_flags(params: dict[str, Any]) -> ChunkOptions:
    """ChunkOptions from the chunking flags, with the tokenizer and sentence model resolved
    once up front: anything invalid or unavailable is one line and exit code 2."""
    fields = {name: params[name] for name in ChunkOptions.model_fields if name in params}
    try:
        options = ChunkOptions(**fields)
    except ValidationError as error:
        exit_usage("; ".join(_in_flag_terms(problem, fields) for problem in error.errors()))
    try:
        get_tokenizer(options.tokenizer)
        get_segmenter(options.sentence_model)
    except StructChunkError as error:
        exit_usage(error)
    return options
