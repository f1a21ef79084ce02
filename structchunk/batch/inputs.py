"""Command-line inputs to a sorted list of files: files, directories, globs, stdin.

Each file also gets `rel`, the path it is known by in a batch: relative to the directory
it was found under; for a file named by an absolute path, relative to the common folder
of all such files (`/data/a/x.pdf /data/b/y.pdf` -> `a/x.pdf`, `b/y.pdf`); otherwise as
given. `rel` names its output under `--out-dir` and keys the manifest, so it is
normalised to never climb out of the output directory.
"""

from __future__ import annotations

import glob
import logging
import os
import posixpath
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from types import ModuleType

from ..errors import InputError, StructChunkError, UnsupportedFormatError
from ..parsers import EXTENSIONS, detect_format, sniff_format
from ..remote import is_url, require_fsspec, url_format, url_place

_GLOB_CHARS = frozenset("*?[")

log = logging.getLogger("structchunk")


@dataclass(frozen=True, slots=True)
class InputFile:
    path: str
    """As given or as found under a given directory; `-` is stdin."""
    format: str
    rel: str = ""
    """Stable relative name (POSIX); `path` itself when empty."""
    data: bytes | None = field(default=None, repr=False, compare=False)
    """The bytes, when they were read already (stdin, whose `path` is `-` or the name
    given with `--source-name`)."""

    @property
    def key(self) -> str:
        return self.rel or self.path


def safe_relative(path: str) -> str:
    """`path` as a relative POSIX path that cannot leave the directory it is joined to."""
    posix = path.replace(os.sep, "/")
    parts = [p for p in posixpath.normpath(posix).split("/") if p not in ("", ".", "..")]
    if parts and parts[0].endswith(":"):  # a Windows drive
        parts = parts[1:]
    return "/".join(parts) or "input"


def _directory_files(root: Path, unknown: list[str]) -> list[Path]:
    """Files under `root` with a known extension (deterministic order); the others are
    added to `unknown`."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if Path(name).suffix.lower() in EXTENSIONS:
                found.append(Path(folder) / name)
            else:
                unknown.append(os.path.join(folder, name))
    return found


def read_stdin(format_override: str | None, name: str | None = None) -> InputFile:
    """Stdin as an input: its format is `--format`, what its bytes say they are (a PDF, an
    Office or EPUB package) or `name`'s extension; `name` is its `source` and output name."""
    data = sys.stdin.buffer.read()
    fmt = format_override or sniff_format(data)
    if fmt is None and name and PurePosixPath(name).suffix.lower() in EXTENSIONS:
        fmt = detect_format(name)
    if fmt is None:
        raise UnsupportedFormatError(
            "reading stdin (-) needs --format (only a PDF, DOCX, PPTX, XLSX or EPUB is "
            "recognised by its bytes)"
            + ("" if name else ", or --source-name NAME with the format's extension")
        )
    return InputFile(name or "-", fmt, safe_relative(name) if name else "stdin", data)


def _expand_one(
    raw: str, format_override: str | None, unknown: list[str]
) -> tuple[list[InputFile], list[str]]:
    """The files one argument names, and why it names none (if so); files of a directory
    that are not of a supported format are added to `unknown`."""
    if is_url(raw):  # read by the worker; whether it exists is its to find out
        require_fsspec()
        return [InputFile(raw, format_override or url_format(raw))], []
    path = Path(raw)
    if path.is_dir():
        files = _directory_files(path, unknown)
        if not files:
            return [], ["directory has no files with a known extension"]
        return [
            InputFile(
                str(f),
                format_override or detect_format(str(f)),
                safe_relative(f.relative_to(path).as_posix()),
            )
            for f in files
        ], []
    if _GLOB_CHARS & set(raw) and not path.exists():
        matches = sorted(m for m in glob.glob(raw, recursive=True) if Path(m).is_file())
        if not matches:
            return [], ["no files match this pattern"]
        return [
            InputFile(m, format_override or detect_format(m), safe_relative(m)) for m in matches
        ], []
    if not path.exists():
        return [], ["no such file or directory"]
    return [InputFile(raw, format_override or detect_format(raw), safe_relative(raw))], []


