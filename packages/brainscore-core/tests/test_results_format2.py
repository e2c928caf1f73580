"""Results store format 2 (issues 18 and 22): structured timing/version/digest columns, failed pairs, resume
lookups, side-file rows, migration of format-1 stores, and typed errors for locked or damaged stores."""

from __future__ import annotations

import sqlite3

import pytest

from brainscore_core.metrics import Score
from brainscore_core.result_rows import failure_row, row_from_json, row_to_json, score_row
from brainscore_core.results import ResultStore, ResultStoreError


def _score(value=0.5):
    score = Score(value)
    score.attrs["raw"] = Score(0.6)
    score.attrs["ceiling"] = Score(0.72)
    return score


def test_structured_columns_and_failures(tmp_path):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.sqlite'}")
    store.add(_score(), model_identifier="m", benchmark_identifier="b", benchmark_version=2, elapsed_s=1.5,
              model_digest="abc", versions={"brainscore_core": "3.0"})
    store.insert(failure_row(ValueError("bad layer\nmore"), model_identifier="m", benchmark_identifier="c",
                             benchmark_version=1, elapsed_s=0.1))
    (ok,) = store.rows()
    assert (ok["status"], ok["elapsed_s"], ok["model_digest"], ok["versions"]) == ("ok", 1.5, "abc",
                                                                                 '{"brainscore_core": "3.0"}')
    (failed,) = store.rows(status="failed")
    assert (failed["error_type"], failed["error_message"], failed["score_ceiled"]) == ("ValueError", "bad layer",
                                                                                      None)
    assert len(store.rows(status=None)) == 2
    assert store.find(model_identifier="m", benchmark_identifier="b", benchmark_version=2, model_digest="abc")
    assert store.find(model_identifier="m", benchmark_identifier="b", benchmark_version=2, model_digest="x") is None
    assert store.find(model_identifier="m", benchmark_identifier="b", benchmark_version=3, model_digest="abc") is None
    assert store.find(model_identifier="m", benchmark_identifier="c", benchmark_version=1, model_digest=None) is None


def test_side_file_rows_round_trip(tmp_path):
    row = score_row(_score(), model_identifier="m", benchmark_identifier="b", benchmark_version=1, elapsed_s=2.0)
    back = row_from_json(row_to_json(row))
    assert back == row
    store = ResultStore(f"sqlite:///{tmp_path / 'r.sqlite'}")
    store.insert(back)
    (stored,) = store.rows()
    assert stored["score_ceiled"] == 0.5 and stored["ceiling"] == 0.72 and stored["score_raw"] == 0.6


def test_a_format_1_store_gains_the_new_columns(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as connection:  # the table as format 1 created it
        connection.execute("CREATE TABLE scores (id INTEGER PRIMARY KEY, model_identifier VARCHAR(512) NOT NULL, "
                           "benchmark_identifier VARCHAR(512) NOT NULL, benchmark_version INTEGER NOT NULL, "
                           "benchmark_parent VARCHAR(512), score_raw FLOAT, score_ceiled FLOAT, error FLOAT, "
                           "ceiling FLOAT, ceiling_error FLOAT, comment TEXT, layer_map TEXT, provenance TEXT, "
                           "attrs TEXT, timestamp DATETIME NOT NULL)")
        connection.execute("INSERT INTO scores (model_identifier, benchmark_identifier, benchmark_version, "
                           "score_ceiled, timestamp) VALUES ('old', 'b', 1, 0.3, '2026-01-01 00:00:00')")
    store = ResultStore(f"sqlite:///{path}")
    store.add(_score(), model_identifier="new", benchmark_identifier="b", benchmark_version=1, elapsed_s=1.0)
    rows = store.rows()
    assert [row["model_identifier"] for row in rows] == ["old", "new"]  # an old row counts as a score
    assert rows[0]["status"] is None and rows[1]["elapsed_s"] == 1.0


def test_locked_store_fails_the_check_with_a_typed_error(tmp_path, monkeypatch):
    import brainscore_core.results as results

    monkeypatch.setattr(results, "SQLITE_BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "locked.sqlite"
    ResultStore(f"sqlite:///{path}").check()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ResultStoreError, match="locked.sqlite.*locked"):
            ResultStore(f"sqlite:///{path}").check()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_damaged_store_fails_with_a_typed_error(tmp_path, damage):
    path = tmp_path / "damaged.sqlite"
    store = ResultStore(f"sqlite:///{path}")
    store.add(_score(), model_identifier="m", benchmark_identifier="b", benchmark_version=1)
    store.dispose()
    data = path.read_bytes()
    path.write_bytes(b"this is not a database" * 100 if damage == "garbage" else data[:100])
    with pytest.raises(ResultStoreError, match="damaged.sqlite"):
        ResultStore(f"sqlite:///{path}").check()


def test_a_format_2_store_is_read_unchanged_and_gains_the_failure_kind_when_written(tmp_path):
    """Format 3 (issue 40) adds ``failure_kind``: read only, an older store is not altered (the column reads as
    None); the first write adds it, and the old failed row keeps None."""
    path = tmp_path / "format2.sqlite"
    with sqlite3.connect(path) as connection:  # the table as format 2 created it
        connection.execute("CREATE TABLE scores (id INTEGER PRIMARY KEY, model_identifier VARCHAR(512) NOT NULL, "
                           "benchmark_identifier VARCHAR(512) NOT NULL, benchmark_version INTEGER NOT NULL, "
                           "benchmark_parent VARCHAR(512), score_raw FLOAT, score_ceiled FLOAT, error FLOAT, "
                           "ceiling FLOAT, ceiling_error FLOAT, comment TEXT, layer_map TEXT, provenance TEXT, "
                           "attrs TEXT, timestamp DATETIME NOT NULL, status VARCHAR(16), error_type VARCHAR(256), "
                           "error_message TEXT, elapsed_s FLOAT, model_digest VARCHAR(128), versions TEXT)")
        connection.execute("INSERT INTO scores (model_identifier, benchmark_identifier, benchmark_version, status, "
                           "error_type, error_message, timestamp) VALUES ('old', 'b', 1, 'failed', 'ValueError', "
                           "'bad', '2026-01-01 00:00:00')")
    url = f"sqlite:///{path}"
    (row,) = ResultStore(url, read_only=True).rows(status="failed")
    assert (row["model_identifier"], row["failure_kind"]) == ("old", None)
    with sqlite3.connect(path) as connection:
        assert "failure_kind" not in [column[1] for column in connection.execute("PRAGMA table_info(scores)")]
    store = ResultStore(url)
    store.insert(failure_row(MemoryError("4 GB"), model_identifier="new", benchmark_identifier="b",
                             benchmark_version=1, failure_kind="oom"))
    assert [(row["model_identifier"], row["failure_kind"]) for row in store.rows(status="failed")] == [
        ("old", None), ("new", "oom")]
