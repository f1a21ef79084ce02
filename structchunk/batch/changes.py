"""The plan of a batch run: which chunk ids a vector store must add, delete or keep.

A plan compares two states, each the chunk ids of every output by source (the input's
name in the output tree): the state of the last completed run and this run's. A store is
keyed by id, so the plan is about ids, whatever rule makes them: an id in both states is
`keep`, only in the new one `add` (the only records to embed), only in the old one
`delete`. One line per id, sorted by source, then op (add, delete, keep), then chunk
order; an id found under two sources is listed once, under the first.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, cast, get_args

from ..errors import InputError
from .atomic import atomic_writer

Op = Literal["add", "delete", "keep"]
OPS: tuple[Op, ...] = get_args(Op)
"""The order of a source's lines in a plan."""

IdsBySource = Mapping[str, Sequence[str]]
"""A state: each source's chunk ids, in chunk order."""


@dataclass(frozen=True, slots=True)
class Change:
    """One line of a plan."""

    op: Op
    id: str
    source: str

    def json_line(self) -> str:
        return json.dumps({"op": self.op, "id": self.id, "source": self.source}) + "\n"


class ChangePlan:
    """The plan from `before` to `after`; iterate it for its `Change`s (computed on the
    fly from the two states, so it costs no more memory than they do)."""

    def __init__(self, before: IdsBySource, after: IdsBySource) -> None:
        self.before = before
        self.after = after

    @cached_property
    def _old(self) -> frozenset[str]:
        return frozenset(i for ids in self.before.values() for i in ids)

    @cached_property
    def _new(self) -> frozenset[str]:
        return frozenset(i for ids in self.after.values() for i in ids)

    def __iter__(self) -> Iterator[Change]:
        seen: set[str] = set()
        for source in sorted(self.before.keys() | self.after.keys()):
            new, old = self.after.get(source, ()), self.before.get(source, ())
            wanted: dict[Op, Iterable[str]] = {
                "add": (i for i in new if i not in self._old),
                "delete": (i for i in old if i not in self._new),
                "keep": (i for i in new if i in self._old),
            }
            for op in OPS:
                for chunk_id in wanted[op]:
                    if chunk_id not in seen:
                        seen.add(chunk_id)
                        yield Change(op, chunk_id, source)

    @cached_property
    def counts(self) -> dict[Op, int]:
        """How many lines of each op."""
        return {
            "add": len(self._new - self._old),
            "delete": len(self._old - self._new),
            "keep": len(self._new & self._old),
        }

    def ids(self, op: Op) -> list[str]:
        """The ids of one op, in plan order."""
        return [change.id for change in self if change.op == op]

    def line(self) -> str:
        """`changes: 3 add, 2 delete, 410 keep`, for the run's summary."""
        return "changes: " + ", ".join(f"{self.counts[op]} {op}" for op in OPS)

    def write(self, path: str | os.PathLike[str]) -> None:
        """The plan as JSONL, written atomically (complete or not at all)."""
        with atomic_writer(path) as handle:
            handle.writelines(change.json_line() for change in self)


def read_changes(path: str | os.PathLike[str]) -> Iterator[Change]:
    """The lines of a plan file written by `--changes`."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                try:
                    data = json.loads(line)
                    op, chunk_id, source = data["op"], data["id"], data["source"]
                except (ValueError, KeyError, TypeError):
                    raise InputError(f"{path}: not a plan written by --changes") from None
                if op not in OPS:
                    raise InputError(f"{path}: unknown op {op!r} (not add, delete or keep)")
                yield Change(cast(Op, op), chunk_id, source)
