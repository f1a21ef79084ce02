"""What every packing step counts and cuts with: the tokenizer and the sentence segmenter.

`SplitContext` is made once per `Packer` and handed to the steps that count text (units,
fit, overlap); `Segment` is the shape every text split returns.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..sentences import SentenceSegmenter
from ..sentences.full_width import ends_sentence
from ..tokenizers import Tokenizer

Segment = tuple[str, str]
"""(text, separator before it): joined back in order they give the original text."""


def by_pattern_gaps(text: str, spans: list[tuple[int, int]]) -> list[Segment]:
    """Segments at the given spans, each with the original text between it and the last."""
    out: list[Segment] = []
    last = 0
    for start, end in spans:
        out.append((text[start:end], text[last:start] if out else ""))
        last = end
    return out


@dataclass(frozen=True, slots=True)
class SplitContext:
    """Everything a split needs: the tokenizer and the sentence segmenter."""

    tokenizer: Tokenizer
    segmenter: SentenceSegmenter

    def sep_tokens(self, sep: str) -> int:
        """Tokens a joiner adds (memoised by the tokenizer where counting costs)."""
        return self.tokenizer.count(sep)

    def sentences(self, text: str) -> list[Segment]:
        """Sentence segments; a boundary with no whitespace (`outage.*Thus`) is not a cut,
        because cutting there would split a word, unless it follows a full-width stop
        (`。`), after which Chinese and Japanese need no space."""
        segments: list[Segment] = []
        for segment, gap in by_pattern_gaps(text, self.segmenter.spans(text)):
            if segments and not gap and not ends_sentence(segments[-1][0]):
                previous, previous_gap = segments[-1]
                segments[-1] = (previous + segment, previous_gap)
            else:
                segments.append((segment, gap))
        return segments
