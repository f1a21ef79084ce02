"""Sentence spans: Punkt's boundaries, then the post-pass of `rules` (ellipses, quotations,
initials, list items, blank lines, …).
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from .languages import ENGLISH, SENTENCEX_MODEL, european_abbreviations, sentencex_cuts
from .models import DEFAULT_MODEL, model_params
from .rules import RULES, apply_rules, spans_from_cuts

if TYPE_CHECKING:  # NLTK takes most of a second to import: only when sentences are split
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

Span = tuple[int, int]

WINDOW = 20_000
"""Characters of text Punkt reads in one pass: a few milliseconds' work."""

MARGIN = 200
"""Text a kept cut must have after it within its window: far more than the words Punkt
looks at beside a boundary."""


def get_segmenter(model: str = DEFAULT_MODEL, language: str | None = None) -> SentenceSegmenter:
    """The segmenter for a model spec: `bundled`, `nltk:<language>` or
    `sentencex:<code>`, with the post-pass. With `bundled`, text in a `language` (ISO
    639-1) other than English is split by sentencex's rules for it.

    An installed NLTK model is looked up at once (a missing one is an error before any
    work); the bundled one is read, and NLTK imported, when a first text is split, so a
    run whose blocks all fit the budget never pays for either."""
    if model == DEFAULT_MODEL and language and language != ENGLISH:
        return _segmenter(f"{SENTENCEX_MODEL}:{language}")
    return _segmenter(model)


@lru_cache(maxsize=32)
def _segmenter(model: str) -> SentenceSegmenter:
    kind, _, code = model.partition(":")
    if kind == SENTENCEX_MODEL and code:
        return SentenceSegmenter(language=code)
    if model == DEFAULT_MODEL:
        return SentenceSegmenter()
    return SentenceSegmenter(model_params(model))


class SentenceSegmenter:
    """Punkt with the given parameters (None: the bundled model, read on first use), then
    the `rules` post-pass.

    Returns character spans so callers keep the exact text. `post_pass=False` gives
    Punkt's own boundaries (for comparison only).
    """

    def __init__(
        self,
        params: PunktParameters | None = None,
        post_pass: bool = True,
        language: str | None = None,
    ) -> None:
        self._params = params
        self._rules = RULES if post_pass else ()
        self.language = language
        """Split by sentencex's rules for this language instead of Punkt."""

    @cached_property
    def _loaded(self) -> tuple[PunktSentenceTokenizer, frozenset[str]]:
        from nltk.tokenize.punkt import PunktSentenceTokenizer

        params = self._params or model_params(DEFAULT_MODEL)
        return PunktSentenceTokenizer(params), frozenset(params.sent_starters)

    @property
    def _punkt(self) -> PunktSentenceTokenizer:
        return self._loaded[0]

    @property
    def _starters(self) -> frozenset[str]:
        return self._loaded[1]

    def spans(self, text: str) -> list[Span]:
        """Sentence spans: in order, non-overlapping, whitespace-trimmed, and together
        covering every non-space character of `text`."""
        if not text or text.isspace():
            return []
        if self.language is not None:
            cuts = sentencex_cuts(self.language, text)
            rules = (*self._rules, european_abbreviations) if self._rules else ()
            return spans_from_cuts(text, apply_rules(text, cuts, (), rules))
        cuts = self._punkt_cuts(text)
        return spans_from_cuts(text, apply_rules(text, cuts, self._starters, self._rules))

    def _punkt_cuts(self, text: str) -> list[int]:
        """Where Punkt starts each sentence after the first, read a window at a time.

        NLTK runs every regular expression under a wall-clock limit (5 s), which one pass
        over a long paragraph (100 000 short sentences, 600 KB) exceeds — and whether it
        does depends on how busy the machine is. Windows of `WINDOW` characters keep each
        pass short and the whole linear. A window's cuts are kept up to the last one with
        `MARGIN` characters of text after it (Punkt decides a boundary from the words
        beside it), and the next window starts there, so the cuts are the ones one pass
        over the whole text would make.
        """
        cuts: list[int] = []
        start, size = 0, WINDOW
        while True:
            end = min(len(text), start + size)
            found = [start + s for s, _ in self._punkt.span_tokenize(text[start:end])][1:]
            if end == len(text):
                return cuts + found
            safe = [cut for cut in found if cut <= end - MARGIN]
            if not safe:  # one sentence longer than the window: look further
                size *= 2
                continue
            cuts += safe
            start, size = safe[-1], WINDOW

    def split(self, text: str) -> list[str]:
        return [text[a:b] for a, b in self.spans(text)]


def split_sentences(text: str, model: str = DEFAULT_MODEL) -> list[str]:
    """Split `text` into sentences with the bundled Punkt model and the post-pass
    (offline: nothing is downloaded)."""
    return get_segmenter(model).split(text)
