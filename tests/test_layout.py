"""The package tree is the pipeline: each stage imports only the stages below it.

parsers → document tree → packing → records → api → batch → cli, as in DESIGN.md:
parsers never import the packer, the packer never imports a parser, and nothing below
the command line imports it. A new import that breaks the direction fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from import_graph import cycle, graph

PACKAGE = Path(__file__).resolve().parent.parent / "structchunk"

FOUNDATION = {"document", "options", "errors", "ids", "markup", "progress", "processes"}
ALLOWED: dict[str, set[str]] = {
    "document": set(),
    "errors": set(),
    "ids": set(),
    "markup": set(),
    "progress": set(),
    "processes": set(),
    "options": {"ids"},
    "parsers": FOUNDATION,
    "sentences": FOUNDATION,
    "tokenizers": FOUNDATION,
    "records": FOUNDATION,
    "offsets": FOUNDATION,
    "remote": FOUNDATION | {"parsers", "records"},
    "packing": FOUNDATION | {"sentences", "tokenizers"},
    "api": FOUNDATION
    | {"parsers", "packing", "records", "offsets", "sentences", "tokenizers", "remote"},
    "batch": FOUNDATION | {"api", "parsers", "packing", "records", "tokenizers", "remote"},
    "quality": FOUNDATION | {"api", "batch", "parsers", "packing", "records", "tokenizers"},
    "cli": FOUNDATION
    | {"api", "batch", "parsers", "records", "sentences", "tokenizers", "quality"},
    "ray": {"batch"},
    "integrations": FOUNDATION | {"api", "batch", "parsers", "records"},
    "__init__": FOUNDATION | {"api", "records", "sentences"},
    "__main__": {"cli"},
}
"""For each top-level entry of the package, the entries it may import."""


def _area(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def _imported_areas(path: Path) -> set[str]:
    """Top-level entries of structchunk that `path` imports (relative or absolute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = list(path.relative_to(PACKAGE).with_suffix("").parts)
    package = here if here[-1] == "__init__" else here[:-1]
    if package and package[-1] == "__init__":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = base + (node.module.split(".") if node.module else [])
            if target:
                found.add(target[0])
            else:  # `from . import errors`: the names are the entries
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("structchunk."):
            found.add((node.module or "").split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("structchunk."):
                    found.add(alias.name.split(".")[1])
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_imports_flow_one_way(path: Path) -> None:
    area = _area(path)
    assert area in ALLOWED, f"{area} is a new top-level entry: give it a place in ALLOWED"
    wrong = _imported_areas(path) - ALLOWED[area] - {area, "__version__"}
    assert not wrong, f"{path.relative_to(PACKAGE)} imports {sorted(wrong)}"


def test_the_top_level_reads_as_the_pipeline() -> None:
    entries = {
        p.stem for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()
    }
    assert entries == set(ALLOWED), "update ALLOWED, docs/design.md and the README layout"


def test_no_import_goes_round_in_a_circle() -> None:
    """Every import counts, those inside functions and under `TYPE_CHECKING` too. Before
    #42: parsers/pdf's engines.py and pdfium_engine.py imported each other, so did
    borderless.py and column_heads.py, and quality's outcomes.py and retrieval.py."""
    found = cycle(graph())
    assert found == [], " -> ".join(found)
