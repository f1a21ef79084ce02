"""Token counters: words, chars, callables, and offline sub-word tokenizers (tiktoken, HF)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import SETTINGS, GeneratedSection, documents

from structchunk import ChunkOptions, chunk_file, chunk_text
from structchunk.errors import OptionsError, TokenizerUnavailableError
from structchunk.tokenizers import get_tokenizer

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


@pytest.fixture(scope="session")
def bpe_tokenizer_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small byte-level BPE trained here on the samples and saved as tokenizer.json."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.md"))]
    tokenizer.train_from_iterator(texts, trainer)
    path = tmp_path_factory.mktemp("bpe") / "tokenizer.json"
    tokenizer.save(str(path))
    return path


@pytest.fixture(scope="session")
def tiny_tiktoken() -> Callable[[str], int]:
    """A tiktoken Encoding from small local mergeable ranks (no download)."""
    import tiktoken

    ranks = {bytes([b]): b for b in range(256)}
    for merge in (
        b"th",
        b"the",
        b" t",
        b" the",
        b"in",
        b"ing",
        b"er",
        b"an",
        b" a",
        b"on",
        b"re",
        b"ke",
        b"key",
        b" key",
        b"s.",
        b"x0",
        b"x1",
    ):
        ranks[merge] = len(ranks)
    encoding = tiktoken.Encoding(
        name="tiny", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )

    def tiktoken_tiny(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    return tiktoken_tiny


def test_words_and_chars() -> None:
    assert get_tokenizer("words").count("a  b\nc") == 3
    assert get_tokenizer("chars").count("a  b") == 4
    assert get_tokenizer("words").additive and not get_tokenizer(len).additive


def test_unknown_specs_are_one_line_option_errors() -> None:
    for spec in ("bogus", "tiktoken:", "hf:"):
        with pytest.raises(OptionsError, match="unknown tokenizer"):
            get_tokenizer(spec)


def test_hf_tokenizer_from_a_local_file(bpe_tokenizer_json: Path) -> None:
    spec = f"hf:{bpe_tokenizer_json}"
    count = get_tokenizer(spec).count
    chunks = chunk_file(SAMPLES / "rust-data-types.md", max_tokens=96, tokenizer=spec)
    assert chunks and all(c.tokenizer == spec for c in chunks)
    assert all(c.n_tokens == count(c.text) <= 96 for c in chunks)
    folder_spec = f"hf:{bpe_tokenizer_json.parent}"  # a folder holding tokenizer.json
    assert get_tokenizer(folder_spec).count("hello world") == count("hello world")


def test_hf_missing_model_fails_fast_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    start = time.monotonic()
    with pytest.raises(TokenizerUnavailableError, match="does not download") as error:
        get_tokenizer("hf:someone/not-cached-model")
    assert "STRUCTCHUNK_ALLOW_DOWNLOAD=1" in str(error.value)
    assert time.monotonic() - start < 5 and "\n" not in str(error.value)


def test_downloads_happen_only_when_the_user_opts_in(
    tmp_path: Path, bpe_tokenizer_json: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: `hf:`/`tiktoken:` never downloaded, even for a user who wanted them to."""
    from tokenizers import Tokenizer

    asked: list[str] = []

    def from_the_hub(name: str) -> Tokenizer:
        asked.append(name)
        return Tokenizer.from_file(str(bpe_tokenizer_json))

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setattr(Tokenizer, "from_pretrained", staticmethod(from_the_hub))
    with pytest.raises(TokenizerUnavailableError):
        get_tokenizer("hf:org/downloadable")
    assert asked == []
    monkeypatch.setenv("STRUCTCHUNK_ALLOW_DOWNLOAD", "1")
    assert get_tokenizer("hf:org/downloadable").count("the key") > 0
    assert asked == ["org/downloadable"]


def test_hf_model_found_in_the_local_cache(
    tmp_path: Path, bpe_tokenizer_json: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = tmp_path / "models--org--tiny" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    (snapshot / "tokenizer.json").write_bytes(bpe_tokenizer_json.read_bytes())
    (tmp_path / "models--org--tiny" / "refs").mkdir()
    (tmp_path / "models--org--tiny" / "refs" / "main").write_text("abc123")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    assert get_tokenizer("hf:org/tiny").count("the key") > 0


@pytest.fixture
def nothing_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """No encoding already in memory: another library imported in this test process
    (LlamaIndex ships cl100k_base) may have loaded it, and tiktoken keeps it."""
    import tiktoken.registry

    from structchunk.tokenizers import resolve

    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    resolve._resolve_named.cache_clear()


@pytest.mark.usefixtures("nothing_loaded")
def test_tiktoken_encoding_not_cached_fails_fast_without_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    start = time.monotonic()
    with pytest.raises(TokenizerUnavailableError, match="TIKTOKEN_CACHE_DIR") as error:
        get_tokenizer("tiktoken:cl100k_base")
    assert time.monotonic() - start < 5 and "\n" not in str(error.value)
    with pytest.raises(TokenizerUnavailableError, match="Unknown encoding"):
        get_tokenizer("tiktoken:no_such_encoding")


@pytest.mark.usefixtures("nothing_loaded")
def test_cli_reports_an_unavailable_tokenizer_as_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from structchunk.cli import cli

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    result = CliRunner().invoke(
        cli, ["convert", str(SAMPLES / "api-keys.md"), "--tokenizer", "tiktoken:cl100k_base"]
    )
    assert result.exit_code == 2
    assert "not in the local cache" in result.output and "Traceback" not in result.output


def _no_network(url: str) -> Exception:
    """What requests raises without a network: a connection pool's account of its retries,
    caused by the name lookup that failed."""
    import socket

    import requests

    error = requests.exceptions.ConnectionError(
        f"HTTPSConnectionPool(host='example.invalid', port=443): Max retries exceeded with "
        f"url: {url} (Caused by NameResolutionError(...))"
    )
    error.__cause__ = socket.gaierror(-2, "Name or service not known")
    return error


@pytest.fixture
def offline_tiktoken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nothing_loaded: None) -> None:
    """Downloads allowed, nothing cached, and every download failing as it does offline."""
    import tiktoken.load

    def read_file(blobpath: str) -> bytes:
        raise _no_network(blobpath)

    monkeypatch.setattr(tiktoken.load, "read_file", read_file)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("STRUCTCHUNK_ALLOW_DOWNLOAD", "1")


