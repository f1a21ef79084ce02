"""One inspection: every document's chunks with their flags and summaries, and the total."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .flags import FLAG_MEANINGS, FLAGS, Flag, FlagRules, flag_chunks
from .summary import Summary, summarize, summarize_total
from .views import ChunkView, DocumentChunks

DEFAULT_EXCERPT_CHARS = 160
"""How much of a flagged chunk's start and end `--show` prints: about two lines of a
terminal each, enough to see where the cut fell."""


@dataclass(slots=True)
class InspectedDocument:
    """One document: its chunks, each chunk's flags, and its summary."""

    source: str
    chunks: list[ChunkView]
    flags: list[tuple[Flag, ...]]
    summary: Summary
    source_text: str | None = None
    """The decoded source, for the report's view of where the chunks lie."""
    dropped_boxes: tuple[tuple[float, float, float, float, float], ...] = ()
    """PDF: boxes of the text the parser left out as furniture."""


@dataclass(frozen=True, slots=True)
class FlaggedChunk:
    chunk: ChunkView
    flags: tuple[Flag, ...]

    def start(self, chars: int = DEFAULT_EXCERPT_CHARS) -> str:
        text = self.chunk.content.strip()
        return text if len(text) <= chars else text[:chars] + "…"

    def end(self, chars: int = DEFAULT_EXCERPT_CHARS) -> str:
        """The last `chars` characters, never repeating what `start` showed ('' when it
        showed everything)."""
        text = self.chunk.content.strip()
        if len(text) <= chars:
            return ""
        return "…" + text[-chars:] if len(text) > 2 * chars else text[chars:]

    def to_json(self) -> dict[str, Any]:
        chunk = self.chunk
        return {
            "source": chunk.source,
            "index": chunk.index,
            "flags": list(self.flags),
            "heading_path": list(chunk.heading_path),
            "n_tokens": chunk.n_tokens,
            "lines": list(chunk.lines) if chunk.lines else None,
            "pages": list(chunk.pages) if chunk.pages else None,
            "start": self.start(),
            "end": self.end(),
        }


@dataclass(slots=True)
class Inspection:
    """Flags and summaries for a set of documents under one set of rules."""

    label: str
    """What was inspected: `structchunk`, or the file name of compared chunks."""
    rules: FlagRules
    tokenizer: str
    documents: list[InspectedDocument]
    total: Summary

    def flagged(self, limit: int | None = None) -> list[FlaggedChunk]:
        """The first `limit` flagged chunks in document order (all when None)."""
        found: list[FlaggedChunk] = []
        for item in self._all_flagged():
            if limit is not None and len(found) >= limit:
                break
            found.append(item)
        return found

    def _all_flagged(self) -> Iterator[FlaggedChunk]:
        for document in self.documents:
            for chunk, flags in zip(document.chunks, document.flags):
                if flags:
                    yield FlaggedChunk(chunk, flags)

    def occurring(self, flags: Sequence[Flag]) -> list[Flag]:
        """Which of `flags` fire on at least one chunk."""
        return [flag for flag in flags if self.total.flags[flag]]

    def to_json(self, show: int = 0) -> dict[str, Any]:
        return {
            "label": self.label,
            "budget": self.rules.budget,
            "min_tokens": self.rules.min_tokens,
            "min_words": self.rules.min_words,
            "tokenizer": self.tokenizer,
            "documents": [d.summary.to_json() for d in self.documents],
            "total": self.total.to_json(),
            "flagged": [item.to_json() for item in self.flagged(show)] if show else [],
        }


def inspect_documents(
    documents: Sequence[DocumentChunks],
    rules: FlagRules,
    tokenizer: str,
    label: str = "structchunk",
) -> Inspection:
    """Flag and summarise every document."""
    inspected = []
    for document in documents:
        flags = flag_chunks(document.chunks, rules)
        counts = [chunk.n_tokens for chunk in document.chunks]
        inspected.append(
            InspectedDocument(
                document.source,
                document.chunks,
                flags,
                summarize(document.source, counts, flags),
                document.source_text,
                document.dropped_boxes,
            )
        )
    total = summarize_total(
        [[c.n_tokens for c in d.chunks] for d in inspected], [d.flags for d in inspected]
    )
    return Inspection(label, rules, tokenizer, inspected, total)


def flag_legend() -> list[tuple[Flag, str]]:
    """Each flag with its one-line meaning, in table order."""
    return [(flag, FLAG_MEANINGS[flag]) for flag in FLAGS]
