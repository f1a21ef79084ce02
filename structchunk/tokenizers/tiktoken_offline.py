"""`tiktoken:<encoding>` from tiktoken's local cache only: its downloads are refused
(unless the user opts in, see downloads.py, and then one that fails is one line).

tiktoken fetches vocabularies on first use. On an air-gapped cluster that is a hang or a
traceback, so structchunk reads only files already on disk and otherwise says, in one
line, how to bring the file over.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import TokenizerUnavailableError, install_hint
from .downloads import HOW_TO_ALLOW, download_failed, downloads_allowed

_TIKTOKEN_GUARD = threading.Lock()


class _DownloadRefused(Exception):
    """Raised inside tiktoken when it would download a vocabulary."""


class _DownloadFailed(Exception):
    """Raised inside tiktoken when an allowed download failed: the URL, and why."""

    def __init__(self, url: str, error: OSError) -> None:
        super().__init__(url)
        self.url = url
        self.error = error


@contextmanager
def _guarded_downloads(load_module: Any, allowed: bool) -> Iterator[None]:
    """Make tiktoken's file reader refuse URLs, so only its local cache is used, or, when
    downloads are allowed, say which URL failed (requests' errors are `OSError`s)."""
    original = load_module.read_file

    def guarded(blobpath: str) -> bytes:
        if "://" not in blobpath:
            local: bytes = original(blobpath)
            return local
        if not allowed:
            raise _DownloadRefused(blobpath)
        try:
            fetched: bytes = original(blobpath)
        except OSError as error:
            raise _DownloadFailed(blobpath, error) from error
        return fetched

    with _TIKTOKEN_GUARD:
        load_module.read_file = guarded
        try:
            yield
        finally:
            load_module.read_file = original


def _tiktoken_cache_dir() -> str:
    import tempfile

    return (
        os.environ.get("TIKTOKEN_CACHE_DIR")
        or os.environ.get("DATA_GYM_CACHE_DIR")
        or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    )


def tiktoken_counter(encoding: str) -> Callable[[str], int]:
    """Counter for `tiktoken:<encoding>`, from tiktoken's local cache only."""
    try:
        import tiktoken
        import tiktoken.load
    except ImportError:
        raise TokenizerUnavailableError(
            f"tokenizer tiktoken:{encoding} needs the tiktoken package: {install_hint('tiktoken')}"
        ) from None
    try:
        with _guarded_downloads(tiktoken.load, downloads_allowed()):
            enc = tiktoken.get_encoding(encoding)
    except _DownloadFailed as failed:
        raise download_failed(
            f"tiktoken:{encoding}",
            failed.url,
            failed.error,
            "without a network, copy a tiktoken cache from a machine with one and set "
            "TIKTOKEN_CACHE_DIR to it",
        ) from None
    except _DownloadRefused:
        raise TokenizerUnavailableError(
            f"tiktoken encoding {encoding!r} is not in the local cache "
            f"({_tiktoken_cache_dir()}) and structchunk does not download: on a machine with "
            f'internet run `TIKTOKEN_CACHE_DIR=DIR python -c "import tiktoken; '
            f"tiktoken.get_encoding('{encoding}')\"`, copy DIR here and set "
            f"TIKTOKEN_CACHE_DIR=DIR {HOW_TO_ALLOW}"
        ) from None
    except ValueError as error:  # unknown encoding name
        raise TokenizerUnavailableError(f"tiktoken: {error}") from None

    def count(text: str) -> int:
        return len(enc.encode_ordinary(text))

    return count
