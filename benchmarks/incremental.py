"""Incremental re-embedding over real edit histories: what each indexer re-embeds per edit.

    PYTHONPATH=. python benchmarks/incremental.py --repos-dir DIR \
        [--peers-python /path/to/peers/bin/python] [--revisions 20] [--records out.jsonl]
    python benchmarks/incremental.py --git PATH --glob 'docs/**/*.md' [--commit REV] ...

The files and pinned commits are listed in `incremental.json` beside this script (60
Markdown files: the Rust book, FastAPI's, Prometheus's and HTTPX's documentation). The
repositories are not part of the project; clone each one bare, with its history, into
`--repos-dir` (`<owner>+<name>`, or `<owner>+<name>/repo`, or `<name>` inside it):

    git clone --bare https://github.com/rust-lang/book DIR/rust-lang+book

`--repo OWNER/NAME=PATH` points one repository elsewhere; `--git PATH --glob PATTERN` (one
or more patterns, matched with fnmatch against the paths at `--commit`, default HEAD)
replays any repository instead of the list.

A file's versions are `git log --follow <commit> -- <path>`, oldest first, each read with
`git cat-file` at the path it had then; a version whose bytes equal the previous one's is
skipped, and the newest `--revisions` edits of each file are replayed (the version before
them is indexed first, uncounted). Per edit:

- **minimum**: structchunk's chunks whose text is new — texts of the new version not in
  the previous one, as a multiset: what no indexer keyed on content can avoid embedding
  for these chunks;
- **structchunk**: chunk ids of the new version not among the previous version's (one
  fixed `source` per file, `max_tokens=200`, the words tokenizer) — whatever `Chunk.id`
  is, this measures it;
- **LangChain**: texts embedded by `langchain_core.indexing.index` (`InMemoryRecordManager`,
  `InMemoryVectorStore` over a counting fake embedding, `cleanup="incremental"`) over
  `RecursiveCharacterTextSplitter(chunk_size=200, chunk_overlap=0)` counting words;
- **LlamaIndex**: nodes embedded by an `IngestionPipeline` (`SentenceSplitter(chunk_size=
  200, chunk_overlap=0, tokenizer=str.split)`, a counting embed model, `SimpleDocumentStore`,
  `SimpleVectorStore`, `DocstoreStrategy.UPSERTS`, its default cache) with `id_` fixed per
  file.

Each system's own "texts changed" (its chunks' new texts, as a multiset) is reported too:
the peers cut the text elsewhere, so their own minimum differs from structchunk's.

structchunk and the peers may live in different virtual environments: the script runs
each part in a child process (`--python` for structchunk, default this interpreter;
`--peers-python` for LangChain and LlamaIndex) and joins the counts by (file, revision).
`--part structchunk|peers` runs one part and prints its counts as JSON lines.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "incremental.json"
BUDGET = 200
"""Words per chunk for every system (the shared bench's WORD_BUDGET)."""
SYSTEMS = ("structchunk", "langchain", "llamaindex")
LABELS = {"structchunk": "structchunk", "langchain": "LangChain", "llamaindex": "LlamaIndex"}


@dataclass(frozen=True)
class Target:
    """One file of one repository, read at a pinned commit."""

    repo: str
    git_dir: str
    commit: str
    path: str


@dataclass(frozen=True)
class Version:
    rev: str
    data: bytes


def git(git_dir: str, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], input=stdin, capture_output=True, check=True
    ).stdout


def file_versions(target: Target, edits: int) -> list[Version]:
    """The newest `edits` byte-changing edits of a file and the version before them."""
    follow = ["--follow"]
    while True:
        try:
            log = git(target.git_dir, "log", *follow, "--format=%x00%H", "--name-only",
                      target.commit, "--", target.path).decode()  # fmt: skip
            break
        except subprocess.CalledProcessError:
            if not follow:
                raise
            # --follow compares blobs of other files, some absent from a partial clone
            print(f"{target.repo}/{target.path}: history read without --follow", file=sys.stderr)
            follow = []
    revs: list[tuple[str, str]] = []
    for entry in log.split("\x00")[1:]:
        rev, _, names = entry.partition("\n")
        name = names.strip().splitlines()[-1] if names.strip() else ""
        if name:
            revs.append((rev, name))
    revs.reverse()
    request = "".join(f"{rev}:{name}\n" for rev, name in revs).encode()
    out = git(target.git_dir, "cat-file", "--batch", stdin=request)
    versions: list[Version] = []
    pos = 0
    for rev, _ in revs:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":  # deleted at that commit
            continue
        size = int(header[2])
        data = out[pos : pos + size]
        pos += size + 1
        if not versions or versions[-1].data != data:
            versions.append(Version(rev, data))
    return versions[-(edits + 1) :]


