"""Retrieval over the multilingual set: structchunk against the peers, per language.

    python benchmarks/multilingual_retrieval.py [--set DIR] [--bench DIR] [--systems a,b]
        [--retrievers bm25,dense] [--structchunk-cmd "CMD"] [--json OUT]

Runs in the shared bench's peers virtualenv (``.venvs/peers``, found beside ``--bench``'s
parent; it re-executes itself there when started with another interpreter) and takes
structchunk through its command line (default: the ``structchunk`` command on ``PATH``,
as an activated development virtualenv provides it, else ``python -m structchunk``).

For each question set ``qa/fastapi-<lang>.jsonl`` of ``benchmarks/retrieval-multilingual``
it chunks every page of ``markdown/fastapi-<lang>/`` (five pages, one without questions)
with each system at the bench's budget (200 words, no overlap: the bench's own adapters in
``systems.py``), indexes the chunks of that language together, ranks them per question and
counts hit@1 / hit@5: a hit when the answer's tokens occur contiguously in a retrieved
chunk. Tokens are ``retrieval-multilingual/script_tokens.py``'s: the bench's visible text
and normal form, with every Han/kana character its own token; BM25 (bm25s, Lucene, k1=1.5,
b=0.75, no stopword list) indexes those tokens plus Han/kana and Hangul character bigrams.
``dense`` is the bench's retriever, all-MiniLM-L6-v2: an English-only model, reported as
the bench's dense row, not as a multilingual retriever.

It also prints the share of chunks whose ``language`` field (structchunk's detector) names
the page's language, and the pages whose majority language is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SET_DIR = ROOT / "benchmarks" / "retrieval-multilingual"
PEERS = ("fixed_chars", "langchain", "llamaindex", "chonkie_recursive", "semchunk", "text_splitter")
KS = (1, 5)


def _default_bench() -> Path:
    for base in [ROOT, *ROOT.parents]:
        for cand in (base / "shared" / "bench", base.parent / "shared" / "bench"):
            if (cand / "systems.py").is_file():
                return cand
    return ROOT.parent / "shared" / "bench"


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--set", type=Path, default=SET_DIR)
    p.add_argument("--bench", type=Path, default=_default_bench())
    p.add_argument("--systems", default=",".join(("structchunk", *PEERS)))
    p.add_argument("--retrievers", default="bm25,dense")
    p.add_argument("--structchunk-cmd", default=None)
    p.add_argument(
        "--budget",
        default="words,script-words",
        help="the peers' 200-token unit: `words` (whitespace words, as the bench runs them), "
        "`script-words` (structchunk's words counter: Han/kana characters count one each)",
    )
    p.add_argument("--json", type=Path, default=None, help="write every number here")
    return p.parse_args(argv)


def _reexec_in_peers(bench: Path) -> None:
    try:
        import bm25s  # noqa: F401
        import langchain_text_splitters  # noqa: F401
    except ImportError as err:
        py = bench.parent.parent / ".venvs" / "peers" / "bin" / "python"
        if py.is_file() and Path(sys.executable).resolve() != py.resolve():
            os.execv(str(py), [str(py), str(Path(__file__).resolve()), *sys.argv[1:]])
        need = "needs the bench's peers virtualenv (bm25s, langchain-text-splitters)"
        raise SystemExit(need) from err


def structchunk_cmd(explicit: str | None) -> list[str]:
    if explicit:
        return shlex.split(explicit)
    command = shutil.which("structchunk")
    return [command] if command else [sys.executable, "-m", "structchunk"]


def script_counter():  # type: ignore[no-untyped-def]
    """structchunk's `words` counter (structchunk/tokenizers/scripts.py + plain.py's rule),
    loaded from its file: the peers' virtualenv does not have structchunk's dependencies."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_sc_scripts", ROOT / "structchunk" / "tokenizers" / "scripts.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    def count(text: str) -> int:
        return mod.count_unspaced(text) if mod.has_unspaced(text) else len(text.split())

    return count


