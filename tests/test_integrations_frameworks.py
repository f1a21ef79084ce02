"""Chunks as LangChain, LlamaIndex and Haystack objects, and the frameworks' own entry
points (loader, reader, node parser, component), used the way each framework uses them:
into its in-memory store, twice, and back out by a query."""

from __future__ import annotations

import os

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # before haystack is imported

from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402
from test_integrations_stores import hashed_embed  # noqa: E402

from structchunk import Chunk, ChunkOptions, chunk_file  # noqa: E402
from structchunk.errors import InputError, OptionsError, UnsupportedFormatError  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
MARKDOWN = SAMPLES / "api-keys.md"
PDF = SAMPLES / "rust-data-types.pdf"
HTML = SAMPLES / "docs-page.html"
EPUB = SAMPLES / "the-waste-land.epub"


@pytest.fixture(scope="module")
def pdf_chunks() -> list[Chunk]:
    return chunk_file(PDF, max_tokens=96)


def folder_of_documents(root: Path) -> list[Path]:
    """A Markdown file, an HTML page one folder down, a file of no supported format and
    another Markdown file; the supported ones in the order `convert DIR` reads them."""
    (root / "b-guides").mkdir(parents=True)
    (root / "z.md").write_bytes(MARKDOWN.read_bytes())
    (root / "b-guides" / "page.html").write_bytes(HTML.read_bytes())
    (root / "a.md").write_text("# Alpha\n\nThe first file.\n", encoding="utf-8")
    (root / "notes.xyz").write_text("# Not read\n", encoding="utf-8")
    return [root / "a.md", root / "b-guides" / "page.html", root / "z.md"]


def test_a_directory_is_read_as_the_cli_reads_it(tmp_path: Path) -> None:
    from structchunk.batch.inputs import expand_inputs

    files = folder_of_documents(tmp_path)
    items, problems = expand_inputs([str(tmp_path)], None)
    assert [Path(item.path) for item in items] == files and not problems


# --- LangChain ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def langchain() -> Any:
    return pytest.importorskip(
        "langchain_core", reason="pip install 'structchunk-rag[langchain]' for these tests"
    )


def lc_embeddings() -> Any:
    from langchain_core.embeddings import Embeddings

    class Hashed(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return hashed_embed(texts)

        def embed_query(self, text: str) -> list[float]:
            return hashed_embed([text])[0]

    return Hashed()


def test_to_langchain_is_text_flat_metadata_and_id(langchain: Any, pdf_chunks: list[Chunk]) -> None:
    from langchain_core.documents import Document

    chunk = pdf_chunks[3]
    document = chunk.to_langchain()
    assert isinstance(document, Document)
    assert (document.page_content, document.metadata, document.id) == (
        chunk.text,
        chunk.metadata(),
        chunk.id,
    )
    assert chunk.to_langchain(lists=True).metadata == chunk.metadata(lists=True)


def test_loader_loads_chunks_lazily_from_one_file_or_several(
    langchain: Any, pdf_chunks: list[Chunk]
) -> None:
    from langchain_core.document_loaders import BaseLoader

    from structchunk.integrations.langchain import StructChunkLoader

    loader = StructChunkLoader(PDF, max_tokens=96)
    assert isinstance(loader, BaseLoader)
    assert [d.id for d in loader.lazy_load()] == [c.id for c in pdf_chunks]
    markdown = StructChunkLoader(str(MARKDOWN), max_tokens=64)
    assert [d.id for d in markdown.load()] == [d.id for d in markdown.lazy_load()]
    both = StructChunkLoader([str(MARKDOWN), HTML], ChunkOptions(max_tokens=64)).load()
    expected = chunk_file(MARKDOWN, max_tokens=64) + chunk_file(HTML, max_tokens=64)
    assert [d.id for d in both] == [c.id for c in expected]
    lists = StructChunkLoader(MARKDOWN, max_tokens=64, metadata_lists=True).load()
    assert lists[1].metadata["heading_path_list"] == expected[1].heading_path


def test_loader_reads_a_directory_as_the_cli_does(langchain: Any, tmp_path: Path) -> None:
    from structchunk.integrations.langchain import StructChunkLoader

    files = folder_of_documents(tmp_path / "docs")
    expected = [c for f in files for c in chunk_file(f, max_tokens=64)]
    docs = StructChunkLoader(tmp_path / "docs", max_tokens=64).load()
    assert [d.id for d in docs] == [c.id for c in expected]
    assert {d.metadata["source"] for d in docs} == {str(f) for f in files}
    mixed = StructChunkLoader([str(MARKDOWN), str(tmp_path / "docs")], max_tokens=64).load()
    assert [d.id for d in mixed] == [c.id for c in chunk_file(MARKDOWN, max_tokens=64) + expected]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="empty: directory has no files with a known extension"):
        StructChunkLoader(tmp_path / "empty").load()


