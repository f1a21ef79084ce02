"""Real PDFs: everything the page reader saw reaches a chunk, or is text the parser
dropped on purpose and says so (`Document.dropped`: running headers, page numbers,
contents entries, attribute lists after titles). Compared as bags of word tokens, so
reading order and table layout do not count as losses; a word hyphenated at a line
end counts once, joined. (What the page reader sees of the raw PDF — visible, de-
duplicated glyphs — is tested in test_pdf.py.)"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import corpus_params
from corpus_pdf import read_corpus_pdf

from structchunk import ChunkOptions
from structchunk.packing import Packer

MAX_MISSING_SHARE = 0.01
"""Tokens allowed to differ: a word hyphenated inside a table cell, or letter-spaced
letters read as one word, count as missing."""

_TOKEN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]|[^\W_\u3040-\u30ff\u4e00-\u9fff]+")
"""Runs of letters and digits; Chinese and Japanese characters one by one (no spaces)."""


def _tokens(text: str) -> list[str]:
    return [token.casefold() for token in _TOKEN.findall(text)]


def _missing(source: list[str], produced: Counter[str]) -> Counter[str]:
    missing: Counter[str] = Counter()
    skip = False
    for index, word in enumerate(source):
        if skip:
            skip = False
            continue
        if word.endswith("-") and index + 1 < len(source):  # `tech-` + `nology`
            joined = _tokens(word[:-1] + source[index + 1])
            if joined and all(produced[t] > 0 for t in joined):
                produced.subtract(joined)
                skip = True
                continue
        for token in _tokens(word):
            if produced[token] > 0:
                produced[token] -= 1
            else:
                missing[token] += 1
    return missing


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_params("pdf", "*.pdf"))
def test_nothing_read_is_lost_but_documented_furniture(path: Path) -> None:
    reading = read_corpus_pdf(path)
    if reading.document is None:
        pytest.skip("cannot be read (tested in test_pdf_corpus)")
    document = reading.document
    source = list(reading.words)
    options = ChunkOptions(max_tokens=200)
    produced: Counter[str] = Counter()
    for chunk in Packer(options).pack(document):
        produced.update(_tokens(chunk.text))
    for text in document.dropped:
        produced.update(_tokens(text))
    for section in document.sections():  # a heading with nothing under it: a known limit
        if not section.blocks and not section.children:  # (docs/design.md)
            produced.update(_tokens(section.title))
    missing = _missing(source, produced)
    share = sum(missing.values()) / max(len(source), 1)
    worst = ", ".join(f"{t}×{n}" for t, n in missing.most_common(8))
    assert share <= MAX_MISSING_SHARE, f"{share:.2%} of the words missing: {worst}"
