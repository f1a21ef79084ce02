"""Dense retrieval for `eval`: the user's own embedding function ranks the chunks.

Most RAG systems retrieve with embeddings, not BM25, and which chunking serves them best
can differ (docs/retrieval.md measures both). The embedding function is whatever the
user retrieves with — any callable from a list of texts to one vector per text — or a
sentence-transformers model read from a local folder (never downloaded here). Chunks
and questions are embedded as they are; similarity is the cosine.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import StructChunkError

EmbedFunction = Callable[[list[str]], Sequence[Sequence[float]]]
"""Texts in, one vector per text out (lists, tuples or a numpy array all do)."""

SENTENCE_TRANSFORMERS = "sentence-transformers:"
"""`--embed` prefix naming a local sentence-transformers model folder."""

BATCH = 64
"""Texts per call to the embedding function, so a progress-less call never holds a whole
corpus and a model's own batching still has room."""


class EmbedError(StructChunkError):
    """The embedding function cannot be loaded or returned something unusable."""


def load_embedder(spec: str) -> EmbedFunction:
    """`module:function` (importable from here or the current directory), or
    `sentence-transformers:PATH` for a model folder on this machine."""
    if spec.startswith(SENTENCE_TRANSFORMERS):
        return _sentence_transformer(spec[len(SENTENCE_TRANSFORMERS) :])
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise EmbedError(
            f"--embed {spec!r}: give module:function or sentence-transformers:MODEL_DIR"
        )
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as error:
        raise EmbedError(f"--embed {spec!r}: cannot load it ({error})") from None
    if not callable(target):
        raise EmbedError(f"--embed {spec!r}: {attribute} is not callable")
    return target  # type: ignore[no-any-return]


def _sentence_transformer(path: str) -> EmbedFunction:
    if not os.path.isdir(path):
        raise EmbedError(
            f"--embed sentence-transformers:{path}: not a model folder on this machine "
            "(models are never downloaded; save one with model.save(PATH) first)"
        )
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise EmbedError(
            "--embed sentence-transformers:… needs the sentence-transformers package: "
            "pip install sentence-transformers"
        ) from None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    model = SentenceTransformer(path, local_files_only=True)

    def embed(texts: list[str]) -> Sequence[Sequence[float]]:
        return model.encode(texts, show_progress_bar=False)  # type: ignore[no-any-return]

    return embed


class EmbeddingRanker:
    """Chunks ranked by cosine similarity of their embeddings to each question's."""

    def __init__(self, texts: Sequence[str], embed: EmbedFunction) -> None:
        self._embed = embed
        self._matrix = self._vectors(list(texts)) if texts else None

    def _vectors(self, texts: list[str]) -> Any:
        import numpy as np

        rows: list[Any] = []
        for start in range(0, len(texts), BATCH):
            batch = texts[start : start + BATCH]
            try:
                vectors = np.asarray(self._embed(batch), dtype=np.float64)
            except Exception as error:  # user code: any failure becomes one line
                raise EmbedError(
                    f"the embedding function failed: {type(error).__name__}: {error}"
                ) from None
            if vectors.ndim != 2 or len(vectors) != len(batch):
                raise EmbedError(
                    f"the embedding function returned shape {vectors.shape} for "
                    f"{len(batch)} texts; expected one vector per text"
                )
            rows.append(vectors)
        matrix = np.vstack(rows)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1.0, norms)

    def search(self, queries: Sequence[str], k: int) -> list[list[int]]:
        """The indices of the `k` most similar chunks for each query, best first (ties in
        chunk order, so results are deterministic)."""
        if self._matrix is None:
            return [[] for _ in queries]
        import numpy as np

        similarity = self._vectors(list(queries)) @ self._matrix.T
        order = np.argsort(-similarity, axis=1, kind="stable")[:, : min(k, len(self._matrix))]
        return [[int(i) for i in row] for row in order]
