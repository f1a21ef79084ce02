"""Batch runs for data-prep pipelines: many files, a process pool, a manifest, per-file errors."""

from __future__ import annotations

from .run import BatchConfig, BatchReport, default_manifest, run_batch

__all__ = ["BatchConfig", "BatchReport", "default_manifest", "run_batch"]
