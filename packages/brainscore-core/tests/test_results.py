"""ResultStore on SQLite and on a real PostgreSQL server (same tests, parametrised by ``results_url``)."""

from __future__ import annotations

import json
import multiprocessing
from datetime import UTC, datetime

import numpy as np
import pytest

from brainscore_core.errors import NonScalarScoreError
from brainscore_core.metrics import Score
from brainscore_core.normalization import explained_variance
from brainscore_core.results import COLUMNS, ResultStore

EXPECTED_COLUMNS = ("id", "model_identifier", "benchmark_identifier", "benchmark_version", "benchmark_parent",
                    "score_raw", "score_ceiled", "error", "ceiling", "ceiling_error", "comment", "layer_map",
                    "provenance", "attrs", "timestamp", "status", "error_type", "error_message", "elapsed_s",
                    "model_digest", "versions", "failure_kind")


def _ceiled_score():
    raw = Score(0.6, attrs={"error": 0.02})
    ceiling = Score(0.8, attrs={"error": 0.01})
    score = explained_variance(raw, ceiling)  # 0.36 / 0.8 = 0.45
    score.attrs["comment"] = "layers: {'IT': 'features.12'}"
    return score


def test_columns_are_the_contract():
    assert COLUMNS == EXPECTED_COLUMNS


def test_add_and_read_back(results_url):
    store = ResultStore(results_url)
    stamp = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    row_id = store.add(_ceiled_score(), model_identifier="alexnet", benchmark_identifier="MajajHong2015.IT-pls",
                       benchmark_version=3, provenance={"data_sha1": "abc", "model": "def"},
                       benchmark_parent="IT", layer_map={"IT": "features.12"}, timestamp=stamp)
    (row,) = store.rows()
    assert tuple(row) == EXPECTED_COLUMNS and row["id"] == row_id
    assert (row["model_identifier"], row["benchmark_identifier"], row["benchmark_version"],
            row["benchmark_parent"]) == ("alexnet", "MajajHong2015.IT-pls", 3, "IT")
    assert row["score_ceiled"] == pytest.approx(0.45) and row["score_raw"] == pytest.approx(0.6)
    assert row["error"] == pytest.approx(0.02)  # the raw error, as explained_variance copies it
    assert row["ceiling"] == pytest.approx(0.8) and row["ceiling_error"] == pytest.approx(0.01)
    assert row["comment"] == "layers: {'IT': 'features.12'}"
    assert json.loads(row["layer_map"]) == {"IT": "features.12"}
    assert json.loads(row["provenance"]) == {"data_sha1": "abc", "model": "def"}
    assert json.loads(row["attrs"]) == {"error": 0.02, "comment": "layers: {'IT': 'features.12'}",
                                        "normalization": "raw² / ceiling"}  # the rule explained_variance applied
    assert row["timestamp"] == "2026-01-02T03:04:05+00:00"


def test_filters_and_order(results_url):
    store = ResultStore(results_url)
    for model, version in [("a", 1), ("b", 1), ("a", 2)]:
        store.add(Score(0.5), model_identifier=model, benchmark_identifier="B", benchmark_version=version)
    assert [r["model_identifier"] for r in store.rows()] == ["a", "b", "a"]
    assert [r["benchmark_version"] for r in store.rows(model_identifier="a")] == [1, 2]
    assert len(store.rows(model_identifier="a", benchmark_version=2)) == 1
    assert store.rows(benchmark_identifier="other") == []
    assert store.count() == 3


def test_json_attrs_keep_lists_and_dicts(results_url):
    store = ResultStore(results_url)
    score = Score(0.5, attrs={"model_rdm": np.array([[0.0, 0.5], [0.5, 0.0]]), "layer_scores": {"a": 0.1},
                              "subjects": ["s1", "s2"], "bad": np.nan, "raw": Score(0.7), "obj": object(),
                              "mixed": [1, object()]})
    store.add(score, model_identifier="m", benchmark_identifier="b", benchmark_version=1)
    assert json.loads(store.rows()[0]["attrs"]) == {
        "model_rdm": [[0.0, 0.5], [0.5, 0.0]], "layer_scores": {"a": 0.1}, "subjects": ["s1", "s2"], "bad": None}


def test_legacy_aggregation_form_and_nan(results_url):
    store = ResultStore(results_url)
    legacy = Score([0.4, 0.03], coords={"aggregation": ["center", "error"]}, dims=["aggregation"])
    store.add(legacy, model_identifier="m", benchmark_identifier="b", benchmark_version="2")
    store.add(Score(np.nan), model_identifier="m", benchmark_identifier="b", benchmark_version=2)
    first, second = store.rows()
    assert first["score_ceiled"] == pytest.approx(0.4) and first["error"] == pytest.approx(0.03)
    assert first["benchmark_version"] == 2 and first["score_raw"] is None and first["ceiling"] is None
    assert second["score_ceiled"] is None  # NaN is stored as NULL


