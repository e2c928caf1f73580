"""Issue 41, findings 1, 3 and 11 (brainscore-core's side): weight-file names from plugins confined to their folder, a
planted ceiling record never read, and a damaged SQLite results store refused before it takes a row."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import warnings
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from brainio.errors import PathOutsideRootError

pytestmark = pytest.mark.security


def _upload(bucket: str, key: str, content: bytes) -> None:
    import boto3

    boto3.client("s3").put_object(Bucket=bucket, Key=key, Body=content)


# -- finding 1: names from plugin code -----------------------------------------------------------------------------
def test_a_weight_file_named_up_and_out_cannot_replace_the_results_store(s3_bucket):
    """Before: ``load_weight_file(bucket, '../results.sqlite', ...)`` downloaded the object ``models/../results.sqlite``
    to ``$BRAINSCORE_HOME/results.sqlite`` (inside the home, outside its folder ``models``) and replaced the store."""
    from brainscore_core.s3_files import load_weight_file

    home = Path(os.environ["BRAINSCORE_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "results.sqlite").write_bytes(b"the user's results")
    _upload(s3_bucket, "models/../results.sqlite", b"a plugin's bytes")
    with pytest.raises(PathOutsideRootError) as caught:
        load_weight_file(s3_bucket, "../results.sqlite", None, None)
    assert caught.value.name == "../results.sqlite" and caught.value.root == str(home / "models")
    assert (home / "results.sqlite").read_bytes() == b"the user's results"


@pytest.mark.parametrize("folder_name", ["..", "", "models/../.."])
def test_a_weight_folder_outside_the_home_or_the_home_itself_is_refused(s3_bucket, folder_name):
    from brainscore_core.s3_files import load_weight_file

    with pytest.raises(PathOutsideRootError, match="weight folder"):
        load_weight_file(s3_bucket, "results.sqlite", None, None, folder_name=folder_name)


def test_download_weights_refuses_names_outside_the_save_directory_before_downloading(s3_bucket, tmp_path):
    """Before: ``load_folder_from_s3`` wrote ``../x`` and absolute names outside its ``save_directory``."""
    from brainscore_core.s3_files import load_folder_from_s3

    outside = tmp_path / "outside.txt"
    for name in ("ok.bin", "../outside.txt", str(outside)):
        _upload(s3_bucket, f"models/net/{name}".replace("//", "/"), b"plugin bytes")
    for name in ("../outside.txt", str(outside)):
        with pytest.raises(PathOutsideRootError, match="outside its folder"):
            load_folder_from_s3(s3_bucket, "models/net", [("ok.bin", None, None), (name, None, None)],
                                tmp_path / "plugin")
    assert not outside.exists()
    assert not (tmp_path / "plugin" / "ok.bin").exists()  # every name is checked before the first download


# -- finding 3: a planted ceiling record ------------------------------------------------------------------------------
def test_a_ceiling_record_naming_a_file_outside_its_folder_is_a_miss(tmp_path):
    """Before: a record whose array entry named ``../../outside/planted.nc`` (with that file's sha1 and a matching
    content digest, which anyone can compute) was read as the ceiling."""
    from brainio.files import sha1_hash
    from brainio.netcdf import write_netcdf
    from brainio.records import content_sha1
    from brainscore_core._ceiling_cache import CeilingCache
    from brainscore_core.score import Score

    cache = CeilingCache(tmp_path / "ceilings")
    ceiling = Score(0.8)
    ceiling.attrs["raw"] = Score(xr.DataArray(np.array([0.7, 0.9]), dims=["split"]))
    path = cache.save(ceiling, "Bench.x", 1, "d" * 40)
    assert float(cache.load("Bench.x", 1, "d" * 40).attrs["raw"].sum()) == pytest.approx(1.6)
    planted = tmp_path / "outside" / "planted.nc"
    planted.parent.mkdir()
    write_netcdf(xr.DataArray(np.array([123.0, 456.0]), dims=["split"]), planted)
    record = json.loads(path.read_text())
    record.pop("record_sha1")
    record["arrays"]["raw"] = {"file": "../../outside/planted.nc", "sha1": sha1_hash(planted)}
    record["record_sha1"] = content_sha1(record)
    path.write_text(json.dumps(record))
    with pytest.warns(RuntimeWarning, match=r"names a file outside its folder.*'../../outside/planted.nc'"):
        assert cache.load("Bench.x", 1, "d" * 40) is None


# -- finding 11: a damaged SQLite results store -----------------------------------------------------------------------
_WRITE = """
import os, sys
from datetime import UTC, datetime
from brainscore_core.results import ResultStore
store = ResultStore(f"sqlite:///{sys.argv[1]}")
for i in range(int(sys.argv[2])):
    store.insert({"model_identifier": f"model-{i:04d}", "benchmark_identifier": "B", "benchmark_version": 1,
                  "score_ceiled": 0.5, "comment": "c" * 150, "timestamp": datetime(2026, 1, 1, tzinfo=UTC)})