def targets(args: argparse.Namespace) -> list[Target]:
    if args.git:
        commit = git(args.git, "rev-parse", args.commit).decode().strip()
        paths = git(args.git, "ls-tree", "-r", "--name-only", commit).decode().splitlines()
        chosen = [p for p in paths if any(fnmatch.fnmatch(p, g) for g in args.glob)]
        return [Target(args.git, args.git, commit, p) for p in chosen]
    manifest = json.loads(MANIFEST.read_text())
    moved = dict(item.split("=", 1) for item in args.repo)
    found = []
    for entry in manifest["repositories"]:
        git_dir = moved.get(entry["repo"]) or repo_dir(args.repos_dir, entry["repo"])
        files = entry["files"][: args.files_per_repo] if args.files_per_repo else entry["files"]
        found += [Target(entry["repo"], git_dir, entry["commit"], path) for path in files]
    return found


def repo_dir(repos_dir: str, repo: str) -> str:
    owner, name = repo.split("/")
    for candidate in (f"{owner}+{name}/repo", f"{owner}+{name}", name, f"{name}.git"):
        if (Path(repos_dir) / candidate / "HEAD").exists():
            return str(Path(repos_dir) / candidate)
    sys.exit(f"{repo}: no clone in {repos_dir}; git clone --bare https://github.com/{repo} "
             f"{repos_dir}/{owner}+{name}")  # fmt: skip


def new_texts(old: list[str], new: list[str]) -> int:
    """Texts of `new` not in `old`, counted as a multiset."""
    return sum((Counter(new) - Counter(old)).values())


# ------------------------------------------------------------------ the parts


def structchunk_part(target: Target, versions: list[Version]) -> Iterator[dict[str, Any]]:
    from structchunk import ChunkOptions, iter_chunks_from_bytes

    options = ChunkOptions(max_tokens=BUDGET, tokenizer="words")
    source = f"{target.repo}/{target.path}"
    old_ids: set[str] = set()
    old_texts: list[str] = []
    for n, version in enumerate(versions):
        chunks = list(iter_chunks_from_bytes(version.data, source, "markdown", options))
        ids = {chunk.id for chunk in chunks}
        texts = [chunk.text for chunk in chunks]
        if n:
            yield {
                "rev": version.rev,
                "minimum": new_texts(old_texts, texts),
                "structchunk": len(ids - old_ids),
                "structchunk_chunks": len(chunks),
            }
        old_ids, old_texts = ids, texts


def peers_part(
    target: Target, versions: list[Version], batch_size: int
) -> Iterator[dict[str, Any]]:
    langchain = LangChainIndex(f"{target.repo}/{target.path}", batch_size)
    llamaindex = LlamaIndexPipeline(f"{target.repo}/{target.path}")
    old: dict[str, list[str]] = {"langchain": [], "llamaindex": []}
    for n, version in enumerate(versions):
        text = version.data.decode("utf-8", errors="replace")
        row: dict[str, Any] = {"rev": version.rev}
        for name, system in (("langchain", langchain), ("llamaindex", llamaindex)):
            embedded, texts = system.update(text)
            row |= {name: embedded, f"{name}_min": new_texts(old[name], texts),
                    f"{name}_chunks": len(texts)}  # fmt: skip
            old[name] = texts
        if n:
            yield row


class LangChainIndex:
    """LangChain's indexing API over one file: one source id, incremental cleanup."""

    def __init__(self, source: str, batch_size: int) -> None:
        from langchain_core.embeddings import Embeddings
        from langchain_core.indexing import InMemoryRecordManager
        from langchain_core.vectorstores import InMemoryVectorStore
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        class Counting(Embeddings):
            count = 0

            def embed_documents(self, texts: list[str]) -> list[list[float]]:
                self.count += len(texts)
                return [[float(len(t)), 1.0] for t in texts]

            def embed_query(self, text: str) -> list[float]:
                return [float(len(text)), 1.0]

        self.source, self.batch_size = source, batch_size
        self.embedding = Counting()
        self.store = InMemoryVectorStore(embedding=self.embedding)
        self.records = InMemoryRecordManager(namespace=source)
        self.records.create_schema()
        self.splitter = RecursiveCharacterTextSplitter(
            chunk_size=BUDGET, chunk_overlap=0, length_function=lambda t: len(t.split())
        )

    def update(self, text: str) -> tuple[int, list[str]]:
        from langchain_core.documents import Document
        from langchain_core.indexing import index

        docs = self.splitter.split_documents([Document(text, metadata={"source": self.source})])
        before = self.embedding.count
        index(docs, self.records, self.store, cleanup="incremental",
              source_id_key="source", key_encoder="sha256", batch_size=self.batch_size)  # fmt: skip
        return self.embedding.count - before, [d.page_content for d in docs]


