"""`Chunk.metadata()`, the view every vector store accepts, `Chunk.payload()`, and the
optional extras: the frameworks are needed only by the calls that use them, and a missing
one is one clear error naming the extra to install."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from structchunk import Chunk, chunk_file, chunk_text
from structchunk.errors import install_hint
from structchunk.records import page_ranges

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_FILES = ["api-keys.md", "rust-data-types.md", "docs-page.html", "rust-data-types.pdf"]
SCALARS = (str, int, float, bool)
LIST_KEYS = {"heading_path_list": "heading_path", "block_types_list": "block_types"}
SPLIT_TABLE = "Before any heading.\n\n# Prices\n\n| item | price |\n|---|---|\n" + "".join(
    f"| widget number {i} of the catalogue | {i}.00 EUR |\n" for i in range(1, 40)
)


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    """Real records of every format, and the shapes that broke indexing (issue #15)."""
    found = [c for name in SAMPLE_FILES for c in chunk_file(SAMPLES / name, max_tokens=96)]
    found += chunk_text(SPLIT_TABLE, format="markdown", max_tokens=64)
    assert any(not c.heading_path for c in found)
    assert any(c.pages for c in found) and any(c.lines for c in found)
    assert any(c.table_rows for c in found) and any(c.lines is None for c in found)
    return found


@pytest.mark.parametrize("lists", [False, True])
def test_metadata_has_no_none_and_no_empty_list(chunks: list[Chunk], lists: bool) -> None:
    for chunk in chunks:
        for key, value in chunk.metadata(lists).items():
            assert isinstance(key, str)
            if isinstance(value, list):
                assert lists and value, (key, value)
                assert len({type(v) for v in value}) == 1, (key, value)  # one type per list
                assert all(isinstance(v, SCALARS) for v in value)
            else:
                assert isinstance(value, SCALARS), (key, value)


def test_flat_metadata_is_scalars_only(chunks: list[Chunk]) -> None:
    for chunk in chunks:
        assert all(isinstance(v, SCALARS) for v in chunk.metadata().values())


def test_every_field_but_the_text_is_there_under_its_own_name(chunks: list[Chunk]) -> None:
    for chunk in chunks:
        present = {k for k, v in chunk.model_dump().items() if v is not None}
        assert set(chunk.metadata()) >= present - {"text", "body"}
        assert not {"text", "body"} & set(chunk.metadata(lists=True))


def test_the_payload_is_the_list_view_and_the_text(chunks: list[Chunk]) -> None:
    """For stores that keep nothing but the payload (Qdrant, LanceDB): issue #41."""
    for chunk in chunks:
        assert chunk.payload() == {**chunk.metadata(lists=True), "text": chunk.text}


def test_a_box_reads_the_same_in_the_metadata_view(chunks: list[Chunk]) -> None:
    """`boxes` in the view is the record's JSON: an int page, as in the JSONL (#41)."""
    boxed = [c for c in chunks if c.boxes]
    assert boxed
    for chunk in boxed:
        assert str(chunk.metadata()["boxes"]) in chunk.model_dump_json()


def test_lists_only_add_keys_and_never_change_a_type(chunks: list[Chunk]) -> None:
    for chunk in chunks:
        flat, listed = chunk.metadata(), chunk.metadata(lists=True)
        assert {k: listed[k] for k in flat} == flat
        for key in set(listed) - set(flat):
            assert key.endswith("_list")


def test_metadata_values_say_what_the_record_says(chunks: list[Chunk]) -> None:
    for chunk in chunks:
        view = chunk.metadata(lists=True)
        scalars = ("id", "doc_id", "source", "format", "chunk_index", "n_tokens", "tokenizer")
        assert {k: view[k] for k in scalars} == {k: getattr(chunk, k) for k in scalars}
        assert view["heading_path"] == " > ".join(chunk.heading_path)
        assert chunk.text.startswith(f"{view['heading_path']}\n\n") or not chunk.heading_path
        assert view["block_types"] == ",".join(chunk.block_types)
        for key, field in LIST_KEYS.items():
            assert view.get(key) == (getattr(chunk, field) or None)
        if chunk.pages:
            assert view["pages_list"] == chunk.pages
            assert (view["page_first"], view["page_last"]) == (min(chunk.pages), max(chunk.pages))
        else:
            assert not {"pages", "page_first", "page_last", "pages_list"} & set(view)
        if chunk.lines:
            assert view["lines"] == "{}-{}".format(*chunk.lines)
            assert [view["line_first"], view["line_last"]] == chunk.lines
        else:
            assert not {"lines", "line_first", "line_last"} & set(view)
        if chunk.table_rows:
            assert view["table_rows"] == "{}-{} of {}".format(*chunk.table_rows)
        else:
            assert "table_rows" not in view


def test_an_empty_heading_path_is_an_empty_string_and_no_list() -> None:
    [root, *_] = chunk_text("Text before any heading.\n\n# Title\n\nBody.", format="markdown")
    assert root.heading_path == []
    assert root.metadata(lists=True)["heading_path"] == ""
    assert "heading_path_list" not in root.metadata(lists=True)


def test_a_split_table_says_which_rows(chunks: list[Chunk]) -> None:
    pieces = [c for c in chunks if c.table_rows]
    assert len(pieces) > 1
    first, last, count = pieces[0].table_rows or []
    assert pieces[0].metadata()["table_rows"] == f"{first}-{last} of {count}"


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        ([3], "3"),
        ([3, 4, 5], "3-5"),
        ([3, 4, 5, 7], "3-5,7"),
        ([5, 3, 4, 4], "3-5"),
        ([1, 3], "1,3"),
    ],
)
def test_page_ranges_are_short_and_exact(pages: list[int], expected: str) -> None:
    assert page_ranges(pages) == expected


