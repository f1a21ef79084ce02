"""Qdrant: follow a batch run's plan in a collection (`pip install qdrant-client`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from ..records import Chunk
from .sync import DEFAULT_BATCH, Changes, Embed, Plan, SyncReport

ID_NAMESPACE = uuid.UUID("6f1c0a52-6a43-5c1e-9d8e-5d1f3a4b7c20")
"""Of the UUIDs given to chunk ids that are not UUIDs themselves."""


def point_id(chunk_id: str) -> str:
    """The Qdrant point id of a chunk: its id read as a UUID (32 hex digits are one),
    else a UUID derived from it. The payload keeps the chunk id as written."""
    try:
        return str(uuid.UUID(hex=chunk_id))
    except ValueError:
        return str(uuid.uuid5(ID_NAMESPACE, chunk_id))


def sync(
    client: Any,
    collection_name: str,
    changes: Changes,
    chunks: Iterable[Chunk],
    embed: Embed,
    *,
    batch_size: int = DEFAULT_BATCH,
) -> SyncReport:
    """Upsert the plan's adds (taken from `chunks`, the run's records; only they are
    embedded) as points whose payload is `Chunk.payload()`, then delete its deletes;
    kept points are not touched. `changes` is the plan or the path of a `--changes` file.
    """
    from qdrant_client import models

    plan = Plan.of(changes)
    for batch in plan.adding(chunks, batch_size):
        vectors = embed([chunk.text for chunk in batch])
        points = [
            models.PointStruct(id=point_id(chunk.id), vector=list(vector), payload=chunk.payload())
            for chunk, vector in zip(batch, vectors, strict=True)
        ]
        client.upsert(collection_name, points=points)
    for ids in plan.deleting(batch_size):
        selector = models.PointIdsList(points=[point_id(i) for i in ids])
        client.delete(collection_name, points_selector=selector)
    return plan.report()