def peer_adapters(systems, names: list[str], budget: str) -> dict:  # type: ignore[no-untyped-def]
    """The bench's adapters, set up as the bench does; with `script-words`, every word
    counter they are given (the bench's `word_count`, LlamaIndex's `str.split`, chonkie's
    whitespace tokenizer) counts as structchunk's `words` does."""
    count = script_counter() if budget == "script-words" else None
    saved = systems.word_count, systems.chonkie_words
    if count is not None:
        systems.word_count = count

        def chonkie_words():  # type: ignore[no-untyped-def]
            tok = saved[1]()
            tok.count_tokens = count
            return tok

        systems.chonkie_words = chonkie_words
    out = {}
    try:
        for name in names:
            ad = systems.REGISTRY[name]()
            try:
                ad.setup()
            except Exception as e:  # an optional peer that is not installed
                print(f"{name}: unavailable ({type(e).__name__}: {e})", file=sys.stderr)
                continue
            if count is not None and name == "llamaindex":
                from llama_index.core.node_parser import SentenceSplitter

                ad.ss = SentenceSplitter(
                    chunk_size=200, chunk_overlap=0, tokenizer=lambda t: [""] * count(t)
                )
            out[name] = ad
    finally:
        systems.word_count, systems.chonkie_words = saved
    return out


def run_structchunk(cmd: list[str], folder: Path) -> dict[str, list[dict]]:
    """{page path relative to the set: [record]} from one `convert FOLDER` call."""
    with tempfile.TemporaryDirectory() as td:
        out = Path(td) / "out.jsonl"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        args = [
            "convert",
            str(folder),
            "-o",
            str(out),
            "--max-tokens",
            "200",
            "--tokenizer",
            "words",
        ]
        subprocess.run(cmd + args, check=True, capture_output=True, env=env)
        by_doc: dict[str, list[dict]] = defaultdict(list)
        for line in out.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            rel = Path(rec["source"]).resolve().relative_to(folder.resolve().parent.parent)
            by_doc[rel.as_posix()].append(rec)
        return dict(by_doc)


class Index:
    """BM25 or dense over one language's chunks, answer matching on script tokens."""

    def __init__(self, texts: list[str], retriever: str, st) -> None:
        self.st = st
        self.retriever = retriever
        self.tokens = [" " + " ".join(st.match_tokens(t)) + " " for t in texts]
        if retriever == "bm25":
            import bm25s

            self.bm25 = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
            self.bm25.index([st.bm25_terms(t) or ["\u2205"] for t in texts], show_progress=False)
        else:
            from metrics import _embed  # the bench's all-MiniLM-L6-v2, cached

            self.embed = _embed
            self.matrix = _embed(texts)
        self.n = len(texts)

    def search(self, questions: list[str], k: int) -> list[list[int]]:
        k = min(k, self.n)
        if self.retriever == "bm25":
            q = [self.st.bm25_terms(x) or ["\u2205"] for x in questions]
            res = self.bm25.retrieve(q, k=k, show_progress=False, n_threads=1)
            return [list(map(int, row)) for row in res.documents]
        import numpy as np

        sims = self.embed(questions) @ self.matrix.T
        return [list(map(int, row)) for row in np.argsort(-sims, axis=1, kind="stable")[:, :k]]

    def holds(self, i: int, answer: str) -> bool:
        return " " + " ".join(self.st.match_tokens(answer)) + " " in self.tokens[i]


def score(questions: list[dict], chunks: list[tuple[str, str]], retriever: str, st) -> dict:
    """hit@k over one language; chunks are (doc, text) of every page of that language."""
    idx = Index([t for _, t in chunks], retriever, st)
    tops = idx.search([q["question"] for q in questions], max(KS))
    hits = {k: 0 for k in KS}
    split = 0
    for q, top in zip(questions, tops):
        for k in KS:
            hits[k] += any(idx.holds(i, q["answer"]) for i in top[:k])
        split += not any(
            idx.holds(i, q["answer"]) for i, (d, _) in enumerate(chunks) if d == q["doc"]
        )
    n = len(questions)
    out = {f"hit@{k}": hits[k] / n for k in KS}
    out["split"] = split / n
    return out


