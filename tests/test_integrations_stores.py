"""Real records into real vector stores (ChromaDB, Qdrant local mode) through
`Chunk.metadata()` and `Chunk.payload()`: accepted as they are, upserted by the stable
id (a second run replaces, never duplicates), filterable by the flat keys and, with
lists=True, by list members, and Qdrant's hits hold the text. Embeddings are hashed
words: no model, no download."""

from __future__ import annotations

import math
import shutil
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_params

from structchunk import Chunk, chunk_file, chunk_text

chromadb = pytest.importorskip(
    "chromadb", reason="ChromaDB is not installed (pip install 'structchunk-rag[test]')"
)
qdrant_client = pytest.importorskip(
    "qdrant_client", reason="qdrant-client is not installed (pip install 'structchunk-rag[test]')"
)
from chromadb.config import Settings  # noqa: E402
from qdrant_client import models  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_FILES = ["api-keys.md", "rust-data-types.md", "docs-page.html", "rust-data-types.pdf"]
DIMENSIONS = 64

EDGE_DOCUMENT = (
    "Text before any heading has an empty heading path.\n\n"
    "# Prices\n\n"
    "| item | price |\n|---|---|\n"
    + "".join(f"| widget number {i} of the catalogue | {i}.00 EUR |\n" for i in range(1, 40))
)
"""What broke indexing (issue #15): an empty heading_path and a split table's table_rows."""


def hashed_embed(texts: list[str]) -> list[list[float]]:
    """A deterministic stand-in for an embedding model: word counts hashed into
    DIMENSIONS buckets plus a constant one (never the zero vector), unit length, so texts
    sharing words are near and a text is nearest to itself."""
    vectors = []
    for text in texts:
        vector = [0.0] * DIMENSIONS
        vector[0] = 1.0
        for word in text.lower().split():
            vector[1 + zlib.crc32(word.encode()) % (DIMENSIONS - 1)] += 1.0
        norm = math.sqrt(sum(x * x for x in vector))
        vectors.append([x / norm for x in vector])
    return vectors


def sample_chunks() -> list[Chunk]:
    chunks = [c for name in SAMPLE_FILES for c in chunk_file(SAMPLES / name, max_tokens=96)]
    return chunks + chunk_text(EDGE_DOCUMENT, format="markdown", source="prices.md", max_tokens=64)


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    found = sample_chunks()
    # the records hold every shape that broke indexing, or this file tests less than it says
    assert any(not c.heading_path for c in found)
    assert any(c.pages is None for c in found) and any(c.pages for c in found)
    assert any(c.lines is None for c in found) and any(c.table_rows for c in found)
    return found


@pytest.fixture(scope="module")
def second_run() -> list[Chunk]:
    """The same documents chunked again: new objects, the same records."""
    return sample_chunks()


@pytest.fixture
def chroma(tmp_path: Path) -> Iterator[Any]:
    yield chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=Settings(anonymized_telemetry=False)
    )


def _bag(text: str) -> tuple[str, ...]:
    """What `hashed_embed` sees of a text: its words, in any order."""
    return tuple(sorted(text.lower().split()))


def chroma_upsert(collection: Any, chunks: list[Chunk], lists: bool = False) -> None:
    collection.upsert(
        ids=[c.id for c in chunks],
        documents=[c.text for c in chunks],
        metadatas=[c.metadata(lists) for c in chunks],
        embeddings=hashed_embed([c.text for c in chunks]),
    )


def test_chroma_takes_the_flat_view_and_a_rerun_replaces(
    chroma: Any, chunks: list[Chunk], second_run: list[Chunk]
) -> None:
    collection = chroma.get_or_create_collection("chunks", embedding_function=None)
    chroma_upsert(collection, chunks)
    chroma_upsert(collection, second_run)
    assert collection.count() == len(chunks) == len({c.id for c in chunks})
    stored = collection.get(ids=[chunks[5].id], include=["metadatas", "documents"])
    assert stored["metadatas"] == [chunks[5].metadata()]
    assert stored["documents"] == [chunks[5].text]


