"""Sentence boundaries: the bundled Punkt model, the post-pass rules, the span contract."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import nltk
import pytest
from click.testing import CliRunner
from conftest import NO_CORPUS_REASON, ROOT, SHARED_CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.data import FileSystemPathPointer
from nltk.tokenize.punkt import load_punkt_params

from structchunk import cli
from structchunk.errors import SentenceModelError
from structchunk.sentences import (
    SentenceSegmenter,
    get_segmenter,
    model_params,
    split_sentences,
)
from structchunk.sentences.models import PUNKT_FILES
from structchunk.sentences.rules import RULES

DATA = ROOT / "structchunk" / "sentences" / "data" / "punkt" / "english"
TRAIN_SCRIPT = ROOT / "scripts" / "train_punkt.py"

GOLDEN_FLOOR = 46
"""Of the 48 Golden Rules: measured 47 (only case 18, which pySBD fails too, is wrong);
the issue's target is 90 % (44)."""
EXTRA_FLOOR = 16
"""Of the 19 extra cases: measured 17; the best peers pass 14-15."""


def _train_punkt() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_punkt", TRAIN_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seed_example_splits_into_four() -> None:
    text = (
        "Dr. Smith earned $9.5M from U.S.A. operations. He joined the company in 2019! "
        "Did Prof. Jones approve the budget? The growth rate was 12.3% last quarter."
    )
    assert split_sentences(text) == [
        "Dr. Smith earned $9.5M from U.S.A. operations.",
        "He joined the company in 2019!",
        "Did Prof. Jones approve the budget?",
        "The growth rate was 12.3% last quarter.",
    ]


# --- one test per post-pass rule ----------------------------------------------------------


def test_rules_are_a_documented_table() -> None:
    assert [rule.__name__ for rule in RULES] == [
        "inside_a_token",
        "full_width_stops",
        "ellipses",
        "reference_marks",
        "quotations_and_brackets",
        "closing_punctuation",
        "lowercase_continuation",
        "initials",
        "titles",
        "list_items",
        "blank_lines",
        "bracketed_asides",
        "punctuation_only",
    ]
    assert all(rule.__doc__ for rule in RULES)


def test_decimals_and_version_numbers_stay_whole() -> None:
    assert split_sentences(
        "The rate was 12.3% in v2.0.1. Python 3.12 is required. It costs $9.50 or €12.50 now."
    ) == [
        "The rate was 12.3% in v2.0.1.",
        "Python 3.12 is required.",
        "It costs $9.50 or €12.50 now.",
    ]


def test_no_cut_without_whitespace() -> None:
    # Punkt alone cuts where a stop meets other punctuation.
    assert split_sentences("Call foo.(bar) first. Then the rest.") == [
        "Call foo.(bar) first.",
        "Then the rest.",
    ]
    assert split_sentences('He said "stop."Then he left.') == ['He said "stop."Then he left.']


def test_file_names_and_urls_stay_whole() -> None:
    assert split_sentences(
        "Edit config.yaml and README.md first. The site is "
        "https://x.io/a.b. Then open www.example.com/v1.2/setup.exe. Done."
    ) == [
        "Edit config.yaml and README.md first.",
        "The site is https://x.io/a.b.",
        "Then open www.example.com/v1.2/setup.exe.",
        "Done.",
    ]


