"""A seeded mutation fuzzer: reproducible, named mutants of real and generated documents.

A mutant is a pure function of its pool and case number: `make_mutant(case, seeds)`
draws everything from its own `random.Random(case)` (no global randomness), so a failing
mutant is rebuilt from its file name alone (`0042-bitflip-fastapi-cors.md` is case 42
of its pool). Write chosen cases to a folder, to convert by hand:

    python tests/fuzzing.py --pool local --out /tmp/fuzz-repro 42 57
"""

from __future__ import annotations

import argparse
import random
import re
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from conftest import LOCAL_CORPUS, SHARED_CORPUS
from pdf_factory import Page, pdf_bytes

Kind = Literal["markdown", "html", "pdf", "text"]
PoolName = Literal["local", "shared", "all"]

MAX_SEED_BYTES = 300_000
"""Shared-corpus files above this are left out: the gate's budget is mutants, not pages."""
MAX_PDF_SEED_BYTES = 150_000
"""Bigger shared-corpus PDFs are 40-80-page reports that take 7-13 s alone on the 2-core
CI machine and over 20 s (the gate's time limit) when two conversions share it: they
would test the machine's speed, not robustness."""
MAX_MUTANT_BYTES = 2_000_000
"""Operators that grow a document (duplication, nesting bombs) stay under this."""
SHARED_FOLDERS = ("html", "markdown", "pdf", "robustness")
SHARED_SAMPLE: dict[str, int | None] = {"local": 0, "shared": 24, "all": None}
"""Seeds drawn from each shared-corpus folder, per pool (None: every small file)."""
POOL_SEED = 20240601
"""Seeds the sampling of shared-corpus files (a new value picks other files)."""
WRONG_SUFFIX_SHARE = 0.15
EMPTY_SHARE = 0.02
SECOND_OPERATOR_SHARE = 0.2
SUFFIXES: dict[Kind, tuple[str, ...]] = {
    "markdown": (".md", ".markdown"),
    "html": (".html", ".htm"),
    "pdf": (".pdf",),
    "text": (".txt",),
}
INTERESTING = tuple(
    b"\x00 \xff < ( \\ > ) \r \n & [ * # | ` \xef\xbb\xbf \xfe\xff % \xc3 \x1b endobj".split(b" ")
)
"""Bytes that mean something to a parser: delimiters, escapes, BOMs, invalid UTF-8."""


class Mutant(NamedTuple):
    """One fuzz case: its file name (case, operators, seed), suffix and bytes."""

    name: str
    suffix: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Seed:
    """A document to mutate; `kind` is what its bytes are (whatever its file was called)."""

    name: str
    kind: Kind
    data: bytes


# --- seeds ----------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "seed"


def _sniff(path: Path, data: bytes) -> Kind:
    if b"%PDF-" in data[:1024]:
        return "pdf"
    suffix = path.suffix.lower()
    for kind, suffixes in SUFFIXES.items():
        if suffix in suffixes:
            return kind
    return "text"


def _size_cap(path: Path) -> int:
    return MAX_PDF_SEED_BYTES if path.suffix.lower() == ".pdf" else MAX_SEED_BYTES


def _known(path: Path) -> bool:
    return any(path.suffix.lower() in suffixes for suffixes in SUFFIXES.values())


def factory_pdfs() -> list[Seed]:
    """Small PDFs laid out here: one page, two pages, a ruled table, a compressed copy."""
    one = Page()
    one.text(72, 720, "Installing the Widget", font="Helvetica-Bold", size=18)
    one.lines(72, 690, ["The widget needs a power supply (12 V) and a \\ bracket.", "Mount it."])
    first, second = Page(), Page()
    first.text(72, 720, "1. Overview", font="Times-Bold", size=16)
    first.lines(72, 690, [f"Sentence {i} of the overview, on page one." for i in range(20)])
    second.text(72, 720, "2. Details", font="Times-Bold", size=16)
    second.lines(72, 690, [f"Detail {i}: the second page goes on." for i in range(20)])
    table = Page().text(72, 740, "Quarterly results", font="Helvetica-Bold", size=14)
    for row, cells in enumerate(
        [("Region", "Q1", "Q2"), ("North", "12", "15"), ("South", "9", "11")]
    ):
        y = 700 - 20 * row
        for col, cell in enumerate(cells):
            table.text(80 + 150 * col, y, cell, font="Helvetica-Bold" if row == 0 else "Helvetica")
        table.rule(72, y - 6, 520, y - 6)
    two_pages = pdf_bytes([first, second], title="Manual")
    return [
        Seed("pdf-one-page", "pdf", pdf_bytes([one])),
        Seed("pdf-two-pages", "pdf", two_pages),
        Seed("pdf-table", "pdf", pdf_bytes([table])),
        Seed("pdf-flate", "pdf", pdf_bytes([first, second], title="Manual", deflate_layers=1)),
    ]


