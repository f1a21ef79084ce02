"""The batch manifest: which inputs (by content hash and options) already have output,
and the chunk ids of each output.

An append-only JSONL journal, one line per finished (or forgotten) file, so a run killed
at any moment loses at most the line being written; the last line per input wins, and a
malformed (half-written) line is ignored. A completed run rewrites it compactly, ending
with a commit line: the entries above the last commit line are the state of the last
completed run, which the next run's plan (`changes.py`) starts from; lines below it are
what runs killed since then finished.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from .atomic import atomic_writer, output_error

MANIFEST_VERSION = 2
"""2 added each output's chunk ids; a version-1 line (no ids) is read as an entry whose
ids are read from its output once, for the plan, and which is converted again."""

log = logging.getLogger("structchunk")


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
    ids: tuple[str, ...] | None = None
    """Its records' ids, in chunk order; None in a manifest written before they were kept."""


class Manifest:
    """Entries by `rel`, loaded from and appended to one journal file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, Entry] = {}
        self.committed: dict[str, Entry] = {}
        """The entries as the last completed run left them."""
        self._journal: IO[str] | None = None
        if path.is_file():
            self._load()

    def _load(self) -> None:
        legacy = False
        with open(self.path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    data = json.loads(line)
                    version = data.pop("v", None)
                    if version == 1:
                        legacy = True
                    elif version != MANIFEST_VERSION:
                        continue
                    if data.pop("commit", False):
                        self.committed = dict(self.entries)
                        continue
                    if data.pop("gone", False):
                        self.entries.pop(data["rel"], None)
                        continue
                    entry = _entry(data)
                except (ValueError, TypeError, KeyError):
                    continue  # a line cut short by a crash
                self.entries[entry.rel] = entry
        if legacy and not self.committed:  # version 1 had no commit lines
            self.committed = dict(self.entries)

    def output_path(self, entry: Entry) -> Path:
        return self.path.parent / entry.output

    def is_current(self, rel: str, sha256: str, options: str) -> bool:
        """Whether `rel` was converted from these bytes with these options, output intact."""
        entry = self.entries.get(rel)
        return (
            entry is not None
            and entry.ids is not None
            and entry.sha256 == sha256
            and entry.options == options
            and self.output_path(entry).is_file()
        )

    def record(self, entry: Entry) -> None:
        """Remember a finished file, durably, before the next one starts; an
        `OutputError` naming the manifest when it cannot be written (a full disk)."""
        self._append(asdict(entry))
        self.entries[entry.rel] = entry

    def forget(self, rel: str) -> None:
        """Drop a file whose output is gone (failed, pruned), durably."""
        if rel in self.entries:
            self._append({"rel": rel, "gone": True})
            del self.entries[rel]

    def _append(self, record: dict[str, Any]) -> None:
        try:
            if self._journal is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._journal = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            self._journal.write(_json_line({"v": MANIFEST_VERSION, **record}))
            self._journal.flush()
        except OSError as error:
            self._drop_journal()
            raise output_error(self.path, error) from None

    def state(self, entries: dict[str, Entry]) -> dict[str, tuple[str, ...]]:
        """The chunk ids of `entries` by input, for a plan; ids a version-1 manifest did
        not keep are read from the output (before this run replaces it)."""
        return {rel: self._ids(entry) for rel, entry in entries.items()}

    def _ids(self, entry: Entry) -> tuple[str, ...]:
        if entry.ids is not None:
            return entry.ids
        path = self.output_path(entry)
        try:
            return tuple(output_ids(path))
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("%s: ids of its chunks unknown, not in the plan (%s)", path, error)
            return ()

    def commit(self) -> None:
        """End a completed run: rewrite the journal as one line per entry, sorted, and a
        commit line (atomically); the next run's plan starts from here."""
        self.close()
        with atomic_writer(self.path) as handle:
            for rel in sorted(self.entries):
                entry = asdict(self.entries[rel])
                handle.write(_json_line({"v": MANIFEST_VERSION, **entry}))
            handle.write(_json_line({"v": MANIFEST_VERSION, "commit": True}))
        self.committed = dict(self.entries)

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


def _entry(data: dict[str, Any]) -> Entry:
    ids = data.pop("ids", None)
    return Entry(**data, ids=None if ids is None else tuple(ids))


def output_ids(path: Path) -> list[str]:
    """The `id` of every record of an output, JSONL or Parquet, in order."""
    if path.suffix == ".parquet":
        from .parquet import require_pyarrow

        table = require_pyarrow().parquet.read_table(path, columns=["id"])
        return [str(i) for i in table.column("id").to_pylist()]
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line)["id"] for line in handle if line.strip()]


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
