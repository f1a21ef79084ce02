"""Each section's language: detected with the shipped model (`language="auto"`) or
forced, recorded in every record and the run summary, and deciding how sentences split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from structchunk import Parent, chunk_text, iter_records, split_sentences
from structchunk.cli import cli
from structchunk.document import Paragraph, Section
from structchunk.errors import OptionsError
from structchunk.languages import detect
from structchunk.packing.language import DEFAULT_PENDING_SECTIONS, with_languages

SAMPLES = Path(__file__).parent / "multilingual" / "udhr"
GERMAN = (SAMPLES / "de.txt").read_text(encoding="utf-8")
ENGLISH = (SAMPLES / "en.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.txt")), ids=lambda p: p.stem)
def test_every_sample_is_detected(path: Path) -> None:
    assert detect(path.read_text(encoding="utf-8")).language == path.stem


def test_records_carry_the_language() -> None:
    chunks = chunk_text(f"# Erklärung\n\n{GERMAN}", max_tokens=200)
    assert {c.language for c in chunks} == {"de"}
    assert chunks[0].metadata()["language"] == "de"


def test_a_parent_carries_the_language_of_its_chunks(tmp_path: Path) -> None:
    """With parents on, a parent record says the language its chunks were read as."""
    source = tmp_path / "mixed.md"
    source.write_text(f"# One\n\n{ENGLISH}\n\n# Zwei\n\n{GERMAN}", encoding="utf-8")
    parents = [
        r for r in iter_records(source, parents=True, max_tokens=200) if isinstance(r, Parent)
    ]
    by_section = {p.heading_path[0]: p.language for p in parents}
    assert by_section == {"One": "en", "Zwei": "de"}
    assert parents[-1].metadata()["language"] == "de"


def test_a_long_section_in_another_language_is_decided_on_its_own() -> None:
    """A mixed document: the English sections are `en`, the long German one `de`, and the
    short section after it follows the German one."""
    doc = f"# One\n\n{ENGLISH}\n\n# Zwei\n\n{GERMAN}\n\n# Drei\n\nKurz.\n\n# Four\n\n{ENGLISH}"
    by_section = {c.heading_path[0]: c.language for c in chunk_text(doc, max_tokens=400)}
    assert by_section == {"One": "en", "Zwei": "de", "Drei": "de", "Four": "en"}


def test_short_sections_at_the_top_wait_for_the_first_decided_one() -> None:
    doc = f"# Titel\n\nKurz.\n\n# Inhalt\n\nNoch kürzer.\n\n# Erklärung\n\n{GERMAN}"
    assert {c.language for c in chunk_text(doc, max_tokens=400)} == {"de"}


def test_a_document_without_enough_prose_is_decided_on_all_of_it_or_not_at_all() -> None:
    assert {c.language for c in chunk_text("# Title\n\nShort.\n")} <= {None, "en"}
    code_only = "# x\n\n```\n1 2 3\n```\n"
    assert {c.language for c in chunk_text(code_only)} == {None}


def test_held_sections_are_handed_on_after_the_cap() -> None:
    sections = [
        Section(f"{i}", 1, [Paragraph(text="1 2 3")]) for i in range(DEFAULT_PENDING_SECTIONS + 5)
    ]
    paired = list(with_languages(sections, "auto"))
    assert [s for s, _ in paired] == sections  # each once, in order


def test_forced_language_splits_as_that_language() -> None:
    text = (
        "# Titel\n\nDie Firma z. B. hat am 3. Okt. 2023 ca. 5 Mio. Euro investiert. Das war viel.\n"
    )
    forced = chunk_text(text, max_tokens=16, language="de")
    assert [c.body for c in forced] == [
        "Die Firma z. B. hat am 3. Okt. 2023 ca. 5 Mio. Euro investiert.",
        "Das war viel.",
    ]
    assert {c.language for c in forced} == {"de"}
    assert {c.language for c in chunk_text(text, max_tokens=16, language="en")} == {"en"}
    sentence = forced[0].body
    assert len(split_sentences(sentence)) > 1  # English Punkt cuts it, as the issue found


def test_the_run_summary_counts_chunks_per_language(tmp_path: Path) -> None:
    (tmp_path / "de.md").write_text(f"# Erklärung\n\n{GERMAN}", encoding="utf-8")
    (tmp_path / "en.md").write_text(f"# Declaration\n\n{ENGLISH}", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["convert", str(tmp_path), "-o", str(tmp_path / "out.jsonl")], catch_exceptions=False
    )
    assert result.exit_code == 0
    assert "; languages de 2 · en 2;" in result.stderr
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert sorted(r["language"] for r in records) == ["de", "de", "en", "en"]


def test_a_bad_language_is_an_options_error() -> None:
    with pytest.raises(OptionsError, match="language"):
        chunk_text("x", language="German")
