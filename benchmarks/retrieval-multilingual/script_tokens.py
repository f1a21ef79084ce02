"""Tokens for the multilingual retrieval set: the shared bench's normal form, per script.

The bench (``shared/bench/common.py``) lowercases and keeps runs of letters and digits
(``norm_tokens``): right for spaced scripts, but a Chinese or Japanese sentence has no
spaces, so a whole clause would be one token and an answer could only match from clause
edge to clause edge. Here, after the bench's ``visible_text`` (plus ``<dfn>``, an inline
tag FastAPI's translations use and the bench's tag list lacks), emphasis and code-span
marks (``*``, `` ` ``) and link brackets (``[text](url)`` is ``text``) are dropped as a
rendering drops them: Korean attaches particles to a word right after the mark
(``**FastAPI**는``, ``[**Pydantic**](url)을``), which reads ``FastAPI는`` on the page; then:

- ``match_tokens``: ``norm_tokens``, then every Han ideograph, hiragana and katakana
  character its own token. Latin, Cyrillic, Hangul (Korean is spaced) and digits stay
  whole runs. An answer matches a chunk when its tokens occur contiguously in the chunk's.
- ``bm25_terms``: the match tokens, with each run of Han/kana characters given as its
  single characters *and* its overlapping character bigrams, and each token holding
  Hangul also given as its Hangul character bigrams (Korean attaches particles to words:
  ``FastAPI는``). Character bigrams are the usual dictionary-free index for CJK.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def _bench_dir() -> Path:
    for i, a in enumerate(sys.argv):
        if a == "--bench" and i + 1 < len(sys.argv):
            return Path(sys.argv[i + 1])
    here = Path(__file__).resolve().parent
    for base in [here, *here.parents]:
        for cand in (base / "shared" / "bench", base.parent / "shared" / "bench"):
            if (cand / "common.py").is_file():
                return cand
    raise SystemExit("cannot find shared/bench/common.py above " + str(here))


BENCH = _bench_dir()
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
from common import norm_tokens, visible_text  # noqa: E402

_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_SPLIT = re.compile(f"([{_CJK}])")
_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+")
_DFN = re.compile(r"</?dfn\b[^<>]*>", re.I)
_MARKS = re.compile(r"[*`]+")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+\"[^\"]*\")?\)")


def clean(text: str) -> str:
    """The bench's visible text, with ``<dfn>`` tags and the ``*``/`` ` `` marks removed."""
    return _MARKS.sub("", visible_text(_LINK.sub(r"\1", _DFN.sub(" ", text))))


def split_tokens(text: str) -> list[str]:
    """``norm_tokens`` with every Han/kana character its own token (text already visible)."""
    out: list[str] = []
    for tok in norm_tokens(text):
        if _CJK_CHAR.search(tok):
            out.extend(p for p in _SPLIT.split(tok) if p)
        else:
            out.append(tok)
    return out


def match_tokens(text: str) -> list[str]:
    return split_tokens(clean(text))


def bm25_terms(text: str) -> list[str]:
    toks = match_tokens(text)
    out: list[str] = []
    prev_cjk = None
    for t in toks:
        if len(t) == 1 and _CJK_CHAR.match(t):
            out.append(t)
            if prev_cjk is not None:
                out.append(prev_cjk + t)
            prev_cjk = t
            continue
        prev_cjk = None
        out.append(t)
        runs = _HANGUL.findall(t)
        for run in runs:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
        if runs:
            out.extend(p for p in _HANGUL.split(t) if p)
    return out
