"""The brainscore command line: exit codes and one-line reasons, listing, scoring into a results store."""

import os
from pathlib import Path

import pytest
from conftest import registered_model

from brainscore_vision.cli import EXIT_MISSING_DATA, EXIT_USAGE, main


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_unknown_benchmark_exits_2_with_close_matches(capsys):
    status, _, err = run(capsys, "score", "--model", "pixels", "--benchmark", "Cowley2023.V4-plss", "--no-store")
    assert status == EXIT_USAGE
    assert len(err.strip().splitlines()) == 1
    assert "no benchmark registered as 'Cowley2023.V4-plss'" in err and "'Cowley2023.V4-pls'" in err


def test_unknown_model_exits_2(capsys):
    status, _, err = run(capsys, "score", "--model", "no-such-model-xyz", "--benchmark", "Cowley2023.V4-pls",
                         "--no-store")
    assert status == EXIT_USAGE
    assert "no model registered as 'no-such-model-xyz'" in err and len(err.strip().splitlines()) == 1


def test_missing_raw_data_exits_3_naming_variable_and_path(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BRAINSCORE_RAW_DATA", str(tmp_path / "nowhere"))
    monkeypatch.setenv("BRAINSCORE_DATA_STORE", str(tmp_path / "empty-store"))
    status, _, err = run(capsys, "data", "prepare", "Cowley2023")
    assert status == EXIT_MISSING_DATA
    assert "BRAINSCORE_RAW_DATA" in err and str(tmp_path / "nowhere" / "cowley2023_v4") in err
    registered_model("pixels")
    status, _, err = run(capsys, "score", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store")
    assert status == EXIT_MISSING_DATA
    assert "BRAINSCORE_RAW_DATA" in err and str(tmp_path / "nowhere" / "kriegeskorte2008") in err


def test_list_benchmarks(capsys):
    status, out, _ = run(capsys, "list", "benchmarks")
    assert status == 0
    lines = {line.split()[0]: line.split()[1] for line in out.strip().splitlines()}
    assert lines["Cowley2023.V4-pls"] == "brainscore-vision" and "Kiani2007.mIT-rdm" in lines


def test_data_prepare_and_ceiling(capsys, kriegeskorte_raw):
    status, out, _ = run(capsys, "data", "prepare", "Kriegeskorte2008")
    assert status == 0 and "92 stimuli" in out
    status, out, _ = run(capsys, "ceiling", "Kriegeskorte2008.hIT-rdm")
    assert status == 0 and out.startswith("Kriegeskorte2008.hIT-rdm  ceiling 0.") and "lower_bound_loo" in out


def test_score_prints_table_and_stores_rows(capsys, tmp_path, kriegeskorte_raw):
    registered_model("pixels")
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    status, out, err = run(capsys, "score", "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm",
                           "--benchmark", "Kriegeskorte2008.hIT-rdm", "--results-url", url)
    assert status == 0, err
    header, _, *rows = out.strip().splitlines()[:4]
    assert header.split()[:4] == ["model", "benchmark", "raw", "ceiling"] and "layer map" in header
    assert rows[0].split()[:2] == ["pixels", "Kiani2007.mIT-rdm"]
    from brainscore_core.results import ResultStore

    stored = ResultStore(url).rows()
    assert [(r["model_identifier"], r["benchmark_identifier"]) for r in stored] == [
        ("pixels", "Kiani2007.mIT-rdm"), ("pixels", "Kriegeskorte2008.hIT-rdm")]
    assert stored[0]["ceiling"] == pytest.approx(1.0)
    assert stored[1]["score_ceiled"] == pytest.approx(stored[1]["score_raw"] / stored[1]["ceiling"])
    # both benchmarks are declared with parent="IT" in benchmarks/kriegeskorte2008/benchmark.py
    assert [r["benchmark_parent"] for r in stored] == ["IT", "IT"]


class _Committed:
    """A model after layer selection: the attributes model-tools' ModelCommitment exposes."""

    layer_map = {"IT": "block3"}
    layer_scores = {"IT": {"block2": 0.25, "block3": 0.5}}


class _Versionless:
    parent, version = "IT", None


def test_stored_row_has_parent_layer_map_and_layer_scores(tmp_path):
    import json

    from brainscore_core.metrics import Score
    from brainscore_core.results import ResultStore
    from brainscore_core.scoring import score_pair

    class Benchmark(_Versionless):
        identifier = "b"

        def __call__(self, candidate):
            score = Score(0.5)
            score.attrs["raw"] = Score(0.25)
            return score

    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    score_pair(_Committed(), Benchmark(), model_identifier="m", store=url)  # the one path that stores a row
    (row,) = ResultStore(url).rows()
    # a benchmark without a version is stored as version 1 (ResultStore needs an integer)
    assert (row["benchmark_parent"], row["benchmark_version"]) == ("IT", 1)
    assert json.loads(row["layer_map"]) == {"IT": "block3"}
    assert json.loads(row["attrs"])["layer_scores"] == {"IT": {"block2": 0.25, "block3": 0.5}}
    assert row["comment"] == "layers: {'IT': 'block3'}"


def test_the_old_names_of_one_function_still_work_and_say_so():
    # issue 32: to_float and sha1_of were aliases of score_value and sha1_hash; they stay, deprecated
    from brainio.files import sha1_hash
    from brainscore_core.score import score_value
    from brainscore_vision._cli_rows import to_float
    from brainscore_vision.data_helpers.packaged import sha1_of

    with pytest.warns(DeprecationWarning, match="to_float is deprecated, use brainscore_core.score.score_value"):
        assert to_float(0.25) == score_value(0.25) == 0.25
    path = Path(__file__)
    with pytest.warns(DeprecationWarning, match="sha1_of is deprecated, use brainio.files.sha1_hash"):
        assert sha1_of(path) == sha1_hash(path)


def test_python_dash_m_reference_form(kriegeskorte_raw):
    registered_model("pixels")
    from brainscore_core.children import run_child  # dies with this test process

    completed = run_child(["-m", "brainscore_vision", "score", "--model_identifier=pixels",
                           "--benchmark_identifier=Kiani2007.mIT-rdm"], capture_output=True, text=True,
                          env=dict(os.environ), timeout=600)
    assert completed.returncode == 0, completed.stderr
    assert "Score" in completed.stdout


def test_the_table_names_how_each_ceiled_score_follows_from_raw_and_ceiling():
    from brainscore_core.metrics import Score
    from brainscore_core.normalization import ceil_score, explained_variance
    from brainscore_vision._cli_rows import NORMALIZATION_NOTE, format_table, score_table_row

    neural = explained_variance(Score(0.6), Score(0.8))  # 0.36 / 0.8 = 0.45
    rsa = ceil_score(Score(0.3), Score(0.6))  # 0.5
    rows = [score_table_row("m", "neural", neural, 1.0), score_table_row("m", "rsa", rsa, 1.0)]
    assert [row["rule"] for row in rows] == ["raw² / ceiling", "raw / ceiling"]
    table = format_table(rows)
    assert "rule" in table.splitlines()[0] and "0.4500  raw² / ceiling" in table and table.endswith(NORMALIZATION_NOTE)


def test_report_with_a_mistyped_results_url_creates_nothing(tmp_path):
    from brainscore_vision.cli import main

    missing = tmp_path / "typo" / "results.sqlite"
    status = main(["report", "--results-url", f"sqlite:///{missing}", "--out", str(tmp_path / "site")])
    assert status != 0
    assert not (tmp_path / "typo").exists() and not (tmp_path / "site").exists()
