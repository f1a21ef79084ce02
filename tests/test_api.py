"""The library API: chunk_file, chunk_text, iter_chunks, options and errors."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

import structchunk
from structchunk import Chunk, ChunkOptions, chunk_file, chunk_text, iter_chunks
from structchunk.errors import InputError, OptionsError, StructChunkError, UnsupportedFormatError

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _public_names(module: object, exported_modules: set[str]) -> set[str]:
    """Names a user sees on `module`: everything but private names, the `__future__`
    import and submodules that are only there because something imported them."""
    public = {name for name in dir(module) if not name.startswith("_")} - {"annotations"}
    incidental = {
        name
        for name in public
        if inspect.ismodule(getattr(module, name)) and name not in exported_modules
    }
    return public - incidental


def test_public_api_is_exactly_the_sorted_all() -> None:
    assert structchunk.__all__ == sorted(structchunk.__all__)
    exported = set(structchunk.__all__)
    assert _public_names(structchunk, {"errors", "progress"}) | {"__version__"} == exported


def test_the_documented_submodules_need_no_import_of_their_own() -> None:
    code = (
        "import structchunk\n"
        "with structchunk.progress.listening(print):\n"
        "    pass\n"
        "assert issubclass(structchunk.errors.ParseError, structchunk.errors.StructChunkError)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_chunk_file_with_keyword_options() -> None:
    chunks = chunk_file(SAMPLES / "api-keys.md", max_tokens=256)
    assert chunks and all(isinstance(c, Chunk) for c in chunks)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert {c.source for c in chunks} == {str(SAMPLES / "api-keys.md")}
    assert {c.format for c in chunks} == {"markdown"}


def test_iter_chunks_streams() -> None:
    stream = iter_chunks(SAMPLES / "api-keys.md", ChunkOptions(max_tokens=64))
    assert inspect.isgenerator(stream)
    first = next(stream)
    assert first.chunk_index == 0


def test_chunk_text_formats_and_ids() -> None:
    md = chunk_text("# A\n\nbody\n", format="markdown")
    text = chunk_text("# A\n\nbody\n", format="text")
    assert md[0].heading_path == ["A"] and text[0].heading_path == []
    assert text[0].body == "# A\n\nbody"
    again = chunk_text("# A\n\nbody\n", format="markdown")
    assert md[0].id == again[0].id and md[0].doc_id == again[0].doc_id
    other = chunk_text("# A\n\nbody!\n", format="markdown")
    assert other[0].doc_id != md[0].doc_id


def test_options_object_and_overrides_agree() -> None:
    base = ChunkOptions(max_tokens=64, min_tokens=4)
    a = chunk_file(SAMPLES / "rust-data-types.md", base, overlap_tokens=8)
    b = chunk_file(SAMPLES / "rust-data-types.md", max_tokens=64, min_tokens=4, overlap_tokens=8)
    assert [c.text for c in a] == [c.text for c in b]


@pytest.mark.parametrize(
    "bad",
    [
        {"max_tokens": 2},
        {"min_tokens": 300},
        {"overlap_tokens": 200},
        {"colour": "red"},
        {"tokenizer": "bogus"},
    ],
)
def test_invalid_options_raise_one_clear_error(bad: dict[str, object]) -> None:
    with pytest.raises(OptionsError) as error:
        chunk_text("# A\n\nbody\n", **bad)  # type: ignore[arg-type]
    assert "\n" not in str(error.value)


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing.md: no such file"):
        chunk_file(tmp_path / "missing.md")
    odd = tmp_path / "data.xyz"
    odd.write_text("hello")
    with pytest.raises(UnsupportedFormatError, match="data.xyz: unsupported file extension"):
        chunk_file(odd)
    assert chunk_file(odd, format="text")[0].body == "hello"


def test_errors_form_one_hierarchy() -> None:
    for name in dir(structchunk.errors):
        value = getattr(structchunk.errors, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, StructChunkError)


def test_options_are_frozen_and_fingerprinted() -> None:
    options = ChunkOptions()
    with pytest.raises(ValidationError):
        options.max_tokens = 10  # type: ignore[misc]
    assert options.fingerprint() == ChunkOptions().fingerprint()
    assert options.fingerprint() != ChunkOptions(max_tokens=100).fingerprint()


def test_split_sentences_is_exposed() -> None:
    text = (
        "Dr. Smith earned $9.5M from U.S.A. operations. He joined the company in 2019! "
        "Did Prof. Jones approve the budget? The growth rate was 12.3% last quarter."
    )
    assert structchunk.split_sentences(text) == [
        "Dr. Smith earned $9.5M from U.S.A. operations.",
        "He joined the company in 2019!",
        "Did Prof. Jones approve the budget?",
        "The growth rate was 12.3% last quarter.",
    ]
