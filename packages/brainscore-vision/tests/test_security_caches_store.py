"""Issue 41, findings 2 and 11-13 (brainscore-vision's side): ``brainscore cache prune`` never follows a link planted
in a cache, ``brainscore report`` refuses a damaged results store, and ``brainscore results export`` recovers the
readable rows of a damaged copy."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from brainscore_vision.cli import main

pytestmark = pytest.mark.security


@pytest.fixture
def homes(tmp_path, monkeypatch):
    home = tmp_path / "home"
    for name, value in (("BRAINSCORE_HOME", home), ("BRAINSCORE_DATA_STORE", home / "data_store"),
                        ("BRAINIO_HOME", tmp_path / "brainio")):
        monkeypatch.setenv(name, str(value))
    return home, tmp_path / "outside"


def _file(path: Path, content: bytes = b"x" * 100) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


# -- finding 2 -----------------------------------------------------------------------------------------------------
def test_prune_removes_planted_links_and_never_what_they_point_at(homes, capsys):
    """Before: ``brainscore cache prune`` went through ``ceilings/<link>/`` and deleted the JSON and arrays there,
    outside the cache."""
    home, outside = homes
    precious = [_file(outside / "ceilings" / "v1-abc.json"), _file(outside / "ceilings" / "v1-abc.raw.nc"),
                _file(outside / "entries" / "cd" / "cd33.run1.nc"), _file(outside / "index.json"),
                _file(outside / "weights.pth")]
    _file(home / "ceilings" / "Real.bench" / "v1-def.json")  # a genuine entry, pruned as usual
    (home / "ceilings").mkdir(parents=True, exist_ok=True)
    (home / "ceilings" / "Planted.bench").symlink_to(outside / "ceilings")
    (home / "activations" / "entries").mkdir(parents=True)
    (home / "activations" / "entries" / "cd").symlink_to(outside / "entries" / "cd")
    (home / "activations" / "index" / "cd").mkdir(parents=True)
    (home / "activations" / "index" / "cd" / "cd33-layer.json").symlink_to(outside / "index.json")
    (home / "weights").mkdir()
    (home / "weights" / "net.pth").symlink_to(outside / "weights.pth")
    links = [home / "ceilings" / "Planted.bench", home / "activations" / "entries" / "cd",
             home / "activations" / "index" / "cd" / "cd33-layer.json", home / "weights" / "net.pth"]
    assert main(["cache", "prune", "--max-size", "0", "--kind", "ceilings", "--kind", "activations",
                 "--kind", "weights", "--yes"]) == 0
    assert all(path.read_bytes() == b"x" * 100 for path in precious)
    assert not any(os.path.lexists(link) for link in links)  # the links themselves are gone
    assert not (home / "ceilings" / "Real.bench" / "v1-def.json").exists()


def test_a_path_reached_through_a_link_is_never_deleted_even_when_listed(homes):
    from brainscore_core.caches import CacheEntry, delete_entries

    home, outside = homes
    victim = _file(outside / "victim.nc")
    (home / "activations").mkdir(parents=True)
    (home / "activations" / "entries").symlink_to(outside)
    delete_entries([CacheEntry("activations", (home / "activations" / "entries" / "victim.nc",), 100, 0.0,
                               root=home / "activations")])
    assert victim.exists()


# -- findings 11 and 13: a damaged results store ------------------------------------------------------------------
_WRITE = """
import os, sys
from datetime import UTC, datetime
from brainscore_core.results import ResultStore
store = ResultStore(f"sqlite:///{sys.argv[1]}")
for i in range(500):
    store.insert({"model_identifier": f"model-{i:04d}", "benchmark_identifier": "B", "benchmark_version": 1,
                  "score_ceiled": 0.5, "comment": "c" * 150, "timestamp": datetime(2026, 1, 1, tzinfo=UTC)})
os._exit(0)  # no checkpoint: the newest pages stay in the -wal file, as after a crash
"""


@pytest.fixture
def truncated_store(tmp_path) -> Path:
    """A store of 500 rows cut to half its size while its newest pages were still in its WAL."""
    path = tmp_path / "results.sqlite"
    subprocess.run([sys.executable, "-c", _WRITE, str(path)], check=True, timeout=120)
    os.truncate(path, path.stat().st_size // 2)
    return path


def test_report_refuses_a_truncated_store_with_the_way_to_recover(truncated_store, tmp_path, capsys):
    """Before: the report failed with an error that named no damage and no way out (SQLite's "malformed", or an untyped
    ``ValueError: Invalid isoformat string``, depending on where the cut fell), and scoring stored rows into it."""
    status = main(["report", "--results-url", f"sqlite:///{truncated_store}", "--out", str(tmp_path / "report")])
    err = capsys.readouterr().err
    assert status != 0
    assert f"the results store {truncated_store} is damaged" in err and "brainscore results export" in err
    assert not (tmp_path / "report").exists()


def test_export_recovers_the_readable_rows_of_a_damaged_copy(truncated_store, tmp_path, capsys):
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(truncated_store.read_bytes())
    Path(f"{copy}-wal").write_bytes(Path(f"{truncated_store}-wal").read_bytes())
    out = tmp_path / "rows.csv"
    assert main(["results", "export", str(out), "--results-url", f"sqlite:///{copy}"]) == 0
    captured = capsys.readouterr()
    with open(out, newline="", encoding="utf-8") as file:
        models = [row["model_identifier"] for row in csv.DictReader(file)]
    assert 0 < len(models) < 500 and f"exported {len(models)} row(s)" in captured.out
    assert set(models) <= {f"model-{i:04d}" for i in range(500)} and models == sorted(models)
    assert "could not be read" in captured.err