def test_email_addresses_stay_whole() -> None:
    assert split_sentences("Her email is Jane.Doe@example.com. I sent her an email.") == [
        "Her email is Jane.Doe@example.com.",
        "I sent her an email.",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I never meant that.... She left the store.",
            ["I never meant that....", "She left the store."],
        ),
        (
            "He stopped . . . . Then he started again.",
            ["He stopped . . . .", "Then he started again."],
        ),
        ("He paused . . . and then . . . I spoke.", ["He paused . . . and then . . . I spoke."]),
        ("It was over. . . . The war had ended.", ["It was over.", ". . . The war had ended."]),
        ("He said so... Then he left.", ["He said so...", "Then he left."]),
        ("Wait… Then go.", ["Wait…", "Then go."]),
        ("Well ... I think so...maybe.", ["Well ... I think so...maybe."]),
        (
            '"Bohr [...] used the analogy [...]" (Smith 55).',
            ['"Bohr [...] used the analogy [...]" (Smith 55).'],
        ),
        (
            "“the laws will appear less complex. . . .”",
            ["“the laws will appear less complex. . . .”"],
        ),
    ],
)
def test_ellipses(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_no_cut_inside_quotations_and_brackets() -> None:
    text = (
        "'Well!' thought Alice, 'after such a fall, I shall think nothing of it! How brave "
        "they'll all think me!' She smiled. He studied law (He had worked as a clerk for "
        "3 years.) at the college."
    )
    assert split_sentences(text) == [
        "'Well!' thought Alice, 'after such a fall, I shall think nothing of it! How brave "
        "they'll all think me!'",
        "She smiled.",
        "He studied law (He had worked as a clerk for 3 years.) at the college.",
    ]
    # apostrophes and Rust lifetimes are not quotes
    assert len(split_sentences("The agents' plans failed. Let 'a outlive &'b here. It works.")) == 3


def test_a_sentence_ends_after_the_reference_marks_that_follow_its_stop() -> None:
    """Wikipedia's `sign.[44] With…`: Punkt saw no boundary (no space after the stop), so
    a cited paragraph was one sentence, and one over the budget was cut between words."""
    text = (
        "Hobson declared sovereignty on 21 May 1840, even though copies of the Treaty were "
        "circulating for Māori to sign.[44] With the signing the number of immigrants "
        'began to increase.[45][a] "It was a treaty."[12] Settlement followed.[citation '
        "needed] In Akaroa,[43] settlers bought land."
    )
    assert split_sentences(text) == [
        "Hobson declared sovereignty on 21 May 1840, even though copies of the Treaty were "
        "circulating for Māori to sign.[44]",
        "With the signing the number of immigrants began to increase.[45][a]",
        '"It was a treaty."[12]',
        "Settlement followed.[citation needed]",
        "In Akaroa,[43] settlers bought land.",
    ]
    # before a lower-case word, or inside an aside, the sentence goes on
    assert len(split_sentences("It is used in the U.S.[5] and elsewhere. Next.")) == 2
    assert split_sentences("He left. (He said so.[3] Then he went.) Done.") == [
        "He left. (He said so.[3] Then he went.)",  # an aside stays with the sentence before
        "Done.",
    ]


def test_closing_quotes_and_brackets_stay_with_their_sentence() -> None:
    assert split_sentences('He said "stop." Then he left. She said “go.” He went.') == [
        'He said "stop."',
        "Then he left.",
        "She said “go.”",
        "He went.",
    ]


def test_lowercase_after_exclamation_question_or_closer_continues() -> None:
    assert split_sentences("She works at Yahoo! in the accounting department.") == [
        "She works at Yahoo! in the accounting department."
    ]
    assert split_sentences("She turned to him, 'This is great.' she said. \"Why?\" he asked.") == [
        "She turned to him, 'This is great.' she said.",
        '"Why?" he asked.',
    ]
    assert split_sentences("Use the println! macro. Then the ? operator.") == [
        "Use the println! macro.",
        "Then the ? operator.",
    ]
    assert split_sentences("Use a . followed by the index. Done.") == [
        "Use a . followed by the index.",
        "Done.",
    ]
    # lower-cased text still splits after ordinary words
    assert split_sentences("it was sold for cash. each unit was paid.") == [
        "it was sold for cash.",
        "each unit was paid.",
    ]


def test_initials() -> None:
    assert split_sentences("Read J. R. R. Tolkien first. Jonas E. Smith agreed.") == [
        "Read J. R. R. Tolkien first.",
        "Jonas E. Smith agreed.",
    ]
    assert split_sentences("We chose plan B. The results were good.") == [
        "We chose plan B.",
        "The results were good.",
    ]
    assert split_sentences("We make a good team, you and I. Did you see Albert I. Jones?") == [
        "We make a good team, you and I.",
        "Did you see Albert I. Jones?",
    ]


def test_titles_precede_names() -> None:
    assert split_sentences("The meeting starts at 10 a.m. Mr. Brown will chair it.") == [
        "The meeting starts at 10 a.m. Mr. Brown will chair it."
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. The first item 2. The second item", ["1. The first item", "2. The second item"]),
        (
            "1.) The first item. 2.) The second item.",
            ["1.) The first item.", "2.) The second item."],
        ),
        ("a) Apples b) Oranges c) Pears", ["a) Apples", "b) Oranges", "c) Pears"]),
        ("• 9. Stop smoking • 10. Get some rest", ["• 9. Stop smoking", "• 10. Get some rest"]),
        ("⁃9. The first item ⁃10. The second item", ["⁃9. The first item", "⁃10. The second item"]),
        ("Install it:\n1. Download it\n2. Run it", ["Install it:", "1. Download it", "2. Run it"]),
        ("Steps\n- Download it\n- Run it", ["Steps", "- Download it", "- Run it"]),
        (
            "Net of: 1) fuel, 2) power, and 3) other charges.",
            ["Net of: 1) fuel, 2) power, and 3) other charges."],
        ),
        ("You can 1) wait or 2) leave.", ["You can 1) wait or 2) leave."]),
    ],
)
def test_list_items(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_blank_lines_end_sentences_single_line_breaks_do_not() -> None:
    assert split_sentences(
        "10. Get some rest \n \nYou have the best chance if you follow\n"
        "a few simple guidelines:\r\n\r\nOrganise care early"
    ) == [
        "10. Get some rest",
        "You have the best chance if you follow\na few simple guidelines:",
        "Organise care early",
    ]


def test_bracketed_aside_stays_with_the_sentence_before() -> None:
    assert split_sentences("He left early. (He was tired.) Then we ate. (b) Next item.") == [
        "He left early. (He was tired.)",
        "Then we ate.",
        "(b) Next item.",
    ]


def test_punctuation_only_pieces_join_a_sentence() -> None:
    assert split_sentences("As shown in Fig. ?? the rate rose. Done! 😀") == [
        "As shown in Fig. ?? the rate rose.",
        "Done! 😀",
    ]
    for text in (".", "..", ". . .", "! ! !", "??"):
        assert split_sentences(text) == [text]


def test_without_the_post_pass_punkt_alone_decides() -> None:
    raw = SentenceSegmenter(model_params("bundled"), post_pass=False)
    assert raw.split("Fig. ??") == ["Fig.", "?", "?"]
    assert get_segmenter().split("Fig. ??") == ["Fig. ??"]


# --- the span contract the packer relies on ------------------------------------------------

_PIECES = st.sampled_from(
    [
        "Hello",
        "world",
        "the",
        "I",
        "J.",
        "U.S.",
        "e.g.",
        "Dr.",
        "Mr.",
        "1.",
        "2.",
        "a.",
        "b)",
        "10.",
        "v2.0.1",
        "12.3%",
        "x@y.io",
        "config.yaml",
        "...",
        "…",
        ". . .",
        ".",
        "!",
        "?",
        '"',
        "'",
        "(",
        ")",
        "[",
        "]",
        "“",
        "”",
        "‘",
        "’",
        "•",
        "⁃",
        "-",
        "*",
        "??",
        "!!",
        ":",
        ",",
        "it's",
        "«",
        "»",
        "N°.",
        "Fig.",
        "🙂",
        "naïve",
        "Straße.",
    ]
)
_GAPS = st.sampled_from(["", " ", " ", "  ", "\n", "\n\n", "\r\n", "\t", " \n \n", "\u00a0"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_PIECES | st.text(max_size=3), _GAPS), max_size=40))
def test_spans_are_ordered_disjoint_and_cover_every_non_space(parts: list[tuple[str, str]]) -> None:
    text = "".join(piece + gap for piece, gap in parts)
    spans = get_segmenter().spans(text)
    position = 0
    for start, end in spans:
        assert position <= start < end <= len(text)
        assert not text[position:start].strip()
        assert not text[start].isspace() and not text[end - 1].isspace()
        position = end
    assert not text[position:].strip()
    assert get_segmenter().split(text) == [text[a:b] for a, b in spans]


