"""StructChunkError and its subclasses: what went wrong, where, and how to fix it.

The exception tree (four classes live beside the code that raises them, named here):

- StructChunkError: every error structchunk raises on purpose
  - OptionsError: an option value is invalid
    - TokenizerUnavailableError: the tokenizer needs a package or file not here offline
    - SentenceModelError: the sentence model is not installed
  - UnsupportedFormatError: the format cannot be detected or is not supported
  - InputError: the input cannot be read
  - ParseError: the file is corrupt beyond what its parser recovers
    - EncryptedDocumentError: encrypted, and no (correct) password given
    - NoTextError: no extractable text (a scanned PDF without a text layer)
    - StreamTooLarge: a PDF's compressed stream inflates past the limit (parsers/pdf)
    - OcrUnavailableError: OCR asked for, but the extra, Tesseract or a language's data
      is missing (parsers/pdf/engines/ocr.py)
  - OutputError: an output cannot be written
    - DestinationError: the output location takes nothing more; a batch run ends
    - OutputLockedError: another run is writing into the same output folder
  - WorkerStartError: worker processes could not start
  - BudgetError: a chunk would exceed the budget or lose text (`--strict`)
  - EmbedError: the embedding function cannot be loaded or misbehaves (quality)
  - MissingExtraError: an optional dependency is not installed (quality)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

OPTION_SLOT = "{option}"
"""Where a message names the option that fixes it (`OptionHint`)."""


@dataclass(frozen=True, slots=True)
class OptionHint:
    """The option a message tells the user to set: a `ChunkOptions` field and, if the
    message suggests one, its value. The library names it as a keyword
    (`pdf_password=`), the command line as its flag (`--password`)."""

    field: str
    value: str | None = None


OptionTerms = Callable[[str, "str | None"], str]
"""How one caller names an option (field, suggested value): `as_keyword` for the library,
`options.as_flag` for the command line."""


def as_keyword(field: str, value: str | None = None) -> str:
    """How a library caller sets an option: `pdf_engine='pdfplumber'`, `pdf_password=`."""
    return f"{field}={value!r}" if value is not None else f"{field}="


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
    says what to do, naming an option as a library keyword; `in_terms` says it as the
    command line does.
    """

    def __init__(
        self, message: str, source: str | None = None, *, hint: OptionHint | None = None
    ) -> None:
        self.message = message
        """The message; with a `hint`, `{option}` marks where the option is named."""
        self.source = source
        self.hint = hint
        super().__init__(self.in_terms(as_keyword))

    def in_terms(self, terms: OptionTerms) -> str:
        """The one line, with the hinted option named by `terms`."""
        text = self.message
        if self.hint is not None:
            text = text.replace(OPTION_SLOT, terms(self.hint.field, self.hint.value))
        return f"{self.source}: {text}" if self.source else text

    def with_source(self, source: str) -> StructChunkError:
        """The same error, attributed to `source` (used at the file boundary)."""
        if self.source:
            return self
        return _rebuilt(type(self), self.message, source, self.hint)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (from a worker process), so its hint can still be said as a flag."""
        return (_rebuilt, (type(self), self.message, self.source, self.hint))


def _rebuilt(
    cls: type[StructChunkError], message: str, source: str | None, hint: OptionHint | None
) -> StructChunkError:
    """An error of class `cls` from its parts, whatever arguments its `__init__` takes."""
    error = cls.__new__(cls)
    StructChunkError.__init__(error, message, source, hint=hint)
    return error


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
