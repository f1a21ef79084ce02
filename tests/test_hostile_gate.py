"""The hostile-input gate: every case of hostile_cases.py, run as a whole command.

Each case is converted by `structchunk convert` in a fresh process with the default
options (a case may add a few), and must end as it says — converted, or one line on
stderr naming the file — within its wall-time and peak-memory ceilings. Peak memory is
the kernel's count for the command and every process it waited for (`wait4`), so a
worker or a page reader that took the memory is counted too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hostile_cases import HostileCase, all_cases, run_measured

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="wait4's peak memory")


def _params() -> list[object]:
    return [
        pytest.param(case, id=case.name, marks=[pytest.mark.slow] if case.slow else [])
        for case in all_cases()
    ]


@linux_only
@pytest.mark.parametrize("case", _params())
def test_a_hostile_file_keeps_its_bounds(case: HostileCase, tmp_path: Path) -> None:
    path = tmp_path / case.name
    case.build(path)
    out = tmp_path / "chunks.jsonl"
    command = case.command(path, out)
    measured = run_measured(command, tmp_path)
    code, seconds, peak_mb, stderr = (
        measured.code,
        measured.seconds,
        measured.peak_mb,
        measured.stderr,
    )
    lines = [line for line in stderr.splitlines() if line.startswith("structchunk: ")]
    assert "Traceback" not in stderr, stderr[-2000:]
    assert seconds <= case.seconds, f"{seconds:.1f} s (ceiling {case.seconds} s)"
    assert peak_mb <= case.peak_mb, f"{peak_mb} MB peak (ceiling {case.peak_mb} MB)"
    errors = [line for line in lines if line.startswith("structchunk: error: ")]
    if case.outcome == "converted" or (case.outcome == "either" and code == 0):
        assert code == 0 and not errors, stderr[-2000:]
        with out.open(encoding="utf-8") as records:  # a line at a time: a 9 MB case's
            for record in records:  # records at once took more than its conversion
                assert json.loads(record)["source"] == str(path)
                assert not any(text in record for text in case.never_in_output)
    else:
        assert code == 1, stderr[-2000:]
        assert len(errors) == 1 and case.name in errors[0], stderr[-2000:]
    said = " ".join(lines)
    for phrase in case.says:
        assert phrase in said, stderr[-2000:]


def test_every_format_and_every_pdf_engine_has_hostile_cases() -> None:
    """A new format, or a new PDF engine, joins the gate with its bounds checked."""
    from pathlib import PurePath

    from structchunk.options import ChunkOptions
    from structchunk.parsers import EXTENSIONS, FORMATS

    cases = all_cases()
    gated = {EXTENSIONS[PurePath(case.name).suffix.lower()] for case in cases}
    assert gated == set(FORMATS), f"formats with no hostile case: {set(FORMATS) - gated}"
    engines = {
        case.args[case.args.index("--pdf-engine") + 1] if "--pdf-engine" in case.args else "pdfium"
        for case in cases
        if case.name.endswith(".pdf") and "bomb" in case.name
    }
    pdf_engine = ChunkOptions.model_fields["pdf_engine"].annotation
    assert engines == set(pdf_engine.__args__), engines  # type: ignore[union-attr]
