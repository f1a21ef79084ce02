"""Sentence boundaries: NLTK Punkt with parameters shipped in the package.

The parameters live in `structchunk/data/punkt/<language>/` in NLTK's `punkt_tab`
text format (never a pickle) and are read with our own small loader, so
`nltk.download` is never needed. `nltk:<language>` uses an installed official
`punkt_tab` model instead. Punkt's boundaries then go through the post-pass of
`sentence_rules` (ellipses, quotations, initials, list items, blank lines, …).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

from .errors import SentenceModelError
from .sentence_rules import RULES, apply_rules, spans_from_cuts

DEFAULT_MODEL = "bundled"
BUNDLED_LANGUAGE = "english"

Span = tuple[int, int]


def _read_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def params_from_tab_files(files: dict[str, str]) -> PunktParameters:
    """Build Punkt parameters from the four `punkt_tab` files' contents."""
    params = PunktParameters()
    params.abbrev_types = set(_read_lines(files["abbrev_types.txt"]))
    params.sent_starters = set(_read_lines(files["sent_starters.txt"]))
    params.collocations = {
        tuple(line.split("\t", 1)) for line in _read_lines(files["collocations.tab"])
    }
    ortho: dict[str, int] = {}
    for line in _read_lines(files["ortho_context.tab"]):
        word, _, value = line.rpartition("\t")
        ortho[word] = int(value)
    params.ortho_context.update(ortho)
    return params


PUNKT_FILES = ("abbrev_types.txt", "collocations.tab", "ortho_context.tab", "sent_starters.txt")


def _bundled_params() -> PunktParameters:
    folder = resources.files("structchunk") / "data" / "punkt" / BUNDLED_LANGUAGE
    files = {name: (folder / name).read_text(encoding="utf-8") for name in PUNKT_FILES}
    return params_from_tab_files(files)


def _nltk_params(language: str) -> PunktParameters:
    if not re.fullmatch(r"[a-z_]+", language):
        raise SentenceModelError(
            f"invalid sentence model 'nltk:{language}': the language is the lower-case name "
            "of a punkt_tab folder, e.g. nltk:german"
        )
    import nltk.data

    try:
        folder = nltk.data.find(f"tokenizers/punkt_tab/{language}/")
        files = {}
        for name in PUNKT_FILES:
            with folder.join(name).open(encoding="utf-8") as handle:
                files[name] = handle.read()
    except (LookupError, OSError):
        raise SentenceModelError(
            f"sentence model nltk:{language} is not installed (no "
            f"tokenizers/punkt_tab/{language}/ in the NLTK data path): on a machine with "
            "internet run `python -m nltk.downloader punkt_tab`, copy its nltk_data folder "
            "here and set NLTK_DATA to it, or use the bundled English model"
        ) from None
    return params_from_tab_files(files)


def model_params(model: str = DEFAULT_MODEL) -> PunktParameters:
    """The Punkt parameters of a model spec: `bundled` or `nltk:<language>`."""
    if model == DEFAULT_MODEL:
        return _bundled_params()
    kind, _, language = model.partition(":")
    if kind == "nltk" and language:
        return _nltk_params(language)
    raise SentenceModelError(
        f"unknown sentence model {model!r}: use `bundled` or `nltk:<language>` (e.g. nltk:german)"
    )


@lru_cache(maxsize=8)
def get_segmenter(model: str = DEFAULT_MODEL) -> SentenceSegmenter:
    """The segmenter for a model spec: `bundled` or `nltk:<language>`, with the post-pass."""
    return SentenceSegmenter(model_params(model))


class SentenceSegmenter:
    """Punkt with the given parameters, then the `sentence_rules` post-pass.

    Returns character spans so callers keep the exact text. `post_pass=False` gives
    Punkt's own boundaries (for comparison only).
    """

    def __init__(self, params: PunktParameters, post_pass: bool = True) -> None:
        self._punkt = PunktSentenceTokenizer(params)
        self._starters = frozenset(params.sent_starters)
        self._rules = RULES if post_pass else ()

    def spans(self, text: str) -> list[Span]:
        """Sentence spans: in order, non-overlapping, whitespace-trimmed, and together
        covering every non-space character of `text`."""
        if not text or text.isspace():
            return []
        cuts = [start for start, _ in self._punkt.span_tokenize(text)][1:]
        return spans_from_cuts(text, apply_rules(text, cuts, self._starters, self._rules))

    def split(self, text: str) -> list[str]:
        return [text[a:b] for a, b in self.spans(text)]


def split_sentences(text: str, model: str = DEFAULT_MODEL) -> list[str]:
    """Split `text` into sentences with the bundled Punkt model and the post-pass
    (offline: nothing is downloaded)."""
    return get_segmenter(model).split(text)
