"""Listing, deleting and exporting stored rows (what ``brainscore results list|delete|export`` runs), on SQLite
and on a real PostgreSQL server (fixture ``results_url``)."""

from __future__ import annotations

import csv
import json
import math

import pytest
import sqlalchemy as sa

from brainscore_core import Score
from brainscore_core.result_export import export_format_of, rows_as_csv, rows_as_json, write_rows
from brainscore_core.results import COLUMNS, ResultStore

# (model, benchmark, ceiled value): the rows every test starts from, ids 1..5 in this order
ROWS = [("alexnet", "MajajHong2015.IT-pls", 0.42), ("pixels", "MajajHong2015.IT-pls", 0.125),
        ("alexnet", "Cowley2023.V4-pls", 0.3), ("randomnet", "Cowley2023.V4-pls", 1 / 3),
        ("alexnet", "MajajHong2015.IT-pls", 0.5)]


def _filled(url: str) -> ResultStore:
    store = ResultStore(url)
    for model, benchmark, value in ROWS:
        score = Score(value)
        score.attrs["raw"], score.attrs["ceiling"] = Score(value / 2), Score(0.5)
        store.add(score, model_identifier=model, benchmark_identifier=benchmark, benchmark_version=1,
                  layer_map={"IT": "features.12"}, provenance={"elapsed_s": 1.5})
    return store


def _remaining(url: str) -> list[tuple[int, str, str]]:
    """(id, model, benchmark) of every row, read with plain SQL (not through the store's own reader)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(sa.text(
                "SELECT id, model_identifier, benchmark_identifier FROM scores ORDER BY id"))]
    finally:
        engine.dispose()


def test_rows_filter_by_several_identifiers_and_ids(results_url):
    store = _filled(results_url)
    assert [r["id"] for r in store.rows(model_identifier=["pixels", "randomnet"])] == [2, 4]
    assert [r["id"] for r in store.rows(model_identifier="alexnet", benchmark_identifier="Cowley2023.V4-pls")] == [3]
    assert [r["id"] for r in store.rows(ids=[5, 1, 99])] == [1, 5]
    assert store.identifiers() == {"model": ["alexnet", "pixels", "randomnet"],
                                   "benchmark": ["Cowley2023.V4-pls", "MajajHong2015.IT-pls"]}


@pytest.mark.parametrize(("filters", "deleted_ids"), [
    ({"model_identifier": "alexnet"}, [1, 3, 5]),
    ({"benchmark_identifier": "Cowley2023.V4-pls"}, [3, 4]),
    ({"ids": [2, 4]}, [2, 4]),
    ({"model_identifier": "alexnet", "benchmark_identifier": "MajajHong2015.IT-pls"}, [1, 5]),
])
def test_delete_removes_exactly_the_matching_rows(results_url, filters, deleted_ids):
    store = _filled(results_url)
    assert store.delete(**filters) == len(deleted_ids)
    expected = [(i + 1, model, benchmark) for i, (model, benchmark, _) in enumerate(ROWS) if i + 1 not in deleted_ids]
    assert _remaining(results_url) == expected
    assert store.delete(**filters) == 0  # nothing left to match


def test_delete_without_a_filter_is_refused(results_url):
    store = _filled(results_url)
    with pytest.raises(ValueError, match="refusing to delete every row"):
        store.delete()
    assert len(_remaining(results_url)) == len(ROWS)


def test_export_reads_back_to_the_stored_values(results_url, tmp_path):
    store = _filled(results_url)
    rows = store.rows(status=None)
    with open(write_rows(rows, tmp_path / "scores.csv"), newline="", encoding="utf-8") as file:
        table = list(csv.DictReader(file))
    assert list(table[0]) == list(COLUMNS)
    # the ceiled values as inserted (1/3 included: repr round-trips every float), parsed by the csv module
    assert [float(line["score_ceiled"]) for line in table] == [value for _, _, value in ROWS]
    assert [line["model_identifier"] for line in table] == [model for model, _, _ in ROWS]
    assert table[0]["error"] == "" and json.loads(table[0]["layer_map"]) == {"IT": "features.12"}

    documents = json.loads(write_rows(rows, tmp_path / "scores.json").read_text(encoding="utf-8"))
    assert [d["score_raw"] for d in documents] == [value / 2 for _, _, value in ROWS]
    assert documents[0]["layer_map"] == {"IT": "features.12"}  # decoded, not JSON text
    assert documents[0]["provenance"] == {"elapsed_s": 1.5} and documents[0]["error"] is None
    assert all(math.isclose(d["ceiling"], 0.5) for d in documents)


def test_export_format_and_atomic_replacement(tmp_path):
    assert export_format_of("a.CSV") == "csv" and export_format_of("x", "json") == "json"
    with pytest.raises(ValueError, match="'scores.txt'"):
        export_format_of("scores.txt")
    target = tmp_path / "scores.csv"
    target.write_text("previous", encoding="utf-8")
    write_rows([], target)
    assert target.read_text(encoding="utf-8") == ",".join(COLUMNS) + "\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["scores.csv"]  # no temporary file left
    assert rows_as_json([]) == "[]\n" and rows_as_csv([]).count("\n") == 1
