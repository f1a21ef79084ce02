"""StructChunkError and its subclasses: what went wrong, where, and how to fix it."""

from __future__ import annotations

DISTRIBUTION = "structchunk-rag"
"""The name structchunk is installed by: `structchunk` on the package index is another
project. The import package and the command are `structchunk` (as `beautifulsoup4`
installs `bs4`)."""


def install_hint(extra: str) -> str:
    """The command that installs an optional extra, from the index and from a clone."""
    return f"pip install '{DISTRIBUTION}[{extra}]' (in a clone: pip install '.[{extra}]')"


class StructChunkError(Exception):
    """Base class for every error structchunk raises on purpose.

    `str(error)` is one line meant for a user: it names the file (when known) and
    says what to do.
    """

    def __init__(self, message: str, source: str | None = None) -> None:
        self.message = message
        self.source = source
        super().__init__(f"{source}: {message}" if source else message)

    def with_source(self, source: str) -> StructChunkError:
        """The same error, attributed to `source` (used at the file boundary)."""
        if self.source:
            return self
        clone = type(self).__new__(type(self))
        StructChunkError.__init__(clone, self.message, source)
        return clone


class OptionsError(StructChunkError):
    """An option value is invalid (bad budget, unknown tokenizer name, …)."""


class UnsupportedFormatError(StructChunkError):
    """The input's format cannot be detected or is not supported."""


class InputError(StructChunkError):
    """The input cannot be read (missing file, directory, permission)."""


class ParseError(StructChunkError):
    """The file is corrupt or malformed beyond what the parser can recover."""


class EncryptedDocumentError(ParseError):
    """The document is encrypted and no (correct) password was given."""


class NoTextError(ParseError):
    """The document has no extractable text (e.g. a scanned PDF without a text layer)."""


class TokenizerUnavailableError(OptionsError):
    """The requested tokenizer needs a package or a file that is not available offline."""


class SentenceModelError(OptionsError):
    """The requested sentence model is not installed."""


class OutputError(StructChunkError):
    """An output cannot be written: no space left, no permission, a directory in the way."""


class DestinationError(OutputError):
    """The output location as a whole takes nothing more (disk full, quota reached,
    read-only file system): every further file would fail the same way, so a batch run
    ends at the first one."""


class OutputLockedError(OutputError):
    """Another run is writing into the same output folder; two at once would remove each
    other's temporary files and race on the manifest."""


class WorkerStartError(StructChunkError):
    """Worker processes could not start (a script that spawns them lacks its main guard)."""


class BudgetError(StructChunkError):
    """A chunk would exceed the token budget or text would be lost (`--strict`)."""
