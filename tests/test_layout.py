"""The package tree is the pipeline: each stage imports only the stages below it.

parsers → document tree → packing → records → api → batch → cli, as in DESIGN.md:
parsers never import the packer, the packer never imports a parser, and nothing below
the command line imports it. A new import that breaks the direction fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from import_graph import cycle, graph, module_name

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
    "languages": FOUNDATION,
    "records": FOUNDATION,
    "offsets": FOUNDATION,
    "remote": FOUNDATION | {"parsers", "records"},
    "packing": FOUNDATION | {"sentences", "tokenizers", "languages"},
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


EDGES = graph(PACKAGE)


def _area(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def _imported_areas(path: Path) -> set[str]:
    """Top-level entries of structchunk that `path` imports (relative or absolute)."""
    return {module.split(".")[0] for module in EDGES[module_name(path)]}


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
    found = cycle(EDGES)
    assert found == [], " -> ".join(found)
