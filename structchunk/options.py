"""ChunkOptions: the one options object shared by the CLI, the library and batch runs.

Every switch that changes what a run does is a field here, with its default and its
help text; the command-line flags are generated from these fields (`cli/chunking_flags.py`), so
a new option is one new field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .ids import short_hash

FormatName = Literal["markdown", "html", "pdf", "text", "docx", "pptx", "xlsx", "epub"]
"""The names of `parsers.FORMATS` (a test holds them equal): the choices of `--format`."""
PdfEngine = Literal["pdfium", "pdfplumber"]
"""What reads a PDF's pages (docs/pdf.md, "Engines")."""
DEFAULT_PDF_ENGINE: PdfEngine = "pdfium"
"""As good as pdfplumber on the heading benchmarks and the corpus, and several times as
fast (docs/pdf.md, "Engines")."""

OcrMode = Literal["auto", "always", "never"]
"""When a PDF page is read by OCR (docs/pdf.md, "Scans and OCR")."""
DEFAULT_OCR_DPI = 300
"""Tesseract reads body text at 300 dpi; at 150 dpi it misses small print (benchmarks/ocr.py)."""
OCR_OPTIONS = {"ocr": "auto", "ocr_language": "eng", "ocr_dpi": DEFAULT_OCR_DPI}
"""The OCR options and their defaults: fingerprinted only when changed, so manifests
written before OCR existed stay valid."""

DEFAULT_MAX_TOKENS = 256
"""A common embedding-model window; the bench compares systems at 200 words."""

MIN_MAX_TOKENS = 8
"""Below this a heading prefix and any sentence cannot both fit; refuse rather than emit noise."""

DEFAULT_PARENT_FACTOR = 4
"""A parent is at most this many chunks' worth of tokens by default: room for a chunk's
section or its neighbours, and still a few parents in a 2 000-token context."""

PARENT_FIELDS = ("parents", "parent_max_tokens")
"""Left out of the fingerprint while parents are off, so manifests written before they
existed still hold."""

NOT_IN_FINGERPRINT = frozenset({"tokenizer", "pdf_password", "page_workers", "strict"})
"""Fields that do not change the chunks: the tokenizer enters by name, a password only
unlocks the same text, page workers only share the reading, and `strict` only adds a
check (it is fingerprinted when on, so a strict rerun re-checks files converted
without it)."""


FLAG_NAMES = {"pdf_password": "--password"}
"""Fields whose command-line flag is not `--<field-name>`."""

ENV_VARS = {"pdf_password": "STRUCTCHUNK_PDF_PASSWORD"}
"""Fields the command line may also read from the environment (a password stays out of
`ps`)."""


def flag_name(field: str) -> str:
    """The command-line flag of a `ChunkOptions` field."""
    return FLAG_NAMES.get(field, "--" + field.replace("_", "-"))


def as_flag(field: str, value: str | None = None) -> str:
    """How the command line sets an option an error message names: `--pdf-engine
    pdfplumber`, `--password (or $STRUCTCHUNK_PDF_PASSWORD)` (the library says
    `errors.as_keyword`)."""
    if value is not None:
        return f"{flag_name(field)} {value}"
    env = ENV_VARS.get(field)
    return f"{flag_name(field)} (or ${env})" if env else flag_name(field)


