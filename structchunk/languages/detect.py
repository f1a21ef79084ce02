"""A text to its language: py3langid (langid.py's model, 97 languages, naive Bayes over
byte n-grams, BSD-3-Clause), loaded from its package on first use, never downloaded.

Why py3langid: its model ships inside the wheel (no download at run time, unlike
fastText-based detectors), it is deterministic (langdetect is random unless seeded), and
it decides a 2 KB sample in under 2 ms. Loading the model takes about a second, once
per process, and only when a document is chunked with `language="auto"`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

AUTO = "auto"

DEFAULT_SAMPLE_CHARS = 2000
"""Characters of a text the detector reads: more does not change its answer on prose."""


@dataclass(frozen=True, slots=True)
class Detection:
    language: str
    """ISO 639-1 code (`en`, `de`, `zh`, …), as py3langid names it."""
    confidence: float
    """Normalised probability, 0 to 1."""


def load_detector() -> None:
    """Load the model now (a batch run does, before it forks its workers)."""
    _identifier()


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def detect(text: str) -> Detection:
    """The language of `text` (its first `DEFAULT_SAMPLE_CHARS` characters)."""
    language, confidence = _identifier().classify(text[:DEFAULT_SAMPLE_CHARS])
    return Detection(str(language), float(confidence))