def test_loader_checks_options_at_once_and_names_a_missing_file(langchain: Any) -> None:
    from structchunk.integrations.langchain import StructChunkLoader

    with pytest.raises(OptionsError, match="max_tokens"):
        StructChunkLoader(PDF, max_tokens=2)
    loader = StructChunkLoader("no-such.pdf")
    with pytest.raises(InputError, match="no-such.pdf: no such file"):
        loader.load()


def test_langchain_store_upserts_by_id_and_finds_the_chunk(langchain: Any) -> None:
    from langchain_core.vectorstores import InMemoryVectorStore

    from structchunk.integrations.langchain import StructChunkLoader

    store = InMemoryVectorStore(lc_embeddings())
    for _ in range(2):
        docs = StructChunkLoader([MARKDOWN, HTML], max_tokens=64).load()
        store.add_documents(docs, ids=[str(d.id) for d in docs])
    assert len(store.store) == len(docs)
    target = next(d for d in docs if d.metadata["source"] == str(HTML))
    [hit] = store.similarity_search(
        target.page_content, k=1, filter=lambda d: d.metadata["format"] == "html"
    )
    assert hit.id == target.id and hit.metadata == target.metadata


# --- LlamaIndex --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def llama() -> Any:
    return pytest.importorskip(
        "llama_index.core", reason="pip install 'structchunk-rag[llamaindex]' for these tests"
    )


def llama_embed_model() -> Any:
    from llama_index.core.embeddings import BaseEmbedding

    class Hashed(BaseEmbedding):
        def _get_text_embedding(self, text: str) -> list[float]:
            return hashed_embed([text])[0]

        def _get_query_embedding(self, query: str) -> list[float]:
            return hashed_embed([query])[0]

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return hashed_embed([query])[0]

    return Hashed(model_name="hashed-words")


def test_to_llamaindex_node_has_the_id_metadata_and_the_file_as_source(
    llama: Any, pdf_chunks: list[Chunk]
) -> None:
    from llama_index.core.schema import MetadataMode, NodeRelationship, TextNode
    from llama_index.core.vector_stores.utils import node_to_metadata_dict

    chunk = pdf_chunks[3]
    node = chunk.to_llamaindex()
    assert isinstance(node, TextNode)
    assert (node.id_, node.text, node.metadata) == (chunk.id, chunk.text, chunk.metadata())
    assert node.ref_doc_id == chunk.source
    assert node.source_node is not None and node.source_node.hash == chunk.doc_id
    assert NodeRelationship.NEXT not in node.relationships  # no neighbours known
    assert node.get_content(metadata_mode=MetadataMode.EMBED) == chunk.text
    assert node.get_content(metadata_mode=MetadataMode.LLM) == (
        f"source: {chunk.source}\npages: {chunk.metadata()['pages']}\n\n{chunk.text}"
    )
    node_to_metadata_dict(node, flat_metadata=True)  # what LlamaIndex's Chroma store checks


