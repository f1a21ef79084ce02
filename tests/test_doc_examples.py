"""The examples in README.md and docs/*.md run as written.

A fenced ```bash or ```python block right under the line `<!-- test: run -->` is run
here, each in a fresh folder holding copies of the repository's `samples/` and `docs/`
(the folders the examples name) and a `manuals/` folder with one PDF. `pip install`
steps are skipped (`pip install . && structchunk …` runs the rest of its line): the
package under test is installed already. A block that fails
fails this test with its output, so an example cannot drift from the code.

A plain ``` block right under `<!-- test: transcript -->` is a terminal session: its
first line is `$ structchunk …` (run in the repository's root) and the lines after it
are what that prints, compared exactly — so a page that shows output shows today's.

(docs/vector-stores.md's Python recipe is run by tests/test_integrations_docs.py, which
stands in an embedding model for the one a user would load.)
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MARK = "<!-- test: run -->"
SEPARATELY_RUN = {"vector-stores.md"}
"""Pages whose blocks build on each other: their own test runs them in one namespace."""
_BLOCK = re.compile(re.escape(MARK) + r"\s*\n```(bash|python)\n(.*?)\n```", re.DOTALL)
TRANSCRIPT = "<!-- test: transcript -->"
_TRANSCRIPT = re.compile(
    re.escape(TRANSCRIPT) + r"\s*\n```\n\$ (structchunk [^\n]*)\n(.*?)```", re.DOTALL
)


def marked(
    pattern: re.Pattern[str], skip: set[str] | frozenset[str] = frozenset()
) -> list[tuple[str, str, str]]:
    """(where, first group, second group) of every match of `pattern` in README.md and
    docs/*.md, pages named in `skip` left out."""
    found = []
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in [p for p in pages if p.name not in skip]:
        text = page.read_text(encoding="utf-8")
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", match.group(1), match.group(2)))
    return found


BLOCKS = marked(_BLOCK, SEPARATELY_RUN)  # (where, language, code)


def test_the_docs_mark_their_runnable_examples() -> None:
    assert len(BLOCKS) >= 4, "the marker was renamed or the examples lost their marks"


def _workspace(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    (tmp_path / "manuals").mkdir()
    shutil.copy(ROOT / "samples" / "rust-data-types.pdf", tmp_path / "manuals")
    return tmp_path


def _installed(line: str) -> str:
    """A bash line with its `pip install … &&` step taken off (`pip install . &&
    structchunk convert …` runs the convert); a line that only installs is a no-op."""
    if not line.startswith("pip install"):
        return line
    _, _, rest = line.partition(" && ")
    return rest or ":"


@pytest.mark.parametrize(("where", "language", "code"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_a_documented_example_runs_as_written(
    where: str, language: str, code: str, tmp_path: Path
) -> None:
    folder = _workspace(tmp_path)
    if language == "bash":
        lines = [_installed(line) for line in code.splitlines()]
        bin_dir = str(Path(sys.executable).parent)  # where the structchunk command is
        command = ["bash", "-euo", "pipefail", "-c", "\n".join(lines)]
        env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    else:
        command, env = [sys.executable, "-c", code], {"HOME": str(tmp_path)}
    result = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert result.returncode == 0, f"{where} failed:\n{result.stdout}\n{result.stderr}"


TRANSCRIPTS = marked(_TRANSCRIPT)  # (where, command, shown output)


def test_the_docs_mark_their_terminal_sessions() -> None:
    assert TRANSCRIPTS, "the transcript marker was renamed or lost"


@pytest.mark.parametrize(
    ("where", "command", "shown"), TRANSCRIPTS, ids=[t[0] for t in TRANSCRIPTS]
)
def test_a_documented_terminal_session_prints_what_it_shows(
    where: str, command: str, shown: str
) -> None:
    words = command.split()
    result = subprocess.run(
        [sys.executable, "-m", "structchunk", *words[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, f"{where} failed:\n{result.stderr}"
    assert result.stderr + result.stdout == shown, where
