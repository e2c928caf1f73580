"""One scoring path that always stores, and the model x benchmark grid (issue 18; issue 22 item 2).

Expected numbers come from scoring the same pairs directly with ``score_benchmark`` (no store, no grid), and the
real recordings (Kriegeskorte 2008, Kiani 2007) through our loaders.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import brainscore_vision
from brainscore_core.benchmarks import score_benchmark
from brainscore_core.results import ResultStore, ResultStoreError
from brainscore_vision.cli import main

BENCHMARKS = ["Kriegeskorte2008.hIT-rdm", "Kiani2007.mIT-rdm"]
MODELS = ["pixels", "randomnet"]


@pytest.fixture(scope="module")
def direct_scores(raw_data_dir):
    """Each pair scored straight through the benchmark, nothing stored: the reference for every path."""
    return {(m, b): float(score_benchmark(brainscore_vision.load_benchmark(b), brainscore_vision.load_model(m)))
            for m in MODELS for b in BENCHMARKS}


def test_score_stores_its_row_with_timings_and_versions(direct_scores, tmp_path):
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    result = brainscore_vision.score("pixels", "Kriegeskorte2008.hIT-rdm", store=url)
    assert float(result) == pytest.approx(direct_scores[("pixels", "Kriegeskorte2008.hIT-rdm")], abs=1e-12)
    (row,) = ResultStore(url).rows()
    assert row["score_ceiled"] == pytest.approx(float(result), abs=1e-12)
    assert row["status"] == "ok" and row["elapsed_s"] > 0
    assert "brainscore-vision" in json.loads(row["versions"])
    brainscore_vision.score("pixels", "Kriegeskorte2008.hIT-rdm", store=False)
    assert len(ResultStore(url).rows()) == 1


def test_score_stores_in_the_default_store(raw_data_dir):
    """The user's side of issue 19 item 4: ``score()`` reaches the store the report reads."""
    default = Path(os.environ["BRAINSCORE_HOME"]) / "results.sqlite"
    before = len(ResultStore().rows()) if default.is_file() else 0
    brainscore_vision.score("pixels", "Kiani2007.mIT-rdm")
    assert len(ResultStore().rows(benchmark_identifier="Kiani2007.mIT-rdm")) >= 1
    assert len(ResultStore().rows()) == before + 1


def test_grid_in_process_resumes_and_rescores(direct_scores, tmp_path):
    url = f"sqlite:///{tmp_path / 'grid.sqlite'}"
    first = brainscore_vision.score_many(MODELS, BENCHMARKS, store=url, progress=False)
    assert list(first["status"]) == ["ok"] * 4
    for _, row in first.iterrows():
        assert row["score"] == pytest.approx(direct_scores[(row["model"], row["benchmark"])], abs=1e-12)
    again = brainscore_vision.score_many(MODELS, BENCHMARKS, store=url, progress=False)
    assert list(again["status"]) == ["skipped"] * 4
    assert list(again["score"]) == list(first["score"])
    rescored = brainscore_vision.score_many(MODELS[:1], BENCHMARKS[:1], store=url, rescore=True, progress=False)
    assert list(rescored["status"]) == ["ok"] and len(ResultStore(url).rows()) == 5


def test_changed_model_content_is_scored_again(tmp_path, monkeypatch):
    """Resume is keyed on the model's content digest: other weights under the same identifier are not skipped."""
    import brainscore_core.scoring as scoring
    from brainscore_core.errors import ModelDigestChangedWarning
    from model_tools.brain_transformation import ModelCommitment

    url = f"sqlite:///{tmp_path / 'digest.sqlite'}"
    monkeypatch.setattr(scoring, "_DIGESTS_SEEN", {})  # this process has not loaded randomnet yet
    brainscore_vision.score_many(["randomnet"], BENCHMARKS[:1], store=url, progress=False)
    monkeypatch.setattr(ModelCommitment, "content_digest", lambda self: "other-weights")
    with pytest.warns(ModelDigestChangedWarning, match="model 'randomnet' has other weights than at its previous load"):
        again = brainscore_vision.score_many(["randomnet"], BENCHMARKS[:1], store=url, progress=False)
    assert list(again["status"]) == ["ok"]


class _Failing:
    identifier, version, parent = "Failing.always", 1, "IT"

    def __call__(self, candidate):
        raise ValueError("this benchmark always fails")


def test_a_failing_pair_is_stored_and_the_grid_goes_on(tmp_path, capsys):
    brainscore_vision.benchmark_registry["Failing.always"] = _Failing
    url = f"sqlite:///{tmp_path / 'failing.sqlite'}"
    status = main(["score", "--model", "pixels", "--benchmark", "Failing.always", "--benchmark", BENCHMARKS[0],
                   "--results-url", url])
    err = capsys.readouterr().err
    assert status == 1
    assert "1 ok, 1 failed" in err and "ValueError: this benchmark always fails" in err
    (failed,) = ResultStore(url).rows(status="failed")
    assert (failed["benchmark_identifier"], failed["error_type"]) == ("Failing.always", "ValueError")
    assert len(ResultStore(url).rows()) == 1


def test_refused_rows_go_to_a_side_file_and_import_later(tmp_path, capsys, monkeypatch):
    url = f"sqlite:///{tmp_path / 'refusing.sqlite'}"

    def refuse(self, row):
        raise ResultStoreError(f"cannot write to the results store {self!r}: OperationalError: database is locked")

    with monkeypatch.context() as patch:
        patch.setattr(ResultStore, "insert", refuse)
        status = main(["score", "--model", "pixels", "--benchmark", BENCHMARKS[0], "--results-url", url])
    out, err = capsys.readouterr()
    assert status == 1
    assert BENCHMARKS[0] in out  # the table was printed: nothing computed is lost
    (side_file,) = tmp_path.glob("brainscore-unstored-*.jsonl")
    assert f"they are in {side_file}" in err
    assert main(["results", "import", str(side_file), "--results-url", url]) == 0
    (row,) = ResultStore(url).rows()
    assert row["benchmark_identifier"] == BENCHMARKS[0] and row["score_ceiled"] is not None


