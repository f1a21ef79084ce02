"""Small-to-big hand-offs: chunks and their parent records as LangChain documents for a
multi-vector retriever's vector store and docstore, and as LlamaIndex nodes an
auto-merging retriever merges into their parents."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_integrations_frameworks import lc_embeddings, llama_embed_model

from structchunk import Chunk, ChunkOptions, Parent, iter_records

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PDF = SAMPLES / "rust-data-types.pdf"
QUESTION = "What is the range of an i8?"


@pytest.fixture(scope="module")
def records() -> list[Chunk | Parent]:
    return list(iter_records(PDF, max_tokens=64, parents=True))


def test_langchain_children_point_at_docstore_parents(records: list[Chunk | Parent]) -> None:
    """What `MultiVectorRetriever(vectorstore, docstore, id_key="parent_id")` does on a
    query: search the children, then `docstore.mget` their `metadata[id_key]`."""
    pytest.importorskip("langchain_core", reason="pip install 'structchunk-rag[langchain]'")
    from langchain_core.stores import InMemoryStore
    from langchain_core.vectorstores import InMemoryVectorStore

    from structchunk.integrations.langchain import StructChunkLoader

    children, parents = StructChunkLoader(PDF, max_tokens=64).load_with_parents()
    assert [d.id for d in children] == [r.id for r in records if isinstance(r, Chunk)]
    assert [i for i, _ in parents] == [r.id for r in records if isinstance(r, Parent)]
    assert all(i == d.id for i, d in parents)
    docstore = InMemoryStore()
    docstore.mset(parents)
    store = InMemoryVectorStore(lc_embeddings())
    store.add_documents(children, ids=[d.id for d in children])
    hits = store.similarity_search(QUESTION, k=4)
    wanted = list(dict.fromkeys(hit.metadata["parent_id"] for hit in hits))
    found = [d for d in docstore.mget(wanted) if d is not None]
    assert len(found) == len(wanted) > 0
    for hit in hits:  # each hit's text is in the parent handed back for it
        parent = docstore.mget([hit.metadata["parent_id"]])[0]
        assert parent is not None and hit.page_content.split("\n\n", 1)[-1][:40] in (
            parent.page_content
        )


def test_langchain_multi_vector_retriever_when_installed() -> None:
    multi_vector = pytest.importorskip(
        "langchain_classic.retrievers.multi_vector", reason="langchain-classic is not installed"
    )
    from langchain_core.stores import InMemoryStore
    from langchain_core.vectorstores import InMemoryVectorStore

    from structchunk.integrations.langchain import StructChunkLoader

    children, parents = StructChunkLoader(PDF, max_tokens=64).load_with_parents()
    store = InMemoryVectorStore(lc_embeddings())
    store.add_documents(children, ids=[d.id for d in children])
    docstore = InMemoryStore()
    docstore.mset(parents)
    retriever = multi_vector.MultiVectorRetriever(
        vectorstore=store, docstore=docstore, id_key="parent_id"
    )
    assert {d.id for d in retriever.invoke(QUESTION)} <= {i for i, _ in parents}


def test_llamaindex_nodes_merge_into_their_parents(records: list[Chunk | Parent]) -> None:
    pytest.importorskip("llama_index.core", reason="pip install 'structchunk-rag[llamaindex]'")
    from llama_index.core import StorageContext, VectorStoreIndex
    from llama_index.core.node_parser import get_leaf_nodes, get_root_nodes
    from llama_index.core.retrievers import AutoMergingRetriever
    from llama_index.core.schema import NodeRelationship

    from structchunk.integrations.llamaindex import records_to_nodes

    nodes = records_to_nodes(records)
    leaves = get_leaf_nodes(nodes)
    parents = [r for r in records if isinstance(r, Parent)]
    assert [n.id_ for n in leaves] == [r.id for r in records if isinstance(r, Chunk)]
    assert [n.id_ for n in get_root_nodes(nodes)] == [p.id for p in parents]
    for leaf in leaves:
        assert leaf.relationships[NodeRelationship.PARENT].node_id == leaf.metadata["parent_id"]
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(leaves, storage_context=storage, embed_model=llama_embed_model())
    retriever = AutoMergingRetriever(
        index.as_retriever(similarity_top_k=6), storage, simple_ratio_thresh=0.0
    )
    merged = retriever.retrieve(QUESTION)
    assert merged and {hit.node.id_ for hit in merged} <= {p.id for p in parents}


def test_parents_are_asked_for_by_the_loader_whatever_the_options() -> None:
    pytest.importorskip("langchain_core", reason="pip install 'structchunk-rag[langchain]'")
    from structchunk.integrations.langchain import StructChunkLoader

    loader = StructChunkLoader(PDF, ChunkOptions(max_tokens=64))
    children, parents = loader.load_with_parents()
    assert parents and all("parent_id" in d.metadata for d in children)
    assert all("parent_id" not in d.metadata for d in loader.load())
