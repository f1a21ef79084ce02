"""Hostile office inputs for the gate (see hostile_cases.py): DOCX, PPTX, XLSX and EPUB
packages built to hurt (tests/package_inputs.py writes them)."""

from __future__ import annotations

import re
from functools import partial

import package_inputs as inputs
import workbook_inputs
from hostile_cases import HostileCase

DTD_REFUSED = "declares a DTD"
AMPLIFICATION = ("Maximum entity amplification factor exceeded",)
"""libxml2's limit on entity expansion, which an e-book's package document (parsed with
recovery, as readers do) can only fail on: nothing of it is left to read."""


def _slug(part: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", part.lower()).strip("-")


def _entity_cases() -> list[HostileCase]:
    """External entities and billion laughs in each part of each kind's base package:
    refused in an Office package (which never declares a DTD), left unexpanded in an
    e-book (whose NCX and XHTML 1.1 chapters declare one by the standard)."""
    cases = []
    for kind in inputs.KINDS:
        for part in inputs.PARTS[kind]:
            for attack in ("xxe", "laughs"):
                office = kind != "epub"
                bomb_in_opf = part.endswith(".opf") and attack == "laughs"
                cases.append(
                    HostileCase(
                        name=f"{attack}-{_slug(part)}.{kind}",
                        build=partial(inputs.entity_package, kind=kind, part=part, attack=attack),
                        outcome="error" if office or bomb_in_opf else "converted",
                        seconds=20,
                        peak_mb=300,
                        says=(DTD_REFUSED, part) if office else AMPLIFICATION * bomb_in_opf,
                        slow=part not in ("word/document.xml", "OEBPS/c1.xhtml"),
                    )
                )
    return cases


def _damaged_cases() -> list[HostileCase]:
    """A truncated package and a file that is no zip at all, under each kind's name."""
    cases = []
    for kind in inputs.KINDS:
        cases.append(
            HostileCase(
                name=f"truncated.{kind}",
                build=partial(inputs.truncated, kind=kind),
                outcome="error",
                seconds=20,
                peak_mb=300,
                says=("damaged zip package",),
                slow=kind != "xlsx",
            )
        )
        cases.append(
            HostileCase(
                name=f"not-a-zip.{kind}",
                build=inputs.not_a_zip,
                outcome="error",
                seconds=20,
                peak_mb=300,
                says=("not a zip package",),
                slow=kind != "pptx",
            )
        )
    return cases


CASES: list[HostileCase] = [
    *_entity_cases(),
    *_damaged_cases(),
    HostileCase(
        name="bomb-declared.docx",
        build=inputs.docx_bomb,
        outcome="error",
        says=("more than 200:1",),
    ),
    HostileCase(
        name="bomb-paragraphs.docx",
        build=partial(inputs.docx_bomb, size=1000 << 20, dense=True),
        outcome="error",
        says=("more than 200:1",),
    ),
    HostileCase(
        name="bomb-split.pptx",
        build=inputs.split_deck_bomb,
        outcome="error",
        says=("more than 200:1",),
    ),
    HostileCase(
        name="bomb-lying.docx",
        build=partial(inputs.docx_bomb, declared=1 << 20),
        outcome="error",
        says=("word/document.xml",),
    ),
    HostileCase(
        name="bomb-bzip2-lying.docx",
        build=inputs.bzip2_bomb,
        outcome="error",
        says=("compressed with bzip2", "word/document.xml"),
    ),
    HostileCase(
        name="members-200000.xlsx",
        build=partial(inputs.many_members, kind="xlsx"),
        outcome="error",
        says=("more than 100,000",),
    ),
    HostileCase(
        name="directory-2000000.xlsx",
        build=partial(inputs.long_directory, kind="xlsx"),
        outcome="error",
        says=("more than 100,000",),
    ),
    HostileCase(
        name="nested-tables-2000.docx",
        build=inputs.nested_tables,
        outcome="error",
        says=("256 deep",),
        slow=False,
    ),
    HostileCase(name="million-rows.xlsx", build=workbook_inputs.million_rows, outcome="either"),
    HostileCase(
        name="million-strings.xlsx", build=workbook_inputs.million_strings, outcome="converted"
    ),
    HostileCase(
        name="far-cell.xlsx", build=workbook_inputs.far_cell, outcome="converted", slow=False
    ),
    HostileCase(
        name="container-outside.epub",
        build=inputs.epub_container_outside,
        outcome="error",
        says=("no package document",),
    ),
    HostileCase(
        name="manifest-outside.epub", build=inputs.epub_manifest_outside, outcome="converted"
    ),
    HostileCase(name="spine-50000.epub", build=inputs.epub_repeated_spine, outcome="converted"),
    HostileCase(
        name="no-container.epub",
        build=inputs.epub_without_container,
        outcome="converted",
        says=("container.xml is missing",),
        slow=False,
    ),
]
