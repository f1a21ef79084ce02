"""End-to-end throughput on the corpus Markdown, beside markdown-it-py's bare parse.

    python benchmarks/throughput.py [--corpus ../shared/corpus] [--runs 5] [--tokenizers words,…]

Every row is measured in the same process and run, interleaved round by round, so the
ratios hold even on a busy machine (CPU time of this process: other load on the machine
does not count against either side). "end to end" = read bytes → parse → pack → JSONL
lines (to memory), which is what `structchunk convert` does per file minus disk writes.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from pathlib import Path

from markdown_it import MarkdownIt
from timing import measure, print_speed_table

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.records import to_json_line
from structchunk.tokenizers import get_tokenizer

ROOT = Path(__file__).resolve().parent.parent


def corpus_markdown(corpus: Path) -> list[tuple[str, bytes]]:
    files = sorted((corpus / "markdown").rglob("*.md"))
    if not files:
        sys.exit(f"no Markdown files under {corpus / 'markdown'}")
    return [(str(p), p.read_bytes()) for p in files]


def bare_parse(docs: list[tuple[str, bytes]]) -> Callable[[], None]:
    md = MarkdownIt("commonmark")
    texts = [data.decode("utf-8") for _, data in docs]

    def run() -> None:
        for text in texts:
            md.parse(text)

    return run


def end_to_end(docs: list[tuple[str, bytes]], options: ChunkOptions) -> Callable[[], None]:
    count = get_tokenizer(options.tokenizer).count

    def run() -> None:
        cache_clear = getattr(count, "cache_clear", None)
        if cache_clear is not None:  # every run starts cold: no counts memoised from the last
            cache_clear()
        sink = io.StringIO()
        for source, data in docs:
            for chunk in iter_chunks_from_bytes(data, source, "markdown", options):
                sink.write(to_json_line(chunk))

    return run


def train_bpe(docs: list[tuple[str, bytes]], vocab_size: int) -> str:
    """A byte-level BPE trained on the corpus itself: a realistic sub-word tokenizer that
    needs no download. Returns an `hf:<path>` spec."""
    import tempfile

    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator((data.decode("utf-8") for _, data in docs), trainer)
    path = Path(tempfile.mkdtemp()) / "tokenizer.json"
    tokenizer.save(str(path))
    return f"hf:{path}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument(
        "--tokenizers",
        default="words",
        help="comma-separated tokenizer specs to compare end to end",
    )
    parser.add_argument(
        "--bpe",
        type=int,
        default=0,
        metavar="VOCAB",
        help="also time a byte-level BPE of this vocabulary size trained on "
        "the corpus (hf:…), e.g. 32000",
    )
    args = parser.parse_args()
    docs = corpus_markdown(args.corpus)
    specs = args.tokenizers.split(",")
    if args.bpe:
        specs.append(train_bpe(docs, args.bpe))
    megabytes = sum(len(data) for _, data in docs) / 1e6
    cases = {"markdown-it-py bare parse (commonmark)": bare_parse(docs)}
    for spec in specs:
        options = ChunkOptions(max_tokens=args.max_tokens, tokenizer=spec)
        label = f"hf BPE, {args.bpe} tokens" if spec.startswith("hf:") else spec
        cases[f"structchunk end to end ({label})"] = end_to_end(docs, options)
    plain = ChunkOptions(max_tokens=args.max_tokens, tokenizer=specs[0], offsets=False)
    cases[f"structchunk end to end ({specs[0]}, --no-offsets)"] = end_to_end(docs, plain)
    seconds = measure(cases, args.runs)
    print(
        f"{len(docs)} Markdown files, {megabytes:.2f} MB, median of {args.runs} runs, "
        f"max_tokens={args.max_tokens}\n"
    )
    print_speed_table(seconds, "markdown-it-py bare parse (commonmark)", megabytes)


if __name__ == "__main__":
    main()
