"""The report lists the pairs whose newest row is a failure, with the failure's kind and error (issue 40)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from brainscore_core.errors import MemoryBudgetError, WorkerLostError
from brainscore_core.metrics import Score
from brainscore_core.result_rows import failure_row
from brainscore_core.results import ResultStore
from brainscore_vision.report import build_report


def test_failed_pairs_are_listed_with_their_kind_until_scored(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    store = ResultStore(url)
    start = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    score = Score(0.4)
    score.attrs["raw"], score.attrs["ceiling"] = Score(0.5), Score(0.8)
    store.add(score, model_identifier="m", benchmark_identifier="A.IT-pls", benchmark_version=1, timestamp=start)
    store.insert(failure_row(MemoryBudgetError("estimated peak 9.0 GB exceeds the memory limit of 4.0 GB"),
                             model_identifier="m", benchmark_identifier="B.IT-pls", failure_kind="oom",
                             timestamp=start + timedelta(minutes=1)))
    store.insert(failure_row(WorkerLostError("its Slurm job 7 ended (CANCELLED)"), model_identifier="m",
                             benchmark_identifier="C.IT-pls", failure_kind="transient",
                             timestamp=start + timedelta(minutes=2)))
    store.add(score, model_identifier="m", benchmark_identifier="C.IT-pls", benchmark_version=1,
              timestamp=start + timedelta(minutes=3))  # scored since: no longer a failed pair
    store.dispose()
    index = (build_report(tmp_path / "site", results_url=url, use_plugins=False) / "index.html").read_text()
    table = index.split('<table id="failed-pairs">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr data-kind=\"(\w+)\"><td>([^<]+)</td><td>([^<]+)</td><td class=\"kind\">\w+</td>"
                      r"<td>([^<]+)</td>", table)
    assert rows == [("oom", "m", "B.IT-pls", "MemoryBudgetError: estimated peak 9.0 GB exceeds the memory limit of "
                                              "4.0 GB")]
    assert '<dt>deterministic</dt><dd>the same error on two attempts</dd>' in index
    assert "B.IT-pls" not in index.split('<h2 id="failures">')[0]  # not ranked on the leaderboard


def test_no_failure_no_section(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    score = Score(0.4)
    score.attrs["raw"], score.attrs["ceiling"] = Score(0.5), Score(0.8)
    ResultStore(url).add(score, model_identifier="m", benchmark_identifier="A.IT-pls", benchmark_version=1)
    index = (build_report(tmp_path / "site", results_url=url, use_plugins=False) / "index.html").read_text()
    assert "failed-pairs" not in index
