"""The format table is the one place a format is known: `FormatName` lists its names,
the specs say what the rest of the code asks, and a format registered here, outside the
package, is read by the CLI, batch runs, inspect, eval and the integrations as a
built-in one is."""

from __future__ import annotations

import json
import os
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # before haystack is imported

import pytest  # noqa: E402
from click.testing import CliRunner, Result  # noqa: E402

from structchunk import ChunkOptions, decoded_source  # noqa: E402
from structchunk.api import iter_chunks_from_bytes, parse_document  # noqa: E402
from structchunk.batch import run as batch_run  # noqa: E402
from structchunk.batch.inputs import InputFile  # noqa: E402
from structchunk.batch.work import convert_task  # noqa: E402
from structchunk.cli import cli  # noqa: E402
from structchunk.document import Document, GrowingDocument, Paragraph, Provenance  # noqa: E402
from structchunk.options import FormatName  # noqa: E402
from structchunk.parsers import (  # noqa: E402
    EXTENSIONS,
    FORMATS,
    FormatSpec,
    ParseSettings,
    detect_format,
    format_of_media_type,
)
from structchunk.parsers.builder import TreeBuilder  # noqa: E402
from structchunk.parsers.decode import decode_text  # noqa: E402
from structchunk.parsers.formats import register, unregister  # noqa: E402
from structchunk.quality.loading import chunk_document  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

LINES = "* Birds\nRobins sing at dawn.\n\nWrens nest low.\n* Fish\nCarp live long.\n"
"""A document of the test format: `* ` opens a section, every other line is a paragraph."""


def test_format_name_lists_the_format_table() -> None:
    assert sorted(typing.get_args(FormatName)) == sorted(FORMATS)


def test_every_extension_is_one_formats_and_media_types_name_one_format() -> None:
    for spec in FORMATS.values():
        assert all(ext == ext.lower() and ext.startswith(".") for ext in spec.extensions)
        assert all(EXTENSIONS[ext] == spec.name for ext in spec.extensions)
        assert all(format_of_media_type(media) == spec.name for media in spec.media_types)
    assert len(EXTENSIONS) == sum(len(spec.extensions) for spec in FORMATS.values())


TEXT_INPUTS = {
    "api-keys.md": (SAMPLES / "api-keys.md").read_bytes(),
    "docs-page.html": (SAMPLES / "docs-page.html").read_bytes(),
    "notes.txt": b"\xef\xbb\xbfNotes\r\n=====\r\n\r\nOne line\x00 of text.\r\n",
    "crlf.md": b"# Title\r\n\r\nBody text.\r\n",
}


@pytest.mark.parametrize("name", TEXT_INPUTS)
def test_the_specs_source_text_is_the_one_the_parser_keeps(name: str) -> None:
    """`decoded_source` (the spec's `source_text`) is the text the parser indexed the
    chunks' offsets in."""
    data, fmt = TEXT_INPUTS[name], detect_format(name)
    document = parse_document(data, name, fmt, ChunkOptions())
    assert FORMATS[fmt].is_text and decoded_source(data, fmt) == document.source_text != ""


def test_only_text_formats_have_a_source_text_and_only_pdf_is_read_natively() -> None:
    settings = ParseSettings()
    assert {n for n, s in FORMATS.items() if s.is_text} == {"markdown", "text", "html"}
    assert {n for n, s in FORMATS.items() if s.raw_text} == {"markdown", "text"}
    assert {n for n, s in FORMATS.items() if s.reads_natively(settings)} == {"pdf"}
    assert not FORMATS["pdf"].reads_natively(ParseSettings(pdf_engine="pdfplumber"))
    assert decoded_source(b"%PDF-1.4", "pdf") == ""


# -- a format registered outside the package -------------------------------------------


