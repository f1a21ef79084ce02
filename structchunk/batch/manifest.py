"""The batch manifest: which inputs (by content hash and options) already have output.

An append-only JSONL journal, one line per finished file, so a run killed at any moment
loses at most the line being written; the last line per input wins, and a malformed
(half-written) line is ignored. It is rewritten compactly at the end of each run.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from .atomic import atomic_writer, output_error

MANIFEST_VERSION = 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One converted input."""

    rel: str
    sha256: str
    options: str
    """`ChunkOptions.fingerprint()` of the run that wrote it."""
    output: str
    """Where its records are, relative to the manifest's folder."""
    chunks: int


class Manifest:
    """Entries by `rel`, loaded from and appended to one journal file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, Entry] = {}
        self._journal: IO[str] | None = None
        if path.is_file():
            self._load()

    def _load(self) -> None:
        with open(self.path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    data = json.loads(line)
                    if data.pop("v", None) != MANIFEST_VERSION:
                        continue
                    entry = Entry(**data)
                except (ValueError, TypeError):
                    continue  # a line cut short by a crash
                self.entries[entry.rel] = entry

    def output_path(self, entry: Entry) -> Path:
        return self.path.parent / entry.output

    def is_current(self, rel: str, sha256: str, options: str) -> bool:
        """Whether `rel` was converted from these bytes with these options, output intact."""
        entry = self.entries.get(rel)
        return (
            entry is not None
            and entry.sha256 == sha256
            and entry.options == options
            and self.output_path(entry).is_file()
        )

    def record(self, entry: Entry) -> None:
        """Remember a finished file, durably, before the next one starts; an
        `OutputError` naming the manifest when it cannot be written (a full disk)."""
        try:
            if self._journal is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._journal = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            self._journal.write(_json_line({"v": MANIFEST_VERSION, **asdict(entry)}))
            self._journal.flush()
        except OSError as error:
            self._drop_journal()
            raise output_error(self.path, error) from None
        self.entries[entry.rel] = entry

    def forget(self, rel: str) -> None:
        self.entries.pop(rel, None)

    def compact(self) -> None:
        """Rewrite the journal as one line per entry, sorted (atomically)."""
        self.close()
        with atomic_writer(self.path) as handle:
            for rel in sorted(self.entries):
                entry = asdict(self.entries[rel])
                handle.write(_json_line({"v": MANIFEST_VERSION, **entry}))

    def close(self) -> None:
        if self._journal is not None:
            journal, self._journal = self._journal, None
            try:
                journal.close()
            except OSError as error:  # what was buffered could not be written
                raise output_error(self.path, error) from None

    def _drop_journal(self) -> None:
        """Close the journal after a failed write, dropping what it could not write (a
        half line, which loading skips)."""
        journal, self._journal = self._journal, None
        if journal is not None:
            with contextlib.suppress(OSError):
                journal.close()


def _json_line(record: dict[str, object]) -> str:
    """One journal line, non-ASCII kept as is — unless a file name holds bytes that are
    not UTF-8 (lone surrogates), which only JSON's escapes carry through exactly."""
    line = json.dumps(record, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(record)
    return line + "\n"


def relative_to(path: Path, folder: Path) -> str:
    return os.path.relpath(path, folder).replace(os.sep, "/")
