"""Sentence boundaries: NLTK Punkt with parameters shipped in the package, then a post-pass
for technical text.

    models.py     the Punkt parameters: `bundled` (data/punkt/english/, NLTK's `punkt_tab`
                  text format, never a pickle) or `nltk:<language>` (an installed model)
    segmenter.py  Punkt's boundaries as character spans, through the post-pass
    rules.py      the post-pass: what Punkt gets wrong in technical text, as ordered rules

Nothing is downloaded: `nltk.download` is never needed.
"""

from __future__ import annotations

from .models import DEFAULT_MODEL, model_params, params_from_tab_files
from .segmenter import SentenceSegmenter, Span, get_segmenter, split_sentences

__all__ = [
    "DEFAULT_MODEL",
    "SentenceSegmenter",
    "Span",
    "get_segmenter",
    "model_params",
    "params_from_tab_files",
    "split_sentences",
]
