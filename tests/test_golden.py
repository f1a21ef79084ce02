"""Golden JSONL for every sample: a changed chunk shows up as a one-line diff.

Regenerate on purpose with `STRUCTCHUNK_UPDATE_GOLDEN=1 pytest tests/test_golden.py`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.parsers import EXTENSIONS, detect_format
from structchunk.records import to_json_line

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("STRUCTCHUNK_UPDATE_GOLDEN") == "1"
GOLDEN_OPTIONS = ChunkOptions(max_tokens=128)
"""Small enough that the samples' larger sections, tables and code get split."""


NOT_SAMPLES = ("LICENSES", "README")


def sample_files() -> list[Path]:
    return sorted(
        p
        for p in SAMPLES.iterdir()
        if p.suffix.lower() in EXTENSIONS and not p.stem.upper().startswith(NOT_SAMPLES)
    )


def golden_path(sample: Path) -> Path:
    return GOLDEN / detect_format(sample.name) / f"{sample.stem}.jsonl"


def render(sample: Path) -> str:
    source = sample.relative_to(ROOT).as_posix()
    chunks = iter_chunks_from_bytes(sample.read_bytes(), source, None, GOLDEN_OPTIONS)
    return "".join(to_json_line(chunk) for chunk in chunks)


def test_update_flag_is_not_left_on_in_ci() -> None:
    assert not (UPDATE and os.environ.get("CI")), (
        "STRUCTCHUNK_UPDATE_GOLDEN=1 must never be set in CI: goldens would never fail"
    )


@pytest.mark.parametrize("sample", sample_files(), ids=lambda p: p.name)
def test_sample_matches_golden(sample: Path) -> None:
    expected_file = golden_path(sample)
    actual = render(sample)
    if UPDATE:
        expected_file.parent.mkdir(parents=True, exist_ok=True)
        expected_file.write_text(actual, encoding="utf-8")
    assert expected_file.exists(), (
        f"no golden for {sample.name}: run with STRUCTCHUNK_UPDATE_GOLDEN=1"
    )
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    lines = actual.splitlines()
    for number, (want, got) in enumerate(zip(expected, lines), start=1):
        assert got == want, f"{sample.name}: record {number} differs from {expected_file.name}"
    assert len(lines) == len(expected), f"{sample.name}: record count changed"


def test_every_sample_has_a_golden_and_no_golden_is_orphaned() -> None:
    wanted = {golden_path(s) for s in sample_files()}
    present = set(GOLDEN.rglob("*.jsonl"))
    assert not (present - wanted), f"golden files without a sample: {sorted(present - wanted)}"
