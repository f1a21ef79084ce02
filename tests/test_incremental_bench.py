"""benchmarks/incremental.py: how it reads a file's revisions from git and what it counts.

The repositories it replays live outside the project; these tests build a small one.
The peers' part needs LangChain and LlamaIndex (the peers' virtualenv) and is not run here.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType

from conftest import load_benchmark

SECTIONS = [f"## Part {n}\n\n" + " ".join(f"w{n}x{i}" for i in range(150)) + "\n" for n in range(4)]


def _bench() -> ModuleType:
    return load_benchmark("incremental")


def _commit(repo: Path, message: str) -> None:
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm",
         message],
        check=True,
    )  # fmt: skip


def _history(tmp_path: Path) -> Path:
    """A page written, edited, renamed unchanged, a neighbour edited, the page edited again."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "docs").mkdir()
    page = repo / "docs" / "page.md"
    page.write_text("# Page\n\n" + "".join(SECTIONS))
    _commit(repo, "write")
    page.write_text("# Page\n\n" + "".join(SECTIONS).replace("w2x7 ", "edited "))
    _commit(repo, "edit part 2")
    subprocess.run(["git", "-C", str(repo), "mv", "docs/page.md", "docs/guide.md"], check=True)
    _commit(repo, "rename")
    (repo / "docs" / "other.md").write_text("# Other\n")
    _commit(repo, "a neighbour")
    guide = repo / "docs" / "guide.md"
    guide.write_text(guide.read_text() + "## Part 9\n\nA new closing section.\n")
    _commit(repo, "add part 9")
    return repo


def test_versions_follow_a_rename_oldest_first_and_skip_unchanged_bytes(tmp_path: Path) -> None:
    bench = _bench()
    repo = _history(tmp_path)
    target = bench.Target("t", str(repo / ".git"), "HEAD", "docs/guide.md")
    versions = bench.file_versions(target, 20)
    texts = [v.data.decode() for v in versions]
    assert len(versions) == 3  # the rename kept the bytes: no version of its own
    assert "w2x7" in texts[0] and "edited" in texts[1] and "Part 9" in texts[2]
    assert [v.data for v in bench.file_versions(target, 1)] == [v.data for v in versions[1:]]


def test_a_glob_picks_the_files_at_the_commit(tmp_path: Path) -> None:
    bench = _bench()
    repo = _history(tmp_path)
    args = bench.arguments().parse_args(["--git", str(repo / ".git"), "--glob", "docs/g*.md"])
    found = bench.targets(args)
    assert [t.path for t in found] == ["docs/guide.md"]


def test_the_minimum_counts_new_texts_as_a_multiset() -> None:
    bench = _bench()
    assert bench.new_texts(["a", "b"], ["a", "b"]) == 0
    assert bench.new_texts(["a"], ["a", "a"]) == 1
    assert bench.new_texts(["a", "b"], ["c"]) == 1


def test_structchunk_counts_ids_the_previous_version_lacks(tmp_path: Path) -> None:
    bench = _bench()
    repo = _history(tmp_path)
    target = bench.Target("t", str(repo / ".git"), "HEAD", "docs/guide.md")
    rows = list(bench.structchunk_part(target, bench.file_versions(target, 20)))
    assert [row["rev"] for row in rows] == [
        v.rev for v in bench.file_versions(target, 20)[1:]
    ]  # one row per edit, the first version indexed uncounted
    for row in rows:
        assert 1 <= row["minimum"] <= row["structchunk"] <= row["structchunk_chunks"]
    assert rows[0]["minimum"] < rows[0]["structchunk_chunks"]  # one section of five edited


def test_the_table_divides_by_the_minimum_per_repository_and_overall() -> None:
    bench = _bench()
    row = {"minimum": 2, "structchunk": 6, "langchain": 3, "llamaindex": 4}
    sizes = {"structchunk_chunks": 6, "langchain_chunks": 5, "langchain_min": 2}
    rows = [{"repo": repo, "path": "a.md", "rev": "r"} | row | sizes | {"llamaindex_chunks": 4,
            "llamaindex_min": 2} for repo in ("x/a", "x/b")]  # fmt: skip
    lines = bench.table(rows).splitlines()
    assert lines[2] == "| x/a | 1 | 1 | 2 | 6 | 3.0 | 3 | 1.5 | 4 | 2.0 |"
    assert lines[4] == "| all | 2 | 2 | 4 | 12 | 3.0 | 6 | 1.5 | 8 | 2.0 |"
