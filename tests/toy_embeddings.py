"""A deterministic stand-in for an embedding model, for the dense `eval` tests: a bag of
hashed words, so texts that share words point the same way (no model, no download)."""

from __future__ import annotations

import zlib

DIMENSIONS = 64


def embed(texts: list[str]) -> list[list[float]]:
    """One vector per text: word counts folded into DIMENSIONS buckets."""
    vectors = []
    for text in texts:
        vector = [0.0] * DIMENSIONS
        for word in text.lower().split():
            word = word.strip(".,?!:;")
            if len(word) > 3:  # short words carry little, as stopwords do for BM25
                vector[zlib.crc32(word.encode()) % DIMENSIONS] += 1.0
        vectors.append(vector)
    return vectors


def wrong_shape(texts: list[str]) -> list[list[float]]:
    return [[1.0, 0.0]] * (len(texts) + 1)


def broken(texts: list[str]) -> list[list[float]]:
    raise RuntimeError("model weights missing")
