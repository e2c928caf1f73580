"""Issue 42: a failing pair is said once, ``-v`` prints its traceback and the stored row keeps it; a failed row keeps
its benchmark's version; skipped pairs are marked in the table (not ``0.0s``)."""

from __future__ import annotations

import brainscore_vision
from brainscore_core.result_rows import failure_traceback
from brainscore_core.results import ResultStore
from brainscore_vision.cli import main

BENCHMARK = "Kiani2007.mIT-rdm"  # one 92 x 92 RDM: the fastest real benchmark


class _Failing:
    identifier, version, parent = "Failing42.always", 7, "IT"

    def __call__(self, candidate):
        return _deep_failure()


def _deep_failure():
    raise ValueError("this benchmark always fails")


def _register():
    if not brainscore_vision.benchmark_registry.is_registered("Failing42.always"):
        brainscore_vision.benchmark_registry["Failing42.always"] = _Failing
    if not brainscore_vision.model_registry.is_registered("broken42-model"):
        brainscore_vision.model_registry["broken42-model"] = _broken_model


def _broken_model():
    raise RuntimeError("weights are missing")


def test_a_failure_is_said_once_and_v_prints_its_traceback(tmp_path, capsys, kriegeskorte_raw):
    _register()
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    arguments = ["score", "--model", "pixels", "--benchmark", "Failing42.always", "--results-url", url]
    assert main(arguments) == 1
    err = capsys.readouterr().err
    assert err.count("this benchmark always fails") == 1 and "Traceback" not in err
    assert "-v prints the traceback of each failed pair" in err

    assert main([*arguments, "-v"]) == 1
    err = capsys.readouterr().err
    assert "    Traceback (most recent call last):" in err and "in _deep_failure" in err
    assert err.count("ValueError: this benchmark always fails") == 2  # the one line, then the traceback's last
    rows = ResultStore(url).rows(status="failed")
    assert len(rows) == 2 and all(row["benchmark_version"] == 7 for row in rows)
    trace = failure_traceback(rows[-1])
    assert trace.startswith("Traceback (most recent call last):") and "raise ValueError" in trace


def test_a_model_that_fails_to_load_keeps_the_benchmark_version(tmp_path, capsys, kriegeskorte_raw):
    _register()
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    assert main(["score", "--model", "broken42-model", "--benchmark", BENCHMARK, "--results-url", url]) == 1
    (row,) = ResultStore(url).rows(status="failed")
    assert row["benchmark_version"] == brainscore_vision.load_benchmark(BENCHMARK).version  # not 0
    assert row["error_type"] == "RuntimeError" and "_broken_model" in failure_traceback(row)


def test_skipped_pairs_are_marked_in_the_table(tmp_path, capsys, kriegeskorte_raw):
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    assert main(["score", "--model", "pixels", "--benchmark", BENCHMARK, "--results-url", url]) == 0
    capsys.readouterr()
    assert main(["score", "--model", "pixels", "--benchmark", BENCHMARK, "--results-url", url]) == 0
    [line] = [line for line in capsys.readouterr().out.splitlines() if line.startswith("pixels")]
    assert line.rstrip().endswith("skipped") and "0.0s" not in line


def test_a_dry_run_leaves_no_sqlite_journal_files(tmp_path, capsys, kriegeskorte_raw):
    # issue 42: --dry-run left results.sqlite-wal and results.sqlite-shm beside the store
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    assert main(["score", "--model", "pixels", "--benchmark", BENCHMARK, "--results-url", url, "--dry-run"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["results.sqlite"]


def test_report_says_what_it_does_before_the_slow_imports(tmp_path, capsys, monkeypatch):
    # issue 42: `brainscore report` printed nothing for 5 s (matplotlib and pandas imports, reading the rows)
    import sys

    from brainscore_core import Score

    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    ResultStore(url).add(Score(0.5), model_identifier="pixels", benchmark_identifier=BENCHMARK, benchmark_version=1)
    seen_before_build = []
    import brainscore_vision.report as report

    def build(out, results_url=None):
        seen_before_build.append(capsys.readouterr().err)
        return out

    monkeypatch.setattr(report, "build_report", build)
    monkeypatch.setitem(sys.modules, "brainscore_vision.report", report)
    assert main(["report", "--out", str(tmp_path / "site"), "--results-url", url]) == 0
    assert seen_before_build == [f"reading the stored rows and drawing the figures into {tmp_path / 'site'} ...\n"]
