"""Inputs named by URL (`https://…`, `s3://…`, `gs://…`, any `proto://`), read through
fsspec, the optional `remote` extra; a protocol's own package (s3fs, gcsfs) comes from
fsspec's extras."""

from __future__ import annotations

import posixpath
import re
from typing import Any
from urllib.parse import urlsplit

from .errors import InputError, UnsupportedFormatError, install_hint
from .parsers import detect_format

REMOTE_EXTRA = "remote"
"""The extra that installs fsspec (pyproject.toml)."""

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(path: str) -> bool:
    """Whether `path` names its input by URL rather than as a local file."""
    return _URL.match(path) is not None


def url_place(url: str) -> str:
    """Where a URL points, as an absolute POSIX path without query or fragment:
    `s3://bucket/a/b.pdf?v=2` → `/bucket/a/b.pdf` (host or bucket first), for naming
    its output and detecting its format."""
    parts = urlsplit(url)
    return posixpath.normpath("/" + parts.netloc + "/" + parts.path.lstrip("/"))


def url_format(url: str) -> str:
    """The format a URL's extension names (`https://host/r.pdf?dl=1` → `pdf`)."""
    try:
        return detect_format(url_place(url))
    except UnsupportedFormatError as error:
        raise UnsupportedFormatError(error.message, source=url) from None


def require_fsspec() -> Any:
    """The fsspec module, or a one-line error naming the extra that installs it."""
    try:
        import fsspec
    except ImportError:
        raise InputError(
            f"reading inputs by URL needs fsspec: {install_hint(REMOTE_EXTRA)}"
        ) from None
    return fsspec


def read_url(url: str) -> bytes:
    """The bytes at `url`, with a one-line error naming it when they cannot be read."""
    fsspec = require_fsspec()
    try:
        with fsspec.open(url, "rb") as handle:
            data: bytes = handle.read()
    except FileNotFoundError:
        raise InputError("no such file", source=url) from None
    except IsADirectoryError:
        raise InputError("is a directory", source=url) from None
    except PermissionError:
        raise InputError("permission denied", source=url) from None
    except ImportError as error:  # the protocol's package: "Install s3fs to access S3"
        raise InputError(f"cannot read: {error}", source=url) from None
    except Exception as error:  # fsspec's backends raise anything (network, auth, protocol)
        raise InputError(f"cannot read: {type(error).__name__}: {error}", source=url) from None
    return data
