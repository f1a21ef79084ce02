"""The retrieval development set stays what its README says: every question's excerpt is
in its page's visible text, inside one block, with the counts and paths it claims.

`benchmarks/retrieval-dev/check_questions.py` checks that with the shared bench's own
normalisation, so it runs where the bench is (beside the shared corpus)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT, SHARED_CORPUS

DEV = ROOT / "benchmarks" / "retrieval-dev"
BENCH = next(
    (
        bench
        for bench in (
            ROOT.parent / "shared" / "bench",
            *([SHARED_CORPUS.parent / "bench"] if SHARED_CORPUS else []),
        )
        if (bench / "common.py").is_file()
    ),
    None,
)


@pytest.mark.skipif(BENCH is None, reason="the shared bench (../shared/bench) is not here")
def test_every_development_question_is_found_where_it_says() -> None:
    result = subprocess.run(
        [sys.executable, str(DEV / "check_questions.py"), str(DEV), "--bench", str(BENCH)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "total: 465 questions, 465 pass, 0 fail" in result.stdout


def test_every_site_names_its_sources_and_licence() -> None:
    sites = sorted({p.name for fmt in ("markdown", "html") for p in (DEV / fmt).iterdir()})
    licences = (DEV / "LICENSES.md").read_text(encoding="utf-8")
    for site in sites:
        assert (DEV / "sources" / f"{site}.md").is_file(), site
        assert f"| {site} |" in licences, site
    assert len(sites) == 9
