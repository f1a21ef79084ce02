"""Checks of the packer's invariants, used by `--strict` and by the tests."""

from __future__ import annotations

from collections.abc import Iterable


def first_missing_word(expected: Iterable[str], produced: Iterable[str]) -> str | None:
    """The first word of `expected` that does not appear, in order, in `produced`.

    `produced` may hold extra words (repeated table headers, code fences, overlap), so
    this is a subsequence check. None when nothing is missing.
    """
    stream = iter(produced)
    for word in expected:
        for candidate in stream:
            if candidate == word:
                break
        else:
            return word
    return None
