"""Following a batch run's plan in a vector store: what the store helpers share.

A plan (`convert --changes`, `run_batch(...).changes`) says which chunk ids to add,
delete and keep; `adding` picks the records to add out of a run's chunks, in batches, so
only they are embedded, and `SyncReport` says what was done. The stores' own calls are in
`chroma.py` and `qdrant.py`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

from ..batch.changes import Change, read_changes
from ..errors import InputError
from ..records import Chunk

Embed = Callable[[list[str]], Sequence[Sequence[float]]]
"""An embedding function: texts in, one vector per text out."""
Changes = Iterable[Change] | str | os.PathLike[str]
"""A plan: its changes, or the path of a `--changes` file."""
T = TypeVar("T")

DEFAULT_BATCH = 256
"""Records per embedding call and per store call: a batch many embedding APIs and both
stores take at once."""


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What a sync did: records embedded and upserted, ids deleted, ids left alone."""

    added: int
    deleted: int
    kept: int


@dataclass(frozen=True, slots=True)
class Plan:
    """A plan read once: the ids to add and to delete, and how many are kept."""

    adds: frozenset[str]
    deletes: list[str]
    kept: int

    @classmethod
    def of(cls, changes: Changes) -> Plan:
        if isinstance(changes, str | os.PathLike):
            changes = read_changes(changes)
        adds, deletes, kept = set(), [], 0
        for change in changes:
            if change.op == "add":
                adds.add(change.id)
            elif change.op == "delete":
                deletes.append(change.id)
            else:
                kept += 1
        return cls(frozenset(adds), deletes, kept)

    def adding(self, chunks: Iterable[Chunk], size: int) -> Iterator[tuple[Chunk, ...]]:
        """The chunks the plan adds, each once, in batches of `size`; an `InputError`
        (before anything is deleted) when `chunks` lacks some of them."""
        found: set[str] = set()

        def wanted() -> Iterator[Chunk]:
            for chunk in chunks:
                if chunk.id in self.adds and chunk.id not in found:
                    found.add(chunk.id)
                    yield chunk

        yield from _batched(wanted(), size)
        if len(found) != len(self.adds):
            missing = sorted(self.adds - found)
            raise InputError(
                f"the chunks given lack {len(missing)} of the plan's {len(self.adds)} adds "
                f"(such as {missing[0]}): give the records of the run that wrote the plan"
            )

    def deleting(self, size: int) -> Iterator[list[str]]:
        for ids in _batched(self.deletes, size):
            yield list(ids)

    def report(self) -> SyncReport:
        return SyncReport(len(self.adds), len(self.deletes), self.kept)


def _batched(items: Iterable[T], size: int) -> Iterator[tuple[T, ...]]:
    """`itertools.batched` (Python 3.12)."""
    iterator = iter(items)
    while batch := tuple(islice(iterator, size)):
        yield batch
