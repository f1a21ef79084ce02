"""Stores that follow a batch run's plan (`structchunk.integrations.chroma.sync`,
`.qdrant.sync`): chunk a folder, sync, edit one paragraph, rerun with a plan, sync again:
each store holds exactly the new chunk set, and the embedding function saw only the adds.
Nothing here assumes how ids are made: the adds are checked against the new ids that were
not there before, which is what any id rule asks a store to embed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_integrations_stores import DIMENSIONS, hashed_embed

from structchunk import ChunkOptions
from structchunk.batch import BatchConfig, run_batch
from structchunk.batch.changes import read_changes
from structchunk.batch.inputs import expand_inputs
from structchunk.errors import InputError
from structchunk.records import Chunk, read_jsonl

chromadb = pytest.importorskip("chromadb", reason="ChromaDB is not installed")
qdrant_client = pytest.importorskip("qdrant_client", reason="qdrant-client is not installed")
from chromadb.config import Settings  # noqa: E402
from qdrant_client import models  # noqa: E402

from structchunk.integrations import chroma as chroma_sync  # noqa: E402
from structchunk.integrations import qdrant as qdrant_sync  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus" / "markdown"
FILES = ["fastapi-cors.md", "rust-publishing.md", "awsdocs-rds-limits.md"]
OPTIONS = ChunkOptions(max_tokens=96)


class CountingEmbed:
    """`hashed_embed`, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return hashed_embed(texts)


class Run:
    """A folder of corpus Markdown chunked into an out-dir, with a plan per run."""

    def __init__(self, tmp_path: Path) -> None:
        self.docs, self.out, self.plan = (
            tmp_path / "docs",
            tmp_path / "chunks",
            tmp_path / "c.jsonl",
        )
        self.docs.mkdir()
        for name in FILES:
            shutil.copy(CORPUS / name, self.docs / name)

    def __call__(self) -> None:
        items, _ = expand_inputs([str(self.docs)], None)
        config = BatchConfig(out_dir=self.out, manifest=self.out / ".m.jsonl", changes=self.plan)
        run_batch(items, OPTIONS, config)

    def chunks(self) -> list[Chunk]:
        return [c for path in sorted(self.out.rglob("*.md.jsonl")) for c in read_jsonl(path)]

    def added_chunks(self) -> Iterator[Chunk]:
        """The documented recipe: read only the outputs of the files the plan adds to."""
        sources = sorted({c.source for c in read_changes(self.plan) if c.op == "add"})
        for source in sources:
            yield from read_jsonl(self.out / f"{source}.jsonl")

    def edit_one_paragraph(self) -> None:
        path = self.docs / "rust-publishing.md"
        text = path.read_text()
        paragraph = next(p for p in text.split("\n\n") if p[:1].isalpha() and len(p) > 80)
        path.write_text(text.replace(paragraph, paragraph + " One more sentence here.", 1))


@pytest.fixture
def run(tmp_path: Path) -> Run:
    return Run(tmp_path)


def chroma_collection(tmp_path: Path, name: str, **kwargs: Any) -> Any:
    """A new in-memory collection (the ephemeral client is shared in a process: the name
    is the test's own)."""
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    return client.create_collection(f"{name}-{tmp_path.name}", **kwargs)


@pytest.fixture
def qdrant() -> Iterator[Any]:
    client = qdrant_client.QdrantClient(":memory:")
    client.create_collection(
        "chunks", models.VectorParams(size=DIMENSIONS, distance=models.Distance.COSINE)
    )
    yield client
    client.close()


def check_edit_cycle(run: Run, sync: Any, stored: Any) -> None:
    """First run and sync, one paragraph edited, rerun and sync: the store holds the new
    chunk set exactly, and only the adds were embedded."""
    run()
    first = run.chunks()
    embed = CountingEmbed()
    report = sync(run.added_chunks(), embed)
    assert sorted(embed.texts) == sorted(c.text for c in first)
    assert stored() == {c.id: c.text for c in first}
    assert (report.added, report.deleted, report.kept) == (len(first), 0, 0)

    run.edit_one_paragraph()
    run()
    second = run.chunks()
    old, new = {c.id for c in first}, {c.id for c in second}
    embed = CountingEmbed()
    report = sync(run.added_chunks(), embed)
    assert stored() == {c.id: c.text for c in second}  # the store is the new chunk set
    assert sorted(embed.texts) == sorted(c.text for c in second if c.id not in old)
    assert (report.added, report.deleted, report.kept) == (
        len(new - old),
        len(old - new),
        len(new & old),
    )
    assert new - old, "the edit added nothing: the test would check nothing"

    run()  # no change: nothing to embed, nothing to delete
    embed = CountingEmbed()
    assert sync(run.added_chunks(), embed).added == 0 and embed.texts == []
    assert stored() == {c.id: c.text for c in second}


