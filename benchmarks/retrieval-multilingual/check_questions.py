#!/usr/bin/env python3
"""Check the multilingual retrieval set's question files against their documents.

    python benchmarks/retrieval-multilingual/check_questions.py [DEV_DIR] [-v] [--bench DIR]

DEV_DIR defaults to the folder holding this script; the benchmark helpers are
found as ``shared/bench`` beside or above it (``--bench`` names them).

For every line of every ``qa/*.jsonl`` it checks, with the tokens of ``script_tokens.py``
(the bench's ``visible_text`` + ``norm_tokens``, and every Han/kana character its own token,
so that an excerpt of Chinese or Japanese may start and end inside an unspaced clause):

- the required fields (``doc``, ``question``, ``answer``, ``source``) and that
  ``doc`` exists; ``answers[0] == answer`` when ``answers`` is given; ``kind``
  is a list drawn from heading / table / list / repeated / plain;
- every excerpt (``answers``, else ``answer``) occurs token-contiguously in the
  document's reference text, and inside one block (paragraph, list item, table
  cell, heading, code block) — an excerpt found only across blocks fails;
- ``answer_occurrences`` (1 when absent) equals the number of blocks that
  contain the first excerpt;
- ``heading_path`` is the path (title, then the headings above) of a block
  holding the first excerpt;
- ``table_header`` / ``table_row``: a table of the page has that header and
  that row, and the row holds the answer: Markdown pipe tables compare cell by
  cell; for a raw-HTML table inside Markdown, the header's and the row's cells
  occur in that order in one block.

The set holds Markdown pages only.

It prints, per question set, the counts by document, site and kind and every
failing question, and exits 1 when any question fails.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from script_tokens import match_tokens  # noqa: E402

norm_tokens = match_tokens  # the per-script tokens (script_tokens.py) for every comparison


KINDS = {"heading", "table", "list", "repeated", "plain"}
REQUIRED = ("doc", "question", "answer", "source")


def contains(hay: list[str], needle: list[str]) -> int:
    """Number of (possibly overlapping) positions where needle occurs in hay."""
    n = len(needle)
    if not n or n > len(hay):
        return 0
    first = needle[0]
    return sum(1 for i in range(len(hay) - n + 1) if hay[i] == first and hay[i : i + n] == needle)


def toks(text: str) -> list[str]:
    return match_tokens(text)


# ------------------------------------------------------------- Markdown
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^\s{0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HEADING_ATTR = re.compile(r"\s*\{\s*#[^}]*\}\s*$")


def _front_matter(lines: list[str]) -> tuple[int, str | None]:
    """(index of the first body line, title) for YAML --- or TOML +++ front matter."""
    if not lines or lines[0].strip() not in ("---", "+++"):
        return 0, None
    mark = lines[0].strip()
    title = None
    for i in range(1, len(lines)):
        s = lines[i]
        if s.strip() == mark:
            return i + 1, title
        m = re.match(r"^title\s*[:=]\s*(.*?)\s*$", s)
        if m and title is None:
            v = m.group(1)
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                v = v[1:-1]
            title = v
    return 0, None


def _split_cells(row: str) -> list[str]:
    s = row.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", s)]


def markdown_blocks(md: str):
    """Blocks of a Markdown page: (kind, text, heading path tuple, table info).

    kind is heading / para / item / cell / code; a table cell block carries
    (header cells, row cells) as raw strings."""
    lines = md.splitlines()
    start, title = _front_matter(lines)
    has_h1 = False
    fence = None
    for s in lines[start:]:
        if fence:
            if s.strip().startswith(fence):
                fence = None
            continue
        m = _FENCE.match(s)
        if m:
            fence = m.group(1)[0] * 3
            continue
        h = _ATX.match(s)
        if h and len(h.group(1)) == 1:
            has_h1 = True
            break
    stack: list[tuple[int, str]] = []
    if title and not has_h1:
        stack.append((0, title))
    blocks = []
    cur: list[str] = []
    cur_kind = "para"

    def path():
        return tuple(t for _, t in stack)

    def flush():
        nonlocal cur, cur_kind
        if cur and any(x.strip() for x in cur):
            blocks.append((cur_kind, "\n".join(cur), path(), None))
        cur, cur_kind = [], "para"

    i = start
    n = len(lines)
    while i < n:
        s = lines[i]
        m = _FENCE.match(s)
        if m:
            flush()
            mark = m.group(1)
            body = []
            i += 1
            while i < n and not lines[i].strip().startswith(mark[0] * len(mark)):
                body.append(lines[i])
                i += 1
            blocks.append(("code", "\n".join(body), path(), None))
            i += 1
            continue
        h = _ATX.match(s)
        if h:
            flush()
            level = len(h.group(1))
            text = re.sub(r"[ \t]+#+$", "", h.group(2) or "")
            text = _HEADING_ATTR.sub("", text).strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
            blocks.append(("heading", text, path(), None))
            i += 1
            continue
        if "|" in s and i + 1 < n and _TABLE_SEP.match(lines[i + 1]) and "|" in lines[i + 1]:
            flush()
            header = _split_cells(s)
            i += 2
            while i < n and lines[i].strip() and "|" in lines[i]:
                row = _split_cells(lines[i])
                for cell in row:
                    blocks.append(("cell", cell, path(), (header, row)))
                i += 1
            continue
        if not s.strip():
            flush()
            i += 1
            continue
        body = re.sub(r"^\s*(?:>\s?)+", "", s)
        if _ITEM.match(body):
            flush()
            cur_kind = "item"
        cur.append(body)
        i += 1
    flush()
    return blocks


# ---------------------------------------------------------------- check
class Doc:
    def __init__(self, path: Path):
        raw = path.read_text(encoding="utf-8", errors="replace")
        self.is_html = path.suffix.lower() in (".html", ".htm")
        if self.is_html:
            raise SystemExit(f"{path}: this set holds Markdown pages only")
        else:
            self.ref = toks(raw)
            self.blocks = [
                (k, toks(t), tuple(tuple(toks(x)) for x in p), tb)
                for k, t, p, tb in markdown_blocks(raw)
            ]


def check_question(q: dict, dev: Path, docs: dict) -> tuple[list[str], int]:
    errs: list[str] = []
    for f in REQUIRED:
        if not isinstance(q.get(f), str) or not q.get(f).strip():
            errs.append(f"missing or empty field {f!r}")
    if errs:
        return errs, 0
    path = dev / q["doc"]
    if not path.is_file():
        return [f"no document {q['doc']}"], 0
    if q["doc"] not in docs:
        docs[q["doc"]] = Doc(path)
    d = docs[q["doc"]]

    excerpts = q.get("answers") or [q["answer"]]
    if q.get("answers") and q["answers"][0] != q["answer"]:
        errs.append("answers[0] differs from answer")
    kind = q.get("kind")
    if not isinstance(kind, list) or not kind or not set(kind) <= KINDS:
        errs.append(f"kind {kind!r} is not a non-empty list of {sorted(KINDS)}")

    for ex in excerpts:
        t = norm_tokens(ex)
        if not t:
            errs.append(f"excerpt has no tokens: {ex!r}")
            continue
        if not contains(d.ref, t):
            errs.append(f"not in the document's visible text: {ex!r}")
        elif not any(contains(b[1], t) for b in d.blocks):
            errs.append(f"found only across blocks: {ex!r}")

    first = norm_tokens(excerpts[0])
    holding = [b for b in d.blocks if first and contains(b[1], first)]
    occ = len(holding)
    want = q.get("answer_occurrences", 1)
    if holding and occ != want:
        errs.append(f"answer_occurrences is {want}, counted {occ} blocks")

    hp = q.get("heading_path")
    if hp is not None:
        if not isinstance(hp, list) or not all(isinstance(h, str) for h in hp):
            errs.append("heading_path is not a list of strings")
        elif d.is_html:
            heads = [tuple(b[1]) for b in d.blocks]
            pos = 0
            for h in hp:
                ht = tuple(norm_tokens(h))
                try:
                    pos = heads.index(ht, pos) + 1
                except ValueError:
                    errs.append(f"heading {h!r} is not a block of the page (in order)")
                    break
        elif holding:
            want_path = tuple(tuple(norm_tokens(h)) for h in hp)
            if not any(b[2] == want_path for b in holding):
                got = sorted({" > ".join(" ".join(x) for x in b[2]) for b in holding})
                errs.append(
                    f"heading_path {hp!r} does not hold the answer; paths holding it: {got}"
                )

    th, tr = q.get("table_header"), q.get("table_row")
    if th is not None or tr is not None:
        if not isinstance(th, list) or not isinstance(tr, list):
            errs.append("table_header and table_row must both be lists")
        elif d.is_html:
            row = [x for c in tr for x in norm_tokens(c)]
            head = [x for c in th for x in norm_tokens(c)]
            if not any(contains(b[1], row) for b in d.blocks):
                errs.append("table_row's cells do not occur in one block")
            if not any(contains(b[1], head) for b in d.blocks):
                errs.append("table_header's cells do not occur in one block")
            if not contains(row, first):
                errs.append("table_row does not hold the answer")
        else:
            want_h = [tuple(toks(c)) for c in th]
            want_r = [tuple(toks(c)) for c in tr]
            found = any(
                b[3] is not None
                and [tuple(toks(c)) for c in b[3][0]] == want_h
                and [tuple(toks(c)) for c in b[3][1]] == want_r
                for b in d.blocks
            )
            if not found:
                # a raw-HTML <table> inside the Markdown: header and row cells in order in one block
                head = [x for c in want_h for x in c]
                row = [x for c in want_r for x in c]
                found = any(
                    b[3] is None and contains(b[1], head) and contains(b[1], row) for b in d.blocks
                )
            if not found:
                errs.append("no table of the page has that table_header and table_row")
            if not any(contains(list(c), first) for c in want_r):
                errs.append("no cell of table_row holds the answer")
    return errs, occ


def main(argv: list[str]) -> int:
    args = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--bench":
            skip = True
        elif not a.startswith("-"):
            args.append(a)
    verbose = "-v" in argv
    dev = Path(args[0]) if args else HERE
    qdir = dev / "qa"
    files = sorted(qdir.glob("*.jsonl"))
    if not files:
        print(f"no question sets in {qdir}")
        return 1
    docs: dict = {}
    failed = 0
    total = 0
    for f in files:
        rows = []
        for no, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append((no, json.loads(line)))
            except json.JSONDecodeError as e:
                rows.append((no, {"_bad": str(e)}))
        kinds, sites, per_doc = Counter(), Counter(), Counter()
        fails = []
        for no, q in rows:
            if "_bad" in q:
                fails.append((no, q, [f"not JSON: {q['_bad']}"]))
                continue
            errs, occ = check_question(q, dev, docs)
            if errs:
                fails.append((no, q, errs))
            for k in q.get("kind") or []:
                kinds[k] += 1
            doc = q.get("doc") or "?"
            per_doc[doc] += 1
            parts = doc.split("/")
            sites["/".join(parts[:2]) if len(parts) > 2 else doc] += 1
        total += len(rows)
        failed += len(fails)
        print(
            f"{f.name}: {len(rows)} questions, {len(rows) - len(fails)} pass, "
            f"{len(fails)} fail; {len(per_doc)} documents, {len(sites)} sites"
        )
        print("  by site: " + ", ".join(f"{s} {c}" for s, c in sorted(sites.items())))
        print(
            "  by kind (a question may have several): "
            + ", ".join(
                f"{k} {kinds[k]} ({100 * kinds[k] / max(1, len(rows)):.0f} %)"
                for k in ("heading", "list", "table", "repeated", "plain")
            )
        )
        if verbose:
            for doc, c in sorted(per_doc.items()):
                print(f"    {c:3d}  {doc}")
        for no, q, errs in fails:
            print(f"  FAIL {f.name}:{no} {q.get('doc')}: {q.get('question')}")
            for e in errs:
                print(f"       - {e}")
    print(f"total: {total} questions, {total - failed} pass, {failed} fail")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
