"""docs/vector-stores.md runs as written: its `<!-- test: run -->` Python blocks run in
order, in one namespace, in a temporary directory holding a sample PDF as manual.pdf.
A `<!-- test: stand-in NAME -->` block loads an embedding model; instead of running it,
the test defines NAME with hashed-word embeddings (no model, no download)."""

from __future__ import annotations

import ast
import os
import re
import shutil
from pathlib import Path
from typing import Any

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # before haystack is imported

import pytest  # noqa: E402
from test_integrations_frameworks import lc_embeddings, llama_embed_model  # noqa: E402
from test_integrations_stores import hashed_embed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "vector-stores.md"
BLOCK = re.compile(r"<!-- test: (run|stand-in (\w+)) -->\n```python\n(.*?)```", re.DOTALL)
QUESTION = "What is the range of an i8?"

for module in ("chromadb", "qdrant_client", "langchain_core", "llama_index.core", "haystack"):
    pytest.importorskip(module, reason="the page uses it: pip install 'structchunk-rag[test]'")


def blocks() -> list[tuple[str | None, str]]:
    """(stand-in name or None for a runnable block, code), in page order."""
    text = PAGE.read_text(encoding="utf-8")
    return [(m.group(2), m.group(3)) for m in BLOCK.finditer(text)]


def stand_ins() -> dict[str, Any]:
    return {
        "embed": hashed_embed,
        "embeddings": lc_embeddings(),
        "embed_model": llama_embed_model(),
    }


def defined_names(code: str) -> set[str]:
    tree = ast.parse(code)
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def test_every_stand_in_block_defines_what_the_test_replaces_it_with() -> None:
    found = [(name, code) for name, code in blocks() if name]
    assert sorted(name for name, _ in found) == sorted(stand_ins())
    for name, code in found:
        assert name in defined_names(code), f"the stand-in block for {name} does not define it"


def test_the_page_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(ROOT / "samples" / "rust-data-types.pdf", tmp_path / "manual.pdf")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    namespace: dict[str, Any] = {"__name__": "recipe", **stand_ins()}
    runnable = [code for name, code in blocks() if name is None]
    assert len(runnable) >= 9  # Chroma, filters, Qdrant, the plan (3), the frameworks (3)
    for code in runnable:
        exec(compile(code, str(PAGE), "exec"), namespace)

    chunks = namespace["chunks"]
    assert namespace["collection"].count() == len(chunks) > 10
    printed = capsys.readouterr().out
    assert printed.count("manual.pdf, p. ") == 3  # source, pages and heading path of 3 hits
    on_page_2 = namespace["on_page_2"]["metadatas"]
    assert on_page_2 and all(m["page_first"] <= 2 <= m["page_last"] for m in on_page_2)
    integers = namespace["integers"]["metadatas"]
    assert integers and all("Integer Types" in m["heading_path_list"] for m in integers)
    hits = namespace["found"].points
    assert len(hits) == 3
    text_of = {c.id: c.text for c in chunks}
    assert [hit.payload["text"] for hit in hits] == [text_of[hit.payload["id"]] for hit in hits]
    assert namespace["context"] == "\n\n".join(hit.payload["text"] for hit in hits)
    assert len(namespace["answers"]) == 3 and len(namespace["retrieved"]) == 3
    assert len(namespace["best"]["documents"]) == 3
    assert namespace["document_store"].count_documents() == len(chunks)
    synced = namespace["synced"]  # the plan of a first run: everything is an add
    assert synced.added == namespace["followed"].count() == namespace["run"].chunks > 10
    assert (synced.deleted, synced.kept) == (0, 0)

    parent_of = namespace["parent_of"]  # small-to-big: the hits' parents, once each
    assert namespace["big_context"] == "\n\n".join(parent_of[i].text for i in namespace["wanted"])
    assert namespace["wanted"] and namespace["docstore"].mget(list(namespace["wanted"]))[0]
    assert namespace["merged"]

    exec(compile(runnable[0], str(PAGE), "exec"), namespace)  # "run it again"
    assert namespace["collection"].count() == len(chunks)


def test_the_line_count_the_page_states_is_the_recipes() -> None:
    """The page's "That is N lines of code ..., M of them for your embedding model" counts
    the code lines (not blank, not comments) of the embedding block and the Chroma block."""
    text = PAGE.read_text(encoding="utf-8")
    stated = re.search(r"That is (\d+) lines of code .*?, (\d+) of them", text, re.DOTALL)
    assert stated is not None
    embed_block = next(code for name, code in blocks() if name == "embed")
    chroma_block = next(code for name, code in blocks() if name is None)

    def code_lines(code: str) -> int:
        return sum(
            1 for line in code.splitlines() if line.strip() and not line.strip().startswith("#")
        )

    embedding, recipe = code_lines(embed_block), code_lines(chroma_block)
    assert (int(stated.group(1)), int(stated.group(2))) == (embedding + recipe, embedding)
