"""The packing steps' imports: shared values and rules live beside the steps, not in them.

A step module may use another step's own work (step 1's `Head`, step 3's grouping), but
what several steps share — the unit, the room, the split context, the lead-in rule —
lives in a module that imports no step (test_layout.py: no import cycle anywhere).
"""

from __future__ import annotations

import ast
import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from structchunk import packing
from structchunk.document import Provenance
from structchunk.packing.room import Room
from structchunk.packing.units import Unit

PACKING = Path(packing.__file__).resolve().parent
STEPS = re.findall(r"^    (\w+)\.py +(\d) ", packing.__doc__ or "", re.MULTILINE)
STEP_MODULES = {name for name, _ in STEPS}
BESIDE = {"units", "room", "context", "lead_ins", "render"}
"""What the steps share: each imports no step module."""


def _imports(module: str) -> set[str]:
    """The sibling modules `packing/<module>.py` imports."""
    tree = ast.parse((PACKING / f"{module}.py").read_text(encoding="utf-8"))
    return {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
    }


def test_the_docstring_lists_every_step_in_order() -> None:
    assert [int(number) for _, number in STEPS] == list(range(8))
    assert all((PACKING / f"{name}.py").exists() for name in STEP_MODULES | BESIDE)


@pytest.mark.parametrize("module", sorted(BESIDE))
def test_what_the_steps_share_imports_no_step(module: str) -> None:
    assert not _imports(module) & STEP_MODULES


def test_the_lead_in_rule_is_in_lead_ins_alone() -> None:
    """It was in three steps: splitters defined the lead-in, grouping the room it may
    take, and overlap imported both steps for its own check."""
    for path in PACKING.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.stem != "lead_ins":
            assert "MAX_LEAD_IN_ROOM" not in text, path.name
            assert 'endswith(":")' not in text, path.name
    assert _imports("overlap") & STEP_MODULES == set()
    assert _imports("grouping") & STEP_MODULES == set()


def test_units_and_rooms_are_built_by_keyword() -> None:
    with pytest.raises(TypeError):
        Unit("text", 1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        Room(256, 4, 252)  # type: ignore[misc]
    unit = Unit(text="text", tokens=1, prov=Provenance())
    assert (unit.sep, unit.kind) == ("\n\n", "paragraph")
    room = Room(limit=256, head=4, content=252)
    with pytest.raises(FrozenInstanceError):
        room.limit = 10  # type: ignore[misc]
