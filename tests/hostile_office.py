"""Hostile office inputs for the gate (see hostile_cases.py)."""

from __future__ import annotations

from hostile_cases import HostileCase

CASES: list[HostileCase] = []
