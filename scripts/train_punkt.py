"""Train the bundled English Punkt parameters from the shared corpus, reproducibly.

    python scripts/train_punkt.py              # write structchunk/sentences/data/punkt/english/
    python scripts/train_punkt.py --check      # exit 1 if the shipped files would change

Runs NLTK's `PunktTrainer` on English prose from the shared corpus (see
`training_paragraphs` for what is read and what is left out), merges the curated
abbreviations and sentence starters of `punkt_curated.txt`, and writes NLTK's
`punkt_tab` text format with sorted lines, so the same corpus always gives
byte-identical files.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin
from nltk.tokenize.punkt import PunktParameters, PunktTrainer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULT_OUT = ROOT / "structchunk" / "sentences" / "data" / "punkt" / "english"
CURATED = Path(__file__).resolve().with_name("punkt_curated.txt")

CHROMA_PROSE = ("state_of_the_union.txt",)
"""Chroma texts read as they are. `finance.txt` is left out: it is lower-cased
throughout, which would teach Punkt that sentences start in lower case."""
CHROMA_WIKITEXT = "wikitexts.txt"
"""WikiText-103 excerpt: tokenized (`word .`, `@-@`, `<unk>`); detokenized before use."""
MARKDOWN_SETS = ("awsdocs", "fastapi", "rust-book")

ORTHO_LOWER = (1 << 4) | (1 << 5) | (1 << 6)
"""Punkt's ortho-context flags for a word seen with a lower-case first letter (at a
sentence start, inside, or unknown position; NLTK's `_ORTHO_LC`)."""

DEFAULT_MIN_WORDS = 6
"""Shorter paragraphs are mostly labels and captions, not prose (read off the corpus)."""
DEFAULT_MIN_WORD_SHARE = 0.6
"""At least this share of a paragraph's words must start with a letter: keeps numbers,
paths and option lists out (tables in the text files fail it easily)."""

_PROSE_START = re.compile(r"[\"'“‘(]*[A-Z]")
_PROSE_END = re.compile(r"[.!?:][\"')\]’”]*$")
_SPACES = re.compile(r"\s+")
_WIKI_HEADING = re.compile(r"^\s*=(?: =)* .* =(?: =)*\s*$")
_WIKI_JOINERS = {" @-@ ": "-", " @,@ ": ",", " @.@ ": "."}
_WIKI_SPACE_BEFORE = re.compile(r" (?=[.,;:!?%)\]]|'s\b|'re\b|'ve\b|'ll\b|'d\b|'m\b|n't\b)")
_WIKI_SPACE_AFTER = re.compile(r"(?<=[(\[]) ")


def is_prose(paragraph: str) -> bool:
    """Whether a (whitespace-collapsed) paragraph looks like running English prose."""
    words = paragraph.split(" ")
    if len(words) < DEFAULT_MIN_WORDS:
        return False
    if not _PROSE_START.match(paragraph) or not _PROSE_END.search(paragraph):
        return False
    alphabetic = sum(1 for word in words if word[:1].isalpha())
    return alphabetic >= DEFAULT_MIN_WORD_SHARE * len(words)


def plain_paragraphs(text: str) -> Iterator[str]:
    """Blank-line separated paragraphs, whitespace collapsed."""
    for block in re.split(r"\n\s*\n", text):
        yield _SPACES.sub(" ", block).strip()


def wikitext_paragraphs(text: str) -> Iterator[str]:
    """WikiText-103 lines, detokenized back to ordinary spacing; headings skipped."""
    for line in text.split("\n"):
        if _WIKI_HEADING.match(line):
            continue
        line = line.replace("<unk>", "")
        for token, joined in _WIKI_JOINERS.items():
            line = line.replace(token, joined)
        line = _SPACES.sub(" ", line)
        line = _WIKI_SPACE_AFTER.sub("", _WIKI_SPACE_BEFORE.sub("", line))
        yield line.strip()


def _inline_plain_text(token: Token) -> str:
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return _SPACES.sub(" ", "".join(parts)).strip()


def markdown_paragraphs(text: str) -> Iterator[str]:
    """The text of Markdown paragraphs (list items and quotes included; tables,
    code, headings and HTML blocks never reach a paragraph token)."""
    md = MarkdownIt("commonmark").enable(["table"]).use(front_matter_plugin)
    tokens = md.parse(text)
    for previous, token in zip(tokens, tokens[1:]):
        if token.type == "inline" and previous.type == "paragraph_open":
            yield _inline_plain_text(token)


