"""Every install hint names the real distribution and a real extra.

`structchunk` on the package index is another project, so a hint saying `pip install
'structchunk[parquet]'` installs it: this package's distribution is `structchunk-rag`
(`errors.DISTRIBUTION`), its import package and command `structchunk`. The hints in
README.md, docs/ and the package's own messages are read as text and checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from structchunk.errors import DISTRIBUTION, install_hint

ROOT = Path(__file__).resolve().parent.parent
PIP_INSTALL = re.compile(r"pip install\s+((?:['\"]?[\w.\-\[\],]+['\"]?\s*)+)")
NAMED = re.compile(r"""^['"]?(structchunk[\w\-]*)(?:\[([\w,\-]+)\])?['"]?$""")
CLONE = re.compile(r"""^['"]?\.(?:\[([\w,\-]+)\])?['"]?$""")


def _texts() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "structchunk").rglob("*.py")),
    ]


def _hints() -> list[tuple[str, str]]:
    """(where, package spec) for every word after a `pip install` in the texts."""
    found = []
    for path in _texts():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in PIP_INSTALL.finditer(line):
                for word in match.group(1).split():
                    found.append((f"{path.relative_to(ROOT)}:{number}", word))
    return found


def _extras() -> set[str]:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION
    return set(project["optional-dependencies"])


def test_the_hint_helper_names_the_distribution_and_the_clone() -> None:
    assert install_hint("parquet") == (
        "pip install 'structchunk-rag[parquet]' (in a clone: pip install '.[parquet]')"
    )


def test_every_install_hint_names_the_real_distribution_and_extra() -> None:
    extras = _extras()
    hints = _hints()
    assert len(hints) > 20  # the texts were read
    wrong = []
    for where, word in hints:
        named, clone = NAMED.match(word), CLONE.match(word)
        if named is not None:
            name, wanted = named.group(1), named.group(2)
        elif clone is not None:
            name, wanted = DISTRIBUTION, clone.group(1)
        else:
            continue  # another package (`chromadb`, `sentence-transformers`)
        if name != DISTRIBUTION:
            wrong.append(f"{where}: {word} (the distribution is {DISTRIBUTION})")
        for extra in (wanted or "").split(","):
            if extra and extra not in extras:
                wrong.append(f"{where}: {word} (no extra {extra!r})")
    assert wrong == []


def test_a_hint_for_the_old_name_is_caught() -> None:
    """The check above would see the mistake the issue found."""
    line = "Parquet output needs pyarrow: pip install 'structchunk[parquet]'"
    match = PIP_INSTALL.search(line)
    assert match is not None
    named = NAMED.match(match.group(1).split()[0])
    assert named is not None and named.group(1) != DISTRIBUTION
