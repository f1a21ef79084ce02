"""The package's import graph, read from the source: every `from . import`,
`from structchunk… import` and `import structchunk…`, inside functions and under
`TYPE_CHECKING` too (a cycle hidden in a function is still a cycle), with the packages
an import runs first (importing `a.b.c` runs `a.b`)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "structchunk"


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """`parsers.pdf.page` for structchunk/parsers/pdf/page.py ("" for the root package)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _targets(node: ast.ImportFrom, package: list[str]) -> list[list[str]]:
    """The dotted names (as parts, relative to the package root) an import statement
    may name: the module itself and each imported name as a submodule."""
    if node.level:
        if node.level - 1 > len(package):
            return []
        base = package[: len(package) - (node.level - 1)]
    elif node.module and node.module.split(".")[0] == "structchunk":
        base = []
    else:
        return []
    module = (node.module or "").split(".")
    if not node.level:
        module = module[1:]
    target = base + [part for part in module if part]
    return [target, *([*target, alias.name] for alias in node.names)]


def imports(name: str, known: dict[str, Path]) -> set[str]:
    """The package's modules that module `name` imports, and the packages that run first."""
    path = known[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = [part for part in package if part]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            targets = _targets(node, package)
        elif isinstance(node, ast.Import):  # `import structchunk.parsers.pdf`
            names = [alias.name.split(".") for alias in node.names]
            targets = [parts[1:] for parts in names if parts[0] == "structchunk"]
        else:
            continue
        for target in targets:
            for end in range(1, len(target) + 1):
                step = ".".join(target[:end])
                if step in known and step != name and not name.startswith(step + "."):
                    found.add(step)
    return found


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, known) for name in known}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """One cycle of `edges` (module -> the modules it imports), or [] when there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for target in sorted(edges[name]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[name] = 2
        return []

    for name in edges:
        if name not in state and (found := visit(name)):
            return found
    return []