def training_paragraphs(corpus: Path) -> Iterator[str]:
    """English prose paragraphs of the corpus, in a fixed order."""
    chroma = corpus / "text" / "chroma"
    sources: list[tuple[Path, Callable[[str], Iterator[str]]]] = [
        (chroma / name, plain_paragraphs) for name in CHROMA_PROSE
    ]
    sources.append((chroma / CHROMA_WIKITEXT, wikitext_paragraphs))
    for name in MARKDOWN_SETS:
        sources.extend(
            (path, markdown_paragraphs)
            for path in sorted((corpus / "markdown" / name).rglob("*.md"))
        )
    for path, reader in sources:
        text = path.read_text(encoding="utf-8")
        yield from (p for p in reader(text) if is_prose(p))


_SECTION = re.compile(r"^\[(abbrev_types|sent_starters)\]$")
_LEARNT_ABBREVIATION = re.compile(r"^(?:[^\W\d_]\.?){2,}$")
"""Learnt abbreviations kept: letters and inner periods, at least two letters. Drops
Punkt's noise from code in the docs (`c0`, `5\\n`, `“mr`) and single letters, which
Punkt already handles as initials."""


def read_curated(path: Path = CURATED) -> dict[str, set[str]]:
    """The curated types per section: one a line, `#` comments and blank lines ignored."""
    sections: dict[str, set[str]] = {"abbrev_types": set(), "sent_starters": set()}
    current: set[str] | None = None
    for raw in path.read_text(encoding="utf-8").split("\n"):
        line = raw.split("#", 1)[0].strip()
        header = _SECTION.match(line)
        if header:
            current = sections[header.group(1)]
        elif line:
            if current is None:
                raise ValueError(f"{path}: {line!r} comes before any [section]")
            current.add(line.lower())
    return sections


def train(paragraphs: list[str], curated: dict[str, set[str]]) -> PunktParameters:
    """Punkt parameters learnt from `paragraphs`, with the curated types merged in.

    The curated abbreviations are also given to the trainer up front, so that words
    after known abbreviations are not counted as sentence starts while learning.
    Learnt sentence starters must have been seen in lower case too: the others are
    names (`Amazon`, `FastAPI`), which must not end a sentence after `Dr.` or `Mt.`.
    """
    trainer = PunktTrainer()
    trainer.get_params().abbrev_types.update(curated["abbrev_types"])
    trainer.train("\n\n".join(paragraphs), finalize=False)
    trainer.finalize_training()
    params = trainer.get_params()
    params.abbrev_types = {
        t for t in params.abbrev_types if _LEARNT_ABBREVIATION.match(t)
    } | curated["abbrev_types"]
    params.sent_starters = {
        t for t in params.sent_starters if params.ortho_context.get(t, 0) & ORTHO_LOWER
    } | curated["sent_starters"]
    return params


def tab_files(params: PunktParameters) -> dict[str, str]:
    """The four `punkt_tab` files' contents, every file's lines sorted."""

    def lines(rows: Iterable[str]) -> str:
        return "".join(f"{row}\n" for row in sorted(rows))

    return {
        "abbrev_types.txt": lines(params.abbrev_types),
        "collocations.tab": lines("\t".join(pair) for pair in params.collocations),
        "ortho_context.tab": lines(
            f"{word}\t{flags}" for word, flags in params.ortho_context.items() if flags
        ),
        "sent_starters.txt": lines(params.sent_starters),
    }


def build(corpus: Path) -> dict[str, str]:
    paragraphs = list(training_paragraphs(corpus))
    return tab_files(train(paragraphs, read_curated()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(os.environ.get("STRUCTCHUNK_CORPUS", DEFAULT_CORPUS))
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with the files in --out instead of writing them",
    )
    args = parser.parse_args(argv)
    if not (args.corpus / "text" / "chroma").is_dir():
        print(
            f"error: no corpus at {args.corpus} (set --corpus or STRUCTCHUNK_CORPUS)",
            file=sys.stderr,
        )
        return 2
    files = build(args.corpus)
    if args.check:
        changed = [
            name
            for name, content in sorted(files.items())
            if not (args.out / name).is_file()
            or (args.out / name).read_text(encoding="utf-8") != content
        ]
        for name in changed:
            print(f"differs: {args.out / name}", file=sys.stderr)
        return 1 if changed else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, content in sorted(files.items()):
        (args.out / name).write_text(content, encoding="utf-8", newline="\n")
        print(f"wrote {args.out / name} ({content.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