def main(argv: list[str]) -> int:
    a = _args(argv)
    _reexec_in_peers(a.bench)
    a.set = a.set.resolve()
    sys.path[:0] = [str(a.bench), str(a.set)]
    import script_tokens as st
    import systems

    wanted = a.systems.split(",")
    retrievers = a.retrievers.split(",")
    budgets = a.budget.split(",")
    peers = [n for n in wanted if n != "structchunk"]
    adapters = {}
    for budget in budgets:
        suffix = "" if budget == "words" else f" [{budget}]"
        for name, ad in peer_adapters(systems, peers, budget).items():
            if budget == "words" or name != "fixed_chars":  # fixed_chars counts characters
                adapters[name + suffix] = ad
    cmd = structchunk_cmd(a.structchunk_cmd)

    results: dict = {"languages": {}, "detector": {}}
    langs = []
    for qfile in sorted((a.set / "qa").glob("*.jsonl")):
        lang = qfile.stem.split("-")[-1]
        langs.append(lang)
        questions = [json.loads(x) for x in qfile.read_text(encoding="utf-8").splitlines() if x]
        folder = a.set / "markdown" / qfile.stem
        pages = sorted(p.relative_to(a.set).as_posix() for p in folder.rglob("*.md"))
        per_system: dict[str, list[tuple[str, str]]] = {}
        if "structchunk" in wanted:
            recs = run_structchunk(cmd, folder)
            per_system["structchunk"] = [(d, r["text"]) for d in pages for r in recs.get(d, [])]
            seen = Counter(r.get("language") for d in pages for r in recs.get(d, []))
            wrong_pages = [
                d
                for d in pages
                if Counter(r.get("language") for r in recs.get(d, [])).most_common(1)[0][0] != lang
            ]
            results["detector"][lang] = {
                "chunks": sum(seen.values()),
                "right": seen[lang],
                "named": dict(seen),
                "pages": len(pages),
                "pages_wrong": wrong_pages,
            }
        for name, ad in adapters.items():
            chunks = []
            for d in pages:
                text = (a.set / d).read_text(encoding="utf-8")
                chunks += [(d, c["text"]) for c in ad.chunk("markdown", text, str(a.set / d))]
            per_system[name] = chunks
        res = results["languages"][lang] = {}
        for name, chunks in per_system.items():
            row = {
                "chunks": len(chunks),
                "mean_chars": sum(len(t) for _, t in chunks) / len(chunks),
            }
            for r in retrievers:
                row[r] = score(questions, chunks, r, st)
            res[name] = row
        print(f"{lang}: {len(questions)} questions, {len(pages)} pages", file=sys.stderr)

    systems_seen = [s for s in ["structchunk", *adapters] if s in results["languages"][langs[0]]]
    for r in retrievers:
        label = (
            "BM25 (script tokens + CJK/Hangul bigrams)"
            if r == "bm25"
            else ("dense: all-MiniLM-L6-v2 (the bench's retriever; English-only model)")
        )
        print(f"\n{label}: hit@1 / hit@5 per language\n")
        print("| system | " + " | ".join(langs) + " | all |")
        print("|---|" + "---:|" * (len(langs) + 1))
        for s in systems_seen:
            cells, h1, h5, n = [], 0.0, 0.0, 0
            for lg in langs:
                row = results["languages"][lg][s][r]
                nq = sum(1 for _ in (a.set / "qa" / f"fastapi-{lg}.jsonl").open(encoding="utf-8"))
                cells.append(f"{100 * row['hit@1']:.0f} / {100 * row['hit@5']:.0f}")
                h1 += row["hit@1"] * nq
                h5 += row["hit@5"] * nq
                n += nq
            print(f"| {s} | " + " | ".join(cells) + f" | {100 * h1 / n:.0f} / {100 * h5 / n:.0f} |")
    print("\nchunks (mean characters) and answers split across chunks per language\n")
    print("| system | " + " | ".join(langs) + " |")
    print("|---|" + "---:|" * len(langs))
    for s in systems_seen:
        cells = []
        for lg in langs:
            row = results["languages"][lg][s]
            split = 100 * row[retrievers[0]]["split"]
            cells.append(f"{row['chunks']} ({row['mean_chars']:.0f}), {split:.0f} %")
        print(f"| {s} | " + " | ".join(cells) + " |")
    if results["detector"]:
        print("\nstructchunk's `language` field against the page's language\n")
        print("| language | chunks | named right | other names | pages with a wrong majority |")
        print("|---|---:|---:|---|---|")
        for lg, d in results["detector"].items():
            other = ", ".join(f"{k} {v}" for k, v in sorted(d["named"].items()) if k != lg) or "—"
            print(
                f"| {lg} | {d['chunks']} | {d['right']} ({100 * d['right'] / d['chunks']:.1f} %) "
                f"| {other} | {', '.join(d['pages_wrong']) or 'none'} |"
            )
    if a.json:
        a.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