if sys.argv[3] == "killed":
    os._exit(0)  # no checkpoint: the newest pages stay in the -wal file, as after a crash
store.dispose()
"""


def _store_with_rows(path: Path, count: int = 600, *, killed: bool = False) -> list[str]:
    """``count`` rows written by another process, which ends normally or dies before the WAL is checkpointed."""
    subprocess.run([sys.executable, "-c", _WRITE, str(path), str(count), "killed" if killed else "closed"],
                   check=True, timeout=120)
    assert Path(f"{path}-wal").exists() == killed
    return [f"model-{i:04d}" for i in range(count)]


def _zero_a_middle_leaf(path: Path) -> None:
    """Zero the page holding the row of the middle id (found with SQLite's own page reader, not our code)."""
    with sqlite3.connect(path) as connection:
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        count = connection.execute("SELECT count(*) FROM scores").fetchone()[0]
        page = connection.execute("SELECT pageno FROM dbstat WHERE name = 'scores' AND pagetype = 'leaf' "
                                  "ORDER BY pageno").fetchall()
    connection.close()
    target = page[len(page) // 2][0] if page else (path.stat().st_size // page_size) // 2
    assert count
    with open(path, "r+b") as file:
        file.seek((target - 1) * page_size)
        file.write(bytes(page_size))


@pytest.mark.parametrize("damage", ["zeroed page", "truncated to half", "truncated to half, newest pages in its WAL"])
def test_a_damaged_sqlite_store_takes_no_row_and_says_how_to_recover(tmp_path, damage):
    """Before: SQLite took a new row (exit status 0) into a file with a zeroed page, or cut in half while its newest
    pages were in the WAL, and the file stayed damaged: the user believed the row was stored. Reading the latter (the
    report) failed with an untyped ``ValueError: Invalid isoformat string``."""
    from brainscore_core.errors import DamagedResultStoreError
    from brainscore_core.results import ResultStore

    path = tmp_path / "results.sqlite"
    written = _store_with_rows(path, killed="WAL" in damage)
    if damage == "zeroed page":
        _zero_a_middle_leaf(path)
    else:
        os.truncate(path, path.stat().st_size // 2)
    before = path.read_bytes()
    wal = Path(f"{path}-wal").read_bytes() if "WAL" in damage else b""
    for store in (ResultStore(f"sqlite:///{path}"), ResultStore(f"sqlite:///{path}", read_only=True)):
        with pytest.raises(DamagedResultStoreError) as caught:
            store.insert({"model_identifier": "new", "benchmark_identifier": "B", "benchmark_version": 1,
                          "timestamp": datetime.now(UTC)}) if not store.read_only else store.rows()
        message = str(caught.value)
        assert str(path) in message and "brainscore results export" in message and ".copy" in message
    assert path.read_bytes() == before  # a read-only check leaves at most an empty -wal beside it
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").read_bytes() == wal

    copy = tmp_path / "copy.sqlite"  # the advice: export from a copy
    shutil.copyfile(path, copy)
    if wal:
        shutil.copyfile(f"{path}-wal", f"{copy}-wal")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = ResultStore(f"sqlite:///{copy}", salvage=True).rows(status=None)
    assert any("could not be read" in str(warning.message) for warning in caught)
    read = [row["model_identifier"] for row in rows]
    assert read == [written[row["id"] - 1] for row in rows]  # each row read back whole, in order
    assert rows[0]["timestamp"] == "2026-01-01T00:00:00+00:00"
    lost = [model for model in written if model not in set(read)]
    if damage == "zeroed page":  # one leaf's rows
        assert 0 < len(lost) < 60 and lost == written[written.index(lost[0]):written.index(lost[-1]) + 1]
    else:
        assert 0 < len(read) < len(written)
        assert "WAL" in damage or read == written[:len(read)]  # without a WAL: the rows up to the cut


def test_a_healthy_store_passes_its_check_and_a_non_database_keeps_its_error(tmp_path):
    from brainscore_core.errors import DamagedResultStoreError, ResultStoreError
    from brainscore_core.results import ResultStore

    path = tmp_path / "results.sqlite"
    _store_with_rows(path, count=5)
    assert len(ResultStore(f"sqlite:///{path}", read_only=True).rows()) == 5
    other = tmp_path / "notes.sqlite"
    other.write_text("not a database at all " * 50)
    with pytest.raises(ResultStoreError) as caught:
        ResultStore(f"sqlite:///{other}").check()
    assert not isinstance(caught.value, DamagedResultStoreError) and "not a database" in str(caught.value)
