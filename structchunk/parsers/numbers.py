"""Numbers as a spreadsheet shows them: no binary float noise, no `.0` on whole numbers.

Spreadsheets and the charts in slide decks store every number as a binary double, so a
cell showing `0.3` may hold `0.30000000000000004`; Excel displays at most 15 significant
digits, and so do we.
"""

from __future__ import annotations

import math

DEFAULT_SIGNIFICANT_DIGITS = 15
"""Excel's own display precision (its "15 digits" limit): the 16th and 17th digits of a
double are binary noise, never what the author typed."""

_WHOLE_LIMIT = 10.0**DEFAULT_SIGNIFICANT_DIGITS


def format_number(value: float | int) -> str:
    """`3.0` → `3`, `0.1 + 0.2` → `0.3`, `1234567.5` → `1234567.5`, `1e20` → `1e+20`."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if value.is_integer() and abs(value) < _WHOLE_LIMIT:
        return str(int(value))
    return format(value, f".{DEFAULT_SIGNIFICANT_DIGITS}g")


def parse_number(text: str) -> float | None:
    """A number written in XML (`1.5`, `2E-3`), or None when it is not one."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
