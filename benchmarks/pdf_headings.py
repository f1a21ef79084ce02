"""Heading recovery on real PDFs: precision, recall, F1, level accuracy, right parent.

For every `<name>.pdf` of the corpus with a `<name>.headings.json` beside it (the true
headings, `[[level, text], ...]`), the PDF is parsed and the recovered headings (every
section of the tree) are aligned with the true ones in order (difflib over normalised
titles: lower-case letters and digits only, Markdown `{ #id }` attributes dropped).

- precision / recall / F1: matched headings over recovered / true ones;
- level accuracy: matched headings whose level is right once both lists are shifted to
  start at level 1 (a PDF cannot tell that its top heading was a Markdown `##`);
- right parent: matched headings whose parent (the nearest earlier heading of a lower
  level) is the match of the true parent, or both have none.

Four sets, reported separately and micro-averaged over headings:

- `rendered`: the PDFs printed from web pages (`pdf/<set>/`, tagged, with bookmarks);
- `untagged`: the same PDFs with tags and bookmarks removed (`pdf/untagged/`);
- `usgov`: the agency reports of `pdf/usgov/` read as if they had neither bookmarks nor
  tags (typography alone), scored against their own bookmarks (`<name>.outline.json`);
- `sec-10q`: the SEC filings of `pdf/sec-10q/` (no bookmarks), scored against heading
  lists written for this project by reading them (`benchmarks/truth/`, see its README);
- `dev/<kind>`: the real-PDF development set of `benchmarks/pdf-dev/<kind>/` (filings,
  reports, manuals, slides, papers, standards, books from many producers; sources and
  reading rules in each kind's SOURCES.md), scored against the headings read off their
  printed pages, `[[level, text, page], ...]`. Each file is read twice: as published
  (`dev/<kind>`, bookmarks and tags used as the reader finds them) and with both
  stripped (`dev/<kind> stripped`, typography alone). A level-0 entry is the document's
  title: neither counted as a heading to find nor as a wrong one when found.

Besides "right parent", "parent in path" counts a matched heading whose true parent is
any of its recovered ancestors: the usgov bookmarks put every level below the first at
level 2, so a reading that nests `1.1.1` under `1.1` has the wrong parent but keeps the
bookmarked parent in its heading path.

    python benchmarks/pdf_headings.py [--corpus ../shared/corpus] [--json out.json] [-v]
        [--engine pdfium|pdfplumber]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from structchunk.document import Document
from structchunk.options import DEFAULT_PDF_ENGINE, PdfEngine
from structchunk.parsers import ParseSettings
from structchunk.parsers.builder import TreeBuilder
from structchunk.parsers.pdf import build, parse, read_all_pages
from structchunk.parsers.pdf.engines import open_document

ROOT = Path(__file__).resolve().parent.parent
TRUTH = ROOT / "benchmarks" / "truth"
DEV = ROOT / "benchmarks" / "pdf-dev"
_ATTRIBUTES = re.compile(r"\s*\{\s*[#.][^{}]*\}\s*$")
_NON_WORD = re.compile(r"[\W_]+")

Heading = tuple[int, str]


def normalise(title: str) -> str:
    return _NON_WORD.sub("", _ATTRIBUTES.sub("", title).casefold())


def recovered_headings(document: Document) -> list[Heading]:
    return [(s.level, s.title) for s in document.sections() if s.level > 0]


def _parents(headings: list[Heading]) -> list[int | None]:
    """Index of each heading's parent (nearest earlier heading of a lower level)."""
    out: list[int | None] = []
    stack: list[int] = []
    for index, (level, _) in enumerate(headings):
        while stack and headings[stack[-1]][0] >= level:
            stack.pop()
        out.append(stack[-1] if stack else None)
        stack.append(index)
    return out


@dataclass
class Score:
    name: str
    true: int
    found: int
    matched: int
    level_ok: int
    parent_ok: int
    ancestor_ok: int = 0

    def ratios(self) -> dict[str, float]:
        p = self.matched / self.found if self.found else 0.0
        r = self.matched / self.true if self.true else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        level = self.level_ok / self.matched if self.matched else 0.0
        parent = self.parent_ok / self.matched if self.matched else 0.0
        ancestor = self.ancestor_ok / self.matched if self.matched else 0.0
        return {
            "precision": p,
            "recall": r,
            "f1": f1,
            "level": level,
            "parent": parent,
            "in_path": ancestor,
        }


def score(name: str, truth: list[Heading], found: list[Heading]) -> Score:
    a, b = [normalise(t) for _, t in truth], [normalise(t) for _, t in found]
    pairs: dict[int, int] = {}  # found index -> truth index
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            pairs[block.b + k] = block.a + k
    shift_t = min((lvl for lvl, _ in truth), default=1) - 1
    shift_f = min((lvl for lvl, _ in found), default=1) - 1
    parents_t, parents_f = _parents(truth), _parents(found)
    level_ok = parent_ok = ancestor_ok = 0
    for fi, ti in pairs.items():
        level_ok += found[fi][0] - shift_f == truth[ti][0] - shift_t
        pf, pt = parents_f[fi], parents_t[ti]
        parent_ok += (pf is None and pt is None) or (pf is not None and pairs.get(pf) == pt)
        ancestors = _ancestors(fi, parents_f)
        ancestor_ok += pt is None or any(pairs.get(a) == pt for a in ancestors)
    return Score(name, len(truth), len(found), len(pairs), level_ok, parent_ok, ancestor_ok)


def _ancestors(index: int, parents: list[int | None]) -> list[int]:
    out = []
    parent = parents[index]
    while parent is not None:
        out.append(parent)
        parent = parents[parent]
    return out


