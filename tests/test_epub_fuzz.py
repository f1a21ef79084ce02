"""EPUBs whose parts are damaged inside a sound zip (the byte-level fuzzer only ever breaks
the zip itself): every mutant converts, or fails with a one-line typed error.

A mutant is a pure function of its case number: one member of a seed book (its
container, package document, navigation, NCX, encryption list or a chapter) is bit-
flipped, truncated, spliced with bytes that mean something to XML, duplicated or
emptied, and the book is zipped again.
"""

from __future__ import annotations

import io
import random
import zipfile

import pytest
from conftest import LOCAL_CORPUS
from epub_factory import Toc, make_epub

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import StructChunkError

CASES = range(300)
SEEDS = {
    "lorem-epub2": (LOCAL_CORPUS / "epub" / "epubcheck-lorem-epub2.epub").read_bytes(),
    "nav-in-spine": (LOCAL_CORPUS / "epub" / "w3c-nav-spine_in-spine.epub").read_bytes(),
    "fonts": (LOCAL_CORPUS / "epub" / "w3c-ocf-font_obfuscation.epub").read_bytes(),
    "generated": make_epub(
        [
            ("p.xhtml", "<h1>Part</h1><p>Intro &amp; more.</p>"),
            ("c.xhtml", '<h1 id="a">One</h1><p>x<a epub:type="noteref" href="#n">1</a></p>'),
            ("n.xhtml", '<aside epub:type="footnote" id="n"><p>Note.</p></aside>'),
        ],
        toc=[Toc("Part", "p.xhtml", (Toc("One", "c.xhtml#a"),))],
        nonlinear=["n.xhtml"],
    ),
}
MARKUP = [b"<", b">", b"&", b"&#0;", b"]]>", b"<!--", b'"', b"\x00", b"\xff\xfe", b"<a id='a'>"]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    operator = rng.choice(["flip", "truncate", "splice", "duplicate", "empty"])
    out = bytearray(data)
    if operator == "flip" and out:
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    elif operator == "truncate":
        del out[rng.randint(0, len(out)) :]
    elif operator == "splice":
        for _ in range(rng.randint(1, 5)):
            at = rng.randint(0, len(out))
            out[at:at] = rng.choice(MARKUP)
    elif operator == "duplicate" and out:
        start = rng.randrange(len(out))
        piece = out[start : start + rng.randint(1, 400)]
        out[start:start] = piece * rng.randint(2, 50)
    elif operator == "empty":
        out = bytearray()
    return bytes(out)


def mutant(case: int) -> bytes:
    rng = random.Random(case)
    seed = SEEDS[rng.choice(sorted(SEEDS))]
    with zipfile.ZipFile(io.BytesIO(seed)) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    targets = [name for name in members if name != "mimetype" and not name.endswith(".ttf")]
    name = rng.choice(sorted(targets))
    members[name] = _mutate(rng, members[name])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return buffer.getvalue()


@pytest.mark.parametrize("case", CASES)
def test_a_damaged_part_converts_or_fails_in_one_line(case: int) -> None:
    options = ChunkOptions(max_tokens=64)
    try:
        chunks = list(iter_chunks_from_bytes(mutant(case), f"{case}.epub", "epub", options))
    except StructChunkError as error:
        assert "\n" not in str(error)
        return
    assert all(chunk.n_tokens <= 64 and chunk.body.strip() for chunk in chunks)
