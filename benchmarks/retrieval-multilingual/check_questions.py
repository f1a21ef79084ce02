#!/usr/bin/env python3
"""Check the multilingual retrieval set's question files against their documents.

    python benchmarks/retrieval-multilingual/check_questions.py [DEV_DIR] [-v] [--bench DIR]

The development set's checker (``../retrieval-dev/check_questions.py``: its docstring
lists every check) with the tokens of ``script_tokens.py`` in place of the bench's
``norm_tokens(visible_text(...))``: the bench's normal form, and every Han/kana
character its own token, so that an excerpt of Chinese or Japanese may start and end
inside an unspaced clause. The set holds Markdown pages only.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from script_tokens import match_tokens  # noqa: E402


def _development_checker():  # type: ignore[no-untyped-def]
    """The development set's checker, loaded under its own name (this file has the same)."""
    path = HERE.parent / "retrieval-dev" / "check_questions.py"
    spec = importlib.util.spec_from_file_location("retrieval_dev_check_questions", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checker = _development_checker()
checker.norm_tokens = match_tokens  # every comparison: excerpts, headings, table cells
checker.toks = match_tokens  # a page's reference text and its blocks
checker.HERE = HERE  # DEV_DIR defaults to this set's folder

if __name__ == "__main__":
    sys.exit(checker.main(sys.argv[1:]))
