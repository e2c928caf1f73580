"""``brainscore results list | delete | export``, on a SQLite file and on a real PostgreSQL server."""

from __future__ import annotations

import csv
import io
import json

import pytest

from brainscore_vision.cli import EXIT_FAILED, EXIT_USAGE, main

# (model, benchmark, ceiled value); ids 1..4 in this order
ROWS = [("alexnet", "MajajHong2015.IT-pls", 0.42), ("pixels", "Kriegeskorte2008.hIT-rdm", 0.125),
        ("alexnet", "Kriegeskorte2008.hIT-rdm", 0.25), ("randomnet", "Cowley2023.V4-pls", 0.5)]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """A results store holding ROWS."""
    from brainscore_core import Score
    from brainscore_core.local_postgres import new_database
    from brainscore_core.results import ResultStore

    if request.param == "sqlite":
        address = f"sqlite:///{tmp_path / 'results.sqlite'}"
    else:
        address = new_database(request.getfixturevalue("postgres_server"))
    store = ResultStore(address)
    for model, benchmark, value in ROWS:
        store.add(Score(value), model_identifier=model, benchmark_identifier=benchmark, benchmark_version=1)
    store.dispose()
    return address


def run(capsys, monkeypatch, *argv, answer=None):
    if answer is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(answer))
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def stored(url):
    from brainscore_core.results import ResultStore

    store = ResultStore(url)
    try:
        return [(row["id"], row["model_identifier"], row["benchmark_identifier"]) for row in store.rows(status=None)]
    finally:
        store.dispose()


def test_list_prints_every_row_and_filters(capsys, monkeypatch, url):
    status, out, _ = run(capsys, monkeypatch, "results", "list", "--results-url", url)
    assert status == 0
    lines = out.strip().splitlines()
    assert lines[0].split()[:3] == ["id", "model", "benchmark"]
    assert [line.split()[:3] for line in lines[1:-1]] == [[str(i + 1), m, b] for i, (m, b, _) in enumerate(ROWS)]
    assert lines[1].split()[4] == "0.4200" and lines[-1].startswith("4 row(s) in ")
    status, out, _ = run(capsys, monkeypatch, "results", "list", "--results-url", url, "--model", "alexnet",
                         "--benchmark", "Kriegeskorte2008.hIT-rdm")
    assert [line.split()[0] for line in out.strip().splitlines()[1:-1]] == ["3"]


def test_delete_asks_first_and_deletes_only_when_confirmed(capsys, monkeypatch, url):
    status, out, err = run(capsys, monkeypatch, "results", "delete", "--model", "alexnet", "--results-url", url,
                           answer="n\n")
    assert status == EXIT_FAILED and "nothing deleted" in err and "delete these 2 row(s)" in err
    assert len(stored(url)) == 4
    status, out, err = run(capsys, monkeypatch, "results", "delete", "--model", "alexnet", "--results-url", url,
                           answer="")  # no answer at all (end of input) is no
    assert status == EXIT_FAILED and len(stored(url)) == 4
    status, out, _ = run(capsys, monkeypatch, "results", "delete", "--model", "alexnet", "--results-url", url,
                         answer="y\n")
    assert status == 0 and "deleted 2 row(s)" in out
    assert stored(url) == [(2, "pixels", "Kriegeskorte2008.hIT-rdm"), (4, "randomnet", "Cowley2023.V4-pls")]


def test_delete_by_id_and_benchmark_without_asking(capsys, monkeypatch, url):
    status, out, _ = run(capsys, monkeypatch, "results", "delete", "--id", "4", "--yes", "--results-url", url)
    assert status == 0 and "deleted 1 row(s)" in out
    status, _, _ = run(capsys, monkeypatch, "results", "delete", "--benchmark", "Kriegeskorte2008.hIT-rdm", "-y",
                       "--results-url", url)
    assert status == 0 and stored(url) == [(1, "alexnet", "MajajHong2015.IT-pls")]


def test_delete_errors_are_one_line(capsys, monkeypatch, url):
    status, _, err = run(capsys, monkeypatch, "results", "delete", "--model", "alexnett", "--yes",
                         "--results-url", url)
    assert status == EXIT_USAGE and len(err.strip().splitlines()) == 1
    assert "no model 'alexnett' is stored; did you mean 'alexnet'?" in err
    status, _, err = run(capsys, monkeypatch, "results", "delete", "--results-url", url)
    assert status == EXIT_USAGE and "--id N, --model MODEL or --benchmark BENCHMARK" in err
    assert len(stored(url)) == 4


