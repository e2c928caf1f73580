"""Recorded reference values (every JSON file under ``tests/data/`` of every package: numbers or names computed with, or
read from, Brain-Score's own code and compared with ours) say where they came from: the commit, the version and the
date, at the file's top or in its ``provenance`` object."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[2]
RECORDED = sorted(PACKAGES.glob("*/tests/data/**/*.json"))
#: the distributions whose code a reference comes from, under the key that holds its version
REFERENCE_DISTRIBUTIONS = ("brainscore_vision", "brainscore_core")


def test_the_scan_sees_the_recorded_files():
    assert len(RECORDED) >= 6
    assert {path.parts[-4] for path in RECORDED} >= {"brainscore-metrics", "brainscore-vision"}


def _provenance(recorded: dict) -> tuple[object, object, dict]:
    """(commit, date, versions) of a recorded file: at its top (``reference_commit``, ``date``, the version under the
    distribution's import name), or in a ``provenance`` object (``commit``, ``date``, ``version``)."""
    if isinstance(recorded.get("provenance"), dict):
        provenance = recorded["provenance"]
        return provenance.get("commit"), provenance.get("date"), {"version": provenance.get("version")}
    versions = {key: recorded[key] for key in REFERENCE_DISTRIBUTIONS if key in recorded}
    return recorded.get("reference_commit"), recorded.get("date"), versions


@pytest.mark.parametrize("path", RECORDED, ids=lambda path: str(path.relative_to(PACKAGES)))
def test_every_recorded_reference_carries_its_provenance(path):
    recorded = json.loads(path.read_text())
    where = path.relative_to(PACKAGES)
    assert isinstance(recorded, dict), f"{where}: a recorded reference is a JSON object with its provenance at the top"
    commit, date, versions = _provenance(recorded)
    problems = []
    if not re.fullmatch(r"[0-9a-f]{40}", str(commit or "")):
        problems.append("the 40-hex commit of the reference code ('reference_commit')")
    if not versions or not all(re.fullmatch(r"\d+\.\d+(\.\d+)*", str(value)) for value in versions.values()):
        problems.append(f"the reference's version (under one of {REFERENCE_DISTRIBUTIONS})")
    try:
        datetime.date.fromisoformat(str(date))
    except ValueError:
        problems.append("'date' (YYYY-MM-DD, when it was recorded)")
    assert not problems, f"{where} lacks " + "; ".join(problems)
