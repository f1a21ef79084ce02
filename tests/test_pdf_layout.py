"""The PDF reader's own layout: engines apart from the stages, and no import cycle.

The engines (parsers/pdf/engines/) read pages into `PageReading` values and know nothing
of the stages that make lines, tables and headings of them; the stages import the
engines' values, never the other way. Every import counts, those inside functions and
under `TYPE_CHECKING` too: a cycle hidden in a function is still a cycle.
"""

from __future__ import annotations

from import_graph import cycle, graph

EDGES = graph()
PDF = "parsers.pdf."
ENGINES = "parsers.pdf.engines"

ENGINES_MAY_IMPORT = {"types", "structure", "cleanup", "inflate"}
"""What an engine module may import from parsers/pdf besides engines/ itself: the values
and the shared readers of the file's structure and text, no stage."""


def _pdf_imports(name: str) -> set[str]:
    """The modules of parsers/pdf that `name` imports, named below parsers/pdf."""
    return {m.removeprefix(PDF) for m in EDGES[name] if m.startswith(PDF)}


def test_the_pdf_reader_has_no_import_cycle() -> None:
    """Before: engines.py and pdfium_engine.py imported each other (one inside a
    function), and so did borderless.py and column_heads.py (for a type)."""
    pdf = {name: {m for m in edges if m.startswith(PDF)} for name, edges in EDGES.items()}
    found = cycle({name: targets for name, targets in pdf.items() if name.startswith(PDF)})
    assert found == [], " -> ".join(found)


def test_the_engines_import_no_stage() -> None:
    engines = [name for name in EDGES if name.startswith(ENGINES)]
    wanted = {"base", "pdfium.engine", "pdfplumber.engine"}
    assert {f"{ENGINES}.{name}" for name in wanted} <= set(engines)
    for name in engines:
        outside = {m for m in _pdf_imports(name) if not m.startswith("engines")}
        assert outside <= ENGINES_MAY_IMPORT, f"{name} imports {sorted(outside)}"


def test_imports_inside_functions_and_cycles_are_seen() -> None:
    assert "engines.pdfium.api" in _pdf_imports(f"{ENGINES}.opening")  # inside `_repair`
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
