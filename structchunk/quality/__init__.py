"""Chunk quality: per-chunk flags, summaries, the HTML report and the retrieval eval."""
