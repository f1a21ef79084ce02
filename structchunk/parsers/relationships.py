"""How an Office package (DOCX, XLSX) names its parts: relationships.

A package says which part is its main document in `_rels/.rels`, and each part names
the parts it uses in its own `.rels` (`word/_rels/document.xml.rels`). The usual part
names are a convention, not the rule, so readers follow these. Read as forgivingly as
Office reads them: part names without case, backslashes in targets as slashes, a type's
trailing slash ignored, external targets and empty ones skipped. Types are compared by
their last segment, which the transitional and the Strict vocabularies share.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from lxml import etree

from .packages import Package

PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
"""The namespace of `.rels` parts (the same in transitional and Strict packages)."""


@dataclass(frozen=True, slots=True)
class Relationship:
    type: str
    """The relationship type's last segment: `officeDocument`, `worksheet`, `table` …"""
    target: str
    """The part's name in the package (no leading slash)."""


def relationships_part(part: str) -> str:
    """The `.rels` part that holds `part`'s relationships (`_rels/.rels` for "", the
    package's own)."""
    folder, name = posixpath.split(part.lstrip("/"))
    return posixpath.join(folder, "_rels", f"{name}.rels")


def find_part(package: Package, name: str) -> str | None:
    """The zip member for a part name (part names are case-insensitive in OPC)."""
    names = package.names()
    if name in names:
        return name
    lowered = name.lower()
    return next((n for n in names if n.lower() == lowered), None)


def read_relationships(rels: etree._Element, part: str) -> list[tuple[str, Relationship]]:
    """The internal relationships in `part`'s parsed `.rels`, by id, in their order,
    targets resolved against `part`'s folder."""
    folder = posixpath.dirname(part.lstrip("/"))
    found = []
    for rel in rels.iter(f"{{{PACKAGE_RELATIONSHIPS}}}Relationship"):
        if rel.get("TargetMode", "Internal") == "External":
            continue
        target = str(rel.get("Target", "")).replace("\\", "/")
        if not target:
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
        kind = str(rel.get("Type", "")).rstrip("/").rsplit("/", 1)[-1]
        found.append((str(rel.get("Id", "")), Relationship(kind, posixpath.normpath(path))))
    return found