def report(text: str, builder: TreeBuilder) -> Iterator[None]:
    """Each line to the builder, pausing after each."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("* "):
            builder.heading(1, line[2:], Provenance((number, number)))
        elif line.strip():
            builder.add(Paragraph(line, Provenance((number, number))))
        yield


def parse(data: bytes, source: str, settings: ParseSettings) -> Document:
    """The test format's parser (`FormatSpec.module` names this module)."""
    text = decode_text(data)
    builder = TreeBuilder("lines")
    for _ in report(text, builder):
        pass
    return builder.finish(text)


STREAMED: list[str] = []


def stream(data: bytes, source: str, settings: ParseSettings) -> GrowingDocument:
    """The test format read a line at a time (as long Markdown is)."""
    STREAMED.append(source)
    text = decode_text(data)
    builder = TreeBuilder("lines")
    paths = (builder.open_sections for _ in report(text, builder))
    return GrowingDocument(builder.root, "lines", text, paths, builder.warnings)


def lines_spec(**hooks: Any) -> FormatSpec:
    return FormatSpec(
        "lines",
        (".lines",),
        module=__name__,
        media_types=("text/x-lines",),
        source_text=decode_text,
        **hooks,
    )


@pytest.fixture
def lines_format() -> Iterator[FormatSpec]:
    spec = lines_spec()
    register(spec)
    yield spec
    unregister(spec.name)
    assert "lines" not in FORMATS and ".lines" not in EXTENSIONS


def folder_of_lines(root: Path) -> Path:
    """A folder holding `birds.lines`."""
    folder = root / "in"
    folder.mkdir()
    (folder / "birds.lines").write_text(LINES, encoding="utf-8")
    return folder


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_registering_checks_extensions_and_replaces_by_name(lines_format: FormatSpec) -> None:
    with pytest.raises(ValueError, match=r"\.md already read as markdown"):
        register(FormatSpec("other", (".md", ".other")))
    assert "other" not in FORMATS and ".other" not in EXTENSIONS
    register(FormatSpec("lines", (".lns",), module=__name__))
    assert ".lines" not in EXTENSIONS and EXTENSIONS[".lns"] == "lines"