def total(name: str, scores: list[Score]) -> Score:
    return Score(
        name,
        *(
            sum(getattr(s, f) for s in scores)
            for f in ("true", "found", "matched", "level_ok", "parent_ok", "ancestor_ok")
        ),
    )


def parse_without_bookmarks(data: bytes, engine: PdfEngine = DEFAULT_PDF_ENGINE) -> Document:
    """The PDF read as if it had no bookmarks and no tags: headings from typography alone."""
    pdf = open_document(engine, data)
    try:
        pages = read_all_pages(pdf, tagged=False)
        title = pdf.title()
    finally:
        pdf.close()
    return build(pages, [], title, TreeBuilder("pdf"))


def _truth(path: Path) -> list[Heading]:
    return [(int(level), str(text)) for level, text, *_ in json.loads(path.read_text())]


Case = tuple[str, str, Path, list[Heading], bool, set[str]]
"""(set, name, pdf, true headings, typography only, titles not to count)."""


def cases(corpus: Path, dev: Path = DEV) -> list[Case]:
    """Every scored file, in every reading it is scored under."""
    out: list[Case] = []
    for truth_file in sorted((corpus / "pdf").rglob("*.headings.json")):
        pdf = truth_file.with_name(truth_file.name.replace(".headings.json", ".pdf"))
        name = pdf.relative_to(corpus / "pdf").as_posix()
        group = "untagged" if name.startswith("untagged/") else "rendered"
        out.append((group, name, pdf, _truth(truth_file), False, set()))
    for outline in sorted((corpus / "pdf" / "usgov").glob("*.outline.json")):
        pdf = outline.with_name(outline.name.replace(".outline.json", ".pdf"))
        out.append(("usgov", f"usgov/{pdf.name}", pdf, _truth(outline), True, set()))
    for truth_file in sorted((TRUTH / "sec-10q").glob("*.headings.json")):
        pdf = corpus / "pdf" / "sec-10q" / truth_file.name.replace(".headings.json", ".pdf")
        out.append(("sec-10q", f"sec-10q/{pdf.name}", pdf, _truth(truth_file), False, set()))
    for stripped in (False, True):
        for truth_file in sorted(dev.glob("*/*.headings.json")):
            pdf = truth_file.with_name(truth_file.name.replace(".headings.json", ".pdf"))
            kind = truth_file.parent.name
            read = _truth(truth_file)
            titles = {normalise(text) for level, text in read if level == 0}
            truth = [(level, text) for level, text in read if level > 0]
            group = f"dev/{kind}{' stripped' if stripped else ''}"
            out.append((group, f"{kind}/{pdf.name}", pdf, truth, stripped, titles))
    return out


def run(
    corpus: Path,
    verbose: bool,
    only: set[str] | None = None,
    engine: PdfEngine = DEFAULT_PDF_ENGINE,
) -> dict[str, list[Score]]:
    settings = ParseSettings(pdf_engine=engine)
    groups: dict[str, list[Score]] = {}
    for group, name, pdf, truth, typography_only, titles in cases(corpus):
        if only and not {group, group.split(" ")[0], group.split("/")[0]} & only:
            continue
        data = pdf.read_bytes()
        document = (
            parse_without_bookmarks(data, engine)
            if typography_only
            else parse(data, str(pdf), settings)
        )
        found = [h for h in recovered_headings(document) if normalise(h[1]) not in titles]
        result = score(name, truth, found)
        groups.setdefault(group, []).append(result)
        if verbose:
            print(f"\n{name}: {result.ratios()}", file=sys.stderr)
            for level, text in found:
                print(f"  {'  ' * (level - 1)}{level} {text}", file=sys.stderr)
    return groups


def table(groups: dict[str, list[Score]]) -> str:
    rows = [
        "| set | files | true | found | precision | recall | F1 | level acc. | right parent "
        "| parent in path |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    pooled: dict[str, list[Score]] = {}
    for name, scores in groups.items():
        if name.startswith("dev/"):
            reading = " stripped" if name.endswith(" stripped") else ""
            pooled.setdefault(f"dev, all kinds{reading}", []).extend(scores)
    for name, scores in [*groups.items(), *pooled.items()]:
        t = total(name, scores)
        r = t.ratios()
        rows.append(
            f"| {name} | {len(scores)} | {t.true} | {t.found} | {r['precision']:.3f} | "
            f"{r['recall']:.3f} | {r['f1']:.3f} | {r['level']:.3f} | {r['parent']:.3f} | "
            f"{r['in_path']:.3f} |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--json", type=Path, help="write per-file numbers here")
    parser.add_argument("-v", "--verbose", action="store_true", help="list recovered headings")
    parser.add_argument(
        "--sets",
        help="comma-separated: rendered, untagged, usgov, sec-10q, dev/<kind> (both "
        "readings) or 'dev/<kind> stripped', dev (every kind)",
    )
    parser.add_argument("--engine", choices=["pdfium", "pdfplumber"], default=DEFAULT_PDF_ENGINE)
    args = parser.parse_args()
    only = set(args.sets.split(",")) if args.sets else None
    groups = run(args.corpus, args.verbose, only, args.engine)
    print(table(groups))
    if args.verbose:
        print(
            "\n| file | true | found | P | R | F1 | level | parent |\n|---|---:|---:|---:|---:|"
            "---:|---:|---:|"
        )
        for scores in groups.values():
            for s in scores:
                r = s.ratios()
                print(
                    f"| {s.name} | {s.true} | {s.found} | {r['precision']:.2f} | "
                    f"{r['recall']:.2f} | {r['f1']:.2f} | {r['level']:.2f} | {r['parent']:.2f} |"
                )
    if args.json:
        data = {
            name: [{**asdict(s), **s.ratios()} for s in scores] for name, scores in groups.items()
        }
        args.json.write_text(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