def test_chunks_to_nodes_links_only_true_neighbours(llama: Any, pdf_chunks: list[Chunk]) -> None:
    from structchunk.integrations.llamaindex import chunks_to_nodes

    markdown = chunk_file(MARKDOWN, max_tokens=64)
    gap = 2
    chunks = pdf_chunks[:gap] + pdf_chunks[gap + 1 :] + markdown
    nodes = chunks_to_nodes(chunks)
    assert [n.id_ for n in nodes] == [c.id for c in chunks]
    by_id = {n.id_: n for n in nodes}
    for node, chunk in zip(nodes, chunks):
        following = [
            c.id
            for c in chunks
            if (c.doc_id, c.chunk_index) == (chunk.doc_id, chunk.chunk_index + 1)
        ]
        assert (node.next_node.node_id if node.next_node else None) == next(iter(following), None)
        if node.next_node:
            assert by_id[node.next_node.node_id].prev_node.node_id == node.id_  # type: ignore[union-attr]
    assert nodes[gap - 1].next_node is None and nodes[gap].prev_node is None  # the gap
    assert nodes[len(pdf_chunks) - 2].next_node is None  # the PDF's last chunk: not into markdown
    assert nodes[len(pdf_chunks) - 1].prev_node is None


def test_reader_documents_are_linked_chunks_indexed_as_they_are(
    llama: Any, pdf_chunks: list[Chunk]
) -> None:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document

    from structchunk.integrations.llamaindex import StructChunkReader

    reader = StructChunkReader(max_tokens=96)
    assert isinstance(reader, BaseReader)
    docs = reader.load_data(file=PDF)
    assert all(isinstance(d, Document) for d in docs)
    assert [d.id_ for d in docs] == [c.id for c in pdf_chunks]
    assert [d.metadata for d in docs] == [c.metadata() for c in pdf_chunks]
    assert docs[1].prev_node.node_id == docs[0].id_  # type: ignore[union-attr]
    assert docs[1].next_node.node_id == docs[2].id_  # type: ignore[union-attr]
    index = VectorStoreIndex(docs, embed_model=llama_embed_model())  # as they are
    index.insert_nodes(StructChunkReader(max_tokens=96).load_data(file=PDF))  # a second run
    assert len(index.docstore.docs) == len(docs)
    assert set(index.vector_store.data.embedding_dict) == {d.id_ for d in docs}  # type: ignore[attr-defined]
    [hit] = index.as_retriever(similarity_top_k=1).retrieve(docs[5].text)
    assert hit.node.node_id == docs[5].id_ and hit.node.ref_doc_id == str(PDF)


def test_reader_reads_a_directory_as_the_cli_does(llama: Any, tmp_path: Path) -> None:
    from structchunk.integrations.llamaindex import StructChunkReader

    files = folder_of_documents(tmp_path)
    expected = [c for f in files for c in chunk_file(f, max_tokens=64)]
    docs = StructChunkReader(max_tokens=64).load_data(file=tmp_path, extra_info={"team": "x"})
    assert [d.id_ for d in docs] == [c.id for c in expected]
    assert all(d.metadata["team"] == "x" for d in docs)
    first_html = next(i for i, c in enumerate(expected) if c.format == "html")
    assert docs[first_html].prev_node is None  # links stay within a file
    assert docs[first_html + 1].prev_node.node_id == docs[first_html].id_  # type: ignore[union-attr]


