"""Whether a table's first row is its column titles, for formats that do not say.

A PDF's ruled grid and a plain-text table mark no header: a first row of words or years
(`2008 | High | Low`, `- | 2017 | 2016`) titles the columns under it; a row with a figure
after its label (`Total | 1,279 | 1,278`) or a form's `Label: | value` pairs is data.
"""

from __future__ import annotations

import re

_FIGURE = re.compile(r"^[$€£¥]?\s*\(?[-–—+]?\d[\d,]*(?:\.\d+)?\)?\s*%?\)?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def is_figure(text: str) -> bool:
    """An amount, a count or a share (`$1,279`, `(26)`, `9.9%`); a year is a title."""
    return bool(_FIGURE.match(text)) and not _YEAR.match(text)


def reads_as_titles(row: list[str]) -> bool:
    """No figure after the row's first cell, and not a row of form fields."""
    return not any(is_figure(cell) for cell in row[1:]) and not is_form_row(row)


def is_form_row(row: list[str]) -> bool:
    """Two or more fields, each a label ending in a colon with its value in the next
    cell (`Aircraft Make: | Cessna | Registration: | N2151J`): a record, not titles."""
    fields = sum(
        1
        for label, value in zip(row, row[1:])
        if label.endswith(":") and value and not value.endswith(":")
    )
    return fields >= 2