# --- quality floors on the shared corpus ---------------------------------------------------


def _passed(path: Path) -> int:
    def ws(text: str) -> str:
        return re.sub(r"\s+", " ", text).strip()

    passed = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            case = json.loads(line)
            got = [ws(s) for s in split_sentences(case["text"]) if ws(s)]
            passed += got == [ws(s) for s in case["sentences"] if ws(s)]
    return passed


@pytest.mark.skipif(SHARED_CORPUS is None, reason=NO_CORPUS_REASON)
def test_golden_rules_pass_rate_floor() -> None:
    assert SHARED_CORPUS is not None
    assert _passed(SHARED_CORPUS / "sbd" / "golden_rules_en.jsonl") >= GOLDEN_FLOOR
    assert _passed(SHARED_CORPUS / "sbd" / "pysbd_english_extra.jsonl") >= EXTRA_FLOOR


# --- models, errors, and staying offline ---------------------------------------------------


def test_missing_nltk_model_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    with pytest.raises(SentenceModelError) as error:
        get_segmenter("nltk:xx")
    message = str(error.value)
    assert "\n" not in message
    assert "nltk:xx is not installed" in message
    assert "python -m nltk.downloader punkt_tab" in message and "NLTK_DATA" in message


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("nltk:English", "lower-case name of a punkt_tab folder"),
        ("nltk:../x", "lower-case name of a punkt_tab folder"),
        ("spacy:en", "unknown sentence model 'spacy:en'"),
    ],
)
def test_bad_model_names_are_one_clear_line(model: str, words: str) -> None:
    with pytest.raises(SentenceModelError, match=re.escape(words)) as error:
        get_segmenter(model)
    assert "\n" not in str(error.value)


