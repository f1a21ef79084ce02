"""Small-to-big at equal context: structchunk's parents beside the peers' own
small-to-big modes, on the corpus question sets, under BM25 and dense retrieval.

    /path/to/peers-venv/bin/python benchmarks/small_to_big.py [--corpus ../shared/corpus]
        [--sets awsdocs,written,...] [--systems structchunk,llamaindex,docling]
        [--retrievers bm25,dense] [--md out.md]

For each question the retriever ranks the small chunks of the set's documents; a
context of N words (512, 1024, 2048) is then filled from that ranking three ways,
exactly as `structchunk eval --context-budget` fills it (structchunk/quality/context.py):
the chunks alone (`ctx`), each hit's parent in its place (`parent`), and a parent in
place of its chunks once two of them are hits (`merged`, what LlamaIndex's
AutoMergingRetriever does). The score is the share of questions whose answer one item
of the context holds whole (the harness's normalisation, contiguous tokens).

The systems, each at the harness's 200-word chunk budget, text as the harness gives it:

- structchunk: `convert --parents --max-tokens 200` (parents up to 800 words);
- llamaindex: HierarchicalNodeParser with SentenceSplitters of 800 and 200 words (the
  same budgets; its default is 2048/512/128 tokens), leaves ranked, PARENT their parent;
- docling: HybridChunker (200 words), the parent of a chunk its TreeChunkExpander
  expansion (whole top-level items); Markdown and HTML read natively, text as Markdown,
  and a PDF as the harness gives it to Docling (its PDF pipeline needs layout weights
  the machine lacks): the pdfplumber text, read as Markdown.

It runs with the peers' virtualenv and reuses the harness's scoring code (BM25,
all-MiniLM-L6-v2, `match_tokens`); structchunk runs from this checkout with the dev
interpreter (`--structchunk-python`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from structchunk.quality.context import Filling, Item, fill, fill_merging  # noqa: E402

BUDGETS = (512, 1024, 2048)
DEPTH = 100
PARENT_WORDS, LEAF_WORDS = 800, 200

Pair = tuple[str, str | None]
"""A small chunk's text and its parent's text (None: no parent)."""


def load_harness(bench: Path) -> tuple[Any, Any, Any]:
    sys.path.insert(0, str(bench))
    import common  # type: ignore[import-not-found]
    import metrics  # type: ignore[import-not-found]
    import run  # type: ignore[import-not-found]

    return run, metrics, common


def structchunk_pairs(docs: Sequence[Any], python: str) -> dict[str, list[Pair]]:
    """Each document's chunks with their parents' text, from `convert --parents`."""
    out: dict[str, list[Pair]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "out.jsonl"
        command = [python, "-m", "structchunk", "convert", *(d.path for d in docs)]
        command += ["--parents", "--max-tokens", str(LEAF_WORDS), "-o", str(target), "-q"]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        subprocess.run(command, check=False, env=env, capture_output=True)
        by_path = {d.path: d.id for d in docs}
        parents: dict[str, str] = {}
        for line in target.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("record") == "parent":
                parents[record["id"]] = record["text"]
                continue
            doc = by_path.get(os.path.abspath(record["source"]))
            if doc is not None:
                out.setdefault(doc, []).append((record["text"], parents[record["parent_id"]]))
    return out


def document_text(common: Any, doc: Any) -> str:
    """The text the harness gives a system that does not read the format itself."""
    if doc.fmt == "html":
        return str(common.html_to_text(common.read_text_file(doc.path)))
    if doc.fmt == "pdf":
        return str(common.pdf_to_text(doc.path))
    return str(common.read_text_file(doc.path))


def llamaindex_pairs(common: Any, docs: Sequence[Any]) -> dict[str, list[Pair]]:
    from llama_index.core import Document
    from llama_index.core.node_parser import (
        HierarchicalNodeParser,
        SentenceSplitter,
        get_leaf_nodes,
    )

    splitters = {
        str(size): SentenceSplitter(chunk_size=size, chunk_overlap=0, tokenizer=str.split)
        for size in (PARENT_WORDS, LEAF_WORDS)
    }
    parser = HierarchicalNodeParser.from_defaults(
        node_parser_ids=list(splitters), node_parser_map=splitters
    )
    out: dict[str, list[Pair]] = {}
    for doc in docs:
        nodes = parser.get_nodes_from_documents([Document(text=document_text(common, doc))])
        by_id = {node.node_id: node for node in nodes}
        pairs = []
        for leaf in get_leaf_nodes(nodes):
            parent = leaf.parent_node
            text = by_id[parent.node_id].get_content() if parent is not None else None
            pairs.append((leaf.get_content(), text))
        out[doc.id] = pairs
    return out


def docling_pairs(common: Any, docs: Sequence[Any]) -> dict[str, list[Pair]]:
    import io

    from docling.datamodel.base_models import DocumentStream, InputFormat
    from docling.document_converter import DocumentConverter
    from docling_core.transforms.chunker.chunk_expander import TreeChunkExpander
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
    from docling_core.transforms.chunker.tokenizer.base import BaseTokenizer

    class Words(BaseTokenizer):  # type: ignore[misc]
        def count_tokens(self, text: str) -> int:
            return len(text.split())

        def get_max_tokens(self) -> int:
            return LEAF_WORDS

        def get_tokenizer(self) -> Any:
            return common.word_count

    converter = DocumentConverter(allowed_formats=[InputFormat.MD, InputFormat.HTML])
    chunker = HybridChunker(tokenizer=Words())
    expander = TreeChunkExpander()
    out: dict[str, list[Pair]] = {}
    for doc in docs:
        name = "doc.html" if doc.fmt == "html" else "doc.md"
        text = (
            common.read_text_file(doc.path)
            if doc.fmt in ("html", "markdown")
            else document_text(common, doc)
        )
        stream = DocumentStream(name=name, stream=io.BytesIO(text.encode("utf-8")))
        document = converter.convert(stream).document
        serializer = chunker.serializer_provider.get_serializer(doc=document)
        pairs = []
        for chunk in chunker.chunk(document):
            wide = expander.expand(chunk, document, serializer)
            pairs.append((chunker.contextualize(chunk), chunker.contextualize(wide)))
        out[doc.id] = [(c, p) for c, p in pairs if c.strip()]
    return out


def scores(
    common: Any,
    metrics: Any,
    questions: Sequence[dict[str, Any]],
    pairs: dict[str, list[Pair]],
    retriever: str,
) -> dict[str, dict[int, float]]:
    """Per filling, per budget: the share of questions answered inside the context."""
    flat = [(doc, chunk, parent) for doc, got in pairs.items() for chunk, parent in got]
    index = metrics.RETRIEVERS[retriever]([{"text": chunk} for _, chunk, _ in flat])
    items: dict[str, Item] = {}

    def item(key: str, text: str) -> Item:
        if key not in items:
            joined = " " + " ".join(common.match_tokens(text)) + " "
            items[key] = Item(key, len(text.split()), joined)
        return items[key]

    ranked_all = index.search([q["question"] for q in questions], DEPTH)
    fillings: dict[str, tuple[Filling, bool]] = {
        "ctx": (fill, False),
        "parent": (fill, True),
        "merged": (fill_merging, True),
    }
    out: dict[str, dict[int, list[float]]] = {k: {n: [] for n in BUDGETS} for k in fillings}
    for question, ranked in zip(questions, ranked_all):
        answers = [" " + " ".join(common.match_tokens(a)) + " " for a in question["answers"]]
        for name, (filling, with_parents) in fillings.items():
            pairs_ranked = [
                (
                    item(f"c{i}", flat[i][1]),
                    item(f"p{flat[i][2]}", flat[i][2])
                    if with_parents and flat[i][2] is not None
                    else None,
                )
                for i in ranked
            ]
            for budget in BUDGETS:
                context = filling(pairs_ranked, budget)
                found = [any(a in it.joined for it in context) for a in answers]
                out[name][budget].append(sum(found) / len(found))
    return {k: {n: sum(v) / len(v) for n, v in by.items()} for k, by in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--bench", type=Path, default=ROOT.parent / "shared" / "bench")
    parser.add_argument("--sets", default="awsdocs,written,chroma,pdf-rendered,pdf-real")
    parser.add_argument("--systems", default="structchunk,llamaindex,docling")
    parser.add_argument("--retrievers", default="bm25,dense")
    parser.add_argument("--structchunk-python", default=sys.executable)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args()
    run, metrics, common = load_harness(args.bench.resolve())
    corpus = args.corpus.resolve()
    docs = common.discover(corpus, ("markdown", "html", "pdf", "text"))
    qa, _ = common.load_qa(corpus)
    scoped = run.qa_scopes(qa, run.qa_scope_ids(qa, docs), {d.id: d for d in docs})
    by_id = {d.id: d for d in docs}
    makers: dict[str, Callable[[Sequence[Any]], dict[str, list[Pair]]]] = {
        "structchunk": lambda ds: structchunk_pairs(ds, args.structchunk_python),
        "llamaindex": lambda ds: llamaindex_pairs(common, ds),
        "docling": lambda ds: docling_pairs(common, ds),
    }
    head = " | ".join(f"{k}@{n}" for k in ("ctx", "parent", "merged") for n in BUDGETS)
    lines = [f"| set | retriever | system | {head} |", "|---" * (3 + 3 * len(BUDGETS)) + "|"]
    print("\n".join(lines), flush=True)
    for name in args.sets.split(","):
        scope = scoped[name]
        set_docs = [by_id[i] for i in scope["docs"]]
        for system in args.systems.split(","):
            try:
                pairs = makers[system](set_docs)
            except Exception as error:  # a peer that fails on a set: noted, not fatal
                print(f"{name}: {system} failed: {error!r}", file=sys.stderr)
                continue
            for retriever in args.retrievers.split(","):
                got = scores(common, metrics, scope["questions"], pairs, retriever)
                cells = " | ".join(
                    f"{100 * got[k][n]:.1f}" for k in ("ctx", "parent", "merged") for n in BUDGETS
                )
                line = f"| {name} ({len(scope['questions'])}) | {retriever} | {system} | {cells} |"
                lines.append(line)
                print(line, flush=True)
    if args.md is not None:
        args.md.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
