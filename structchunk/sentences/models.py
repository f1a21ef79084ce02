"""The Punkt parameters of a sentence model: `bundled` (shipped in the package, in NLTK's
`punkt_tab` text format, never a pickle) or `nltk:<language>` (an installed official
`punkt_tab` model). Read with our own small loader, so `nltk.download` is never needed.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

from ..errors import SentenceModelError

if TYPE_CHECKING:  # NLTK takes most of a second to import: only when sentences are split
    from nltk.tokenize.punkt import PunktParameters

DEFAULT_MODEL = "bundled"
BUNDLED_LANGUAGE = "english"


def _read_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def params_from_tab_files(files: dict[str, str]) -> PunktParameters:
    """Build Punkt parameters from the four `punkt_tab` files' contents."""
    from nltk.tokenize.punkt import PunktParameters

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
    folder = resources.files("structchunk.sentences") / "data" / "punkt" / BUNDLED_LANGUAGE
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
