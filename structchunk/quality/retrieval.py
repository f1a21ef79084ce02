"""Retrieval evaluation: BM25 (or the user's embeddings) over the chunks, then hit@k,
coverage@k and the answer-split rate.

BM25 comes from the `bm25s` package (the `structchunk-rag[eval]` extra), with the settings
of the shared benchmark harness so the numbers can be set beside its tables: the
Lucene variant, k1=1.5, b=0.75, English stopwords removed, tokens from `normalize`.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import StructChunkError, install_hint
from .context import CONTEXT_DEPTH, Item, ItemCache, context_scores, fill_merging
from .embedding import EmbeddingRanker, EmbedFunction
from .normalize import match_tokens
from .outcomes import AnswerOutcome, ChunkRef, QuestionOutcome
from .questions import Question
from .views import ChunkView, DocumentChunks

DEFAULT_KS = (1, 3, 5)
"""Cut-offs reported by default: the top chunk, and the 3 and 5 a RAG prompt usually holds."""

BM25_K1 = 1.5
"""Term-frequency saturation: Lucene's default, and the shared harness's setting."""

BM25_B = 0.75
"""Length normalisation: Lucene's default, and the shared harness's setting."""

EMPTY_TOKEN = "\u2205"
"""Stands in for a chunk or query left without tokens once stopwords are gone (bm25s
cannot index an empty document); it matches nothing real."""

INSTALL_HINT = install_hint("eval")


class MissingExtraError(StructChunkError):
    """An optional dependency is not installed."""


def load_bm25s() -> tuple[Any, frozenset[str]]:
    """The bm25s module and its English stopwords, or a one-line error saying what to install."""
    try:
        import bm25s
        from bm25s.stopwords import STOPWORDS_EN
    except ImportError:
        raise MissingExtraError(f"eval needs the bm25s package: {INSTALL_HINT}") from None
    # bm25s sets its logger to DEBUG on import; let it follow the application's level.
    logging.getLogger("bm25s").setLevel(logging.NOTSET)
    return bm25s, frozenset(STOPWORDS_EN)


def longest_run(answer: Sequence[str], positions: dict[str, list[int]]) -> int:
    """The longest stretch of `answer` tokens that also occurs contiguously in the chunk
    whose token positions are given (dynamic programming over matching positions)."""
    best = 0
    previous: dict[int, int] = {}
    for token in answer:
        current = {j: previous.get(j - 1, 0) + 1 for j in positions.get(token, ())}
        if current:
            best = max(best, max(current.values()))
        previous = current
    return best


class Bm25Ranker:
    """BM25 over chunk tokens, stopwords removed, with the shared harness's settings."""

    def __init__(self, tokens: Sequence[list[str]]) -> None:
        bm25s, self._stopwords = load_bm25s()
        self._size = len(tokens)
        self._bm25 = None
        if tokens:
            self._bm25 = bm25s.BM25(k1=BM25_K1, b=BM25_B, method="lucene")
            self._bm25.index([self._content(t) for t in tokens], show_progress=False)

    def _content(self, tokens: list[str]) -> list[str]:
        return [t for t in tokens if t not in self._stopwords] or [EMPTY_TOKEN]

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        """The indices of the `k` best chunks for each query, best first."""
        if self._bm25 is None:
            return [[] for _ in queries]
        tokens = [self._content(match_tokens(q)) for q in queries]
        documents, _scores = self._bm25.retrieve(
            tokens, k=min(k, self._size), show_progress=False, n_threads=1
        )
        return [[int(i) for i in row] for row in documents]


class ChunkIndex:
    """Chunks ranked by BM25 or, given an embedding function, by cosine similarity; plus
    exact containment and run lengths for scoring, the same under either ranking."""

    def __init__(self, texts: Sequence[str], embed: EmbedFunction | None = None) -> None:
        self.tokens = [match_tokens(text) for text in texts]
        self._joined = [" " + " ".join(tokens) + " " for tokens in self.tokens]
        self._positions: dict[int, dict[str, list[int]]] = {}
        self._ranker: Bm25Ranker | EmbeddingRanker = (
            Bm25Ranker(self.tokens) if embed is None else EmbeddingRanker(texts, embed)
        )

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        """The indices of the `k` best chunks for each query, best first."""
        return self._ranker.search(queries, k)

    def contains(self, index: int, answer: Sequence[str]) -> bool:
        return (" " + " ".join(answer) + " ") in self._joined[index]

    def run(self, index: int, answer: Sequence[str]) -> int:
        positions = self._positions.get(index)
        if positions is None:
            positions = defaultdict(list)
            for j, token in enumerate(self.tokens[index]):
                positions[token].append(j)
            self._positions[index] = positions
        return longest_run(answer, positions)


