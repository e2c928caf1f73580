"""The command line says what the docs say: Kiani2007's rule, aliases once beside their model, where a relative
raw-data path points, and where the report goes by default (issue 33)."""

from __future__ import annotations

import pytest
from conftest import registered_model

from brainscore_vision.cli import EXIT_MISSING_DATA, main


def test_kiani2007_rule_agrees_with_the_footnote(capsys, tmp_path, kriegeskorte_raw):
    """One RDM, so no inter-subject ceiling: the ceiling is 1 and nothing is normalised; two subjects or more
    (Kriegeskorte2008's four) are divided by their ceiling."""
    registered_model("pixels")
    status = main(["score", "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm", "--benchmark",
                   "Kriegeskorte2008.hIT-rdm", "--results-url", f"sqlite:///{tmp_path / 'r.sqlite'}"])
    out = capsys.readouterr().out
    assert status == 0
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith("pixels ")}
    assert "none (ceiling 1)" in rows["Kiani2007.mIT-rdm"] and "raw / ceiling" not in rows["Kiani2007.mIT-rdm"]
    assert "raw / ceiling" in rows["Kriegeskorte2008.hIT-rdm"]
    (footnote,) = [line for line in out.splitlines() if line.startswith("ceiled score = the 'rule' column")]
    assert "none (ceiling 1)" in footnote and "raw / ceiling (RSA" in footnote


def test_each_alias_is_listed_once_beside_its_model(capsys):
    registered_model("pixels")  # the zoo is installed (model-tools)
    assert main(["list", "models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for alias, model in (("vgg_16", "vgg16"), ("CORnet-S", "cornet_s"), ("CORnet-Z-random", "cornet_z-random")):
        mentions = [line for line in lines if alias in line.replace("(alias ", " ").replace(")", " ").split()]
        assert len(mentions) == 1 and mentions[0].startswith(f"{model} (alias {alias})"), (alias, mentions)
    assert not any(line.startswith("vgg_16") for line in lines)


def test_a_relative_raw_data_path_is_relative_to_the_working_directory(capsys, tmp_path, monkeypatch):
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    monkeypatch.setenv("BRAINSCORE_RAW_DATA", "../nowhere")
    monkeypatch.setenv("BRAINSCORE_DATA_STORE", str(tmp_path / "store"))
    assert main(["data", "prepare", "Cowley2023"]) == EXIT_MISSING_DATA
    err = capsys.readouterr().err
    assert f"not found at {tmp_path / 'nowhere' / 'cowley2023_v4'}:" in err
    assert f"(currently '../nowhere', a relative path: relative to the working directory {tmp_path / 'elsewhere'}" \
        in err


def test_the_report_goes_to_brainscore_home_by_default(capsys, tmp_path, monkeypatch):
    from brainscore_core import Score
    from brainscore_core.results import ResultStore

    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    with ResultStore(url) as store:  # closed: SQLite's -wal / -shm side files go with the last connection
        store.add(Score(0.5), model_identifier="pixels", benchmark_identifier="Kiani2007.mIT-rdm", benchmark_version=1)
    monkeypatch.setenv("BRAINSCORE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--results-url", url]) == 0
    assert capsys.readouterr().out.strip() == f"report written to {tmp_path / 'home' / 'report'}"
    assert (tmp_path / "home" / "report" / "index.html").is_file()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["home", "results.sqlite"]  # nothing where it ran


@pytest.mark.parametrize("argv", [["--help"], ["cache", "--help"], ["results", "--help"]])
def test_help_is_one_screen_and_exits_0(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0 and "usage: brainscore" in capsys.readouterr().out
