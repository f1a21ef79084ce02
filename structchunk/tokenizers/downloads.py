"""Whether a tokenizer may be downloaded: never, unless the user opts in; and a failed
download as one line.

structchunk runs on air-gapped clusters, where a download is a hang or a traceback, so
the default is offline. A user who wants `tiktoken:`/`hf:` vocabularies fetched on first
use sets `STRUCTCHUNK_ALLOW_DOWNLOAD=1` (or runs `structchunk --allow-download …`); the
libraries then download and cache as they normally do, and a download that fails (no
network, a proxy, a name that does not exist) is a `TokenizerUnavailableError` naming
what could not be fetched and the root cause, not the library's traceback.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import TokenizerUnavailableError

ALLOW_DOWNLOAD_VAR = "STRUCTCHUNK_ALLOW_DOWNLOAD"


def downloads_allowed() -> bool:
    return os.environ.get(ALLOW_DOWNLOAD_VAR, "").strip().lower() in ("1", "true", "yes", "on")


HOW_TO_ALLOW = f"(or let it download: {ALLOW_DOWNLOAD_VAR}=1 or structchunk --allow-download)"


def short_reason(error: BaseException) -> str:
    """The root cause of a failed download in a few words: `Name or service not known`,
    not the connection pool's account of its retries around it."""
    root, seen = error, {id(error)}
    while (cause := root.__cause__ or root.__context__) is not None and id(cause) not in seen:
        root = cause
        seen.add(id(cause))
    if isinstance(root, OSError) and root.strerror:
        return root.strerror
    return str(root).strip() or type(root).__name__


def download_failed(
    spec: str, what: str, error: BaseException, offline: str
) -> TokenizerUnavailableError:
    """The one line for a download that was allowed and failed: the tokenizer, what could
    not be fetched, why, and how to do without the network (`offline`)."""
    return TokenizerUnavailableError(
        f"tokenizer {spec}: cannot download {what}: {short_reason(error)}; {offline}"
    )


@contextmanager
def quiet(logger_name: str) -> Iterator[None]:
    """Hold back a library's warnings while it downloads: the Hugging Face hub logs each
    of its retries (twice under the CLI, which also shows library logs); a failure is
    reported once, as one line."""
    logger = logging.getLogger(logger_name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)