def test_pages_with_a_gap_keep_it() -> None:
    [base] = chunk_text("# Title\n\nBody.", format="markdown")
    chunk = Chunk.model_validate({**base.model_dump(), "pages": [3, 4, 6], "lines": None})
    view = chunk.metadata(lists=True)
    assert (view["pages"], view["page_first"], view["page_last"]) == ("3-4,6", 3, 6)
    assert view["pages_list"] == [3, 4, 6]


FRAMEWORKS = [
    ("to_langchain", "langchain_core", "langchain-core", "langchain"),
    ("to_llamaindex", "llama_index", "llama-index-core", "llamaindex"),
    ("to_haystack", "haystack", "haystack-ai", "haystack"),
]


def block(monkeypatch: pytest.MonkeyPatch, top: str) -> None:
    """Make `import top` (and its submodules, even already imported ones) fail."""
    for name in [m for m in sys.modules if m == top or m.startswith(f"{top}.")] + [top]:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize(("method", "top", "distribution", "extra"), FRAMEWORKS)
def test_a_missing_framework_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, method: str, top: str, distribution: str, extra: str
) -> None:
    [chunk] = chunk_text("# Title\n\nBody.", format="markdown")
    block(monkeypatch, top)
    with pytest.raises(ImportError) as caught:
        getattr(chunk, method)()
    assert str(caught.value) == (
        f"Chunk.{method}() needs {distribution}: pip install 'structchunk-rag[{extra}]' "
        f"(in a clone: pip install '.[{extra}]')"
    )
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.parametrize(
    ("module", "top", "extra"),
    [("langchain", "langchain_core", "langchain"), ("llamaindex", "llama_index", "llamaindex")]
    + [("haystack", "haystack", "haystack")],
)
def test_an_integration_module_without_its_framework_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, top: str, extra: str
) -> None:
    block(monkeypatch, top)
    monkeypatch.delitem(sys.modules, f"structchunk.integrations.{module}", raising=False)
    with pytest.raises(ImportError, match=rf"{re.escape(install_hint(extra))}$"):
        importlib.import_module(f"structchunk.integrations.{module}")


def test_another_missing_module_is_not_blamed_on_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the framework itself missing means "install the extra"; a broken install of
    something else keeps its own error."""
    from structchunk.records import optional_extra

    with pytest.raises(ModuleNotFoundError, match="no_such_module"), optional_extra("x"):
        import no_such_module  # noqa: F401


BLOCKED = ["langchain_core", "llama_index", "haystack", "chromadb", "qdrant_client"]

WITHOUT_FRAMEWORKS = f"""
import importlib.abc, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Block())
import structchunk, structchunk.integrations
chunk = structchunk.chunk_file({str(SAMPLES / "api-keys.md")!r}, max_tokens=64)[0]
assert chunk.metadata()["lines"] == "7-9"
try:
    chunk.to_langchain()
except ImportError as error:
    print(error)
"""


def test_structchunk_imports_and_chunks_without_any_framework() -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_FRAMEWORKS], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "Chunk.to_langchain() needs langchain-core: pip install 'structchunk-rag[langchain]' "
        "(in a clone: pip install '.[langchain]')\n"
    )


def test_importing_structchunk_loads_no_framework() -> None:
    code = (
        "import sys, structchunk, structchunk.records, structchunk.integrations\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({BLOCKED!r})))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == "[]\n", result.stderr
