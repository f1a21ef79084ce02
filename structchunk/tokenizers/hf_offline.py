"""`hf:<name-or-path>`: a local `tokenizer.json`, or one already in the Hugging Face cache.

The Hugging Face hub is not asked (unless the user opts in, see downloads.py, and then a
download that fails is one line): a tokenizer that is not on disk is one line saying
where to put it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import TokenizerUnavailableError, install_hint
from .downloads import HOW_TO_ALLOW, download_failed, downloads_allowed, quiet


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
            f"tokenizer hf:{name_or_path} needs the tokenizers package: {install_hint('hf')}"
        ) from None
    found = find_hf_tokenizer_file(name_or_path)
    if found is None and downloads_allowed():
        return _counter(_download(name_or_path))
    if found is None:
        raise TokenizerUnavailableError(
            f"no tokenizer.json for hf:{name_or_path}: give a path to a tokenizer.json (or a "
            f"folder holding one), or a model name already in the Hugging Face cache "
            f"({_hf_cache_dir()}); structchunk does not download {HOW_TO_ALLOW}"
        )
    try:
        tokenizer = Tokenizer.from_file(str(found))
    except Exception as error:  # the tokenizers library raises plain Exceptions
        raise TokenizerUnavailableError(f"cannot load {found}: {error}") from None

    return _counter(tokenizer)


def _download(name: str) -> Any:
    """`name`'s tokenizer from the Hugging Face hub, its retries not logged."""
    from tokenizers import Tokenizer

    with contextlib.suppress(ImportError):  # a dependency of tokenizers
        import huggingface_hub.utils.logging  # noqa: F401 - sets its level when imported
    try:
        with quiet("huggingface_hub"):
            return Tokenizer.from_pretrained(name)
    except Exception as error:  # the hub and the tokenizers library raise anything
        raise download_failed(
            f"hf:{name}",
            f"{name} from the Hugging Face hub",
            error,
            "without a network, give hf: the path of the model's tokenizer.json",
        ) from None


def _counter(tokenizer: Any) -> Callable[[str], int]:
    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    return count
