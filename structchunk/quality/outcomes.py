"""What `eval` found for each question: the rank of its answer, the top chunk, the chunk
that holds the answer; as values and as the records of `--misses` and the JSON output.

A table row says that a setting loses; these records say on which questions and why (the
answer ranked low, sat under another heading, or was split by the chunking).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..batch.atomic import atomic_writer
from .questions import Question
from .views import ChunkView


@dataclass(frozen=True, slots=True)
class ChunkRef:
    """Where a chunk is: its document, position, id (when it has one) and heading path."""

    source: str
    index: int
    chunk_id: str | None
    heading_path: tuple[str, ...]

    @classmethod
    def of(cls, view: ChunkView) -> ChunkRef:
        return cls(view.source, view.index, view.chunk_id, view.heading_path)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "index": self.index,
            "id": self.chunk_id,
            "heading_path": list(self.heading_path),
        }


@dataclass(frozen=True, slots=True)
class AnswerOutcome:
    """One answer excerpt of a question."""

    rank: int | None
    """1-based rank of the first retrieved chunk that holds the whole answer; None when no
    chunk of the top max(k) does."""
    found: ChunkRef | None
    """That chunk."""
    held_by: ChunkRef | None
    """The first chunk of the question's document (of any, when it names none) that holds
    the whole answer, retrieved or not; None when the chunking split the answer."""


@dataclass(frozen=True, slots=True)
class QuestionOutcome:
    """One question under one chunking and retriever: its per-question scores (the run's
    are their means) and where its answers were."""

    question: Question
    source: str | None
    """The input the question's `doc` resolved to; None when it names none."""
    top: ChunkRef | None
    """The top-ranked chunk; None when there are no chunks at all."""
    answers: tuple[AnswerOutcome, ...]
    hit: dict[int, float]
    coverage: dict[int, float]
    split: float

    @property
    def rank(self) -> int | None:
        """The rank by which every answer has been retrieved; None when one was not."""
        ranks = [a.rank for a in self.answers]
        return None if any(r is None for r in ranks) else max(r for r in ranks if r is not None)


def _ref(chunk: ChunkRef | None) -> dict[str, Any] | None:
    return None if chunk is None else chunk.to_json()


def outcome_record(outcome: QuestionOutcome, run: str, retriever: str) -> dict[str, Any]:
    """One `--misses` line: the question as given, then how `run` answered it."""
    question = outcome.question
    record: dict[str, Any] = {
        "question": question.question,
        "line": question.line,
        "answers": list(question.answers),
        "doc": question.doc,
        "source": outcome.source,
        "run": run,
        "retriever": retriever,
        "rank": outcome.rank,
    }
    record.update({f"hit@{k}": v for k, v in outcome.hit.items()})
    record.update({f"coverage@{k}": v for k, v in outcome.coverage.items()})
    record["split"] = outcome.split
    record["top"] = _ref(outcome.top)
    record["found"] = [
        None if a.found is None else {"rank": a.rank, **a.found.to_json()} for a in outcome.answers
    ]
    record["held_by"] = [_ref(a.held_by) for a in outcome.answers]
    return record


class ScoredRun(Protocol):
    """What the per-question records read of a run (`retrieval.EvalResult`), so this
    module, which retrieval imports, need not import it back."""

    @property
    def label(self) -> str: ...
    @property
    def retriever(self) -> str: ...
    @property
    def outcomes(self) -> Sequence[QuestionOutcome]: ...


def question_records(results: Sequence[ScoredRun]) -> list[dict[str, Any]]:
    """Every question under every run, in question order, then run order (the table's)."""
    count = max((len(result.outcomes) for result in results), default=0)
    return [
        outcome_record(result.outcomes[i], result.label, result.retriever)
        for i in range(count)
        for result in results
        if i < len(result.outcomes)
    ]


def write_question_records(path: str | os.PathLike[str], records: Sequence[dict[str, Any]]) -> None:
    """JSONL, one record a line, written atomically; an unwritable path raises OutputError."""
    with atomic_writer(path) as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
