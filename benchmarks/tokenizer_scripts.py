"""The `words` tokenizer against multilingual sub-word vocabularies, per script.

    python benchmarks/tokenizer_scripts.py [--whisper FILE] [--tekken FILE] [--json]

For each sample of tests/multilingual/udhr/ (the Universal Declaration of Human Rights),
prints our `words` count, each reference vocabulary's count and the ratio ours/theirs
(below 1: we under-count). References, both read offline from files that ship in PyPI
packages:

- tekken: Mistral's Tekken vocabulary (tiktoken format, 131k tokens, trained for 100+
  languages), `mistral_common/data/tekken_240911.json` in `mistral-common` (Apache-2.0);
  found automatically when mistral-common is installed.
- whisper: Whisper's multilingual byte-level BPE, `whisper/assets/multilingual.tiktoken`
  in the `openai-whisper` sdist (MIT); `pip download --no-deps openai-whisper`, unpack,
  pass the path.
"""

from __future__ import annotations

import argparse
import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from structchunk.tokenizers import count_words

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "multilingual" / "udhr"
SCRIPTS = {
    "en": "Latin",
    "de": "Latin",
    "fr": "Latin",
    "es": "Latin",
    "it": "Latin",
    "pt": "Latin",
    "nl": "Latin",
    "ru": "Cyrillic",
    "ar": "Arabic",
    "he": "Hebrew",
    "hi": "Devanagari",
    "ko": "Hangul",
    "zh": "Han",
    "ja": "Han + kana",
    "th": "Thai",
    "lo": "Lao",
    "km": "Khmer",
}
WHISPER_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def tekken_file() -> Path | None:
    try:
        import mistral_common
    except ImportError:
        return None
    found = sorted(Path(mistral_common.__file__).parent.glob("data/tekken_*.json"))
    return found[-1] if found else None


def tekken(path: Path) -> Callable[[str], int]:
    """Tekken's count, from its JSON (the first `default_vocab_size` minus the special
    tokens are the BPE ranks, as mistral-common reads them)."""
    import tiktoken

    data = json.loads(path.read_text(encoding="utf-8"))
    config = data["config"]
    size = config["default_vocab_size"] - config["default_num_special_tokens"]
    ranks = {base64.b64decode(v["token_bytes"]): v["rank"] for v in data["vocab"][:size]}
    enc = tiktoken.Encoding(
        "tekken", pat_str=config["pattern"], mergeable_ranks=ranks, special_tokens={}
    )
    return lambda text: len(enc.encode_ordinary(text))


def whisper(path: Path) -> Callable[[str], int]:
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    enc = tiktoken.Encoding(
        "whisper-multilingual",
        pat_str=WHISPER_PATTERN,
        mergeable_ranks=load_tiktoken_bpe(str(path)),
        special_tokens={},
    )
    return lambda text: len(enc.encode_ordinary(text))


def measure(references: dict[str, Callable[[str], int]]) -> list[dict[str, Any]]:
    rows = []
    for lang, script in SCRIPTS.items():
        text = (SAMPLES / f"{lang}.txt").read_text(encoding="utf-8")
        row: dict[str, Any] = {
            "lang": lang,
            "script": script,
            "chars": len(text),
            "words": count_words(text),
        }
        for name, count in references.items():
            row[name] = count(text)
            row[f"{name}_ratio"] = round(row["words"] / row[name], 2)
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tekken", type=Path, default=tekken_file())
    parser.add_argument("--whisper", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    references = {}
    if args.tekken:
        references["tekken"] = tekken(args.tekken)
    if args.whisper:
        references["whisper"] = whisper(args.whisper)
    rows = measure(references)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    names = list(references)
    print("| sample | script | chars | words | " + " | ".join(f"{n} | ratio" for n in names) + " |")
    print("|---|---|---:|---:|" + "---:|---:|" * len(names))
    for row in rows:
        cells = [row["lang"], row["script"], str(row["chars"]), str(row["words"])]
        for n in names:
            cells += [str(row[n]), f"{row[f'{n}_ratio']:.2f}"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
