"""Cell values as text: what a reader of the sheet would see, in a form that embeds well.

Numbers keep at most Excel's 15 significant digits (`0.1 + 0.2` is `0.3`, `3.0` is `3`);
percent formats show as percents (`0.25` with `0%` is `25%`); dates are ISO 8601
(`2024-03-01`, with ` 14:30` when there is a time of day); durations (`[h]:mm`) are
hours, minutes and seconds; booleans are `TRUE`/`FALSE` as Excel shows them; error values
(`#N/A`) are kept as written; text's `_xHHHH_` escapes are decoded. Other number formats
(currency, thousands separators) are not applied: the value itself is what a question
would quote.
"""

from __future__ import annotations

import datetime as dt
import re

from openpyxl.utils.datetime import from_excel, from_ISO8601

from ..numbers import format_number
from .workbook import Workbook

_QUOTED = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]')
"""Literal text, escaped characters and `[colour]`/`[condition]` parts of a format code."""
_PERCENT = re.compile(r"0(?:\.(0+))?\s*%")
_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")
"""OOXML's escape for a character XML cannot hold (ECMA-376 Part 1, 22.9.2.19
ST_Xstring): Excel writes a carriage return as `_x000D_`, a tab as `_x0009_`, and an
underscore that starts such a run as `_x005F_` (so `_x005F_x000D_` is the text
`_x000D_`)."""


def _collapse(text: str) -> str:
    """Escapes decoded (`_ESCAPE`), then whitespace runs to one space (as
    `builder.collapse_whitespace`, at C speed: this runs once per text cell)."""
    if "_x" in text:
        text = unescape(text)
    return " ".join(text.split())


def unescape(text: str) -> str:
    """`text` with its `_xHHHH_` escapes decoded, left to right (see `_ESCAPE`): control
    characters other than whitespace are dropped, a pair of surrogate escapes is the one
    character it encodes, and a lone surrogate is U+FFFD."""
    decoded = _ESCAPE.sub(_character, text)
    if not any("\ud800" <= char <= "\udfff" for char in decoded):
        return decoded
    return decoded.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _character(match: re.Match[str]) -> str:
    code = int(match.group(1), 16)
    return "" if code < 0x20 and not chr(code).isspace() else chr(code)


def percent_decimals(code: str) -> int | None:
    """Decimals shown by a percent format code (`0%` → 0, `0.00%` → 2), None if the code
    is not a percent format."""
    bare = _QUOTED.sub("", code.split(";", 1)[0])
    if "%" not in bare:
        return None
    match = _PERCENT.search(bare)
    return len(match.group(1) or "") if match else 0


class CellText:
    """Turns a cell's XML (type, value text, style) into its text, for one workbook."""

    def __init__(self, book: Workbook) -> None:
        self.strings = book.strings
        self.epoch = book.epoch
        self.dates, self.durations = book.date_styles()
        self.percent: dict[int, int] = {}
        """Style index → decimals, for the styles whose number format is a percent."""
        for index, code in enumerate(book.formats):
            decimals = percent_decimals(code)
            if decimals is not None:
                self.percent[index] = decimals

    def text(self, kind: str | None, raw: str, style: int) -> tuple[str, bool]:
        """The cell's text ("" when empty) and whether it is a number, date or boolean.

        `kind` is the cell's `t` attribute: `s` (a shared string's index), `str` (a
        formula's text result), `inlineStr`, `b`, `e`, `d` (ISO date) or None/`n`."""
        if kind is None or kind == "n":
            return self.number(raw, style), True
        if kind == "s":
            index = int(raw)  # ValueError for a damaged index: the caller keeps it as text
            text = self.strings[index] if 0 <= index < len(self.strings) else ""
            return _collapse(text), False
        if kind == "b":
            return ("TRUE" if raw.strip() in ("1", "true") else "FALSE"), True
        if kind == "d":
            return self.iso_date(raw), True
        return _collapse(raw), False  # str, inlineStr, e

    def number(self, raw: str, style: int) -> str:
        text = raw.strip()
        try:
            value: float | int = (
                float(text) if "." in text or "e" in text or "E" in text else int(text)
            )
        except ValueError:
            return _collapse(raw)
        if style in self.dates:
            try:
                moment = from_excel(value, self.epoch, timedelta=style in self.durations)
            except (OverflowError, ValueError, TypeError):
                return format_number(value)
            return format_temporal(moment)
        decimals = self.percent.get(style)
        if decimals is not None:
            return f"{value * 100:.{decimals}f}%"
        return format_number(value)

    @staticmethod
    def iso_date(raw: str) -> str:
        try:
            return format_temporal(from_ISO8601(raw.strip()))
        except (ValueError, TypeError, AttributeError):
            return _collapse(raw)


def format_temporal(value: dt.datetime | dt.date | dt.time | dt.timedelta) -> str:
    """ISO 8601 without the parts that are zero: `2024-03-01`, `2024-03-01 14:30`,
    `14:30:05`; a duration as `h:mm:ss` (hours may exceed 24)."""
    if isinstance(value, dt.timedelta):
        seconds = round(value.total_seconds())
        sign = "-" if seconds < 0 else ""
        hours, rest = divmod(abs(seconds), 3600)
        return f"{sign}{hours}:{rest // 60:02d}:{rest % 60:02d}"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return f"{value.date().isoformat()} {_clock(value.time())}"
    if isinstance(value, dt.time):
        return _clock(value)
    return value.isoformat()


def _clock(value: dt.time) -> str:
    return value.strftime("%H:%M:%S" if value.second or value.microsecond else "%H:%M")