def test_chroma_query_finds_the_chunk_and_filters_on_flat_keys(
    chroma: Any, chunks: list[Chunk]
) -> None:
    collection = chroma.get_or_create_collection("chunks", embedding_function=None)
    chroma_upsert(collection, chunks)
    # the PDF sample's chunks can hold the same words as its Markdown source's
    words = Counter(_bag(c.text) for c in chunks)
    target = next(c for c in chunks if c.format == "pdf" and words[_bag(c.text)] == 1)
    hits = collection.query(query_embeddings=hashed_embed([target.text]), n_results=1)
    assert hits["ids"] == [[target.id]]

    pdf = collection.get(where={"format": "pdf"})
    assert sorted(pdf["ids"]) == sorted(c.id for c in chunks if c.format == "pdf")
    on_page_2 = collection.get(
        where={"$and": [{"page_first": {"$lte": 2}}, {"page_last": {"$gte": 2}}]}
    )
    expected = sorted(c.id for c in chunks if c.pages and min(c.pages) <= 2 <= max(c.pages))
    assert expected and sorted(on_page_2["ids"]) == expected
    root = collection.get(where={"heading_path": ""})
    assert sorted(root["ids"]) == sorted(c.id for c in chunks if not c.heading_path)


def test_chroma_takes_lists_and_filters_on_their_members(chroma: Any, chunks: list[Chunk]) -> None:
    collection = chroma.get_or_create_collection("lists", embedding_function=None)
    chroma_upsert(collection, chunks, lists=True)
    under = collection.get(where={"heading_path_list": {"$contains": "Scalar Types"}})
    expected = sorted(c.id for c in chunks if "Scalar Types" in c.heading_path)
    assert len(expected) > 2 and sorted(under["ids"]) == expected
    tables = collection.get(where={"block_types_list": {"$contains": "table"}})
    assert sorted(tables["ids"]) == sorted(c.id for c in chunks if "table" in c.block_types)


def test_chroma_rejects_the_raw_record_that_the_view_replaces(
    chroma: Any, chunks: list[Chunk]
) -> None:
    """The issue's failure, kept as a guard: if Chroma ever takes the raw record, the
    view's reason to exist (and this page of the docs) needs a second look."""
    collection = chroma.get_or_create_collection("raw", embedding_function=None)
    root = next(c for c in chunks if not c.heading_path)
    with pytest.raises((ValueError, TypeError), match="heading_path"):
        collection.upsert(
            ids=[root.id],
            metadatas=[root.model_dump(exclude={"text", "body"})],
            embeddings=hashed_embed([root.text]),
        )


def test_an_edited_document_replaces_its_old_chunks(chroma: Any, tmp_path: Path) -> None:
    """The recipe's update: upsert the new chunks, delete the file's chunks of another
    doc_id; what is left is exactly the new version."""
    path = tmp_path / "guide.md"
    shutil.copy(SAMPLES / "api-keys.md", path)
    collection = chroma.get_or_create_collection("guide", embedding_function=None)
    old = chunk_file(path, max_tokens=64)
    chroma_upsert(collection, old)
    edited = path.read_text().replace("Every request", "Each request", 1)
    path.write_text(edited + "\n\n## Audit\n\nEvery rotation is logged.\n")
    new = chunk_file(path, max_tokens=64)
    chroma_upsert(collection, new)
    collection.delete(where={"$and": [{"source": str(path)}, {"doc_id": {"$ne": new[0].doc_id}}]})
    assert sorted(collection.get()["ids"]) == sorted(c.id for c in new)
    assert {c.id for c in old} - {c.id for c in new}  # the edited chunk went
    assert {c.id for c in old} & {c.id for c in new}  # the chunks the edit left kept their ids


def qdrant_upsert(client: Any, chunks: list[Chunk]) -> None:
    vectors = hashed_embed([c.text for c in chunks])
    client.upsert(
        "chunks",
        [
            models.PointStruct(id=c.id, vector=v, payload=c.payload())
            for c, v in zip(chunks, vectors)
        ],
    )