INLINE_HTML = {
    "html-article": """<!DOCTYPE html><html><head><title>Release notes</title>
<script>var x = "<p>not text</p>";</script><style>p { color: red }</style></head>
<body><nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
<article><h1>Release notes</h1><p>Version 2 changes the <code>--jobs</code> flag.</p>
<h2>Breaking changes</h2><ul><li>Python 3.10 is required.</li><li>The <em>old</em> API
is gone; see <a href="#m">migration</a>.</li></ul><h2 id="m">Migration</h2>
<p>Replace &lt;old&gt; calls &amp; rerun.</p></article>
<footer>&copy; 2024</footer></body></html>""",
    "html-table": """<html><body><h1>Limits</h1><table><caption>Quotas per account</caption>
<thead><tr><th>Resource</th><th>Default</th><th>Max</th></tr></thead><tbody>
<tr><td>Instances</td><td>20</td><td>100</td></tr><tr><td colspan="2">Volumes</td>
<td>500</td></tr><tr><td>Snapshots</td><td rowspan="2">1000</td><td>n/a</td></tr>
</tbody></table><p>Ask support for more.</p></body></html>""",
    "html-nested": """<html><body><h1>Guide</h1><blockquote><p>Quoted advice.</p>
<blockquote><p>Nested quote.</p></blockquote></blockquote><ol><li>First<ul><li>Sub a</li>
<li>Sub b<ol><li>Deep</li></ol></li></ul></li><li>Second</li></ol>
<pre><code class="language-python">def f(x):\n    return x &lt; 1\n</code></pre>
<h3>Skipped level</h3><dl><dt>Term</dt><dd>Definition.</dd></dl></body></html>""",
    "html-sloppy": """<html><body><h2>Unclosed <b>bold<p>Para one<p>Para two &nbsp;&#x41;&#65;
<div><span>Inline <i>mix</div></span><table><tr><td>cell<td>cell two<tr><td>row 2
</table><!-- a comment <p>hidden</p> --><h1>Late title</h1>text after""",
}


def local_seeds() -> list[Seed]:
    """tests/corpus, the factory PDFs and the inline HTML: the pool that is always here."""
    seeds = [
        Seed(_slug(path.stem), _sniff(path, path.read_bytes()), path.read_bytes())
        for path in sorted(LOCAL_CORPUS.rglob("*"))
        if path.is_file() and _known(path)
    ]
    seeds += factory_pdfs()
    seeds += [Seed(name, "html", html.encode()) for name, html in INLINE_HTML.items()]
    return seeds


def shared_seeds(per_folder: int | None) -> list[Seed]:
    """`per_folder` small files from each shared-corpus folder, sorted then sampled."""
    if SHARED_CORPUS is None or per_folder == 0:
        return []
    seeds = []
    for index, folder in enumerate(SHARED_FOLDERS):
        files = sorted(
            path
            for path in (SHARED_CORPUS / folder).rglob("*")
            if path.is_file() and _known(path) and path.stat().st_size < _size_cap(path)
        )
        if per_folder is not None:
            files = random.Random(POOL_SEED + index).sample(files, min(per_folder, len(files)))
        for path in files:
            data = path.read_bytes()
            seeds.append(Seed(_slug(f"{path.parent.name}-{path.stem}"), _sniff(path, data), data))
    return seeds


def seed_pool(pool: PoolName) -> list[Seed]:
    """The seeds of a named pool (`shared` and `all` equal `local` without the corpus)."""
    seeds, seen = [], set()
    for seed in local_seeds() + shared_seeds(SHARED_SAMPLE[pool]):
        name, n = seed.name, 1
        while name in seen:  # the same stem in two folders (an HTML page and its PDF)
            n += 1
            name = f"{seed.name}-{n}"
        seen.add(name)
        seeds.append(Seed(name, seed.kind, seed.data))
    return seeds


# --- generic operators ------------------------------------------------------------------