def test_export_csv_and_json(capsys, monkeypatch, url, tmp_path):
    status, out, _ = run(capsys, monkeypatch, "results", "export", str(tmp_path / "all.csv"), "--results-url", url)
    assert status == 0 and "exported 4 row(s)" in out
    with open(tmp_path / "all.csv", newline="", encoding="utf-8") as file:
        table = list(csv.DictReader(file))
    assert [(line["model_identifier"], float(line["score_ceiled"])) for line in table] == [
        (model, value) for model, _, value in ROWS]
    status, out, _ = run(capsys, monkeypatch, "results", "export", "-", "--format", "json", "--model", "pixels",
                         "--results-url", url)
    documents = json.loads(out)
    assert [(d["id"], d["score_ceiled"]) for d in documents] == [(2, 0.125)]
    status, _, err = run(capsys, monkeypatch, "results", "export", str(tmp_path / "all.txt"), "--results-url", url)
    assert status == EXIT_USAGE and "all.txt" in err and not (tmp_path / "all.txt").exists()


def test_list_of_a_store_that_does_not_exist_says_so(capsys, monkeypatch, tmp_path):
    status, out, _ = run(capsys, monkeypatch, "results", "list", "--results-url",
                         f"sqlite:///{tmp_path / 'none' / 'results.sqlite'}")
    assert status == 0 and "no results store at" in out and not (tmp_path / "none").exists()


def test_export_puts_large_arrays_in_a_side_file_so_the_csv_reads_with_defaults(capsys, monkeypatch, tmp_path):
    # issue 42: ten RSA rows embedded their 92 x 92 RDMs: 2.3 MB of CSV, and the csv module refused the field
    import numpy as np

    from brainscore_core import Score
    from brainscore_core.results import ResultStore

    url = f"sqlite:///{tmp_path / 'rdms.sqlite'}"
    rng = np.random.default_rng(0)
    store = ResultStore(url)
    model_rdms = [rng.random((92, 92)) for _ in range(10)]
    for index, rdm in enumerate(model_rdms):
        score = Score(0.1 * index)
        score.attrs.update({"model_rdm": rdm, "subject_rdms": rng.random((2, 92, 92)), "n_stimuli": 92,
                            "layer_scores": {"IT": {f"layer{i}": float(i) for i in range(3)}}})
        store.add(score, model_identifier=f"m{index}", benchmark_identifier="Kriegeskorte2008.hIT-rdm",
                  benchmark_version=1)
    store.dispose()

    status, out, _ = run(capsys, monkeypatch, "results", "export", str(tmp_path / "all.csv"), "--results-url", url)
    assert status == 0 and f"large arrays in {tmp_path / 'all.arrays.json'}" in out
    with open(tmp_path / "all.csv", newline="", encoding="utf-8") as file:  # the csv module's defaults
        table = list(csv.DictReader(file))
    assert len(table) == 10 and (tmp_path / "all.csv").stat().st_size < 20_000
    attrs = json.loads(table[3]["attrs"])
    assert attrs["model_rdm"] == {"side_file": "all.arrays.json"} and attrs["n_stimuli"] == 92
    assert attrs["layer_scores"] == {"IT": {"layer0": 0.0, "layer1": 1.0, "layer2": 2.0}}  # small: kept
    side = {entry["id"]: entry for entry in json.loads((tmp_path / "all.arrays.json").read_text())}
    assert set(side) == {int(line["id"]) for line in table}
    entry = side[int(table[3]["id"])]
    assert entry["model_identifier"] == "m3" and set(entry["attrs"]) == {"model_rdm", "subject_rdms"}
    np.testing.assert_array_equal(np.asarray(entry["attrs"]["model_rdm"]), model_rdms[3])

    status, out, err = run(capsys, monkeypatch, "results", "export", "-", "--results-url", url)
    assert status == 0 and "large arrays of 10 row(s) left out" in err
    assert len(list(csv.DictReader(io.StringIO(out)))) == 10

    status, _, _ = run(capsys, monkeypatch, "results", "export", str(tmp_path / "full.csv"), "--with-arrays",
                       "--results-url", url)
    assert status == 0 and not (tmp_path / "full.arrays.json").exists()
    with open(tmp_path / "full.csv", newline="", encoding="utf-8") as file, pytest.raises(csv.Error, match="limit"):
        list(csv.DictReader(file))  # what the flag asks for: the defaults refuse such a field