def _rebased(items: list[InputFile]) -> list[InputFile]:
    """`items` with the files named by absolute paths or URLs known relative to their
    common folder: mirrored from `/`, `/home/me/x.pdf` would be written as
    `OUT/home/me/x.pdf.jsonl`. Files found under a directory input keep their place in it."""
    files = [item for item in items if not is_url(item.path)]
    urls = [item for item in items if is_url(item.path)]
    places = [url_place(item.path) for item in urls]
    return _relative_to_common(files, [item.path for item in files], os.path) + (
        _relative_to_common(urls, places, posixpath)
    )


def _relative_to_common(
    items: list[InputFile], places: list[str], paths: ModuleType
) -> list[InputFile]:
    """`items` renamed as their `places` (absolute paths) below their common folder."""
    try:
        root = paths.commonpath([paths.dirname(place) for place in places]) if places else ""
    except ValueError:  # absolute paths on two Windows drives: no common folder
        return items
    return [
        replace(item, rel=safe_relative(paths.relpath(place, root)))
        for item, place in zip(items, places, strict=True)
    ]


def _same_file(one: InputFile, other: InputFile) -> bool:
    """Whether two inputs are one file named twice (stdin is never a file's twin)."""
    if one.data is not None or other.data is not None:
        return False
    return os.path.abspath(one.path) == os.path.abspath(other.path)


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the command-line inputs name."""

    items: list[InputFile]
    """The files to convert, sorted by `rel` and deduplicated."""
    problems: list[StructChunkError]
    """One error per unusable input (missing, not of a supported format)."""
    unknown: list[str]
    """Files found in directories that are not of a supported format, skipped."""


def expand_inputs(
    inputs: tuple[str, ...] | list[str], format_override: str | None
) -> tuple[list[InputFile], list[StructChunkError]]:
    """The files to convert, sorted by `rel` and deduplicated, and one error per unusable input.

    Raises `StructChunkError` for usage mistakes (stdin without --format, two inputs that
    would share one output).
    """
    found = scan_inputs(inputs, format_override)
    return found.items, found.problems


def scan_inputs(
    inputs: tuple[str, ...] | list[str],
    format_override: str | None,
    source_name: str | None = None,
) -> Inputs:
    """`expand_inputs`, also telling which files of the directories were skipped; stdin
    (`-`) is read here, and named `source_name` if given."""
    unknown: list[str] = []
    found: list[InputFile] = []
    absolute: list[InputFile] = []  # named one by one (or by a glob) with an absolute path
    problems: list[StructChunkError] = []
    if "-" in inputs:  # read once, however often it is named
        found.append(read_stdin(format_override, source_name))
    for raw in inputs:
        if raw == "-":
            continue
        try:
            files, reasons = _expand_one(raw, format_override, unknown)
        except UnsupportedFormatError as error:
            problems.append(error)
            continue
        problems.extend(InputError(reason, source=raw) for reason in reasons)
        named = is_url(raw) or (not Path(raw).is_dir() and os.path.isabs(raw))
        (absolute if named else found).extend(files)
    items: dict[str, InputFile] = {}
    for item in [*found, *_rebased(absolute)]:
        clash = items.get(item.key)
        if clash is not None and not _same_file(clash, item):
            raise InputError(
                f"{item.path} and {clash.path} would both be written as "
                f"{item.key!r}; convert them in separate runs"
            )
        items.setdefault(item.key, item)  # one file named twice is converted once
    for name in unknown:
        log.info("skipped, not a supported format: %s", name)
    ordered = [items[key] for key in sorted(items, key=lambda k: PurePosixPath(k).parts)]
    return Inputs(ordered, problems, unknown)