def test_invalid_input_is_refused(results_url):
    store = ResultStore(results_url)
    with pytest.raises(NonScalarScoreError):
        store.add(Score([0.1, 0.2], dims=["region"]), model_identifier="m", benchmark_identifier="b",
                  benchmark_version=1)
    with pytest.raises(ValueError, match="benchmark_version of 'b'"):
        store.add(Score(0.1), model_identifier="m", benchmark_identifier="b", benchmark_version="v1")
    assert store.count() == 0


def _write_rows(url, worker, n_rows, barrier):
    store = ResultStore(url)
    store.engine  # noqa: B018 - connect and create the table before the race starts
    barrier.wait(timeout=120)  # a partner that failed to open the store fails this one too, not after 240 s
    for index in range(n_rows):
        store.add(Score(index / n_rows), model_identifier=f"worker{worker}", benchmark_identifier="B",
                  benchmark_version=1, provenance={"index": index})
    store.dispose()


def test_two_processes_writing_at_once_lose_no_rows(results_url):
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    workers = [context.Process(target=_write_rows, args=(results_url, worker, 200, barrier)) for worker in (0, 1)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=240)
    assert [process.exitcode for process in workers] == [0, 0]
    store = ResultStore(results_url)
    assert store.count() == 400
    assert len(store.rows(model_identifier="worker0")) == len(store.rows(model_identifier="worker1")) == 200


def test_a_new_store_opened_while_another_process_writes_to_the_file_waits_for_it(tmp_path):
    """Switching a file to WAL needs it alone, and SQLite says "database is locked" at once (no busy timeout) while
    another process is inside a write: two grid workers creating one new store together failed so (CI)."""
    import sqlite3
    import subprocess
    import sys

    path = tmp_path / "new.sqlite"
    holder = subprocess.Popen([sys.executable, "-c", f"""
import sqlite3, sys, time
connection = sqlite3.connect({str(path)!r}, isolation_level=None)  # a new file: rollback journal
connection.execute('CREATE TABLE other (x)')
connection.execute('BEGIN IMMEDIATE')  # inside a write, as another process creating the store
connection.execute('INSERT INTO other VALUES (1)')
print('writing', flush=True)
time.sleep(1.5)
connection.execute('COMMIT')
"""], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "writing"
        store = ResultStore(f"sqlite:///{path}")
        assert store.count() == 0  # before the fix: ResultStoreError "database is locked" at once
        store.add(Score(0.5), model_identifier="m", benchmark_identifier="b", benchmark_version=1)
        store.dispose()
    finally:
        holder.wait(timeout=30)
    assert holder.returncode == 0
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT COUNT(*) FROM other").fetchone()[0] == 1


def test_default_location_and_env_override(monkeypatch, tmp_path, _temporary_homes):
    assert ResultStore().url == f"sqlite:///{_temporary_homes / 'brainscore_home' / 'results.sqlite'}"
    ResultStore().add(Score(0.1), model_identifier="m", benchmark_identifier="b", benchmark_version=1)
    assert (_temporary_homes / "brainscore_home" / "results.sqlite").exists()
    monkeypatch.setenv("BRAINSCORE_RESULTS_URL", f"sqlite:///{tmp_path / 'other.sqlite'}")
    assert ResultStore().count() == 0


def test_sqlite_runs_in_wal_mode(tmp_path):
    import sqlalchemy as sa

    store = ResultStore(f"sqlite:///{tmp_path / 'r.sqlite'}")
    with store.engine.connect() as connection:
        assert connection.execute(sa.text("PRAGMA journal_mode")).scalar_one() == "wal"
        assert connection.execute(sa.text("PRAGMA busy_timeout")).scalar_one() > 0


def test_a_store_used_as_a_context_manager_leaves_only_its_database_file(tmp_path):
    with ResultStore(f"sqlite:///{tmp_path / 'r.sqlite'}") as store:
        store.add(Score(0.5), model_identifier="m", benchmark_identifier="b", benchmark_version=1)
        assert (tmp_path / "r.sqlite-wal").exists()  # WAL mode: the side files exist while a connection is open
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.sqlite"]
    assert ResultStore(f"sqlite:///{tmp_path / 'r.sqlite'}", read_only=True).count() == 1


def test_a_read_only_store_never_creates_anything(tmp_path):
    from brainscore_core.results import ResultStoreNotFoundError

    missing = tmp_path / "typo" / "folder" / "results.sqlite"
    with pytest.raises(ResultStoreNotFoundError, match="no results store at .*typo"):
        ResultStore(f"sqlite:///{missing}", read_only=True).rows()
    assert not (tmp_path / "typo").exists()
    empty = tmp_path / "empty.sqlite"
    empty.touch()  # a file that is not a store
    with pytest.raises(ResultStoreNotFoundError, match="no scores table"):
        ResultStore(f"sqlite:///{empty}", read_only=True).rows()
    writer = ResultStore(f"sqlite:///{tmp_path / 'real.sqlite'}")
    writer.rows()  # a writing store creates the file and table
    assert ResultStore(f"sqlite:///{tmp_path / 'real.sqlite'}", read_only=True).rows() == []