class LlamaIndexPipeline:
    """LlamaIndex's IngestionPipeline over one file: a docstore, upserts by document id."""

    def __init__(self, source: str) -> None:
        from llama_index.core.embeddings import BaseEmbedding
        from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
        from llama_index.core.node_parser import SentenceSplitter
        from llama_index.core.storage.docstore import SimpleDocumentStore
        from llama_index.core.vector_stores import SimpleVectorStore

        class Counting(BaseEmbedding):
            count: int = 0

            def _get_text_embedding(self, text: str) -> list[float]:
                self.count += 1
                return [float(len(text)), 1.0]

            def _get_query_embedding(self, query: str) -> list[float]:
                return [float(len(query)), 1.0]

            async def _aget_query_embedding(self, query: str) -> list[float]:
                return self._get_query_embedding(query)

        self.source = source
        self.embedding = Counting()
        self.splitter = SentenceSplitter(chunk_size=BUDGET, chunk_overlap=0, tokenizer=str.split)
        self.pipeline = IngestionPipeline(
            transformations=[self.splitter, self.embedding],
            docstore=SimpleDocumentStore(),
            vector_store=SimpleVectorStore(),
            docstore_strategy=DocstoreStrategy.UPSERTS,
        )

    def update(self, text: str) -> tuple[int, list[str]]:
        from llama_index.core import Document

        document = Document(text=text, id_=self.source)
        before = self.embedding.count
        self.pipeline.run(documents=[document])
        texts = [node.get_content() for node in self.splitter.get_nodes_from_documents([document])]
        return self.embedding.count - before, texts


PARTS = ("peers", "structchunk")


def run_part(part: str, args: argparse.Namespace) -> None:
    for target in targets(args):
        versions = file_versions(target, args.revisions)
        if part == "structchunk":
            rows = structchunk_part(target, versions)
        else:
            rows = peers_part(target, versions, args.langchain_batch_size)
        for row in rows:
            print(json.dumps({"repo": target.repo, "path": target.path} | row), flush=True)


# ------------------------------------------------------------------ joining and the table


def child(python: str, part: str, argv: list[str]) -> list[dict[str, Any]]:
    done = subprocess.run([python, __file__, "--part", part, *argv], capture_output=True,
                          text=True)  # fmt: skip
    if done.returncode or part == "structchunk":  # both parts print the same history notes
        sys.stderr.write(done.stderr)
    if done.returncode:
        sys.exit(f"the {part} part failed ({python})")
    return [json.loads(line) for line in done.stdout.splitlines()]


def joined(args: argparse.Namespace, argv: list[str]) -> list[dict[str, Any]]:
    with ThreadPoolExecutor(2) as pool:
        ours = pool.submit(child, args.python, "structchunk", argv)
        peers = pool.submit(child, args.peers_python, "peers", argv)
        rows, theirs = ours.result(), peers.result()
    key = lambda row: (row["repo"], row["path"], row["rev"])  # noqa: E731
    if [key(r) for r in rows] != [key(r) for r in theirs]:
        sys.exit("the two parts replayed different revisions")
    return [ours_row | peer_row for ours_row, peer_row in zip(rows, theirs, strict=True)]


def table(rows: list[dict[str, Any]]) -> str:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["repo"], []).append(row)
    groups["all"] = rows
    lines = [
        "| repository | files | revisions | minimum | structchunk | × | LangChain | × "
        "| LlamaIndex | × |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, group in groups.items():
        minimum = sum(r["minimum"] for r in group)
        cells = [name, str(len({(r["repo"], r["path"]) for r in group})), str(len(group)),
                 str(minimum)]  # fmt: skip
        for system in SYSTEMS:
            total = sum(r[system] for r in group)
            cells += [str(total), f"{total / minimum:.1f}" if minimum else "–"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "| system | chunks in the new versions | own texts changed | re-embedded "
        "| share of chunks re-embedded |",
        "|---|---:|---:|---:|---:|",
    ]
    for system in SYSTEMS:
        chunks = sum(r[f"{system}_chunks"] for r in rows)
        own = sum(r["minimum" if system == "structchunk" else f"{system}_min"] for r in rows)
        embedded = sum(r[system] for r in rows)
        lines.append(f"| {LABELS[system]} | {chunks} | {own} | {embedded} "
                     f"| {embedded / max(chunks, 1):.1%} |")  # fmt: skip
    return "\n".join(lines)


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos-dir", default=".", help="where the bare clones are")
    parser.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH")
    parser.add_argument("--git", help="one repository instead of incremental.json")
    parser.add_argument("--glob", nargs="+", default=["*.md"], help="files of --git")
    parser.add_argument("--commit", default="HEAD", help="the newest commit read in --git")
    parser.add_argument("--revisions", type=int, default=20, help="newest edits per file")
    parser.add_argument("--files-per-repo", type=int, default=0, help="0: every listed file")
    parser.add_argument("--langchain-batch-size", type=int, default=100, help="index()'s")
    parser.add_argument("--python", default=sys.executable, help="runs structchunk")
    parser.add_argument("--peers-python", default=sys.executable, help="runs the peers")
    parser.add_argument("--records", help="write the per-revision counts here (JSON lines)")
    parser.add_argument("--part", choices=PARTS, help=argparse.SUPPRESS)
    return parser


def main() -> None:
    args = arguments().parse_args()
    if args.part:
        run_part(args.part, args)
        return
    rows = joined(args, sys.argv[1:])
    if args.records:
        Path(args.records).write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(table(rows))


if __name__ == "__main__":
    main()
