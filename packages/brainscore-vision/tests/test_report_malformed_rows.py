"""``brainscore report`` names and skips a malformed store row and says how many it skipped (issue 34, item 5).

Before: a row whose timestamp is ``'yesterday'`` (SQLite stores any text in any column) stopped the whole report
with ``ValueError: Invalid isoformat string: 'yesterday'``. The rows here are damaged with plain SQL after a real
``ResultStore`` stored them; the expected counts are the rows we damaged.
"""

from __future__ import annotations

import sqlite3
import warnings
from datetime import UTC, datetime

import pytest
from report_fixtures import fill_store, make_row

from brainscore_vision.errors import MalformedRowWarning
from brainscore_vision.report import build_report
from brainscore_vision.report.rows import load_rows, split_malformed_rows

BENCHMARK = "Toy2026.objects-i2n"  # not installed: the report does not load anything for it


def _rows() -> list[dict]:
    models = ["pixels", "pixels", "randomnet", "alexnet", "cornet", "vgg"]
    return [make_row(index + 1, model, BENCHMARK, parent="behavior", raw=0.5, ceiled=0.1 * (index + 1), error=0.01,
                     ceiling=0.8, ceiling_error=0.02, version=1 + index % 2) for index, model in enumerate(models)]


@pytest.fixture
def damaged_store(tmp_path):
    """A store of six rows, with row 2's timestamp 'yesterday' and row 4's model identifier empty."""
    path = tmp_path / "results.sqlite"
    rows = _rows()
    fill_store(f"sqlite:///{path}", rows)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE scores SET timestamp = 'yesterday' WHERE id = 2")
        connection.execute("UPDATE scores SET model_identifier = '' WHERE id = 4")
    with sqlite3.connect(path) as connection:
        named = dict(connection.execute("SELECT id, benchmark_identifier FROM scores WHERE id IN (2, 4)").fetchall())
    return f"sqlite:///{path}", len(rows), named


def test_the_command_names_each_malformed_row_and_counts_them(damaged_store, tmp_path, capsys):
    from brainscore_vision.cli import main

    url, total, benchmarks = damaged_store
    assert main(["report", "--out", str(tmp_path / "site"), "--results-url", url]) == 0
    out, err = capsys.readouterr()
    assert "report written to" in out
    lines = err.splitlines()
    assert (f"brainscore report: row 2 (pixels on {benchmarks[2]}): timestamp 'yesterday' is not an ISO 8601 time; "
            "skipped") in lines
    assert any(line.startswith("brainscore report: row 4 ( on ") and "model_identifier '' is not an identifier"
               in line for line in lines)
    assert f"brainscore report: skipped 2 malformed rows of {total}" in lines
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "2 malformed rows skipped" in index
    assert all(f'data-model="{model}"' in index for model in ("pixels", "randomnet", "cornet", "vgg"))
    assert 'data-model="alexnet"' not in index  # its only row was the one without a model identifier


def test_build_report_warns_and_keeps_every_other_row(damaged_store, tmp_path):
    url, total, _ = damaged_store
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        build_report(tmp_path / "site", results_url=url, use_plugins=False)
    messages = [str(warning.message) for warning in caught if warning.category is MalformedRowWarning]
    assert len(messages) == 3 and messages[-1] == f"skipped 2 malformed rows of {total}"
    kept, skipped = split_malformed_rows(load_rows(url))
    assert sorted(row["id"] for row in kept) == [row_id for row_id in range(1, total + 1) if row_id not in (2, 4)]
    assert len(skipped) == 2


def test_timestamps_are_read_as_stored_and_normalised_to_utc():
    base = {"id": 1, "model_identifier": "m", "benchmark_identifier": "b"}
    rows = [{**base, "timestamp": "2026-11-23 00:55:58.266572"},  # SQLite's text, no zone: UTC
            {**base, "timestamp": datetime(2026, 11, 23, 1, 55, 58, tzinfo=UTC).astimezone()},  # PostgreSQL's
            {**base, "timestamp": "2026-11-23T02:55:58+02:00"},
            {**base, "timestamp": None}, {**base, "timestamp": 12}, {**base, "model_identifier": None,
                                                                       "timestamp": "2026-11-23"}]
    kept, skipped = split_malformed_rows(rows)
    assert [row["timestamp"] for row in kept] == ["2026-11-23T00:55:58.266572+00:00", "2026-11-23T01:55:58+00:00",
                                                   "2026-11-23T00:55:58+00:00"]
    assert skipped == ["row 1 (m on b): the timestamp is missing", "row 1 (m on b): timestamp 12 is not an ISO 8601 time",
                       "row 1 (None on b): model_identifier None is not an identifier"]