def test_cli_reports_a_missing_model_on_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    source = tmp_path / "a.md"
    source.write_text("# A\n\nOne. Two.\n", encoding="utf-8")
    result = CliRunner().invoke(cli.cli, ["convert", str(source), "--sentence-model", "nltk:xx"])
    assert result.exit_code != 0
    (line,) = [line for line in result.output.splitlines() if "nltk:xx" in line]
    assert "sentence model nltk:xx is not installed" in line and "NLTK_DATA" in line


def test_an_installed_punkt_tab_model_is_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "tokenizers" / "punkt_tab" / "testlang"
    folder.mkdir(parents=True)
    for name in PUNKT_FILES:
        (folder / name).write_text(
            "" if name == "abbrev_types.txt" else (DATA / name).read_text(encoding="utf-8"),
            encoding="utf-8",
        )
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    text = "It is approx. 5 km away. Go."
    assert get_segmenter("nltk:testlang").split(text) == [  # a model without abbreviations
        "It is approx.",
        "5 km away.",
        "Go.",
    ]
    assert get_segmenter().split(text) == ["It is approx. 5 km away.", "Go."]


def test_no_pickle_and_no_download() -> None:
    for path in (
        ROOT / "structchunk" / "sentences" / "models.py",
        ROOT / "structchunk" / "sentences" / "segmenter.py",
        ROOT / "structchunk" / "sentences" / "rules.py",
        TRAIN_SCRIPT,
    ):
        source = path.read_text(encoding="utf-8")
        for forbidden in (
            "import pickle",
            "pickle.load",
            "punkt_pickle_load",
            "nltk.download(",
            "nltk.data.load(",
        ):
            assert forbidden not in source, f"{path.name} uses {forbidden}"
    # At run time: any unpickling or network access fails the child process.
    probe = (
        "import sys\n"
        "def hook(event, args):\n"
        "    if event in ('pickle.find_class', 'socket.connect', 'urllib.Request'):\n"
        "        raise RuntimeError(event)\n"
        "sys.addaudithook(hook)\n"
        "import nltk\n"
        "nltk.download = None\n"
        "from structchunk import split_sentences\n"
        "assert len(split_sentences('Dr. Smith left. He was tired.')) == 2\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)


# --- the shipped parameters ----------------------------------------------------------------


def test_shipped_files_are_sorted_punkt_tab_that_nltk_itself_can_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in PUNKT_FILES:
        lines = (DATA / name).read_bytes().decode("utf-8").split("\n")
        assert lines[-1] == ""  # every line ends with \n
        assert lines[:-1] == sorted(set(lines[:-1])) and "" not in lines[:-1], name
    monkeypatch.setattr(nltk.data, "path", [str(DATA)])  # NLTK reads only under its path
    params = load_punkt_params(FileSystemPathPointer(str(DATA)))
    ours = model_params("bundled")
    assert params.abbrev_types == ours.abbrev_types
    assert params.sent_starters == ours.sent_starters
    assert params.collocations == ours.collocations
    assert dict(params.ortho_context) == dict(ours.ortho_context)


def test_curated_types_are_shipped() -> None:
    curated = _train_punkt().read_curated()
    params = model_params("bundled")
    assert (
        {
            "fig",
            "eq",
            "sec",
            "ch",
            "vol",
            "no",
            "pp",
            "approx",
            "cf",
            "e.g",
            "i.e",
            "inc",
            "dr",
            "prof",
            "jan",
            "u.s",
        }
        <= curated["abbrev_types"]
        <= params.abbrev_types
    )
    assert curated["sent_starters"] <= params.sent_starters


@pytest.mark.slow
@pytest.mark.skipif(SHARED_CORPUS is None, reason=NO_CORPUS_REASON)
def test_training_reproduces_the_shipped_files_byte_for_byte() -> None:
    assert SHARED_CORPUS is not None
    files = _train_punkt().build(SHARED_CORPUS)
    assert sorted(files) == sorted(PUNKT_FILES)
    for name, content in files.items():
        assert content.encode("utf-8") == (DATA / name).read_bytes(), name


# -- long paragraphs: read a window at a time, never against NLTK's regex clock ----------


def _varied_paragraph(sentences: int) -> str:
    """Sentences with the things Punkt weighs at a boundary: abbreviations, initials,
    numbers, quotations and ellipses."""
    patterns = [
        "Dr. Smith met J. R. Tolkien on Jan. 5 at 3.30 p.m. in St. Louis.",
        'She said "it works." Then it failed again...',
        "Version 2.5 fixed it, e.g. for U.S. users.",
        "Is it ready? Not yet!",
        "The cost was $4.5 million, i.e. more than planned.",
    ]
    return " ".join(f"{patterns[i % len(patterns)]} Step {i} ends here." for i in range(sentences))


def test_windowed_reading_cuts_exactly_where_one_pass_over_the_text_does() -> None:
    from structchunk.sentences.segmenter import WINDOW

    segmenter = get_segmenter()
    text = _varied_paragraph(1_500)  # about 100 KB: one pass still fits NLTK's 5 s
    assert len(text) > 4 * WINDOW
    one_pass = [start for start, _ in segmenter._punkt.span_tokenize(text)][1:]
    assert segmenter._punkt_cuts(text) == one_pass


def test_a_sentence_longer_than_the_window_is_read_whole() -> None:
    from structchunk.sentences.segmenter import WINDOW

    long_sentence = " ".join(["word"] * (WINDOW // 2)) + "."
    text = f"First one. {long_sentence} Last one."
    assert get_segmenter().split(text) == ["First one.", long_sentence, "Last one."]


def test_a_paragraph_of_100_000_sentences_is_split_not_timed_out() -> None:
    """Before: NLTK's 5-second regex limit raised TimeoutError ("internal error") on
    one pass over the 600 KB paragraph, depending on how busy the machine was."""
    from structchunk import chunk_text

    paragraph = " ".join(["Go on."] * 100_000)
    chunks = chunk_text(paragraph, format="markdown", max_tokens=200)
    assert sum(len(c.body.split()) for c in chunks) == 200_000
