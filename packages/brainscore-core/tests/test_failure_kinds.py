"""Why a pair failed, stored with its row (issue 40): ``oom``, ``timeout``, ``deterministic``, ``transient``.

A pair that raises is tried once more in the same process; the two errors decide its kind. Benchmarks here are plain
objects of a fake plugin world that fail as told (a counter file says how many times they were built); a lost Dask
worker is classified from what its nanny reports, on a real local cluster with nannies.
"""

from __future__ import annotations

import os
import signal

import pytest

from brainio.skipping import import_or_skip
from brainscore_core.failure_kinds import FAILURE_KINDS, classify_repeat, error_kind, slurm_state_kind

FAILING_PLUGIN = """
from brainscore_core import hookimpl

CALLS = {}


class Model:
    identifier = "m"

    def feature_count(self, region):
        return 10


class Benchmark:
    version, parent, region = 2, "IT", "IT"

    def __init__(self, identifier, errors):
        self.identifier, self.errors = identifier, errors

    def stimulus_count(self):
        return 20

    def __call__(self, model):
        from brainscore_core.metrics import Score

        attempt = CALLS[self.identifier] = CALLS.get(self.identifier, 0) + 1
        if attempt <= len(self.errors):
            raise self.errors[attempt - 1]
        score = Score(0.25)
        score.attrs["raw"], score.attrs["ceiling"] = Score(0.5), Score(1.0)
        return score


ERRORS = {
    "same-twice": [ValueError("layer 'x' has no output"), ValueError("layer 'x' has no output")],
    "other-second": [OSError("connection reset by peer"), KeyError("missing coordinate")],
    "once": [ConnectionError("the store blinked")],
    "memory": [MemoryError("cannot allocate 4 GB")],
    "slow": [TimeoutError("the fit took too long")],
}


@hookimpl
def brainscore_models():
    return {"m": Model}


@hookimpl
def brainscore_benchmarks():
    return {name: (lambda name=name: Benchmark(name, ERRORS[name])) for name in ERRORS}
"""


@pytest.fixture
def failing(world):
    import importlib

    return importlib.import_module(world.add_plugin("fake-failing", FAILING_PLUGIN))


def test_the_kinds_of_one_error_and_of_two():
    from brainscore_core.errors import MemoryBudgetError

    assert FAILURE_KINDS == ("oom", "timeout", "deterministic", "transient")
    assert error_kind(MemoryError()) == error_kind(MemoryBudgetError("over")) == "oom"
    assert error_kind(TimeoutError()) == error_kind(TimeoutError()) == "timeout"
    assert error_kind(ValueError("x")) is None  # one attempt cannot tell
    assert classify_repeat(("ValueError", "bad layer\nmore"), ("ValueError", "bad layer\nother")) == "deterministic"
    assert classify_repeat(("ValueError", "bad layer"), ("ValueError", "other")) == "transient"
    assert classify_repeat(("OSError", "x"), ("KeyError", "x")) == "transient"
    assert [slurm_state_kind(state) for state in ("OUT_OF_MEMORY", "TIMEOUT", "DEADLINE", "CANCELLED", "PREEMPTED",
                                                  "NODE_FAIL", None)] == \
        ["oom", "timeout", "timeout", "transient", "transient", "transient", "transient"]


@pytest.mark.parametrize(("benchmark", "status", "kind", "calls"), [
    ("same-twice", "failed", "deterministic", 2),
    ("other-second", "failed", "transient", 2),
    ("once", "ok", None, 2),
    ("memory", "failed", "oom", 1),  # not tried again: it would need the same memory
    ("slow", "failed", "timeout", 1),
])
def test_a_failing_pair_is_tried_twice_and_stored_once_with_its_kind(world, failing, tmp_path, benchmark, status,
                                                                      kind, calls):
    from brainscore_core.grid_task import score_task
    from brainscore_core.results import ResultStore

    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    result = score_task(world.domain, "m", benchmark, url)
    assert (result["status"], result["failure_kind"], failing.CALLS[benchmark]) == (status, kind, calls)
    (row,) = ResultStore(url).rows(status=None)  # one row, whatever the attempts
    assert (row["status"], row["failure_kind"]) == (status, kind)
    if status == "failed":
        last = failing.ERRORS[benchmark][calls - 1]
        assert (row["error_type"], row["error_message"]) == (type(last).__name__, str(last))


