"""Sub-word token counters (tiktoken, Hugging Face tokenizers) that never touch the network.

Both libraries download vocabularies on first use. On an air-gapped cluster that is a
hang or a traceback, so structchunk only uses files already on disk and otherwise says,
in one line, what to install or where to put the file.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import TokenizerUnavailableError

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
            f"tokenizer tiktoken:{encoding} needs the tiktoken package: "
            "pip install 'structchunk[tiktoken]'"
        ) from None
    try:
        with _no_downloads(tiktoken.load):
            enc = tiktoken.get_encoding(encoding)
    except _DownloadRefused:
        raise TokenizerUnavailableError(
            f"tiktoken encoding {encoding!r} is not in the local cache "
            f"({_tiktoken_cache_dir()}) and structchunk never downloads: on a machine with "
            f'internet run `TIKTOKEN_CACHE_DIR=DIR python -c "import tiktoken; '
            f"tiktoken.get_encoding('{encoding}')\"`, copy DIR here and set "
            "TIKTOKEN_CACHE_DIR=DIR"
        ) from None
    except ValueError as error:  # unknown encoding name
        raise TokenizerUnavailableError(f"tiktoken: {error}") from None

    def count(text: str) -> int:
        return len(enc.encode_ordinary(text))

    return count


def _hf_cache_dir() -> Path:
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    home = os.environ.get("HF_HOME") or os.path.join(Path.home(), ".cache", "huggingface")
    return Path(home) / "hub"


def find_hf_tokenizer_file(name_or_path: str) -> Path | None:
    """`tokenizer.json` for a local path (file or folder) or a model already in the HF cache."""
    path = Path(name_or_path).expanduser()
    if path.is_file():
        return path
    if (path / "tokenizer.json").is_file():
        return path / "tokenizer.json"
    repo = _hf_cache_dir() / ("models--" + name_or_path.replace("/", "--"))
    ref = repo / "refs" / "main"
    snapshots = [repo / "snapshots" / ref.read_text().strip()] if ref.is_file() else []
    snapshots += sorted((repo / "snapshots").glob("*")) if (repo / "snapshots").is_dir() else []
    for snapshot in snapshots:
        if (snapshot / "tokenizer.json").is_file():
            return snapshot / "tokenizer.json"
    return None


def hf_counter(name_or_path: str) -> Callable[[str], int]:
    """Counter for `hf:<name-or-path>`: a local tokenizer.json, or a cached model's."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise TokenizerUnavailableError(
            f"tokenizer hf:{name_or_path} needs the tokenizers package: "
            "pip install 'structchunk[hf]'"
        ) from None
    found = find_hf_tokenizer_file(name_or_path)
    if found is None:
        raise TokenizerUnavailableError(
            f"no tokenizer.json for hf:{name_or_path}: give a path to a tokenizer.json (or a "
            f"folder holding one), or a model name already in the Hugging Face cache "
            f"({_hf_cache_dir()}); structchunk never downloads"
        )
    try:
        tokenizer = Tokenizer.from_file(str(found))
    except Exception as error:  # the tokenizers library raises plain Exceptions
        raise TokenizerUnavailableError(f"cannot load {found}: {error}") from None

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    return count