class ChunkOptions(BaseModel):
    """How to chunk. Frozen, so one value can be shared by threads, processes and Ray tasks."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    max_tokens: int = Field(
        default=DEFAULT_MAX_TOKENS,
        ge=MIN_MAX_TOKENS,
        description="Token budget per chunk, heading prefix included.",
    )
    min_tokens: int = Field(
        default=0,
        ge=0,
        description="Merge smaller chunks into a neighbour in the same section when the "
        "result still fits.",
    )
    overlap_tokens: int = Field(
        default=0,
        ge=0,
        description="Repeat up to this many tokens of whole trailing sentences of the "
        "previous chunk (same section only).",
    )
    repeat_lead_ins: bool = Field(
        default=True,
        description="Start a chunk that opens with a list, table or code block with the "
        'sentence introducing it ("…as follows:") when that sentence ended the chunk before.',
    )
    tokenizer: str | Callable[[str], int] = Field(
        default="words",
        description="words, chars, tiktoken:<encoding> or hf:<name-or-path> (library "
        "callers may pass any callable str -> int).",
    )
    heading_prefix: bool = Field(
        default=True, description="Start each chunk's text with its heading path."
    )
    offsets: bool = Field(
        default=True,
        description="Record where each chunk comes from: character offsets in the source "
        "(Markdown, text, HTML) or a PDF's line boxes. Finding them is about a third of "
        "the time for text formats; off, the records carry null there.",
    )
    format: FormatName | None = Field(
        default=None, description="Override detection by extension (required for stdin)."
    )
    language: str = Field(
        default="auto",
        pattern=r"^(auto|[a-z]{2,3})$",
        description="auto (detect each document's language, and a section's where it is "
        "long enough) or an ISO 639-1 code such as de or zh for all documents; decides how "
        "sentences are split and is recorded in each record's `language`.",
    )
    sentence_model: str = Field(
        default="bundled",
        description="bundled (English Punkt; other languages by sentencex's rules, see "
        "--language), nltk:<language> for an installed punkt_tab model, or sentencex:<code>.",
    )
    pdf_password: str | None = Field(
        default=None, description="Password for encrypted PDFs.", repr=False
    )
    pdf_engine: PdfEngine = Field(
        default=DEFAULT_PDF_ENGINE,
        description="What reads a PDF's pages: pdfium (fast, C) or pdfplumber (pdfminer, "
        "pure Python).",
    )
    ocr: OcrMode = Field(
        default="auto",
        description="Read PDF pages by OCR (the ocr extra and the tesseract program): auto "
        "(only pages without a text layer), always, or never.",
    )
    ocr_language: str = Field(
        default="eng",
        pattern=r"^[A-Za-z_]+(\+[A-Za-z_]+)*$",
        description="Tesseract's languages for OCR, such as eng or eng+deu (each needs its "
        "language data: apt-get install tesseract-ocr-deu).",
    )
    ocr_dpi: int = Field(
        default=DEFAULT_OCR_DPI, ge=72, le=600, description="Resolution pages are OCRed at."
    )
    strict: bool = Field(
        default=False, description="Fail a file on any budget violation or lost text."
    )
    doc_key: str | None = Field(
        default=None,
        min_length=1,
        description="The document's identity in its chunk ids, instead of its source path "
        "(a single input or stdin only): ids stay the same wherever the file is read from.",
    )
    parents: bool = Field(
        default=False,
        description="Also write parent records (small-to-big retrieval): each chunk gets "
        "the parent_id of the largest section around it that fits --parent-max-tokens, or "
        "of a window of consecutive chunks of its own section where that section does not fit.",
    )
    parent_max_tokens: int | None = Field(
        default=None,
        ge=MIN_MAX_TOKENS,
        description="Token budget per parent record, heading prefix included (default: "
        f"{DEFAULT_PARENT_FACTOR} × max_tokens).",
    )
    page_workers: int = Field(
        default=1,
        ge=1,
        description="Processes that may read the pages of one large PDF; output is "
        "identical for any value.",
    )

    @model_validator(mode="after")
    def _check_budget(self) -> ChunkOptions:
        if self.min_tokens >= self.max_tokens:
            raise ValueError(
                f"min_tokens ({self.min_tokens}) must be below max_tokens ({self.max_tokens})"
            )
        if self.overlap_tokens * 2 > self.max_tokens:
            raise ValueError(
                f"overlap_tokens ({self.overlap_tokens}) must be at most half "
                f"of max_tokens ({self.max_tokens})"
            )
        if self.parent_max_tokens is not None and self.parent_max_tokens < self.max_tokens:
            raise ValueError(
                f"parent_max_tokens ({self.parent_max_tokens}) must be at least "
                f"max_tokens ({self.max_tokens}): a parent holds whole chunks"
            )
        return self

    @property
    def parent_limit(self) -> int:
        """The token budget of a parent record: `parent_max_tokens`, or 4 × `max_tokens`."""
        if self.parent_max_tokens is not None:
            return self.parent_max_tokens
        return DEFAULT_PARENT_FACTOR * self.max_tokens

    @property
    def tokenizer_name(self) -> str:
        """The tokenizer as written in records (`callable:<name>` for a function)."""
        if isinstance(self.tokenizer, str):
            return self.tokenizer
        return "callable:" + getattr(self.tokenizer, "__name__", type(self.tokenizer).__name__)

    def fingerprint(self) -> str:
        """A stable hash of every option that changes output (for manifests and caches)."""
        left_out = NOT_IN_FINGERPRINT if self.parents else NOT_IN_FINGERPRINT | set(PARENT_FIELDS)
        data = self.model_dump(exclude=set(left_out))
        for name, default in OCR_OPTIONS.items():
            if data[name] == default:
                del data[name]
        data["tokenizer"] = self.tokenizer_name
        if self.strict:
            data["strict"] = True
        return short_hash(repr(sorted(data.items())), length=16)
