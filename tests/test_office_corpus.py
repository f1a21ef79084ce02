"""Real decks and workbooks (tests/corpus/pptx, tests/corpus/xlsx and the samples): each
converts within budget with nothing lost (`strict`), and keeps every word an independent
reader (python-pptx, openpyxl) finds in what it shows; or fails with one line."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from conftest import LOCAL_CORPUS
from openpyxl import load_workbook
from pptx import Presentation
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.shapes.group import GroupShape

from structchunk import ChunkOptions
from structchunk.api import iter_chunks_from_bytes
from structchunk.errors import StructChunkError
from structchunk.parsers import detect_format
from structchunk.tokenizers import count_words

ROOT = Path(__file__).resolve().parent.parent
BUDGETS = (64, 256)
FILES = sorted(
    [*(LOCAL_CORPUS / "pptx").iterdir(), *(LOCAL_CORPUS / "xlsx").iterdir()]
    + [p for p in (ROOT / "samples").iterdir() if p.suffix in (".pptx", ".xlsx")]
)
EXPECTED_FAILURES: dict[str, str] = {}
"""File name → the start of its one-line error, for files meant to fail (none so far)."""
FURNITURE = {
    PP_PLACEHOLDER.DATE,
    PP_PLACEHOLDER.FOOTER,
    PP_PLACEHOLDER.SLIDE_NUMBER,
    PP_PLACEHOLDER.HEADER,
}
_WORD = re.compile(r"\w+")


def deck_words(path: Path) -> set[str]:
    """Words python-pptx finds in the visible slides' text frames, tables and notes."""
    words: set[str] = set()
    for slide in Presentation(str(path)).slides:
        if slide.element.get("show") == "0":
            continue
        stack = list(slide.shapes)
        while stack:
            shape = stack.pop()
            if isinstance(shape, GroupShape):
                stack.extend(shape.shapes)
            elif shape.is_placeholder and shape.placeholder_format.type in FURNITURE:
                continue
            elif shape.has_text_frame:
                words.update(_WORD.findall(shape.text_frame.text))
            elif getattr(shape, "has_table", False):
                for row in shape.table.rows:
                    for cell in row.cells:
                        words.update(_WORD.findall(cell.text))
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            words.update(_WORD.findall(slide.notes_slide.notes_text_frame.text))
    return words


def workbook_words(path: Path) -> set[str]:
    """Words openpyxl finds in the text cells of the visible sheets."""
    words: set[str] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = load_workbook(path, read_only=True, data_only=True)
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            continue
        sheet.reset_dimensions()  # docling-xlsx_04 claims a million rows it does not have
        for row in sheet.iter_rows(values_only=True):
            for value in row:
                if isinstance(value, str):
                    words.update(_WORD.findall(value))
    book.close()
    return words


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_real_office_file_converts_or_fails_in_one_line(path: Path, budget: int) -> None:
    options = ChunkOptions(max_tokens=budget)
    try:
        chunks = list(
            iter_chunks_from_bytes(
                path.read_bytes(), path.name, detect_format(path.name), options, strict=True
            )
        )
    except StructChunkError as error:
        assert "\n" not in str(error)
        assert str(error).startswith(EXPECTED_FAILURES.get(path.name, "\0")), str(error)
        return
    assert path.name not in EXPECTED_FAILURES
    for chunk in chunks:
        assert chunk.n_tokens == count_words(chunk.text) <= budget
        assert chunk.body.strip()
    found = set(_WORD.findall(" ".join(chunk.text for chunk in chunks)))
    expected = deck_words(path) if path.suffix.startswith(".ppt") else workbook_words(path)
    assert not expected - found, f"words lost: {sorted(expected - found)[:10]}"


@pytest.mark.parametrize(
    ("sample", "mime_type"),
    [
        (
            "slides-sample.pptx",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ),
        (
            "regional-sales.xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
    ],
)
def test_haystack_knows_office_streams_by_their_mime_type(sample: str, mime_type: str) -> None:
    pytest.importorskip("haystack")
    from haystack.dataclasses import ByteStream

    from structchunk.integrations.haystack import StructChunkConverter

    data = (ROOT / "samples" / sample).read_bytes()
    documents = StructChunkConverter().run(sources=[ByteStream(data=data, mime_type=mime_type)])
    assert documents["documents"]
    assert {d.meta["format"] for d in documents["documents"]} == {sample.rsplit(".", 1)[1]}