def test_reader_as_a_file_extractor_keeps_the_file_metadata(llama: Any, tmp_path: Path) -> None:
    from llama_index.core import SimpleDirectoryReader

    from structchunk.integrations.llamaindex import StructChunkReader

    (tmp_path / "api-keys.md").write_bytes(MARKDOWN.read_bytes())
    (tmp_path / "page.html").write_bytes(HTML.read_bytes())
    reader = StructChunkReader(max_tokens=64)
    docs = SimpleDirectoryReader(
        str(tmp_path), file_extractor={".md": reader, ".html": reader}
    ).load_data()
    expected = chunk_file(tmp_path / "api-keys.md", max_tokens=64)
    expected += chunk_file(tmp_path / "page.html", max_tokens=64)
    assert [d.id_ for d in docs] == [c.id for c in expected]
    assert docs[0].metadata["file_name"] == "api-keys.md"
    assert docs[0].metadata["heading_path"] == expected[0].metadata()["heading_path"]
    assert docs[0].get_content(metadata_mode="embed") == expected[0].text  # type: ignore[arg-type]


def test_reader_reads_through_an_fsspec_filesystem(llama: Any) -> None:
    """SimpleDirectoryReader hands readers its `fs` when files are not local."""
    import fsspec

    from structchunk.integrations.llamaindex import StructChunkReader

    fs = fsspec.filesystem("memory")
    fs.pipe("/remote/api-keys.md", MARKDOWN.read_bytes())
    docs = StructChunkReader(max_tokens=64).load_data(file="/remote/api-keys.md", fs=fs)
    expected = chunk_file(MARKDOWN, max_tokens=64)
    assert [d.text for d in docs] == [c.text for c in expected]
    assert {d.metadata["source"] for d in docs} == {"/remote/api-keys.md"}
    fs.rm("/remote", recursive=True)


def test_node_parser_chunks_loaded_documents_by_their_structure(llama: Any, tmp_path: Path) -> None:
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.ingestion import IngestionPipeline
    from llama_index.core.schema import MetadataMode

    from structchunk.integrations.llamaindex import StructChunkNodeParser

    (tmp_path / "api-keys.md").write_bytes(MARKDOWN.read_bytes())
    loaded = SimpleDirectoryReader(str(tmp_path)).load_data()
    parser = StructChunkNodeParser(options=ChunkOptions(max_tokens=64))
    nodes = IngestionPipeline(transformations=[parser]).run(documents=loaded)
    again = parser.get_nodes_from_documents(loaded)
    expected = chunk_file(tmp_path / "api-keys.md", max_tokens=64)
    assert [n.get_content(metadata_mode=MetadataMode.NONE) for n in nodes] == [
        c.text for c in expected
    ]
    assert [n.node_id for n in nodes] == [n.node_id for n in again] == [c.id for c in expected]
    assert {n.ref_doc_id for n in nodes} == {loaded[0].id_}
    assert nodes[0].next_node.node_id == nodes[1].node_id  # type: ignore[union-attr]
    assert nodes[1].metadata["file_name"] == "api-keys.md"  # the document's metadata merged in
    assert nodes[1].metadata["heading_path"] == expected[1].metadata()["heading_path"]
    assert nodes[1].get_content(metadata_mode=MetadataMode.EMBED) == expected[1].text


# --- Haystack ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def haystack() -> Any:
    return pytest.importorskip(
        "haystack", reason="pip install 'structchunk-rag[haystack]' for these tests"
    )


def test_to_haystack_is_text_flat_meta_and_id(haystack: Any, pdf_chunks: list[Chunk]) -> None:
    chunk = pdf_chunks[3]
    document = chunk.to_haystack()
    assert isinstance(document, haystack.Document)
    assert (document.id, document.content, document.meta) == (
        chunk.id,
        chunk.text,
        chunk.metadata(),
    )


