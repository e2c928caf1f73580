"""A grid on two Dask worker processes storing into a real PostgreSQL server, with workers killed mid-grid: no row
lost or doubled (issue 34, item 6).

The workers die the two ways that matter, each exactly once and deterministically (hooks installed in the worker
processes with ``client.run``; the process sends itself ``SIGKILL``, as ``kill -9`` would): in the middle of a pair,
before its row is stored (the task must run again elsewhere: no row lost), and right after a pair's row is stored,
before the worker could report it (the retry must find the row: no row doubled). The grid rescores
(``rescore=True``), the case where a retry would otherwise store the pair a second time. The nanny restarts each
killed worker. Expected scores: each pair scored directly in this process (``score_benchmark``, no grid, no store)
on the real Coggan 2024 recordings.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

import pytest

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_core.benchmarks import score_benchmark
from brainscore_core.results import ResultStore

import_or_skip("distributed", extra="brainscore-vision[test]")

MODEL = "pixels"  # the cheapest model and benchmarks (24 images): the grid's cost is the cluster, not the scoring
BENCHMARKS = [f"tong.Coggan2024_fMRI.{region}-rdm" for region in ("V1", "V2", "V4", "IT")]
DIES_SCORING = BENCHMARKS[1]  # its worker dies in the middle of scoring it
DIES_AFTER_STORING = BENCHMARKS[2]  # its worker dies right after storing its row


@pytest.fixture(scope="module")
def direct_scores(coggan_raw):
    model = brainscore_vision.load_model(MODEL)
    return {benchmark: float(score_benchmark(brainscore_vision.load_benchmark(benchmark), model))
            for benchmark in BENCHMARKS}


def _once(marker: str) -> bool:
    """True for the first process that asks (an exclusive create), False for every later one."""
    try:
        open(marker, "x").close()
    except FileExistsError:
        return False
    return True


def _install_deaths(scoring: str, after_storing: str, folder: str) -> None:
    """Run in every worker process: die (SIGKILL) while scoring ``scoring``, and right after storing the row of
    ``after_storing``, each once over all workers."""
    import brainscore_core.grid_task as grid_task
    from brainscore_core.results import ResultStore as Store

    run_pair, insert = grid_task.run_pair, Store.insert

    def dying_run_pair(model, benchmark, **kwargs):
        if kwargs.get("benchmark_identifier") == scoring and _once(os.path.join(folder, "died-scoring")):
            os.kill(os.getpid(), signal.SIGKILL)
        return run_pair(model, benchmark, **kwargs)

    def dying_insert(self, row):
        row_id = insert(self, row)
        if row["benchmark_identifier"] == after_storing and _once(os.path.join(folder, "died-after-storing")):
            os.kill(os.getpid(), signal.SIGKILL)
        return row_id

    grid_task.run_pair, Store.insert = dying_run_pair, dying_insert


def test_grid_on_two_workers_into_postgres_loses_and_doubles_no_row(direct_scores, postgres_server, tmp_path):
    from brainscore_core.local_cluster import start_local_cluster
    from brainscore_core.local_postgres import new_database

    url = new_database(postgres_server)
    client, cluster = start_local_cluster(2)
    try:
        client.run(_install_deaths, DIES_SCORING, DIES_AFTER_STORING, str(tmp_path))
        frame = brainscore_vision.score_many([MODEL], BENCHMARKS, client, store=url, rescore=True, progress=False)
    finally:
        client.close()
        cluster.close()
    assert (tmp_path / "died-scoring").exists() and (tmp_path / "died-after-storing").exists()
    status = dict(zip(frame["benchmark"], frame["status"]))
    assert status == {BENCHMARKS[0]: "ok", DIES_SCORING: "ok", DIES_AFTER_STORING: "skipped", BENCHMARKS[3]: "ok"}
    rows = ResultStore(url).rows(status=None)
    assert Counter(row["benchmark_identifier"] for row in rows) == Counter(BENCHMARKS)  # one row per pair
    for row in rows:
        assert (row["model_identifier"], row["status"]) == (MODEL, "ok")
        assert row["score_ceiled"] == pytest.approx(direct_scores[row["benchmark_identifier"]], abs=1e-12)


def test_a_rescoring_retry_skips_the_row_its_first_attempt_stored(postgres_server, coggan_raw):
    """The guard the grid relies on, in this process: ``rescored_since`` = the grid's start."""
    from datetime import UTC, datetime

    from brainscore_core.grid import score_task
    from brainscore_core.local_postgres import new_database

    url = new_database(postgres_server)
    before = datetime.now(UTC).isoformat()
    first = score_task("brainscore_vision", MODEL, BENCHMARKS[0], url, rescore=True, rescored_since=before)
    retry = score_task("brainscore_vision", MODEL, BENCHMARKS[0], url, rescore=True, rescored_since=before)
    later_grid = score_task("brainscore_vision", MODEL, BENCHMARKS[0], url, rescore=True,
                            rescored_since=datetime.now(UTC).isoformat())
    assert (first["status"], retry["status"], later_grid["status"]) == ("ok", "skipped", "ok")
    assert len(ResultStore(url).rows()) == 2


def test_a_pair_named_twice_is_scored_once(tmp_path, coggan_raw):
    url = f"sqlite:///{tmp_path / 'twice.sqlite'}"
    frame = brainscore_vision.score_many([MODEL, MODEL], [BENCHMARKS[0], BENCHMARKS[0]], store=url, progress=False)
    assert list(frame["status"]) == ["ok"] and len(ResultStore(url).rows()) == 1
