"""How well the shipped detector names the language of the multilingual samples.

    python benchmarks/language_detection.py

For each sample of tests/multilingual/udhr/ (the Universal Declaration of Human Rights
in 17 languages), cuts the text into pieces of N non-space characters (N = 50, 100, 300,
1000) and counts the pieces the detector (fastText lid.176) names correctly, and those
it names with the confidence a section needs to be decided on its own
(packing/language.py).
"""

from __future__ import annotations

from pathlib import Path

from structchunk.languages import detect
from structchunk.packing.language import DEFAULT_MIN_CONFIDENCE

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "multilingual" / "udhr"
SIZES = (50, 100, 300, 1000)


def pieces(text: str, size: int) -> list[str]:
    """`text` cut into pieces of `size` non-space characters (the last may be short)."""
    out, current, solid = [], [], 0
    for char in text:
        current.append(char)
        solid += not char.isspace()
        if solid == size:
            out.append("".join(current))
            current, solid = [], 0
    return out


def main() -> None:
    print("| sample | " + " | ".join(f"{n} chars" for n in SIZES) + " |")
    print("|---|" + "---:|" * len(SIZES))
    totals = {n: [0, 0, 0] for n in SIZES}
    for path in sorted(SAMPLES.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        cells = [path.stem]
        for n in SIZES:
            found = [detect(piece) for piece in pieces(text, n)]
            right = sum(d.language == path.stem for d in found)
            sure = sum(d.confidence >= DEFAULT_MIN_CONFIDENCE for d in found)
            sure_wrong = sum(
                d.confidence >= DEFAULT_MIN_CONFIDENCE and d.language != path.stem for d in found
            )
            totals[n][0] += right
            totals[n][1] += len(found)
            totals[n][2] += sure_wrong
            cells.append(f"{right}/{len(found)} (sure {sure}, sure and wrong {sure_wrong})")
        print("| " + " | ".join(cells) + " |")
    print(
        "| all | "
        + " | ".join(
            f"{r}/{t} ({100 * r / t:.1f} %), sure and wrong {w}" for r, t, w in totals.values()
        )
        + " |"
    )


if __name__ == "__main__":
    main()
