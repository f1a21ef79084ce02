"""Whether a tokenizer may be downloaded: never, unless the user opts in.

structchunk runs on air-gapped clusters, where a download is a hang or a traceback, so
the default is offline. A user who wants `tiktoken:`/`hf:` vocabularies fetched on first
use sets `STRUCTCHUNK_ALLOW_DOWNLOAD=1` (or runs `structchunk --allow-download …`); the
libraries then download and cache as they normally do.
"""

from __future__ import annotations

import os

ALLOW_DOWNLOAD_VAR = "STRUCTCHUNK_ALLOW_DOWNLOAD"


def downloads_allowed() -> bool:
    return os.environ.get(ALLOW_DOWNLOAD_VAR, "").strip().lower() in ("1", "true", "yes", "on")


HOW_TO_ALLOW = f"(or let it download: {ALLOW_DOWNLOAD_VAR}=1 or structchunk --allow-download)"