@pytest.fixture
def qdrant(tmp_path: Path) -> Iterator[Any]:
    client = qdrant_client.QdrantClient(path=str(tmp_path / "qdrant"))
    client.create_collection(
        "chunks", models.VectorParams(size=DIMENSIONS, distance=models.Distance.COSINE)
    )
    yield client
    client.close()


def test_qdrant_takes_the_payload_and_a_rerun_replaces(
    qdrant: Any, chunks: list[Chunk], second_run: list[Chunk]
) -> None:
    qdrant_upsert(qdrant, chunks)
    qdrant_upsert(qdrant, second_run)
    assert qdrant.count("chunks").count == len(chunks)
    target = next(c for c in chunks if c.format == "html" and c.chunk_index == 2)
    [point] = qdrant.retrieve("chunks", ids=[target.id])
    assert point.payload == target.payload()
    assert point.id.replace("-", "") == target.id  # a UUID with dashes: the payload keeps ours


def test_a_qdrant_query_returns_the_text_to_give_an_llm(qdrant: Any, chunks: list[Chunk]) -> None:
    """Issue #41: the payload was `metadata(lists=True)`, without the text, and Qdrant
    keeps nothing else: a query found ids with nothing to give an LLM."""
    qdrant_upsert(qdrant, chunks)
    words = Counter(_bag(c.text) for c in chunks)
    for target in [c for c in chunks if words[_bag(c.text)] == 1][::7]:
        found = qdrant.query_points("chunks", query=hashed_embed([target.text])[0], limit=1)
        assert [(p.payload["id"], p.payload["text"]) for p in found.points] == [
            (target.id, target.text)
        ]


def test_qdrant_filters_on_list_members_and_page_ranges(qdrant: Any, chunks: list[Chunk]) -> None:
    qdrant_upsert(qdrant, chunks)

    def ids(*conditions: models.FieldCondition) -> list[str]:
        points, _ = qdrant.scroll("chunks", models.Filter(must=list(conditions)), limit=1000)
        return sorted(p.payload["id"] for p in points)

    heading = models.FieldCondition(
        key="heading_path_list", match=models.MatchValue(value="Compound Types")
    )
    assert ids(heading) == sorted(c.id for c in chunks if "Compound Types" in c.heading_path)
    page_2 = [
        models.FieldCondition(key="page_first", range=models.Range(lte=2)),
        models.FieldCondition(key="page_last", range=models.Range(gte=2)),
    ]
    expected = sorted(c.id for c in chunks if c.pages and min(c.pages) <= 2 <= max(c.pages))
    assert expected and ids(*page_2) == expected


CORPUS_PDFS = corpus_params("pdf/pdfplumber", "issue-71-duplicate-chars-2.pdf") + corpus_params(
    "pdf/pdfplumber", "issue-33-lorem-ipsum.pdf"
)
"""Two real PDFs: 79 chunks over 19 pages with text before the first heading, and one
whose tables are split (table_rows) under an empty heading path. (NARA's plan and a
state form served until their titles came to head every path.)"""


@pytest.mark.slow
@pytest.mark.parametrize("pdf", CORPUS_PDFS)
def test_corpus_pdf_indexes_into_both_stores_twice(
    pdf: Path, chroma: Any, qdrant: Any, tmp_path: Path
) -> None:
    first = chunk_file(pdf, max_tokens=128)
    assert any(not c.heading_path for c in first)
    collection = chroma.get_or_create_collection("corpus", embedding_function=None)
    for run in (first, chunk_file(pdf, max_tokens=128)):
        chroma_upsert(collection, run)
        chroma_upsert(chroma.get_or_create_collection("lists", embedding_function=None), run, True)
        qdrant_upsert(qdrant, run)
    assert collection.count() == qdrant.count("chunks").count == len(first)
    stored = collection.get(include=["metadatas"])
    assert sorted(stored["metadatas"], key=lambda m: m["chunk_index"]) == [
        c.metadata() for c in first
    ]
