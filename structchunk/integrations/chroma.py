"""ChromaDB: follow a batch run's plan in a collection (`pip install chromadb`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..records import Chunk
from .sync import DEFAULT_BATCH, Changes, Embed, Plan, SyncReport


def sync(
    collection: Any,
    changes: Changes,
    chunks: Iterable[Chunk],
    embed: Embed | None = None,
    *,
    lists: bool = False,
    batch_size: int = DEFAULT_BATCH,
) -> SyncReport:
    """Upsert the plan's adds (taken from `chunks`, the run's records; only they are
    embedded), then delete its deletes; kept ids are not touched.

    `changes` is the plan or the path of a `--changes` file. Without `embed`, the
    collection's own embedding function embeds the adds. Metadata is
    `Chunk.metadata(lists)`; the document is the chunk's text.
    """
    plan = Plan.of(changes)
    for batch in plan.adding(chunks, batch_size):
        texts = [chunk.text for chunk in batch]
        vectors = {} if embed is None else {"embeddings": [list(v) for v in embed(texts)]}
        collection.upsert(
            ids=[chunk.id for chunk in batch],
            documents=texts,
            metadatas=[chunk.metadata(lists) for chunk in batch],
            **vectors,
        )
    for ids in plan.deleting(batch_size):
        collection.delete(ids=ids)
    return plan.report()
