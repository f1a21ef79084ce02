"""What library users write, type-checked by `scripts/check` (mypy --strict, no plugin).

Not a test module: mypy reads it, nothing runs it. A call here that stops type-checking
means users' own type checks break.
"""

from __future__ import annotations

from collections.abc import Iterator

import structchunk
from structchunk import Chunk, ChunkOptions, chunk_file, chunk_text, iter_chunks
from structchunk.batch.parquet import save_parquet


def count_tokens(text: str) -> int:
    return len(text) // 4


def typical_calls() -> Iterator[Chunk]:
    options = ChunkOptions(max_tokens=512)
    small = ChunkOptions(max_tokens=128, min_tokens=16, overlap_tokens=16, tokenizer="chars")
    strict = ChunkOptions(strict=True, heading_prefix=False, format="markdown")
    pdf = ChunkOptions(pdf_password="secret", page_workers=2, sentence_model="bundled")
    custom = ChunkOptions(tokenizer=count_tokens)
    chunks: list[Chunk] = chunk_file("guide.md", options)
    chunks += chunk_file("guide.md", small)
    chunks += chunk_text("# Title\n\nText.", format="markdown", options=strict)
    chunks += chunk_file("manual.pdf", pdf)
    chunks += chunk_file("guide.md", custom)
    first: str = chunks[0].text
    assert first
    sentences: list[str] = structchunk.split_sentences("One. Two.")
    assert sentences
    flat: dict[str, str | int | float | bool] = chunks[0].metadata()
    rich = chunks[0].metadata(lists=True)
    payload: dict[str, str | int | float | bool | list[str] | list[int]] = chunks[0].payload()
    assert flat and rich and payload["text"]
    page_titles = ["cover", "contents"]  # a PDF library's pages, indexed from 0
    for page, x0, top, x1, bottom in chunks[0].boxes or []:
        assert page_titles[page - 1] and x0 <= x1 and top <= bottom
    save_parquet(chunks, "chunks.parquet")
    with structchunk.progress.listening(lambda done, total: None):
        yield from iter_chunks("guide.md", max_tokens=256)