def test_convert_reads_a_registered_format_by_its_extension(
    lines_format: FormatSpec, tmp_path: Path
) -> None:
    out = tmp_path / "birds.jsonl"
    result = invoke("convert", str(folder_of_lines(tmp_path) / "birds.lines"), "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    chunks = records(out.read_text(encoding="utf-8"))
    assert [(c["format"], c["heading_path"], c["body"]) for c in chunks] == [
        ("lines", ["Birds"], "Robins sing at dawn.\n\nWrens nest low."),
        ("lines", ["Fish"], "Carp live long."),
    ]
    source = decoded_source(LINES.encode(), "lines")
    assert [source[a:b] for a, b in chunks[1]["offsets"]] == ["Carp live long"]
    assert chunks[1]["lines"] == [6, 6]


def test_a_batch_run_finds_a_registered_format_in_a_directory(
    lines_format: FormatSpec, tmp_path: Path
) -> None:
    inputs = folder_of_lines(tmp_path)
    (inputs / "cats.md").write_text("# Cats\n\nCats purr.\n", encoding="utf-8")
    (inputs / "notes.unknown").write_text("skipped", encoding="utf-8")
    result = invoke("convert", str(inputs), "--out-dir", str(tmp_path / "out"), "-q")
    assert result.exit_code == 0, result.output
    outputs = sorted(p.name for p in (tmp_path / "out").iterdir() if p.suffix == ".jsonl")
    assert [name for name in outputs if not name.startswith(".")] == [
        "birds.lines.jsonl",
        "cats.md.jsonl",
    ]


class InlinePool:
    """A `WorkerPool` that converts in this process and remembers it was asked."""

    used: list[int] = []

    def __init__(self, jobs: int, options: ChunkOptions, limits: Any) -> None:
        self.options, self.limits = options, limits
        InlinePool.used.append(jobs)

    def run(self, tasks: list[Any]) -> Iterator[Any]:
        return (convert_task(task, self.options, self.limits) for task in tasks)


@pytest.mark.parametrize("native", [False, True])
def test_batch_converts_a_natively_read_format_in_a_worker(
    native: bool, lines_format: FormatSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spec's `native` hook, not a format name, sends even one file to a worker."""
    register(lines_spec(native=lambda settings: native))
    monkeypatch.setattr(batch_run, "WorkerPool", InlinePool)
    InlinePool.used.clear()
    path = folder_of_lines(tmp_path) / "birds.lines"
    out = tmp_path / "birds.jsonl"
    args = ["-o", str(out), "-q", "--max-memory-per-file", "0"]  # no limit needs a worker
    result = invoke("convert", str(path), *args)
    assert result.exit_code == 0, result.output
    assert InlinePool.used == ([1] if native else [])
    assert len(records(out.read_text(encoding="utf-8"))) == 2


def test_a_streaming_format_is_packed_as_its_spec_streams_it(lines_format: FormatSpec) -> None:
    """The library asks the spec whether to stream; streamed or parsed whole, the chunks
    are the same, and `strict` reads the document whole."""
    parsed = chunks_of(LINES.encode())
    register(lines_spec(stream=stream))
    STREAMED.clear()
    assert chunks_of(LINES.encode()) == parsed and STREAMED == ["birds.lines"]
    assert chunks_of(LINES.encode(), strict=True) == parsed and STREAMED == ["birds.lines"]


def chunks_of(data: bytes, **options: Any) -> list[str]:
    chunks = iter_chunks_from_bytes(data, "birds.lines", None, None, max_tokens=8, **options)
    return [chunk.model_dump_json() for chunk in chunks]


def test_inspect_and_eval_read_a_registered_format(
    lines_format: FormatSpec, tmp_path: Path
) -> None:
    corpus = folder_of_lines(tmp_path)
    inspected = invoke("inspect", str(corpus / "birds.lines"), "--json")
    assert inspected.exit_code == 0, inspected.output
    (document,) = json.loads(inspected.stdout)["documents"]
    assert document["chunks"] == 2
    item = InputFile(str(corpus / "birds.lines"), "lines")
    drawn = chunk_document(item, LINES.encode(), ChunkOptions())
    assert drawn.source_text == LINES  # the report draws the chunks over the source
    questions = tmp_path / "questions.jsonl"
    question = {"question": "What lives long?", "answer": "Carp live long.", "doc": "birds.lines"}
    questions.write_text(json.dumps(question) + "\n", encoding="utf-8")
    args = [str(corpus), "--questions", str(questions), "--baseline", "fixed:68", "--json"]
    evaluated = invoke("eval", *args)
    assert evaluated.exit_code == 0, evaluated.output
    ours, fixed = json.loads(evaluated.stdout)["runs"]
    assert ours["hit@1"] == 1.0 and ours["chunks"] == 2
    assert len(LINES) == 69 and fixed["chunks"] == 2  # the file's own text, cut as it is
    # (its parsed text, blank-line separated without the `* `, is 67 characters: one window)


def test_haystack_reads_a_registered_format_by_its_media_type(lines_format: FormatSpec) -> None:
    pytest.importorskip("haystack", reason="pip install 'structchunk-rag[haystack]'")
    from haystack.dataclasses import ByteStream

    from structchunk.integrations.haystack import StructChunkConverter

    stream = ByteStream(data=LINES.encode(), mime_type="text/x-lines")
    documents = StructChunkConverter().run(sources=[stream])["documents"]
    assert [d.meta["format"] for d in documents] == ["lines", "lines"]


def test_llamaindex_reads_a_registered_text_format_from_a_nodes_text(
    lines_format: FormatSpec,
) -> None:
    pytest.importorskip("llama_index.core", reason="pip install 'structchunk-rag[llamaindex]'")
    from llama_index.core.schema import Document as LlamaDocument

    from structchunk.integrations.llamaindex import StructChunkNodeParser

    loaded = LlamaDocument(text=LINES, metadata={"file_name": "birds.lines"})
    nodes = StructChunkNodeParser().get_nodes_from_documents([loaded])
    assert [n.metadata["format"] for n in nodes] == ["lines", "lines"]