def bit_flips(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """A few flipped bits: broken UTF-8, damaged keywords, off-by-some numbers."""
    out = bytearray(data)
    for _ in range(rng.randint(1, max(1, min(64, len(out) // 200))) if out else 0):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def insertions(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """Delimiters, escapes, NULs and BOMs (or random bytes) where no parser expects them."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.7:
            piece = rng.choice(INTERESTING) * rng.choice((1, 1, 2, 16, 256))
        else:
            piece = rng.randbytes(rng.randint(1, 32))
        at = rng.randint(0, len(out))
        out[at:at] = piece
    return bytes(out)


def truncation(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """A download cut short (or its head lost): unclosed tags, a PDF without its xref."""
    cut = rng.randint(0, max(0, len(data) - 1))
    return data[:cut] if rng.random() < 0.8 else data[cut:]


def duplication(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """A block repeated up to 100 times: repeated headings, objects, table rows."""
    if not data:
        return data
    start = rng.randrange(len(data))
    block = data[start : start + rng.randint(1, 65_536)]
    copies = min(rng.choice((1, 2, 10, 100)), MAX_MUTANT_BYTES // 2 // len(block))
    at = rng.randint(0, len(data))
    return data[:at] + block * max(1, copies) + data[at:]


def shuffle(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """Reorder blocks: tags for HTML, lines for the rest (a window, a swap, or all)."""
    units = re.split(rb"(?=<)", data) if kind == "html" else data.splitlines(keepends=True)
    if len(units) < 2:
        return data
    roll = rng.random()
    if roll < 0.1:
        rng.shuffle(units)
    elif roll < 0.5:
        i, j = rng.randrange(len(units)), rng.randrange(len(units))
        units[i], units[j] = units[j], units[i]
    else:
        start = rng.randrange(len(units))
        window = units[start : start + rng.randint(2, 20)]
        rng.shuffle(window)
        units[start : start + len(window)] = window
    return b"".join(units)


# --- PDF operators ----------------------------------------------------------------------


def _replace_number(rng: random.Random, data: bytes, span: tuple[int, int], width: int) -> bytes:
    """The number at `span` swapped for a near, zero, huge or junk value."""
    old = int(data[span[0] : span[1]] or b"0")
    new = rng.choice((0, old + rng.randint(-50, 50), old * 2, 10**width - 1, len(data) + 7))
    text = b"%0*d" % (width, max(0, new)) if width else b"%d" % new
    if rng.random() < 0.1:
        text = rng.choice((b"-1", b"x", b"", b"1e9"))
    return data[: span[0]] + text + data[span[1] :]


def pdf_xref(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """Wrong offsets in the xref table, a wrong entry count, or a wrong `startxref`."""
    targets = [(m.span(1), 10) for m in re.finditer(rb"(\d{10}) \d{5} [nf]", data)]
    targets += [(m.span(1), 0) for m in re.finditer(rb"xref\s+\d+\s+(\d+)", data)]
    targets += [(m.span(1), 0) for m in re.finditer(rb"startxref\s+(\d+)", data)]
    if not targets:
        return bit_flips(rng, data, kind)
    for _ in range(rng.randint(1, 3)):
        span, width = rng.choice(targets)
        data = _replace_number(rng, data, span, width)
        targets = [t for t in targets if t[0][1] <= span[0]]  # later spans moved
        if not targets:
            break
    return data


def pdf_length(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """A stream's `/Length` too short, too long, zero, huge, negative or indirect."""
    spans = [m.span(1) for m in re.finditer(rb"/Length\s+(\d+)(?!\s+\d+\s+R)", data)]
    if not spans:
        return pdf_delete(rng, data, kind)
    for span in sorted(rng.sample(spans, rng.randint(1, min(3, len(spans)))), reverse=True):
        if rng.random() < 0.1:
            data = data[: span[0]] + b"9 0 R" + data[span[1] :]
        else:
            data = _replace_number(rng, data, span, 0)
    return data


def pdf_delete(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """Delete some `endstream` / `endobj` keywords."""
    spans = [m.span() for m in re.finditer(rb"endstream|endobj", data)]
    if not spans:
        return truncation(rng, data, kind)
    for start, end in sorted(rng.sample(spans, rng.randint(1, min(4, len(spans)))), reverse=True):
        data = data[:start] + data[end:]
    return data


def pdf_flate(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """Damage one FlateDecode stream: flipped, cut, junk, or a broken zlib header."""
    streams = []
    for match in re.finditer(rb"/FlateDecode", data):
        keyword = data.find(b"stream", match.end())
        if keyword < 0:
            continue
        start = keyword + 6 + (2 if data[keyword + 6 : keyword + 8] == b"\r\n" else 1)
        end = data.find(b"endstream", start)
        if end > start:
            streams.append((start, end))
    if not streams:
        return pdf_length(rng, data, kind)
    start, end = rng.choice(streams)
    body = data[start:end]
    roll = rng.random()
    if roll < 0.35:
        body = bit_flips(rng, body, kind)
    elif roll < 0.6:
        body = body[: rng.randint(0, len(body))]
    elif roll < 0.8:
        body = zlib.compress(rng.randbytes(rng.randint(1, 4096)))
    else:
        body = rng.randbytes(2) + body[2:]
    return data[:start] + body + data[end:]


# --- nesting bombs ----------------------------------------------------------------------


HTML_NESTS = (
    (b"<div>", b"</div>"),
    (b"<ul><li>", b"</li></ul>"),
    (b"<blockquote>", b"</blockquote>"),
    (b"<table><tr><td>", b"</td></tr></table>"),
    (b"<ol><li>item ", b"</li></ol>"),
    (b"<section><h2>deep</h2>", b"</section>"),
)


def nesting_bomb(rng: random.Random, data: bytes, kind: Kind) -> bytes:
    """A few thousand levels of HTML elements, Markdown quotes or list items, spliced in."""
    depth = rng.randint(1000, 5000)
    if kind == "html":
        opener, closer = rng.choice(HTML_NESTS)
        closing = closer * depth if rng.random() < 0.7 else b""  # or left unclosed
        bomb = opener * depth + b"bottom text" + closing
        at = rng.choice([m.start() for m in re.finditer(rb"<", data)] or [0])
    else:
        shape = rng.randrange(4)
        if shape == 0:
            bomb = b">" * depth + b" quoted at the bottom\n"
        elif shape == 1:
            bomb = b"".join(b">" * i + b" level %d\n" % i for i in range(1, depth // 5))
        elif shape == 2:
            bomb = b"".join(b"  " * i + b"- item %d\n" % i for i in range(depth // 4))
        else:
            bomb = b"".join(b"   " * i + b"%d. step\n" % i for i in range(depth // 5))
        lines = [m.end() for m in re.finditer(rb"\n", data)]
        at = rng.choice([0, *lines])
    bomb = bomb[: MAX_MUTANT_BYTES - len(data)]
    return data[:at] + b"\n" + bomb + b"\n" + data[at:]


# --- the operator table -----------------------------------------------------------------

Apply = Callable[[random.Random, bytes, Kind], bytes]
ALL: frozenset[Kind] = frozenset(("markdown", "html", "pdf", "text"))


@dataclass(frozen=True, slots=True)
class Operator:
    name: str
    apply: Apply
    kinds: frozenset[Kind]
    weight: int
    """Relative frequency among the operators that fit a seed."""


OPERATORS: tuple[Operator, ...] = (
    Operator("bitflip", bit_flips, ALL, 4),
    Operator("insert", insertions, ALL, 4),
    Operator("truncate", truncation, ALL, 3),
    Operator("duplicate", duplication, ALL, 2),
    Operator("shuffle", shuffle, ALL, 3),
    Operator("xref", pdf_xref, frozenset(("pdf",)), 4),
    Operator("length", pdf_length, frozenset(("pdf",)), 3),
    Operator("endobj", pdf_delete, frozenset(("pdf",)), 3),
    Operator("flate", pdf_flate, frozenset(("pdf",)), 3),
    Operator("nest", nesting_bomb, frozenset(("html", "markdown")), 3),
)
"""Mutation operators, by name (the name is the file name's second part)."""
GENERIC = tuple(op for op in OPERATORS if op.kinds == ALL)


def _pick(rng: random.Random, operators: Sequence[Operator], kind: Kind) -> Operator:
    fitting = [op for op in operators if kind in op.kinds]
    return rng.choices(fitting, weights=[op.weight for op in fitting])[0]


def make_mutant(case: int, seeds: Sequence[Seed]) -> Mutant:
    """Mutant number `case` of this seed pool (all randomness from `Random(case)`)."""
    rng = random.Random(case)
    seed = rng.choice(seeds)
    if rng.random() < EMPTY_SHARE:
        names, data = ["empty"], b""
    else:
        first = _pick(rng, OPERATORS, seed.kind)
        names, data = [first.name], first.apply(rng, seed.data, seed.kind)
        if rng.random() < SECOND_OPERATOR_SHARE:
            second = _pick(rng, GENERIC, seed.kind)
            names.append(second.name)
            data = second.apply(rng, data, seed.kind)
    if rng.random() < WRONG_SUFFIX_SHARE:
        kind = rng.choice(sorted(ALL - {seed.kind}))
        names.append("as-" + kind)
    else:
        kind = seed.kind
    suffix = rng.choice(SUFFIXES[kind])
    name = f"{case:04d}-{'+'.join(names)}-{seed.name}{suffix}"
    return Mutant(name, suffix, data[:MAX_MUTANT_BYTES])


def make_mutants(cases: Iterable[int], seeds: Sequence[Seed]) -> list[Mutant]:
    return [make_mutant(case, seeds) for case in cases]


def case_number(name: str) -> int:
    """The case a mutant's file name came from (`0042-bitflip-x.md` → 42)."""
    return int(name.split("-", 1)[0])


def main(argv: Sequence[str] | None = None) -> None:
    """Write the given cases of a pool to a folder (to reproduce a failing gate)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pool", choices=sorted(SHARED_SAMPLE), default="local")
    parser.add_argument("--out", type=Path, default=Path("/tmp/fuzz-repro"))
    parser.add_argument("cases", nargs="+", type=int)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for mutant in make_mutants(args.cases, seed_pool(args.pool)):
        (args.out / mutant.name).write_bytes(mutant.data)
        print(args.out / mutant.name)


if __name__ == "__main__":
    main()
