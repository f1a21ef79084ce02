"""`structchunk eval`: normalisation, question files, hit@k on a tiny corpus with known
answers, the grid and baseline table, and the message when bm25s is missing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from conftest import SHARED_CORPUS

from structchunk.cli.evaluate import eval_command
from structchunk.quality.grid import grid_specs, parse_axes, parse_baseline
from structchunk.quality.normalize import match_tokens, visible_text
from structchunk.quality.outcomes import outcome_record
from structchunk.quality.questions import Question, read_questions, resolve_documents
from structchunk.quality.retrieval import evaluate, longest_run
from structchunk.quality.runs import fixed_chunks
from structchunk.quality.views import ChunkView, DocumentChunks

CATS = """# Cats

## Food

Cats eat fish every morning. They drink water from a bowl.

## Sleep

Cats sleep sixteen hours a day in a warm place.
"""

DOGS = """# Dogs

## Walks

Dogs need a long walk twice a day, whatever the weather.

## Sleep

Dogs sleep twelve hours a day on a blanket.
"""

QUESTIONS = [
    {
        "question": "What do cats eat?",
        "answer": "Cats eat fish every morning.",
        "doc": "pets/cats.md",
    },
    {
        "question": "How many hours do dogs sleep?",
        "answer": "Dogs sleep twelve hours a day",
        "doc": "pets/dogs.md",
    },
    {"question": "What colour is the sky?", "answer": "The sky is green.", "doc": "pets/dogs.md"},
    {"question": "What do parrots say?", "answer": "Hello.", "doc": "pets/parrots.md"},
    {"question": "no answer here"},
    "not an object",
]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    pets = tmp_path / "corpus" / "pets"
    pets.mkdir(parents=True)
    (pets / "cats.md").write_text(CATS, encoding="utf-8")
    (pets / "dogs.md").write_text(DOGS, encoding="utf-8")
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "".join(json.dumps(q) + "\n" for q in QUESTIONS) + "{broken\n", encoding="utf-8"
    )
    return tmp_path


@click.group()
def structchunk() -> None:
    """A group like the real one, for commands cli.py does not register yet."""


structchunk.add_command(eval_command)


def run_eval(*args: str) -> Result:
    return CliRunner().invoke(structchunk, ["eval", *args], catch_exceptions=False)


# -- the parts --------------------------------------------------------------------------


def test_normalisation_keeps_visible_words_only() -> None:
    text = (
        "See [the guide](https://example.com/a_(b)) and <code>Vec&lt;T&gt;</code>.\n"
        "[ref]: https://example.com/ref\nRead&nbsp;replica\\."
    )
    assert visible_text(text).startswith("See [the guide] and ")
    assert match_tokens(text) == ["see", "the", "guide", "and", "vec", "t", "read", "replica"]
    assert match_tokens("snake_case Über-Straße 42") == ["snake", "case", "über", "straße", "42"]


def test_longest_run_is_the_longest_contiguous_match() -> None:
    positions = {"a": [0, 3], "b": [1, 4], "c": [5], "x": [2]}  # chunk: a b x a b c
    assert longest_run(["a", "b", "c"], positions) == 3
    assert longest_run(["b", "a"], positions) == 1
    assert longest_run(["z"], positions) == 0


def test_question_file_reading_and_document_matching(corpus: Path) -> None:
    question_set = read_questions(corpus / "questions.jsonl")
    assert len(question_set.questions) == 4 and question_set.invalid == 3
    sources = [str(corpus / "corpus" / "pets" / n) for n in ("cats.md", "dogs.md")]
    resolved, missing = resolve_documents(question_set.questions, sources, None)
    assert [doc for _, doc in resolved] == [sources[0], sources[1], sources[1]]
    assert missing == 1  # parrots.md is not an input
    by_root, _ = resolve_documents(question_set.questions, sources, str(corpus / "corpus"))
    assert by_root == resolved
    wrong_root, missing = resolve_documents(question_set.questions, sources, str(corpus))
    assert wrong_root == [] and missing == 4


def test_answers_list_wins_over_answer(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        json.dumps({"question": "q", "answer": "a b", "answers": ["a b", "c d", 3, "..."]}) + "\n"
    )
    (question,) = read_questions(path).questions
    assert question.answers == ("a b", "c d") and question.doc is None


def views(source: str, *texts: str) -> DocumentChunks:
    return DocumentChunks(
        source, [ChunkView(source, i, t, None, (), len(t.split())) for i, t in enumerate(texts)]
    )


def test_hit_coverage_and_split_on_known_chunks() -> None:
    docs = [
        views("cats.md", "Cats eat fish every morning.", "Cats sleep sixteen hours."),
        views("dogs.md", "Dogs sleep twelve", "hours a day on a blanket."),
    ]
    questions = [
        (Question("What do cats eat?", ("Cats eat fish every morning.",), "c"), "cats.md"),
        (Question("How long do dogs sleep?", ("Dogs sleep twelve hours a day",), "d"), "dogs.md"),
    ]
    result = evaluate("test", docs, questions, ks=(1, 3))
    assert result.hit == {1: 0.5, 3: 0.5}  # the dog answer is split over two chunks
    assert result.coverage[1] == pytest.approx((1 + 3 / 6) / 2)
    assert result.answer_split_rate == 0.5
    assert result.chunks == 4 and result.questions == 2


def test_grid_axes_and_baselines() -> None:
    from structchunk import ChunkOptions

    axes = parse_axes("max_tokens=64,32 overlap_tokens=0,16")
    specs, rejected = grid_specs(ChunkOptions(), axes)
    assert [s.label for s in specs] == [
        "structchunk max_tokens=64 overlap_tokens=0",
        "structchunk max_tokens=64 overlap_tokens=16",
        "structchunk max_tokens=32 overlap_tokens=0",
        "structchunk max_tokens=32 overlap_tokens=16",
    ]
    assert rejected == []
    specs, rejected = grid_specs(ChunkOptions(), parse_axes("overlap_tokens=200"))
    assert specs == [] and "must be at most half" in rejected[0]
    assert parse_baseline("fixed:1000").fixed_chars == 1000
    with pytest.raises(Exception, match="use fixed:N"):
        parse_baseline("fixed:")
    with pytest.raises(Exception, match="bad grid axis"):
        parse_axes("budget=3")
    specs, _ = grid_specs(ChunkOptions(), parse_axes("repeat_lead_ins=true,false"))
    assert [s.options.repeat_lead_ins for s in specs if s.options] == [True, False]
    assert [c.text for c in fixed_chunks("d", "abcdefg", 3).chunks] == ["abc", "def", "g"]


# -- the command ------------------------------------------------------------------------


def test_eval_on_a_tiny_corpus(corpus: Path) -> None:
    result = run_eval(
        str(corpus / "corpus"), "--questions", str(corpus / "questions.jsonl"), "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["questions"] == {
        "file": str(corpus / "questions.jsonl"),
        "used": 3,
        "unmatched": 1,
        "invalid": 3,
    }
    assert data["documents"] == 2 and data["k"] == [1, 3, 5]
    (run,) = data["runs"]
    assert run["label"] == "structchunk max_tokens=256"
    assert run["chunks"] == 4  # one chunk per section
    assert run["hit@1"] == run["hit@5"] == pytest.approx(2 / 3)  # the sky is not green
    assert run["answer_split_rate"] == pytest.approx(1 / 3)
    assert run["options"]["max_tokens"] == 256


def test_grid_and_baseline_in_one_table(corpus: Path) -> None:
    args = [
        str(corpus / "corpus"),
        "--questions",
        str(corpus / "questions.jsonl"),
        "--grid",
        "max_tokens=256,12",
        "overlap_tokens=0,6",
        "--baseline",
        "fixed:20",
        "--k",
        "1,3",
    ]
    result = run_eval(*args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "3 questions over 2 documents; 1 skipped (document not among the inputs); 3 invalid lines"
    )
    assert lines[1].split() == [
        "run",
        "hit@1",
        "hit@3",
        "cov@1",
        "cov@3",
        "split",
        "chunks",
        "mean",
        "words",
    ]
    labels = [line[:44].strip() for line in lines[3:]]
    assert labels == [
        "structchunk max_tokens=256 overlap_tokens=0",
        "structchunk max_tokens=256 overlap_tokens=6",
        "structchunk max_tokens=12 overlap_tokens=0",
        "structchunk max_tokens=12 overlap_tokens=6",
        "fixed:20",
    ]
    runs = json.loads(run_eval(*args, "--json").stdout)["runs"]
    fixed = runs[-1]
    assert fixed["label"] == "fixed:20" and fixed["options"] is None
    assert fixed["answer_split_rate"] == 1.0  # 20-character windows cut every answer
    assert runs[0]["answer_split_rate"] == pytest.approx(1 / 3)


def test_missing_bm25s_is_one_clear_line(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bm25s", None)  # makes `import bm25s` fail
    result = CliRunner().invoke(
        structchunk,
        ["eval", str(corpus / "corpus"), "--questions", str(corpus / "questions.jsonl")],
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "structchunk: error: eval needs the bm25s package: pip install 'structchunk-rag[eval]' "
        "(in a clone: pip install '.[eval]')\n"
    )
    assert result.stdout == ""


def test_bad_arguments_and_no_usable_question(corpus: Path) -> None:
    base = [str(corpus / "corpus"), "--questions", str(corpus / "questions.jsonl")]
    assert run_eval(*base, "--k", "0,3").exit_code == 2
    assert run_eval(*base, "--grid", "max_tokens=abc").exit_code == 2
    wrong_root = CliRunner().invoke(structchunk, ["eval", *base, "--root", str(corpus)])
    assert wrong_root.exit_code == 1
    assert "no usable question (4 name a document that is not among the inputs" in wrong_root.stderr


@pytest.mark.slow
def test_fixed_baseline_reproduces_the_shared_harness() -> None:
    """Our normalisation and BM25 settings match ../shared/bench: its fixed_chars row for the
    awsdocs set (1100 characters) is 65.2 / 83.3 / 83.3 hit@1/3/5, split 1.5%."""
    if SHARED_CORPUS is None:
        pytest.skip("the shared corpus is not here")
    result = run_eval(
        str(SHARED_CORPUS / "markdown" / "awsdocs"),
        "--questions",
        str(SHARED_CORPUS / "qa" / "awsdocs.jsonl"),
        "--root",
        str(SHARED_CORPUS),
        "--baseline",
        "fixed:1100",
        "--json",
    )
    fixed = json.loads(result.stdout)["runs"][-1]
    assert fixed["chunks"] == 844
    assert [round(100 * fixed[f"hit@{k}"], 1) for k in (1, 3, 5)] == [65.2, 83.3, 83.3]
    assert round(100 * fixed["answer_split_rate"], 1) == 1.5


# -- dense retrieval: the user's embedding function ranks the chunks ---------------------


def test_dense_ranking_finds_the_chunk_that_shares_the_question_words() -> None:
    from toy_embeddings import embed

    docs = [
        views("cats.md", "Cats sleep sixteen hours daily.", "Cats drink water from bowls."),
        views("dogs.md", "Dogs need long walks twice daily."),
    ]
    questions = [
        (Question("Where do cats drink water?", ("Cats drink water",), "c"), "cats.md"),
        (Question("How often do dogs need walks?", ("walks twice daily",), "d"), "dogs.md"),
    ]
    result = evaluate("dense", docs, questions, ks=(1,), embed=embed)
    assert result.hit == {1: 1.0} and result.retriever == "dense"
    assert evaluate("bm25", docs, questions, ks=(1,)).retriever == "bm25"


def test_eval_scores_both_retrievers_from_one_chunking(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parent)  # --embed modules import from here, too
    questions = str(corpus / "questions.jsonl")
    result = run_eval(
        str(corpus / "corpus"),
        "--questions",
        questions,
        "--embed",
        "toy_embeddings:embed",
        "--json",
    )
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["runs"]
    assert [(r["label"], r["retriever"]) for r in runs] == [
        ("structchunk max_tokens=256", "bm25"),
        ("structchunk max_tokens=256", "dense"),
    ]
    assert runs[1]["hit@5"] == pytest.approx(2 / 3)  # every chunk is in the top 5
    table = run_eval(
        str(corpus / "corpus"),
        "--questions",
        questions,
        "--retriever",
        "dense",
        "--embed",
        "toy_embeddings:embed",
    )
    assert table.exit_code == 0, table.output
    header, _rule, row = table.stdout.splitlines()[1:4]
    assert header.split()[:2] == ["run", "retriever"] and "dense" in row.split()


@pytest.mark.parametrize(
    ("arguments", "code", "message"),
    [
        (["--retriever", "dense"], 2, "--retriever dense needs --embed"),
        (["--embed", "toy_embeddings"], 1, "give module:function or sentence-transformers:"),
        (["--embed", "no_such_module:embed"], 1, "cannot load it (No module named"),
        (["--embed", "toy_embeddings:DIMENSIONS"], 1, "DIMENSIONS is not callable"),
        (["--embed", "toy_embeddings:wrong_shape"], 1, "expected one vector per text"),
        (["--embed", "toy_embeddings:broken"], 1, "RuntimeError: model weights missing"),
        (["--embed", "sentence-transformers:/no/such/model"], 1, "not a model folder"),
    ],
)
def test_embedding_problems_are_one_line_errors(
    corpus: Path,
    monkeypatch: pytest.MonkeyPatch,
    arguments: list[str],
    code: int,
    message: str,
) -> None:
    monkeypatch.chdir(Path(__file__).parent)
    result = CliRunner().invoke(
        structchunk,
        [
            "eval",
            str(corpus / "corpus"),
            "--questions",
            str(corpus / "questions.jsonl"),
            *arguments,
        ],
    )
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_sentence_transformers_folder_is_loaded_offline_and_encoded_in_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    from structchunk.quality.embedding import BATCH, EmbeddingRanker, load_embedder

    calls: list[tuple[str, dict[str, object]]] = []
    batches: list[int] = []

    class FakeModel:
        def __init__(self, path: str, **kwargs: object) -> None:
            calls.append((path, kwargs))

        def encode(self, texts: list[str], **kwargs: object) -> list[list[float]]:
            batches.append(len(texts))
            return [[float(len(t)), 1.0] for t in texts]

    fake = types.ModuleType("sentence_transformers")
    fake.SentenceTransformer = FakeModel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", fake)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    embed = load_embedder(f"sentence-transformers:{tmp_path}")
    assert calls == [(str(tmp_path), {"local_files_only": True})]
    import os

    assert os.environ["HF_HUB_OFFLINE"] == "1"  # nothing is fetched from a model hub
    ranker = EmbeddingRanker([f"text {i}" for i in range(BATCH + 3)], embed)
    assert batches == [BATCH, 3]
    assert len(ranker.search(["a query"], 5)[0]) == 5


# -- per-question records: --misses and the JSON's "per_question" -------------------------


def test_each_answer_has_its_rank_and_the_chunks_that_hold_it() -> None:
    docs = [
        DocumentChunks(
            "cats.md",
            [
                ChunkView("cats.md", 0, "Cats eat fish.", None, ("Cats", "Food"), 3),
                ChunkView("cats.md", 1, "Cats sleep all day.", None, ("Cats", "Sleep"), 4),
                ChunkView("cats.md", 2, "Cats purr", None, ("Cats", "Sounds"), 2, chunk_id="c2"),
                ChunkView("cats.md", 3, "loudly at night.", None, ("Cats", "Sounds"), 3),
            ],
        )
    ]
    both = ("Cats eat fish.", "Cats sleep all day.")
    questions = [
        (Question("What do cats eat and when do they sleep?", both, None, line=4), None),
        (Question("Do cats purr?", ("Cats purr loudly at night.",), None), "cats.md"),
    ]
    result = evaluate("test", docs, questions, ks=(1, 3))
    first, second = result.outcomes
    assert [a.rank for a in first.answers] == [1, 2]
    assert first.rank == 2  # every answer is in by rank 2
    assert first.hit == {1: 0.5, 3: 1.0} and first.split == 0.0
    assert [a.found.heading_path for a in first.answers if a.found] == [
        ("Cats", "Food"),
        ("Cats", "Sleep"),
    ]
    assert second.rank is None and second.answers[0].held_by is None  # split: 2 chunks
    assert second.top is not None and second.top.chunk_id == "c2"
    assert second.top.heading_path == ("Cats", "Sounds") and second.split == 1.0
    record = outcome_record(first, result.label, result.retriever)
    assert record["line"] == 4 and record["rank"] == 2 and record["hit@1"] == 0.5
    assert record["found"][1] == {
        "rank": 2,
        "source": "cats.md",
        "index": 1,
        "id": None,
        "heading_path": ["Cats", "Sleep"],
    }
    assert outcome_record(second, "test", "bm25")["found"] == [None]


def test_misses_file_lists_every_question_under_every_run(corpus: Path) -> None:
    questions = corpus / "questions.jsonl"
    with questions.open("a", encoding="utf-8") as handle:  # ranked below the dogs' sleep
        handle.write(
            json.dumps(
                {
                    "question": "How many hours a day do dogs sleep?",
                    "answer": "Cats sleep sixteen hours a day",
                    "doc": "pets/cats.md",
                }
            )
            + "\n"
        )
    misses = corpus / "out" / "misses.jsonl"
    args = [str(corpus / "corpus"), "--questions", str(questions), "--baseline", "fixed:20"]
    result = run_eval(*args, "--misses", str(misses))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in misses.read_text(encoding="utf-8").splitlines()]
    runs = ["structchunk max_tokens=256", "fixed:20"]
    assert [(r["line"], r["run"]) for r in records] == [
        (line, run) for line in (1, 2, 3, 8) for run in runs
    ]
    cats, _, dogs, _, sky, sky_fixed, cats_sleep, _ = records
    assert cats["question"] == "What do cats eat?" and cats["doc"] == "pets/cats.md"
    assert cats["answers"] == ["Cats eat fish every morning."]
    assert cats["rank"] == 1 and cats["hit@1"] == 1.0
    assert cats["top"]["heading_path"] == ["Cats", "Food"] and cats["top"]["id"]
    assert cats["held_by"][0]["heading_path"] == ["Cats", "Food"]
    assert dogs["rank"] == 1 and dogs["found"][0]["heading_path"] == ["Dogs", "Sleep"]
    assert sky["rank"] is None and sky["hit@5"] == 0.0 and sky["found"] == [None]
    assert sky["top"]["heading_path"] == ["Dogs", "Sleep"] and sky["held_by"] == [None]
    assert sky_fixed["top"]["heading_path"] == [] and sky_fixed["top"]["id"] is None
    assert cats_sleep["rank"] == 2 and cats_sleep["hit@1"] == 0.0 and cats_sleep["hit@3"] == 1.0
    assert cats_sleep["top"]["heading_path"] == ["Dogs", "Sleep"]
    assert cats_sleep["found"][0]["heading_path"] == ["Cats", "Sleep"]
    data = json.loads(run_eval(*args, "--json").stdout)
    assert data["per_question"] == records
    for run in data["runs"]:  # the table's figures are the records' means
        mine = [r for r in records if r["run"] == run["label"]]
        for key in ("hit@1", "hit@5", "coverage@3"):
            assert run[key] == pytest.approx(sum(r[key] for r in mine) / len(mine))


def test_an_unwritable_misses_file_is_one_line_after_the_table(corpus: Path) -> None:
    blocker = corpus / "blocker"
    blocker.write_text("a file, not a folder")
    result = run_eval(
        str(corpus / "corpus"),
        "--questions",
        str(corpus / "questions.jsonl"),
        "--misses",
        str(blocker / "misses.jsonl"),
    )
    assert result.exit_code == 1, result.output
    assert "hit@1" in result.stdout
    assert len(result.stderr.strip().splitlines()) == 1 and "misses.jsonl" in result.stderr
