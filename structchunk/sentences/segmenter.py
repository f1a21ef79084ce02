"""Sentence spans: Punkt's boundaries, then the post-pass of `rules` (ellipses, quotations,
initials, list items, blank lines, …).
"""

from __future__ import annotations

from functools import lru_cache

from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

from .models import DEFAULT_MODEL, model_params
from .rules import RULES, apply_rules, spans_from_cuts

Span = tuple[int, int]


@lru_cache(maxsize=8)
def get_segmenter(model: str = DEFAULT_MODEL) -> SentenceSegmenter:
    """The segmenter for a model spec: `bundled` or `nltk:<language>`, with the post-pass."""
    return SentenceSegmenter(model_params(model))


class SentenceSegmenter:
    """Punkt with the given parameters, then the `rules` post-pass.

    Returns character spans so callers keep the exact text. `post_pass=False` gives
    Punkt's own boundaries (for comparison only).
    """

    def __init__(self, params: PunktParameters, post_pass: bool = True) -> None:
        self._punkt = PunktSentenceTokenizer(params)
        self._starters = frozenset(params.sent_starters)
        self._rules = RULES if post_pass else ()

    def spans(self, text: str) -> list[Span]:
        """Sentence spans: in order, non-overlapping, whitespace-trimmed, and together
        covering every non-space character of `text`."""
        if not text or text.isspace():
            return []
        cuts = [start for start, _ in self._punkt.span_tokenize(text)][1:]
        return spans_from_cuts(text, apply_rules(text, cuts, self._starters, self._rules))

    def split(self, text: str) -> list[str]:
        return [text[a:b] for a, b in self.spans(text)]


def split_sentences(text: str, model: str = DEFAULT_MODEL) -> list[str]:
    """Split `text` into sentences with the bundled Punkt model and the post-pass
    (offline: nothing is downloaded)."""
    return get_segmenter(model).split(text)
