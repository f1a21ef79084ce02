"""Question sets for `structchunk eval`: reading them and finding each question's document."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import InputError
from .normalize import match_tokens


@dataclass(frozen=True, slots=True)
class Question:
    """One question with the excerpts that answer it."""

    question: str
    answers: tuple[str, ...]
    """Every excerpt a full answer needs (`answers`, else `answer`); scores average over them."""
    doc: str | None
    """The document, as a path relative to a corpus root; None: any document."""
    line: int | None = None
    """The question's line in its file (1-based), when it was read from one."""


@dataclass(slots=True)
class QuestionSet:
    questions: list[Question] = field(default_factory=list)
    invalid: int = 0
    """Lines without a question or without an answer that has a word in it."""


def _answers(record: dict[str, object]) -> tuple[str, ...]:
    raw = record.get("answers")
    listed = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    answers = [a for a in listed if isinstance(a, str) and match_tokens(a)]
    single = record.get("answer")
    if not answers and isinstance(single, str) and match_tokens(single):
        answers = [single]
    return tuple(answers)


def read_questions(path: str | os.PathLike[str]) -> QuestionSet:
    """Questions JSONL: `question`, `answer` (the exact excerpt), optional `answers`, `doc`."""
    out = QuestionSet()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read questions: {error}", source=os.fspath(path)) from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            out.invalid += 1
            continue
        answers = _answers(record) if isinstance(record, dict) else ()
        if not answers or not isinstance(record.get("question"), str):
            out.invalid += 1
            continue
        doc = record.get("doc")
        out.questions.append(
            Question(
                record["question"],
                answers,
                doc if isinstance(doc, str) and doc else None,
                line=number,
            )
        )
    return out


def _suffix_match(source: str, doc: str) -> bool:
    """Whether `source` ends with the path components of `doc`."""
    want = PurePosixPath(doc.replace("\\", "/")).parts
    have = PurePosixPath(Path(source).as_posix()).parts
    return len(have) >= len(want) and have[len(have) - len(want) :] == want


def resolve_documents(
    questions: Sequence[Question], sources: Sequence[str], root: str | None
) -> tuple[list[tuple[Question, str | None]], int]:
    """Each usable question with its document's source (None: the question names none),
    and how many name a document that is not among the inputs (or more than one)."""
    resolved: list[tuple[Question, str | None]] = []
    missing = 0
    absolute = {os.path.abspath(s): s for s in sources}
    for question in questions:
        if question.doc is None:
            resolved.append((question, None))
            continue
        if root is not None:
            target = os.path.abspath(os.path.join(root, question.doc))
            found = [absolute[target]] if target in absolute else []
        else:
            found = list(dict.fromkeys(s for s in sources if _suffix_match(s, question.doc)))
        if len(found) == 1:
            resolved.append((question, found[0]))
        else:
            missing += 1
    return resolved, missing