@dataclass(slots=True)
class EvalResult:
    """The scores of one chunking (one option set or one baseline) on one question set."""

    label: str
    chunks: int
    mean_words: float | None
    questions: int
    hit: dict[int, float] = field(default_factory=dict)
    coverage: dict[int, float] = field(default_factory=dict)
    answer_split_rate: float = 0.0
    options: dict[str, Any] | None = None
    retriever: str = "bm25"
    outcomes: list[QuestionOutcome] = field(default_factory=list)
    """Each question's scores and where its answers were, in question order (not part of
    `to_json`: `outcomes.question_records` lists them)."""
    context: dict[int, float] = field(default_factory=dict)
    """`--context-budget`: per budget, answers wholly inside the context the ranked
    chunks fill (`context.py`)."""
    parent_context: dict[int, float] = field(default_factory=dict)
    """The same with each ranked chunk's parent in its place (small-to-big)."""
    merged_context: dict[int, float] = field(default_factory=dict)
    """The same with a parent in place of its chunks from the second of them on."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "retriever": self.retriever,
            "options": self.options,
            "chunks": self.chunks,
            "mean_words": self.mean_words,
            "questions": self.questions,
        }
        out.update({f"hit@{k}": v for k, v in self.hit.items()})
        out.update({f"coverage@{k}": v for k, v in self.coverage.items()})
        out["answer_split_rate"] = self.answer_split_rate
        out.update({f"context@{n}": v for n, v in self.context.items()})
        out.update({f"parent_context@{n}": v for n, v in self.parent_context.items()})
        out.update({f"merged_context@{n}": v for n, v in self.merged_context.items()})
        return out


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _first_hit(runs: Sequence[int], length: int) -> int | None:
    """0-based position of the first chunk whose run covers the whole answer."""
    return next((i for i, run in enumerate(runs) if run == length), None)


def _score_question(
    index: ChunkIndex,
    views: Sequence[ChunkView],
    answers: Sequence[list[str]],
    top: Sequence[int],
    scope: Sequence[int],
    ks: Sequence[int],
) -> tuple[dict[int, float], dict[int, float], float, tuple[AnswerOutcome, ...]]:
    """hit@k, coverage@k and the split share of one question, averaged over its answers,
    and where each answer was found (in the top chunks) and held (in its document)."""
    hits: dict[int, list[float]] = {k: [] for k in ks}
    cover: dict[int, list[float]] = {k: [] for k in ks}
    split = []
    outcomes = []
    for answer in answers:
        runs = [index.run(i, answer) for i in top]
        for k in ks:
            best = max(runs[:k], default=0)
            hits[k].append(1.0 if best == len(answer) else 0.0)
            cover[k].append(best / len(answer))
        holder = next((i for i in scope if index.contains(i, answer)), None)
        split.append(0.0 if holder is not None else 1.0)
        first = _first_hit(runs, len(answer))
        outcomes.append(
            AnswerOutcome(
                rank=None if first is None else first + 1,
                found=None if first is None else ChunkRef.of(views[top[first]]),
                held_by=None if holder is None else ChunkRef.of(views[holder]),
            )
        )
    return (
        {k: _mean(v) for k, v in hits.items()},
        {k: _mean(v) for k, v in cover.items()},
        _mean(split),
        tuple(outcomes),
    )


def evaluate(
    label: str,
    documents: Sequence[DocumentChunks],
    questions: Sequence[tuple[Question, str | None]],
    ks: Sequence[int] = DEFAULT_KS,
    embed: EmbedFunction | None = None,
    budgets: Sequence[int] = (),
) -> EvalResult:
    """Index every chunk of `documents`, ask every question, score the top max(ks).

    Chunks are ranked by BM25, or by cosine similarity under `embed` when given.

    A hit at k: one of the first k chunks holds the whole answer (normalised tokens,
    contiguous). Coverage at k: the longest part of the answer one of them holds. An
    answer is split when no chunk of its document (of any, when the question names
    none) holds it whole — retrieval cannot fix that, only chunking can.

    With `budgets`, also the answers inside a context of that many tokens filled from
    the ranking, with the chunks and with their parents (`context.py`; documents
    chunked with parents).
    """
    views = [chunk for doc in documents for chunk in doc.chunks]
    texts = [chunk.text for chunk in views]
    owners = [doc.source for doc in documents for _ in doc.chunks]
    index = ChunkIndex(texts, embed)
    by_source: dict[str, list[int]] = defaultdict(list)
    for i, owner in enumerate(owners):
        by_source[owner].append(i)
    everything = range(len(texts))
    depth = max(max(ks), CONTEXT_DEPTH if budgets else 0)
    tops = index.search([q.question for q, _ in questions], depth)
    items = _ContextItems(documents) if budgets else None
    chunk_context: dict[int, list[float]] = {n: [] for n in budgets}
    parent_context: dict[int, list[float]] = {n: [] for n in budgets}
    merged_context: dict[int, list[float]] = {n: [] for n in budgets}
    hits: dict[int, list[float]] = {k: [] for k in ks}
    cover: dict[int, list[float]] = {k: [] for k in ks}
    split = []
    outcomes = []
    for (question, doc), top in zip(questions, tops):
        answers = [match_tokens(a) for a in question.answers]
        scope = by_source.get(doc, []) if doc is not None else everything
        if items is not None:
            for n, score in context_scores(items.chunks(top), answers, budgets).items():
                chunk_context[n].append(score)
            pairs = items.parents(top)
            for n, score in context_scores(pairs, answers, budgets).items():
                parent_context[n].append(score)
            for n, score in context_scores(pairs, answers, budgets, fill_merging).items():
                merged_context[n].append(score)
        top = top[: max(ks)]
        h, c, s, found = _score_question(index, views, answers, top, scope, ks)
        for k in ks:
            hits[k].append(h[k])
            cover[k].append(c[k])
        split.append(s)
        first = ChunkRef.of(views[top[0]]) if top else None
        outcomes.append(QuestionOutcome(question, doc, first, found, h, c, s))
    words = [len(text.split()) for text in texts]
    return EvalResult(
        label,
        len(texts),
        _mean(words) if words else None,
        len(questions),
        {k: _mean(v) for k, v in hits.items()},
        {k: _mean(v) for k, v in cover.items()},
        _mean(split),
        retriever="bm25" if embed is None else "dense",
        outcomes=outcomes,
        context={n: _mean(v) for n, v in chunk_context.items()},
        parent_context={n: _mean(v) for n, v in parent_context.items()},
        merged_context={n: _mean(v) for n, v in merged_context.items()},
    )


class _ContextItems:
    """The chunks of an evaluation (by index) and their parents as context items."""

    def __init__(self, documents: Sequence[DocumentChunks]) -> None:
        self.views = [chunk for doc in documents for chunk in doc.chunks]
        self.parent_texts = [doc.parents for doc in documents for _ in doc.chunks]
        self.cache = ItemCache()

    def chunk(self, index: int) -> Item:
        view = self.views[index]
        return self.cache.get(f"chunk {index}", view.n_tokens, lambda: view.text)

    def parent(self, index: int) -> Item | None:
        parent_id = self.views[index].parent_id
        found = self.parent_texts[index].get(parent_id) if parent_id else None
        if parent_id is None or found is None:
            return None
        text, tokens = found
        return self.cache.get(f"parent {parent_id}", tokens, lambda: text)

    def chunks(self, top: Sequence[int]) -> list[tuple[Item, Item | None]]:
        return [(self.chunk(i), None) for i in top]

    def parents(self, top: Sequence[int]) -> list[tuple[Item, Item | None]]:
        return [(self.chunk(i), self.parent(i)) for i in top]
