"""ChunkOptions: the one options object shared by the CLI, the library and batch runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .text import short_hash

FormatName = Literal["markdown", "html", "pdf", "text"]

DEFAULT_MAX_TOKENS = 256
"""A common embedding-model window; the bench compares systems at 200 words."""

MIN_MAX_TOKENS = 8
"""Below this a heading prefix and any sentence cannot both fit; refuse rather than emit noise."""


class ChunkOptions(BaseModel):
    """How to chunk. Frozen, so one value can be shared by threads, processes and Ray tasks."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    max_tokens: int = Field(
        DEFAULT_MAX_TOKENS,
        ge=MIN_MAX_TOKENS,
        description="Budget per chunk, heading prefix included.",
    )
    min_tokens: int = Field(
        0,
        ge=0,
        description="Merge chunks smaller than this into a "
        "neighbour in the same section when the result still fits.",
    )
    overlap_tokens: int = Field(
        0,
        ge=0,
        description="Repeat up to this many tokens of whole "
        "trailing sentences of the previous chunk (same section only).",
    )
    tokenizer: str | Callable[[str], int] = Field(
        "words",
        description="`words`, `chars`, `tiktoken:<encoding>`, `hf:<name-or-path>`, "
        "or (library only) any callable str -> int.",
    )
    heading_prefix: bool = Field(True, description="Start each chunk's text with its heading path.")
    format: FormatName | None = Field(None, description="Override format detection.")
    sentence_model: str = Field("bundled", description="`bundled` or `nltk:<language>`.")
    pdf_password: str | None = Field(None, description="Password for encrypted PDFs.", repr=False)
    jobs: int = Field(
        1,
        ge=1,
        description="Processes that may read one large document "
        "(PDF pages); output is identical for any value.",
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
        return self

    @property
    def tokenizer_name(self) -> str:
        """The tokenizer as written in records (`callable:<name>` for a function)."""
        if isinstance(self.tokenizer, str):
            return self.tokenizer
        return "callable:" + getattr(self.tokenizer, "__name__", type(self.tokenizer).__name__)

    def fingerprint(self) -> str:
        """A stable hash of every option that changes output (for manifests and caches)."""
        data = self.model_dump(exclude={"tokenizer", "pdf_password", "jobs"})
        data["tokenizer"] = self.tokenizer_name
        return short_hash(repr(sorted(data.items())), length=16)