@pytest.mark.usefixtures("offline_tiktoken")
def test_an_allowed_tiktoken_download_without_network_is_one_line() -> None:
    """Before: requests' ConnectionError, a 113-line traceback from the command line."""
    with pytest.raises(TokenizerUnavailableError) as error:
        get_tokenizer("tiktoken:cl100k_base")
    message = str(error.value)
    assert message.startswith("tokenizer tiktoken:cl100k_base: cannot download https://")
    assert "cl100k_base.tiktoken: Name or service not known;" in message
    assert "TIKTOKEN_CACHE_DIR" in message
    assert "\n" not in message and "HTTPSConnectionPool" not in message


@pytest.mark.usefixtures("offline_tiktoken")
def test_cli_allow_download_without_network_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from structchunk.cli import cli

    monkeypatch.setenv("STRUCTCHUNK_ALLOW_DOWNLOAD", "")  # restored after the CLI sets it
    result = CliRunner().invoke(
        cli,
        [
            "--allow-download",
            "convert",
            str(SAMPLES / "api-keys.md"),
            "--tokenizer",
            "tiktoken:cl100k_base",
        ],
    )
    assert result.exit_code == 2
    [line] = result.output.splitlines()
    assert line.startswith("structchunk: error: tokenizer tiktoken:cl100k_base: cannot download")
    assert line.endswith("set TIKTOKEN_CACHE_DIR to it")


def test_an_allowed_hf_download_without_network_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    from tokenizers import Tokenizer

    def from_the_hub(name: str) -> Tokenizer:
        hub_log = logging.getLogger("huggingface_hub.utils._http")
        hub_log.warning("'[Errno -2] Name or service not known' thrown while requesting HEAD")
        hub_log.warning("Retrying in 1s [Retry 1/5].")
        error = RuntimeError(
            "An error happened while trying to locate the file on the Hub and we cannot find "
            "the requested files in the local cache. Please check your connection and try again."
        )
        raise error from _no_network(f"https://huggingface.co/{name}/resolve/main/tokenizer.json")

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setenv("STRUCTCHUNK_ALLOW_DOWNLOAD", "1")
    monkeypatch.setattr(Tokenizer, "from_pretrained", staticmethod(from_the_hub))
    with caplog.at_level(logging.WARNING), pytest.raises(TokenizerUnavailableError) as error:
        get_tokenizer("hf:org/not-cached")
    assert str(error.value) == (
        "tokenizer hf:org/not-cached: cannot download org/not-cached from the Hugging Face "
        "hub: Name or service not known; without a network, give hf: the path of the "
        "model's tokenizer.json"
    )
    assert not [r for r in caplog.records if r.name.startswith("huggingface_hub")]
    assert logging.getLogger("huggingface_hub").level != logging.ERROR  # put back


def test_subword_counts_are_memoised(tiny_tiktoken: Callable[[str], int]) -> None:
    calls = []

    def counting(text: str) -> int:
        calls.append(text)
        return tiny_tiktoken(text)

    tokenizer = get_tokenizer(counting)
    tokenizer.count("the key")
    tokenizer.count("the key")
    assert calls == ["the key"]


@SETTINGS
@given(documents(), st.integers(16, 512), st.booleans())
def test_budget_holds_under_subword_tokenizers(
    doc: tuple[str, list[GeneratedSection]], budget: int, use_hf: bool
) -> None:
    # Hypothesis cannot take function-scoped fixtures; build the tokenizers once here.
    counter = _HF_COUNTER if use_hf else _TIKTOKEN_COUNTER
    assert counter is not None
    markdown, _ = doc
    chunks = chunk_text(markdown, options=ChunkOptions(max_tokens=budget, tokenizer=counter))
    for chunk in chunks:
        assert chunk.n_tokens == counter(chunk.text) <= budget


_HF_COUNTER: Callable[[str], int] | None = None
_TIKTOKEN_COUNTER: Callable[[str], int] | None = None


@pytest.fixture(autouse=True, scope="module")
def _subword_counters(bpe_tokenizer_json: Path, tiny_tiktoken: Callable[[str], int]) -> None:
    global _HF_COUNTER, _TIKTOKEN_COUNTER
    _HF_COUNTER = get_tokenizer(f"hf:{bpe_tokenizer_json}").count
    _TIKTOKEN_COUNTER = tiny_tiktoken
