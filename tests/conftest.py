"""Shared fixtures: where the real-document corpus is, and small helpers."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCAL_CORPUS = ROOT / "tests" / "corpus"
"""A small licensed subset of real documents kept in the project (see its LICENSES.md)."""


def shared_corpus() -> Path | None:
    """The full evaluation corpus: $STRUCTCHUNK_CORPUS, else ../shared/corpus beside the repo."""
    env = os.environ.get("STRUCTCHUNK_CORPUS")
    candidates = [Path(env)] if env else []
    candidates.append(ROOT.parent / "shared" / "corpus")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


SHARED_CORPUS = shared_corpus()
NO_CORPUS_REASON = (
    "the shared corpus is not here: set STRUCTCHUNK_CORPUS or place it at "
    "../shared/corpus (the tests/corpus subset still runs)"
)


def corpus_files(subdir: str, pattern: str) -> list[Path]:
    """Files of the shared corpus for parametrisation ([] when the corpus is absent)."""
    if SHARED_CORPUS is None:
        return []
    return sorted((SHARED_CORPUS / subdir).rglob(pattern))


def corpus_params(subdir: str, pattern: str) -> list[object]:
    """pytest params over corpus files, or one skipped param saying why they are missing."""
    files = corpus_files(subdir, pattern)
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason=NO_CORPUS_REASON))]
    base = SHARED_CORPUS
    assert base is not None
    return [pytest.param(f, id=f.relative_to(base).as_posix()) for f in files]


@pytest.fixture
def corpus() -> Path:
    if SHARED_CORPUS is None:
        pytest.skip(NO_CORPUS_REASON)
    return SHARED_CORPUS


def load_benchmark(name: str) -> ModuleType:
    """A script of `benchmarks/` imported as a module, so tests can call its functions."""
    path = ROOT / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up while it is built
    spec.loader.exec_module(module)
    return module


def selects_marker(markexpr: str, marker: str) -> bool:
    """Whether a `-m` expression names `marker` other than as `not marker`."""
    return bool(re.search(rf"\b{marker}\b", re.sub(rf"\bnot\s+{marker}\b", "", markexpr)))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`fuzz` tests are opt-in: skipped unless `-m` names them (a plain `pytest`, or
    `-m "not slow"` or `-m slow`, never starts the long run)."""
    if selects_marker(config.getoption("markexpr") or "", "fuzz"):
        return
    skip = pytest.mark.skip(reason="the large fuzz run is opt-in: pytest -m fuzz")
    for item in items:
        if item.get_closest_marker("fuzz") is not None:
            item.add_marker(skip)
