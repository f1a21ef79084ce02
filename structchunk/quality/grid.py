"""What `eval` compares: option sets from `--grid` axes, and `--baseline fixed:N` chunkings."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..api import resolve_options
from ..errors import OptionsError
from ..options import ChunkOptions


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in {"true", "yes", "on", "1"}:
        return True
    if lowered in {"false", "no", "off", "0"}:
        return False
    raise ValueError(f"not a boolean: {text!r}")


GRID_FIELDS: dict[str, Callable[[str], Any]] = {
    "max_tokens": int,
    "min_tokens": int,
    "overlap_tokens": int,
    "repeat_lead_ins": _parse_bool,
    "tokenizer": str,
    "heading_prefix": _parse_bool,
    "sentence_model": str,
}
"""The `ChunkOptions` fields a grid may vary, each with how its values are read."""

_AXIS = re.compile(r"^([a-z_]+)=(.+)$")

Axis = tuple[str, list[Any]]


def looks_like_axis(text: str) -> bool:
    """`name=v1,v2` with a grid field name (how a bare axis after `--grid` is recognised)."""
    match = _AXIS.match(text)
    return match is not None and match.group(1) in GRID_FIELDS


def parse_axes(text: str) -> list[Axis]:
    """`max_tokens=128,256 overlap_tokens=0,32` (one or more axes) to [(field, values)]."""
    axes = []
    for part in text.split():
        match = _AXIS.match(part)
        if not match or match.group(1) not in GRID_FIELDS:
            raise OptionsError(
                f"bad grid axis {part!r}: use FIELD=V1,V2,… with FIELD one of "
                f"{', '.join(GRID_FIELDS)}"
            )
        name, raw = match.groups()
        try:
            values = [GRID_FIELDS[name](v.strip()) for v in raw.split(",") if v.strip()]
        except ValueError as error:
            raise OptionsError(f"bad grid axis {part!r}: {error}") from None
        if not values:
            raise OptionsError(f"grid axis {name} has no values")
        axes.append((name, list(dict.fromkeys(values))))
    return axes


@dataclass(frozen=True, slots=True)
class RunSpec:
    """One row of the eval table: our chunking under `options`, or a fixed-size baseline."""

    label: str
    options: ChunkOptions | None = None
    fixed_chars: int | None = None


def grid_specs(base: ChunkOptions, axes: Sequence[Axis]) -> tuple[list[RunSpec], list[str]]:
    """Every combination of the axes applied to `base` (the first axis varies slowest),
    and one message per combination the options reject (e.g. overlap over half the budget)."""
    names = [name for name, _ in axes]
    labels = names if "max_tokens" in names else ["max_tokens", *names]
    specs, rejected = [], []
    for values in itertools.product(*(vals for _, vals in axes)):
        overrides = dict(zip(names, values))
        label = "structchunk " + " ".join(
            f"{n}={overrides.get(n, getattr(base, n))}" for n in labels
        )
        try:
            specs.append(RunSpec(label, resolve_options(base, **overrides)))
        except OptionsError as error:
            rejected.append(f"{label}: skipped: {error}")
    return specs, rejected


_BASELINE = re.compile(r"^fixed:(\d+)$")


def parse_baseline(text: str) -> RunSpec:
    """`fixed:N`: N-character windows over each document's text, cut anywhere."""
    match = _BASELINE.match(text.strip())
    if not match or int(match.group(1)) < 1:
        raise OptionsError(f"bad baseline {text!r}: use fixed:N with N characters, e.g. fixed:1000")
    return RunSpec(f"fixed:{match.group(1)}", fixed_chars=int(match.group(1)))
