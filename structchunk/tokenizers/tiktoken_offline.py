"""`tiktoken:<encoding>` from tiktoken's local cache only: its downloads are refused
(unless the user opts in, see downloads.py).

tiktoken fetches vocabularies on first use. On an air-gapped cluster that is a hang or a
traceback, so structchunk reads only files already on disk and otherwise says, in one
line, how to bring the file over.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import TokenizerUnavailableError, install_hint
from .downloads import HOW_TO_ALLOW, downloads_allowed

_TIKTOKEN_GUARD = threading.Lock()


class _DownloadRefused(Exception):
    """Raised inside tiktoken when it would download a vocabulary."""


@contextmanager
def _no_downloads(load_module: Any) -> Iterator[None]:
    """Make tiktoken's file reader refuse URLs, so only its local cache is used."""
    original = load_module.read_file

    def local_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise _DownloadRefused(blobpath)
        data: bytes = original(blobpath)
        return data

    with _TIKTOKEN_GUARD:
        load_module.read_file = local_only
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
        with contextlib.nullcontext() if downloads_allowed() else _no_downloads(tiktoken.load):
            enc = tiktoken.get_encoding(encoding)
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
