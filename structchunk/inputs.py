"""Command-line inputs to a list of files with formats: files, directories, stdin."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError, StructChunkError, UnsupportedFormatError
from .parsers import EXTENSIONS, detect_format


@dataclass(frozen=True, slots=True)
class InputFile:
    path: str
    """As given (or as found under a given directory); `-` is stdin."""
    format: str


def _directory_files(root: Path) -> list[Path]:
    """Files under `root` with a known extension, sorted by relative path (deterministic)."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in files:
            if Path(name).suffix.lower() in EXTENSIONS:
                found.append(Path(folder) / name)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def expand_inputs(inputs: tuple[str, ...] | list[str],
                  format_override: str | None) -> tuple[list[InputFile], list[StructChunkError]]:
    """The files to convert, and one error per input that cannot be used.

    Raises `StructChunkError` for usage mistakes (stdin without --format).
    """
    items: list[InputFile] = []
    problems: list[StructChunkError] = []
    for raw in inputs:
        if raw == "-":
            if not format_override:
                raise UnsupportedFormatError("reading stdin (-) needs --format")
            items.append(InputFile("-", format_override))
            continue
        path = Path(raw)
        if path.is_dir():
            files = _directory_files(path)
            if not files:
                problems.append(InputError("directory has no files with a known extension",
                                           source=raw))
            items.extend(InputFile(str(f), format_override or detect_format(str(f)))
                         for f in files)
        elif not path.exists():
            problems.append(InputError("no such file or directory", source=raw))
        else:
            try:
                items.append(InputFile(raw, format_override or detect_format(raw)))
            except StructChunkError as error:
                problems.append(error)
    return items, problems