def test_a_pair_out_of_memory_is_left_unstored_for_the_grid_to_run_again(world, failing, tmp_path):
    from brainscore_core.grid_task import score_task
    from brainscore_core.results import ResultStore

    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    result = score_task(world.domain, "m", "memory", url, defer_oom=True)
    assert result["retry_memory"] and result["failure_kind"] == "oom" and result["row"]["failure_kind"] == "oom"
    assert ResultStore(url).rows(status=None) == []
    # a preflight refusal is final: nothing ran, the same memory would refuse it again
    refused = score_task(world.domain, "m", "once", url, budget_bytes=1, defer_oom=True)
    assert "retry_memory" not in refused and (refused["error_type"], refused["failure_kind"]) == (
        "MemoryBudgetError", "oom")
    assert "20 stimuli x 10 features" in refused["error_message"] and "refused before running" in refused[
        "error_message"]
    assert [row["failure_kind"] for row in ResultStore(url).rows(status="failed")] == ["oom"]


def test_the_grid_frame_carries_the_kind(world, failing, tmp_path):
    from brainscore_core.grid import COLUMNS, score_many

    frame = score_many(["m"], ["same-twice", "once"], domain=world.domain, store=f"sqlite:///{tmp_path / 'r.sqlite'}",
                       progress=False)
    assert "failure_kind" in COLUMNS
    kinds = [kind if isinstance(kind, str) else None for kind in frame["failure_kind"]]  # pandas: NaN for none
    assert list(zip(frame["status"], kinds)) == [("failed", "deterministic"), ("ok", None)]


def _allocate(megabytes: int) -> int:
    import time

    import numpy as np

    block = np.ones(megabytes * 2**20, dtype=np.uint8)  # written: resident
    time.sleep(5)  # the nanny sees it (it looks every 100 ms)
    return int(block[-1])


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_lost_worker_is_told_apart_by_what_its_nanny_reports():
    """A worker restarted by its nanny at its memory limit is ``oom``; one killed otherwise (SIGKILL, the machine's
    OOM killer not involved) is ``transient``; both seen through the nanny plugin and Dask's own event."""
    distributed = import_or_skip("distributed", extra="brainscore-core[test]")
    import dask

    from brainscore_core.grid_deaths import ReportWorkerExit, death_report, oom_kill_count

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, memory_limit="400MB",
                                     dashboard_address=None, host="127.0.0.1") as cluster, \
            distributed.Client(cluster) as client:
        client.register_plugin(ReportWorkerExit())
        kills_before = oom_kill_count()
        with pytest.raises(distributed.scheduler.KilledWorker) as killed:
            client.submit(_allocate, 600, pure=False).result(timeout=120)
        kind, reason = death_report(client, killed.value.last_worker.address, wait_s=20)
        assert kind == "oom" and "exceeded its memory limit" in reason and "Dask's nanny" in reason, reason
        client.wait_for_workers(1, timeout=60)  # the nanny started a new worker
        with pytest.raises(distributed.scheduler.KilledWorker) as killed:
            client.submit(_die, pure=False).result(timeout=120)
        report = death_report(client, killed.value.last_worker.address, wait_s=20)
        if oom_kill_count() == kills_before:  # the machine's OOM killer stayed out of it (a shared machine)
            assert report == ("transient", "its worker process ended (killed by SIGKILL)"), report
        assert death_report(client, "tcp://127.0.0.1:1", wait_s=0.5) is None  # nothing reported: unknown