def test_chroma_follows_the_plan(run: Run, tmp_path: Path) -> None:
    collection = chroma_collection(tmp_path, "sync", embedding_function=None)

    def stored() -> dict[str, str]:
        got = collection.get(include=["documents"])
        return dict(zip(got["ids"], got["documents"], strict=True))

    check_edit_cycle(
        run, lambda chunks, embed: chroma_sync.sync(collection, run.plan, chunks, embed), stored
    )
    some = run.chunks()[3]
    assert collection.get(ids=[some.id], include=["metadatas"])["metadatas"] == [some.metadata()]


def test_qdrant_follows_the_plan(run: Run, qdrant: Any) -> None:
    def stored() -> dict[str, str]:
        points, _ = qdrant.scroll("chunks", limit=10_000, with_payload=True)
        return {p.payload["id"]: p.payload["text"] for p in points}

    check_edit_cycle(
        run,
        lambda chunks, embed: qdrant_sync.sync(qdrant, "chunks", run.plan, chunks, embed),
        stored,
    )
    some = run.chunks()[3]
    [point] = qdrant.retrieve("chunks", ids=[qdrant_sync.point_id(some.id)])
    assert point.payload == some.payload()


def test_chroma_embeds_with_the_collections_function_when_given_none(
    run: Run, tmp_path: Path
) -> None:
    from chromadb.utils.embedding_functions import EmbeddingFunction

    texts: list[str] = []

    class Counting(EmbeddingFunction[list[str]]):
        def __init__(self) -> None:
            pass

        def __call__(self, input: list[str]) -> Any:  # noqa: A002 - Chroma's name
            texts.extend(input)
            import numpy

            return [numpy.array(v, dtype=numpy.float32) for v in hashed_embed(input)]

        @staticmethod
        def name() -> str:
            return "counting"

        def get_config(self) -> dict[str, Any]:
            return {}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> Counting:
            return Counting()

    collection = chroma_collection(tmp_path, "own", embedding_function=Counting())
    run()
    first = {c.id for c in run.chunks()}
    chroma_sync.sync(collection, run.plan, run.added_chunks())
    run.edit_one_paragraph()
    run()
    texts.clear()
    chroma_sync.sync(collection, run.plan, run.added_chunks())
    second = run.chunks()
    assert sorted(texts) == sorted(c.text for c in second if c.id not in first)
    assert sorted(collection.get()["ids"]) == sorted(c.id for c in second)


def test_chunks_missing_an_add_fail_before_anything_is_deleted(run: Run, qdrant: Any) -> None:
    run()
    qdrant_sync.sync(qdrant, "chunks", run.plan, run.added_chunks(), hashed_embed)
    before = qdrant.count("chunks").count
    run.edit_one_paragraph()
    run()
    plan = list(read_changes(run.plan))
    assert any(c.op == "delete" for c in plan)
    missing = next(c.id for c in plan if c.op == "add")
    chunks = [c for c in run.added_chunks() if c.id != missing]
    with pytest.raises(InputError, match="lack 1 of the plan's"):
        qdrant_sync.sync(qdrant, "chunks", plan, chunks, hashed_embed)
    deleted = [qdrant_sync.point_id(c.id) for c in plan if c.op == "delete"]
    assert len(qdrant.retrieve("chunks", ids=deleted)) == len(deleted)  # none deleted
    assert qdrant.count("chunks").count >= before


def test_a_qdrant_point_id_is_the_chunk_id_or_a_uuid_made_from_it() -> None:
    assert qdrant_sync.point_id("c33982d5137acc8092ffd10ceeab5a0a") == (
        "c33982d5-137a-cc80-92ff-d10ceeab5a0a"
    )
    other = qdrant_sync.point_id("doc.md#3:b1946ac9")  # any id rule's ids get a point id
    assert other == qdrant_sync.point_id("doc.md#3:b1946ac9") != qdrant_sync.point_id("x")
    assert len(json.dumps(other)) == 38
