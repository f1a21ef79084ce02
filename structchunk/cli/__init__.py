"""The command line: `structchunk convert`, `inspect`, `eval`, `schema`.

Only this package writes to the terminal. stdout carries data (JSONL, the schema,
tables); progress, summaries and one-line errors go to stderr.

    app.py             the command group, its commands and `main` (the console script)
    convert.py         convert: inputs to JSONL, locally or on Ray
    inspect.py         inspect: flags and summaries of chunks, the HTML report
    evaluate.py        eval: retrieval on the user's own questions
    chunking_flags.py  the chunking flags, generated from `ChunkOptions`
    progress_bar.py    what convert shows while it works
    terminal.py        one-line errors and exit codes
"""

from __future__ import annotations

from .app import cli, main

__all__ = ["cli", "main"]
