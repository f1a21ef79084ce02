"""Chunk by chunk, what two versions of structchunk make of the same HTML pages.

    python benchmarks/html_compare.py OLD_TREE [NEW_TREE] [--corpus ../shared/corpus]
                                      [--pages FOLDER]

`OLD_TREE` and `NEW_TREE` are folders holding a `structchunk` package (a checkout, or
`git archive main structchunk | tar -x -C /tmp/old`); `NEW_TREE` defaults to this one.
Each version converts every page under `<corpus>/html` and `<corpus>/robustness/html`
(or every `.htm*` and `.epub` file under `--pages`: fuzz mutants, the EPUB corpus,
whose chapters go through the HTML reader) in a process of its own, at two budgets; the
records are compared field by field (heading path, body, tokens, block types, offsets,
table rows) and every difference is printed with the page, the chunk and the two
values, so a change to the HTML reader can be explained page by page.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("heading_path", "body", "n_tokens", "block_types", "offsets", "table_rows")
BUDGETS = (64, 256)

_CONVERT = """
import json, sys
from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
out = {}
for path in sys.argv[2:]:
    for budget in map(int, sys.argv[1].split(",")):
        key = f"{path}@{budget}"
        data = open(path, "rb").read()
        try:
            chunks = iter_chunks_from_bytes(data, path, None, ChunkOptions(max_tokens=budget))
            out[key] = [chunk.model_dump(mode="json") for chunk in chunks]
        except Exception as error:  # the comparison shows errors as values
            out[key] = f"{type(error).__name__}: {error}"
json.dump(out, sys.stdout)
"""


def pages(corpus: Path) -> list[str]:
    found = sorted((corpus / "html").rglob("*.htm*"))
    found += sorted((corpus / "robustness" / "html").rglob("*.htm*"))
    return [str(path) for path in found]


def convert(tree: Path, paths: list[str]) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    budgets = ",".join(map(str, BUDGETS))
    result = subprocess.run(
        [sys.executable, "-c", _CONVERT, budgets, *paths],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    )
    loaded: dict[str, object] = json.loads(result.stdout)
    return loaded


def short(value: object, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare(key: str, old: object, new: object) -> int:
    """Print the differences of one page at one budget; returns how many."""
    if isinstance(old, str) or isinstance(new, str):
        if old != new:
            print(f"{key}: {short(old)} -> {short(new)}")
            return 1
        return 0
    assert isinstance(old, list) and isinstance(new, list)
    differences = 0
    if len(old) != len(new):
        print(f"{key}: {len(old)} chunks -> {len(new)}")
        differences += 1
    for index, (a, b) in enumerate(zip(old, new)):
        for field in FIELDS:
            if a.get(field) != b.get(field):
                print(f"{key} chunk {index} {field}:\n  - {short(a.get(field))}")
                print(f"  + {short(b.get(field))}")
                differences += 1
    return differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path, nargs="?", default=ROOT)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--pages", type=Path, help="compare the HTML files of this folder")
    args = parser.parse_args()
    if args.pages:
        found = [*args.pages.rglob("*.htm*"), *args.pages.rglob("*.epub")]
        paths = [str(path.resolve()) for path in sorted(found)]
    else:
        paths = pages(args.corpus)
    old, new = convert(args.old, paths), convert(args.new, paths)
    differing = sum(1 for key in old if compare(key, old[key], new.get(key)))
    print(
        f"{len(old)} conversions ({len(paths)} pages × {len(BUDGETS)} budgets), {differing} differ"
    )


if __name__ == "__main__":
    main()
