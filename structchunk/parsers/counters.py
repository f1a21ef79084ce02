"""List counters as Word and PowerPoint draw them: letters (a … z, aa …) and Roman
numerals, shared by the DOCX numbering and the PPTX auto-numbered bullets."""

from __future__ import annotations

_ROMAN = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)


def roman(number: int) -> str:
    """Lower-case Roman numerals (`4` → `iv`); 0, negatives and 4000 up as digits."""
    if number <= 0 or number >= 4000:
        return str(number)
    out = []
    for value, numeral in _ROMAN:
        count, number = divmod(number, value)
        out.append(numeral * count)
    return "".join(out)


def letters(number: int) -> str:
    """1 → a, 26 → z, 27 → aa, 53 → aaa: both programs repeat the letter after z."""
    if number <= 0:
        return str(number)
    return chr(ord("a") + (number - 1) % 26) * ((number - 1) // 26 + 1)
