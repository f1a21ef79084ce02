"""errors.py opens with the exception tree (as httpx's `_exceptions.py` does); the tree
drawn there is the real class hierarchy, so it cannot go stale."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from conftest import ROOT

from structchunk import errors

_TREE_LINE = re.compile(r"^(?P<indent> *)- (?P<name>\w+): \S")

_HIERARCHY = """
import importlib, json, pkgutil
import structchunk
from structchunk.errors import StructChunkError

for module in pkgutil.walk_packages(structchunk.__path__, "structchunk."):
    if not module.name.endswith("__main__"):  # that one runs the command line
        importlib.import_module(module.name)

def walk(cls):
    for sub in cls.__subclasses__():
        if sub.__module__.startswith("structchunk."):
            yield sub.__name__, cls.__name__
            yield from walk(sub)

print(json.dumps(dict(walk(StructChunkError))))
"""
"""Imports every module of the package (in a process of its own, so this session's
imports stay as they are) and prints each error class's parent."""


def _drawn_parents() -> dict[str, str | None]:
    """Each class of the docstring's tree and the class it is indented under."""
    parents: dict[str, str | None] = {}
    open_at_depth: list[str] = []
    for line in (errors.__doc__ or "").splitlines():
        match = _TREE_LINE.match(line)
        if match is None:
            continue
        indent, name = len(match["indent"]), match["name"]
        assert indent % 2 == 0 and indent // 2 <= len(open_at_depth), line
        del open_at_depth[indent // 2 :]
        assert name not in parents, f"{name} is drawn twice"
        parents[name] = open_at_depth[-1] if open_at_depth else None
        open_at_depth.append(name)
    return parents


def test_the_docstring_draws_the_real_exception_tree() -> None:
    found = subprocess.run(
        [sys.executable, "-c", _HIERARCHY], capture_output=True, text=True, cwd=ROOT, check=True
    )
    real: dict[str, str | None] = {"StructChunkError": None, **json.loads(found.stdout)}
    assert _drawn_parents() == real
