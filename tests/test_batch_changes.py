"""The plan of a batch run (`--changes`, `run_batch(...).changes`): which chunk ids a
store must add, delete and keep since the last completed run. Every check holds for any
id rule: applying the plan to the last completed run's ids gives this run's ids, and the
adds are exactly the new ids that were not there before."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from structchunk import ChunkOptions
from structchunk.batch import BatchConfig, BatchReport, run_batch
from structchunk.batch.changes import Change, ChangePlan, read_changes
from structchunk.batch.inputs import expand_inputs
from structchunk.errors import OptionsError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "markdown"
FILES = ["fastapi-cors.md", "rust-publishing.md", "awsdocs-rds-limits.md"]
OPTIONS = ChunkOptions(max_tokens=96)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in FILES:
        shutil.copy(CORPUS / name, folder / name)
    return folder


def run(docs: Path, folder: Path, **config: object) -> BatchReport:
    """A run into `folder` with its manifest there, unless `config` says otherwise."""
    items, _ = expand_inputs([str(docs)], None)
    settings: dict[str, object] = {"out_dir": folder, "manifest": folder / ".manifest.jsonl"}
    settings.update(config)
    return run_batch(items, OPTIONS, BatchConfig(**settings))  # type: ignore[arg-type]


def ids_in(outputs: Iterable[Path]) -> set[str]:
    return {json.loads(line)["id"] for path in outputs for line in path.read_text().splitlines()}


def out_ids(out: Path) -> set[str]:
    return ids_in(out.rglob("*.md.jsonl"))


def applied(store: set[str], changes: Iterable[Change]) -> set[str]:
    """What a store keyed by id holds after following the plan."""
    changes = list(changes)
    assert {c.id for c in changes if c.op != "add"} <= store | {
        c.id for c in changes if c.op == "delete"
    }
    return (store - {c.id for c in changes if c.op == "delete"}) | {
        c.id for c in changes if c.op == "add"
    }


def check_plan(plan: ChangePlan | None, old: set[str], new: set[str]) -> None:
    assert plan is not None
    changes = list(plan)
    assert {c.id for c in changes if c.op == "add"} == new - old
    assert {c.id for c in changes if c.op == "delete"} == old - new
    assert {c.id for c in changes if c.op == "keep"} == old & new
    assert len(changes) == len({c.id for c in changes})  # one line per id
    assert applied(old, changes) == new
    assert plan.counts == {"add": len(new - old), "delete": len(old - new), "keep": len(old & new)}


def edit_one_paragraph(path: Path) -> None:
    text = path.read_text()
    paragraph = next(p for p in text.split("\n\n") if p[:1].isalpha() and len(p) > 80)
    path.write_text(text.replace(paragraph, paragraph + " An edit.", 1))


def test_a_rerun_on_the_same_bytes_is_all_keep_and_the_plan_file_is_deterministic(
    docs: Path, tmp_path: Path
) -> None:
    out, plan = tmp_path / "out", tmp_path / "changes.jsonl"
    first = run(docs, out, changes=plan)
    ids = out_ids(out)
    assert first.changes is not None and first.changes.counts == {
        "add": len(ids),
        "delete": 0,
        "keep": 0,
    }
    first_lines = plan.read_text()
    again = run(docs, out, changes=plan)
    assert again.skipped == len(FILES)  # unchanged files are not chunked again
    check_plan(again.changes, ids, ids)
    keeps = plan.read_text()
    assert keeps == first_lines.replace('"op": "add"', '"op": "keep"')
    assert [c.source for c in read_changes(plan)] == sorted(c.source for c in read_changes(plan))


def test_an_edit_adds_and_deletes_exactly_the_ids_that_changed(docs: Path, tmp_path: Path) -> None:
    out, plan = tmp_path / "out", tmp_path / "changes.jsonl"
    run(docs, out)
    old = out_ids(out)
    edit_one_paragraph(docs / "rust-publishing.md")
    report = run(docs, out, changes=plan)
    assert (report.ok, report.skipped) == (1, 2)
    new = out_ids(out)
    check_plan(report.changes, old, new)
    assert list(read_changes(plan)) == list(report.changes or [])
    # an edited file's lines: adds, then deletes, then keeps, each in chunk order
    lines = [c for c in read_changes(plan) if c.source == "rust-publishing.md"]
    ops = [c.op for c in lines]
    assert ops == sorted(ops, key=["add", "delete", "keep"].index)
    records = (out / "rust-publishing.md.jsonl").read_text().splitlines()
    order = [json.loads(line)["id"] for line in records]
    adds = [c.id for c in lines if c.op == "add"]
    assert adds == [i for i in order if i in set(adds)]


def test_deleted_inputs_are_deletes_with_prune_and_for_one_output_file(
    docs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run(docs, out)
    before = out_ids(out)
    gone = ids_in([out / "fastapi-cors.md.jsonl"])
    (docs / "fastapi-cors.md").unlink()
    kept = run(docs, out)  # its output stays without --prune: so do its chunks
    check_plan(kept.changes, before, before)
    pruned = run(docs, out, prune=True)
    check_plan(pruned.changes, before, before - gone)
    assert {c.source for c in pruned.changes or [] if c.op == "delete"} == {"fastapi-cors.md"}

    one = tmp_path / "all.jsonl"
    manifest = tmp_path / "state" / "all.manifest.jsonl"
    shutil.copy(CORPUS / "fastapi-cors.md", docs / "fastapi-cors.md")
    run(docs, out, out_dir=None, out=str(one), manifest=manifest)
    (docs / "fastapi-cors.md").unlink()
    report = run(docs, out, out_dir=None, out=str(one), manifest=manifest)
    check_plan(report.changes, before, before - gone)


def test_a_file_that_fails_now_has_its_chunks_deleted(docs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(docs, out)
    before = out_ids(out)
    gone = ids_in([out / "rust-publishing.md.jsonl"])
    (docs / "rust-publishing.md").write_bytes(bytes(range(256)) * 8)  # binary: fails
    report = run(docs, out)
    assert report.failed == 1
    check_plan(report.changes, before, before - gone)


def test_changes_without_a_manifest_is_refused(docs: Path, tmp_path: Path) -> None:
    with pytest.raises(OptionsError, match="needs a manifest"):
        run(
            docs,
            tmp_path,
            out_dir=None,
            out=str(tmp_path / "o.jsonl"),
            manifest=None,
            changes=tmp_path / "c.jsonl",
        )


def test_a_manifest_without_ids_converts_again_and_reads_the_old_ids_from_outputs(
    docs: Path, tmp_path: Path
) -> None:
    """A manifest written before ids were kept (version 1): its entries are converted
    again, and the plan's start is read from their outputs before they are replaced."""
    out = tmp_path / "out"
    run(docs, out)
    old = out_ids(out)
    manifest = out / ".manifest.jsonl"
    lines = []
    for line in manifest.read_text().splitlines():
        record = json.loads(line)
        if record.pop("commit", False):
            continue
        record.pop("ids")
        lines.append(json.dumps({**record, "v": 1}))
    manifest.write_text("\n".join(lines) + "\n")
    edit_one_paragraph(docs / "rust-publishing.md")
    report = run(docs, out)
    assert report.ok == len(FILES)
    check_plan(report.changes, old, out_ids(out))


KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from structchunk import ChunkOptions
    from structchunk.batch import BatchConfig, run_batch
    from structchunk.batch.inputs import expand_inputs
    from structchunk.batch.manifest import Manifest

    docs, out, when = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    seen = []

    def progress(outcome, size):  # called before the outcome is recorded
        if outcome is not None:
            seen.append(outcome)
        if when == "after-one" and len(seen) == 2:  # the first edited file is recorded
            os.kill(os.getpid(), signal.SIGKILL)

    if when == "before-commit":
        Manifest.commit = lambda self: os.kill(os.getpid(), signal.SIGKILL)
    items, _ = expand_inputs([str(docs)], None)
    config = BatchConfig(  # in this process: no worker outlives it holding the lock
        out_dir=out, manifest=out / ".manifest.jsonl", max_memory_mb=0, jobs=1
    )
    run_batch(items, ChunkOptions(max_tokens=96), config, progress=progress)
    """
)


@pytest.mark.parametrize("when", ["after-one", "before-commit"])
def test_a_run_killed_with_sigkill_leaves_the_next_plan_exact(
    docs: Path, tmp_path: Path, when: str
) -> None:
    """kill -9 after the edited file was written and recorded (or after every output and
    the plan, just before the commit): the rerun's plan still starts from the last
    completed run, so a store that followed every completed run's plan ends exact."""
    out, plan = tmp_path / "out", tmp_path / "changes.jsonl"
    run(docs, out)
    store = out_ids(out)
    edit_one_paragraph(docs / "rust-publishing.md")
    edit_one_paragraph(docs / "fastapi-cors.md")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, str(docs), str(out), when], env=env, check=False
    )
    assert killed.returncode == -signal.SIGKILL
    assert out_ids(out) != store  # it had finished something
    report = run(docs, out, changes=plan)
    assert report.skipped >= 1  # what the killed run finished is not chunked again
    check_plan(report.changes, store, out_ids(out))
    assert applied(store, read_changes(plan)) == out_ids(out)


ID = st.sampled_from([f"id{n}" for n in range(12)])
STATE = st.dictionaries(
    st.sampled_from(["a.md", "b.md", "c/d.md"]), st.lists(ID, unique=True, max_size=6)
)


@given(STATE, STATE)
def test_any_plan_turns_the_old_ids_into_the_new_ones(
    before: dict[str, list[str]], after: dict[str, list[str]]
) -> None:
    """For any two states (ids may even repeat across sources, as they do for identical
    files under an id rule that ignores the path), one line per id, applied it gives the
    new set, and the order is by source, then op."""
    plan = ChangePlan(before, after)
    old = {i for ids in before.values() for i in ids}
    new = {i for ids in after.values() for i in ids}
    check_plan(plan, old, new)
    keys = [(c.source, ["add", "delete", "keep"].index(c.op)) for c in plan]
    assert keys == sorted(keys)
    assert list(plan) == list(ChangePlan(dict(reversed(before.items())), after))


def test_the_command_writes_the_plan_counts_it_and_refuses_it_without_a_manifest(
    docs: Path, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from structchunk.cli import cli

    runner = CliRunner()
    plan = tmp_path / "changes.jsonl"
    args = ["convert", str(docs), "--max-tokens", "96", "--changes", str(plan)]
    first = runner.invoke(cli, [*args, "--out-dir", str(tmp_path / "out")])
    assert first.exit_code == 0, first.output
    adds = sum(1 for _ in read_changes(plan))
    assert f"changes: {adds} add, 0 delete, 0 keep" in first.stderr
    again = runner.invoke(cli, [*args, "--out-dir", str(tmp_path / "out")])
    assert f"changes: 0 add, 0 delete, {adds} keep" in again.stderr
    refused = runner.invoke(cli, [*args, "-o", str(tmp_path / "all.jsonl")])
    assert refused.exit_code == 2 and "--changes needs the manifest" in refused.stderr
