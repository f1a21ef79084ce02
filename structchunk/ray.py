"""Scale-out on Ray (`pip install 'structchunk-rag[ray]'`): the public entry point.

    import ray, structchunk.ray as scr
    files = ray.data.read_binary_files("s3://bucket/docs/", include_paths=True)
    result = scr.chunk_dataset(files, max_tokens=256)
    result.chunks.write_parquet("s3://bucket/chunks/")

The work is done in `structchunk.batch.ray_engine`, beside the local batch runner.
"""

from __future__ import annotations

from .batch.ray_engine import (
    CHANGE_SCHEMA,
    CHUNK_SCHEMA,
    ERROR_SCHEMA,
    PARENT_SCHEMA,
    ChunkedDataset,
    chunk_dataset,
    run_batch_on_ray,
)

__all__ = [
    "CHANGE_SCHEMA",
    "CHUNK_SCHEMA",
    "ERROR_SCHEMA",
    "PARENT_SCHEMA",
    "ChunkedDataset",
    "chunk_dataset",
    "run_batch_on_ray",
]
