"""The PDF reader's own layout: engines apart from the stages, and no import cycle.

The engines (parsers/pdf/engines/) read pages into `PageReading` values and know nothing
of the stages that make lines, tables and headings of them; the stages import the
engines' values, never the other way. Every import counts, those inside functions and
under `TYPE_CHECKING` too: a cycle hidden in a function is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

PDF = Path(__file__).resolve().parent.parent / "structchunk" / "parsers" / "pdf"

ENGINES_MAY_IMPORT = {"types", "structure", "cleanup", "inflate"}
"""What an engine module may import from parsers/pdf besides engines/ itself: the values
and the shared readers of the file's structure and text, no stage."""


def _name(path: Path) -> str:
    parts = path.relative_to(PDF).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in sorted(PDF.rglob("*.py"))}


def _imports(name: str) -> set[str]:
    """The modules of parsers/pdf that `name` imports (relative imports), with the
    packages an import runs first (importing `a.b.c` runs `a.b`)."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = [p for p in package if p]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        if node.level - 1 > len(package):
            continue  # above parsers/pdf
        base = package[: len(package) - (node.level - 1)]
        target = base + (node.module.split(".") if node.module else [])
        modules = [".".join([*target, alias.name]) for alias in node.names]
        modules = [m for m in modules if m in MODULES] or [".".join(target)]
        for module in modules:
            parts = module.split(".")
            for end in range(1, len(parts) + 1):
                step = ".".join(parts[:end])
                if step in MODULES and step != name and not name.startswith(step + "."):
                    found.add(step)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of `graph` (module -> the modules it imports), or [] when there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[name] = 2
        return []

    for name in graph:
        if name not in state and (found := visit(name)):
            return found
    return []


def test_the_pdf_reader_has_no_import_cycle() -> None:
    """Before: engines.py and pdfium_engine.py imported each other (one inside a
    function), and so did borderless.py and column_heads.py (for a type)."""
    cycle = _cycle({name: _imports(name) for name in MODULES})
    assert cycle == [], " -> ".join(cycle)


def test_the_engines_import_no_stage() -> None:
    engines = [name for name in MODULES if name.split(".")[0] == "engines"]
    assert {"engines.base", "engines.pdfium.engine", "engines.pdfplumber.engine"} <= set(engines)
    for name in engines:
        outside = {m for m in _imports(name) if m.split(".")[0] != "engines"}
        assert outside <= ENGINES_MAY_IMPORT, f"{name} imports {sorted(outside)}"


def test_imports_inside_functions_and_cycles_are_seen() -> None:
    assert "engines.pdfium.api" in _imports("engines.opening")  # inside `_repair`
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