def test_damaged_store_fails_before_scoring(tmp_path, capsys):
    path = tmp_path / "damaged.sqlite"
    path.write_bytes(b"not a database" * 200)
    start = time.perf_counter()
    status = main(["score", "--model", "randomnet", "--benchmark", "Cowley2023.V4-pls",
                   "--results-url", f"sqlite:///{path}"])
    assert status == 1 and time.perf_counter() - start < 30  # no scoring happened first
    assert "damaged.sqlite" in capsys.readouterr().err


def test_dry_run_lists_the_pairs(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'dry.sqlite'}"
    brainscore_vision.score_many(["pixels"], BENCHMARKS[:1], store=url, progress=False)
    assert main(["score", "--model", "pixels", "--benchmark", BENCHMARKS[0], "--benchmark", BENCHMARKS[1],
                 "--results-url", url, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"pixels on {BENCHMARKS[0]} (v1): stored: skipped unless the model's weights changed" in out
    assert f"pixels on {BENCHMARKS[1]} (v1): score" in out
    assert len(ResultStore(url).rows()) == 1


def _start(arguments, log):
    """A scheduler or worker process that dies with this test process (even after ``kill -9`` of pytest)."""
    from brainscore_core.children import start_child

    return start_child(["-m", *arguments], cpu_seconds=1800, stdout=log, stderr=subprocess.STDOUT)


def test_real_cluster_scores_like_in_process_and_survives_a_killed_worker(direct_scores, tmp_path):
    """A scheduler and two worker processes on 127.0.0.1: every pair completes although one worker is killed
    after the first result, the stored rows equal the direct scores, and a second run skips every pair."""
    from distributed import Client

    scheduler_file = tmp_path / "scheduler.json"
    with open(tmp_path / "cluster.log", "w") as log:
        processes = [_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                             "--dashboard-address", ":0", "--scheduler-file", str(scheduler_file)], log)]
        try:
            for _ in range(100):
                if scheduler_file.is_file():
                    break
                time.sleep(0.2)
            for _ in range(2):
                processes.append(_start(["distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
                                         "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                                         "--no-dashboard"], log))
            url = f"sqlite:///{tmp_path / 'cluster.sqlite'}"
            with Client(scheduler_file=str(scheduler_file), timeout="60s") as client:
                client.wait_for_workers(2, timeout=120)
                killed = []

                def kill_one(result):
                    if not killed:
                        processes[-1].kill()  # a worker dies mid-grid; Dask retries its task elsewhere
                        killed.append(result)

                frame = brainscore_vision.score_many(MODELS, BENCHMARKS, client, store=url, on_result=kill_one,
                                                     progress=False)
                # the killed worker may have stored its pair's row before it could report it: the retry then finds
                # that row and reports the pair 'skipped' (scored once, never twice); every pair is in the store
                statuses = sorted(frame["status"])
                assert killed and statuses.count("ok") >= 3 and set(statuses) <= {"ok", "skipped"}, statuses
                rows = ResultStore(url).rows()
                assert sorted((r["model_identifier"], r["benchmark_identifier"]) for r in rows) == sorted(direct_scores)
                for row in rows:
                    key = (row["model_identifier"], row["benchmark_identifier"])
                    assert row["score_ceiled"] == pytest.approx(direct_scores[key], abs=1e-12)
                again = brainscore_vision.score_many(MODELS, BENCHMARKS, client, store=url, progress=False)
                assert list(again["status"]) == ["skipped"] * 4
        finally:
            for process in processes:
                process.kill()


def test_a_pair_above_the_memory_budget_is_refused_with_its_estimate(tmp_path):
    from brainscore_core.grid import score_task

    url = f"sqlite:///{tmp_path / 'budget.sqlite'}"
    result = score_task("brainscore_vision", "randomnet", "Cowley2023.V4-pls", url, budget_bytes=100 * 2**20)
    assert result["status"] == "failed" and result["error_type"] == "MemoryBudgetError"
    assert "640 stimuli x 25,088 features" in result["error_message"] and "100.0 MB" in result["error_message"]
    (row,) = ResultStore(url).rows(status="failed")
    assert row["error_type"] == "MemoryBudgetError"


def test_a_model_the_grid_keeps_is_hashed_once_a_users_model_every_pair(raw_data_dir, tmp_path, monkeypatch):
    """The weights digest: a model the grid loaded and kept for its next benchmark is hashed once for both pairs
    (``brainscore_core.pair_scope.KEPT_MODEL``); the same network passed as an object to ``score_pair`` is hashed
    in each call, so edits between calls are always seen."""
    from brainscore_core.scoring import score_pair
    from model_tools import digest

    hashed = []
    original = digest._hash_state
    monkeypatch.setattr(digest, "_hash_state", lambda model, state: hashed.append(model) or original(model, state))
    url = f"sqlite:///{tmp_path / 'kept.sqlite'}"
    rows = brainscore_vision.score_many(["randomnet"], BENCHMARKS, store=url, progress=False)
    assert list(rows["status"]) == ["ok", "ok"] and len(hashed) == 1
    hashed.clear()
    model = brainscore_vision.load_model("randomnet")
    for benchmark in BENCHMARKS:
        score_pair(model, brainscore_vision.load_benchmark(benchmark), model_identifier="randomnet", store=False)
    assert len(hashed) == 2