def test_converter_takes_paths_and_bytestreams_and_meta(haystack: Any) -> None:
    from haystack.dataclasses import ByteStream

    from structchunk.integrations.haystack import StructChunkConverter

    converter = StructChunkConverter(max_tokens=64)
    stream = ByteStream(data=HTML.read_bytes(), mime_type="text/html", meta={"site": "docs"})
    named = ByteStream(data=MARKDOWN.read_bytes(), meta={"file_path": "guide.md"})
    result = converter.run(sources=[str(MARKDOWN), stream, named], meta={"team": "search"})
    documents = result["documents"]
    markdown = chunk_file(MARKDOWN, max_tokens=64)
    html = chunk_file(HTML, max_tokens=64)
    assert [d.content for d in documents] == [c.text for c in markdown + html + markdown]
    assert documents[0].meta == {"team": "search", **markdown[0].metadata()}
    assert documents[len(markdown)].meta["site"] == "docs"
    assert documents[len(markdown)].meta["format"] == "html"
    assert documents[-1].meta["source"] == "guide.md"
    assert documents[0].id == markdown[0].id


def test_converter_reads_an_unnamed_epub_bytestream_by_its_mime_type(haystack: Any) -> None:
    from haystack.dataclasses import ByteStream

    from structchunk.integrations.haystack import StructChunkConverter

    stream = ByteStream(data=EPUB.read_bytes(), mime_type="application/epub+zip")
    documents = StructChunkConverter(max_tokens=64).run(sources=[stream])["documents"]
    assert [d.content for d in documents] == [c.text for c in chunk_file(EPUB, max_tokens=64)]
    assert documents[0].meta["format"] == "epub"


def test_converter_meta_per_source_and_its_errors(haystack: Any) -> None:
    from haystack.dataclasses import ByteStream

    from structchunk.integrations.haystack import StructChunkConverter

    converter = StructChunkConverter(max_tokens=64)
    result = converter.run(sources=[MARKDOWN, HTML], meta=[{"n": 1}, {"n": 2}])
    assert {d.meta["n"] for d in result["documents"]} == {1, 2}
    with pytest.raises(ValueError, match="meta has 1 entries for 2 sources"):
        converter.run(sources=[MARKDOWN, HTML], meta=[{"n": 1}])
    with pytest.raises(UnsupportedFormatError, match="unsupported file extension"):
        converter.run(sources=[ByteStream(data=b"# Title\n\nBody.")])
    with pytest.raises(InputError, match="no such file"):
        converter.run(sources=["no-such.md"])


def test_haystack_pipeline_overwrites_a_rerun_and_retrieves(haystack: Any) -> None:
    from haystack import Pipeline
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.components.writers import DocumentWriter
    from haystack.document_stores.in_memory import InMemoryDocumentStore
    from haystack.document_stores.types import DuplicatePolicy

    from structchunk.integrations.haystack import StructChunkConverter

    store = InMemoryDocumentStore()
    pipeline = Pipeline()
    pipeline.add_component("chunker", StructChunkConverter(max_tokens=96))
    pipeline.add_component("writer", DocumentWriter(store, policy=DuplicatePolicy.OVERWRITE))
    pipeline.connect("chunker.documents", "writer.documents")
    for _ in range(2):
        pipeline.run({"chunker": {"sources": [HTML, MARKDOWN]}})
    chunks = chunk_file(HTML, max_tokens=96) + chunk_file(MARKDOWN, max_tokens=96)
    assert store.count_documents() == len(chunks)
    [best] = InMemoryBM25Retriever(store).run(query=chunks[4].body, top_k=1)["documents"]
    assert best.id == chunks[4].id


def test_converter_round_trips_through_pipeline_yaml_without_the_password(haystack: Any) -> None:
    from haystack import Pipeline

    from structchunk.integrations.haystack import StructChunkConverter

    pipeline = Pipeline()
    converter = StructChunkConverter(max_tokens=96, pdf_password="secret", metadata_lists=True)
    pipeline.add_component("chunker", converter)
    yaml = pipeline.dumps()
    assert "secret" not in yaml and "max_tokens: 96" in yaml
    loaded = Pipeline.loads(yaml, allowed_modules=["structchunk.integrations.haystack"])
    restored = loaded.get_component("chunker")
    assert isinstance(restored, StructChunkConverter)
    assert restored.options == converter.options.model_copy(update={"pdf_password": None})
    assert restored.metadata_lists is True
