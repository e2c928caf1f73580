"""The grid on a real batch scheduler (issue 40): a one-node Slurm started by this session (``local_slurm``), the
pairs as Slurm jobs through dask-jobqueue.

* a 3 x 3 grid on 2 jobs, one job cancelled (``scancel``) while it scores a pair: every pair ends ok, each is stored
  exactly once, the scores equal an in-process run of the same grid (1e-6), and no job stays queued and no worker
  process alive afterwards;
* every job of the grid cancelled: the grid stops, stores nothing for the pairs that did not run, and the next run
  resumes from the store;
* a worker that allocates past its job's memory is recorded as ``oom`` and run once more with twice the memory: the
  pair that then fits is stored ok (its row says why it ran again), the one that does not is stored failed ``oom``;
* a pair whose estimate exceeds its job's memory is refused by the preflight (``--dry-run`` says so first);
* an unknown partition is one line, exit status 2, in seconds; the core README's Slurm section runs as written.

Models: pixels and randomnet (model-tools), and pixels wrapped by a plugin folder (grid_test_models, Brain-Score's style,
found by the workers through ``BRAINSCORE_PLUGIN_FOLDERS``, which Slurm jobs inherit) so that it sleeps while it looks
(a job can be cancelled in the middle of it) or allocates memory (a worker goes past its limit). Benchmarks: the
Coggan 2024 fMRI RDMs (24 images, real recordings).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest
from grid_test_models import write_grid_models

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_core.results import ResultStore

import_or_skip("dask_jobqueue", extra="brainscore-vision[slurm] (nox -s slurm)", kind="opt-in")

BENCHMARKS = [f"tong.Coggan2024_fMRI.{region}-rdm" for region in ("V1", "V4", "IT")]
MODELS = ["pixels", "randomnet", "pixels-slow"]
REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def plugin_folder(tmp_path_factory):
    folder = write_grid_models(tmp_path_factory.mktemp("slurm_plugins"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BRAINSCORE_PLUGIN_FOLDERS", str(folder))  # the jobs inherit this process's environment
        yield folder


@pytest.fixture
def slurm(local_slurm, plugin_folder, coggan_raw):
    """The cluster, and after the test: no job left in Slurm, no worker process of a job left alive."""
    yield local_slurm
    assert _wait_for(lambda: not _squeue(), 30), f"jobs left in Slurm: {_squeue()}"
    assert _wait_for(lambda: not _job_workers(), 30), f"worker processes left: {_job_workers()}"


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def _squeue() -> list[str]:
    return subprocess.run(["squeue", "-h", "-o", "%i %T %j"], capture_output=True, text=True, check=True,
                          timeout=10).stdout.split("\n")[:-1]


def _job_workers() -> list[int]:
    """Dask worker processes started by a Slurm job (their environment names one)."""
    import psutil

    found = []
    for process in psutil.process_iter(["pid", "cmdline"]):
        try:
            if "distributed.cli.dask_worker" in " ".join(process.info["cmdline"] or []) and \
                    "SLURM_JOB_ID" in process.environ():
                found.append(process.info["pid"])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def _job_of_worker(address: str) -> str:
    """The Slurm job whose worker listens at ``address`` (this machine is the one node)."""
    import psutil

    port = int(address.rsplit(":", 1)[1])
    for connection in psutil.net_connections("tcp"):
        if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port and connection.pid:
            return psutil.Process(connection.pid).environ()["SLURM_JOB_ID"]
    raise AssertionError(f"no process listens at {address}")


def _once_per_pair(url: str) -> Counter:
    return Counter((row["model_identifier"], row["benchmark_identifier"]) for row in ResultStore(url).rows(status=None))


def test_a_3x3_grid_on_2_jobs_survives_a_cancelled_job_and_equals_the_in_process_run(slurm, tmp_path, monkeypatch):
    from brainscore_core import grid_dask

    # the jobs' states asked for every 0.5 s (5 s in use): the test sees both jobs running before it cancels one
    monkeypatch.setattr(grid_dask, "JOB_POLL_S", 0.5)
    in_process = f"sqlite:///{tmp_path / 'in_process.sqlite'}"
    reference = brainscore_vision.score_many(MODELS, BENCHMARKS, store=in_process, progress=False)
    assert list(reference["status"]) == ["ok"] * 9
    expected = {(row["model"], row["benchmark"]): row["score"] for _, row in reference.iterrows()}

    url = f"sqlite:///{tmp_path / 'slurm.sqlite'}"
    events, started, cancelled = [], {}, []

    def on_event(event):
        events.append(event)
        pair = (event.get("model"), event.get("benchmark"))
        if event.get("kind") == "started":
            started[pair] = event["worker"]
        both_running = any(seen.get("kind") == "jobs" and seen["running"] == 2 for seen in events)
        if event.get("kind") == "stage" and event.get("stage") == "scoring" and pair[0] == "pixels-slow" \
                and both_running and not cancelled:  # its job is cancelled while it scores (it sleeps 8 s looking at
            # the images), once both jobs were reported running (the jobs' progress is asserted below)
            cancelled.append((pair, _job_of_worker(started[pair])))
            subprocess.run(["scancel", cancelled[0][1]], check=True, timeout=10)

    frame = brainscore_vision.score_many(MODELS, BENCHMARKS, store=url, cluster="slurm", jobs=2,
                                         cluster_options={"memory": "1536MB"}, on_event=on_event, progress=False)
    assert cancelled, [event for event in events if event.get("kind") != "progress"]
    # the pair it was scoring comes back, and any pair Dask had queued on that worker
    lost = {(event["model"], event["benchmark"]): event for event in events if event.get("kind") == "lost"}
    assert cancelled[0][0] in lost and all(event["again"] and event["failure_kind"] == "transient"
                                           for event in lost.values()), lost
    assert f"its Slurm job {cancelled[0][1]} ended (CANCELLED" in lost[cancelled[0][0]]["reason"] or \
        "its worker process ended" in lost[cancelled[0][0]]["reason"], lost
    assert list(frame["status"]) == ["ok"] * 9, frame[["model", "benchmark", "status", "error_message"]]
    assert _once_per_pair(url) == Counter(dict.fromkeys(expected, 1))  # each pair stored exactly once
    for row in ResultStore(url).rows():
        key = (row["model_identifier"], row["benchmark_identifier"])
        assert row["score_ceiled"] == pytest.approx(expected[key], rel=1e-6, abs=1e-6), key
    assert any(event.get("kind") == "jobs" and event["running"] == 2 for event in events)  # progress of the jobs


def test_a_cancelled_allocation_stops_the_grid_and_the_next_run_resumes(slurm, tmp_path, monkeypatch):
    from brainscore_core import grid_dask

    monkeypatch.setattr(grid_dask, "ALL_JOBS_ENDED_S", 2.0)
    url = f"sqlite:///{tmp_path / 'resume.sqlite'}"
    scoring: list[str] = []

    def cancel_everything(event):
        if event.get("kind") == "stage" and event.get("stage") == "scoring":
            scoring.append(event["benchmark"])
            if len(scoring) == 2:  # the second pair is in the middle of its 8 s: the whole allocation goes
                subprocess.run(["scancel", "--user", "root"], check=True, timeout=10)

    first = brainscore_vision.score_many(["pixels-slow"], BENCHMARKS, store=url, cluster="slurm", jobs=1,
                                         cluster_options={"memory": "1536MB"}, on_event=cancel_everything,
                                         progress=False)
    status = dict(zip(first["benchmark"], first["status"]))
    assert status == {BENCHMARKS[0]: "ok", BENCHMARKS[1]: "failed", BENCHMARKS[2]: "failed"}, first
    assert set(first["failure_kind"].dropna()) == {"transient"}
    assert all("run the grid again to resume" in message for message in first["error_message"].dropna())
    assert _once_per_pair(url) == Counter({("pixels-slow", BENCHMARKS[0]): 1})  # nothing stored for pairs not run
    again = brainscore_vision.score_many(["pixels-slow"], BENCHMARKS, store=url, cluster="slurm", jobs=1,
                                         cluster_options={"memory": "1536MB"}, progress=False)
    assert list(again["status"]) == ["skipped", "ok", "ok"]
    assert _once_per_pair(url) == Counter({("pixels-slow", benchmark): 1 for benchmark in BENCHMARKS})


def test_a_worker_past_its_memory_is_recorded_as_oom_and_run_again_with_twice_the_memory(slurm, tmp_path):
    """Jobs of 1 GiB: pixels-hog-1200 writes 1.2 GiB (killed by its nanny at 95 % of the job), then fits a 2 GiB job;
    pixels-hog-3000 writes 3 GiB and is killed on both."""
    url = f"sqlite:///{tmp_path / 'oom.sqlite'}"
    events = []
    frame = brainscore_vision.score_many(["pixels-hog-1200", "pixels-hog-3000"], BENCHMARKS[:1], store=url,
                                         cluster="slurm", jobs=1, cluster_options={"memory": "1GB"},
                                         on_event=events.append, progress=False)
    retries = [event for event in events if event.get("kind") == "memory_retry"]
    assert sorted(event["model"] for event in retries) == ["pixels-hog-1200", "pixels-hog-3000"]
    assert all(event["again"] and "memory limit" in event["reason"] for event in retries), retries
    status = {model: (state, kind if isinstance(kind, str) else None)  # pandas shows a missing kind as NaN
              for model, state, kind in zip(frame["model"], frame["status"], frame["failure_kind"])}
    assert status == {"pixels-hog-1200": ("ok", None), "pixels-hog-3000": ("failed", "oom")}, frame
    rows = {row["model_identifier"]: row for row in ResultStore(url).rows(status=None)}
    assert sorted(rows) == ["pixels-hog-1200", "pixels-hog-3000"]  # once each
    earlier = json.loads(rows["pixels-hog-1200"]["provenance"])["earlier_attempt"]
    assert earlier["failure_kind"] == "oom" and earlier["job_memory_bytes"] == 2**30
    failed = rows["pixels-hog-3000"]
    assert (failed["status"], failed["failure_kind"], failed["error_type"]) == ("failed", "oom", "WorkerLostError")
    assert "exceeded its memory limit" in failed["error_message"]


def _cli(*arguments: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "brainscore_vision.cli", *arguments], capture_output=True,
                          text=True, timeout=timeout, check=False, env={**os.environ, "BRAINSCORE_PROGRESS": "0"})


def test_a_pair_over_its_jobs_memory_is_refused_by_the_preflight(slurm, tmp_path, cowley_raw):
    """resnet50-random on Cowley2023.V4-pls: 640 stimuli x 200,704 features of layer3.0 (514 MB of activations, the
    metric's working set twice that): over a 1500 MB job, whose worker itself fits."""
    url = f"sqlite:///{tmp_path / 'refused.sqlite'}"
    pair = ["--model", "resnet50-random", "--benchmark", "Cowley2023.V4-pls", "--results-url", url,
            "--cluster", "slurm", "--jobs", "1", "--job-memory", "1500MB"]
    plan = _cli("score", *pair, "--dry-run")
    assert plan.returncode == 0, plan.stderr
    assert "1 Slurm job(s) of 1.5 GB (given)" in plan.stdout
    line = next(line for line in plan.stdout.splitlines() if line.startswith("  resnet50-random on"))
    assert "(640 stimuli x 200,704 features" in line and "REFUSED, over the limit of 1.4 GB" in line, line
    run = _cli("score", *pair)
    assert run.returncode == 1, run.stderr
    assert "submitting 1 Slurm job(s) of 1.5 GB" in run.stderr and "Slurm jobs: " in run.stderr
    assert re.search(r"MemoryBudgetError: estimated peak .* exceeds the memory limit of 1\.4 GB; refused before "
                     "running", run.stderr), run.stderr
    (row,) = ResultStore(url).rows(status="failed")
    assert (row["error_type"], row["failure_kind"]) == ("MemoryBudgetError", "oom")
    listing = _cli("results", "list", "--status", "failed", "--results-url", url)
    assert re.search(r"\bfailed\s+oom\b", listing.stdout) and "MemoryBudgetError: estimated peak" in listing.stdout


def test_an_unknown_partition_is_one_line_and_exit_status_2_in_seconds(slurm):
    start = time.perf_counter()
    result = _cli("score", "--model", "pixels", "--benchmark", BENCHMARKS[0], "--no-store", "--cluster", "slurm",
                  "--partition", "gpu-nosuch")
    elapsed = time.perf_counter() - start
    assert result.returncode == 2 and elapsed < 30, (elapsed, result.stderr)
    assert result.stderr.splitlines()[-1] == ("brainscore score: unknown Slurm partition 'gpu-nosuch'; partitions "
                                              "here: debug (default)")
    assert "Traceback" not in result.stderr


def _readme_slurm_block() -> str:
    text = (REPO_ROOT / "packages" / "brainscore-core" / "README.md").read_text()
    section = text.split("### On a Slurm cluster", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_core_readme_slurm_section_runs_as_written(slurm, tmp_path):
    """The block under *On a Slurm cluster*, unchanged, in a fresh interpreter on the one-node cluster (its settings
    file under ``$BRAINSCORE_HOME``, its rows in the default store there)."""
    home = tmp_path / "home"
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(_readme_slurm_block())], capture_output=True,
                            text=True, timeout=900, check=False, cwd=tmp_path,
                            env={**os.environ, "BRAINSCORE_HOME": str(home), "BRAINSCORE_PROGRESS": "0"})
    assert result.returncode == 0, result.stderr[-3000:]
    rows = ResultStore(f"sqlite:///{home / 'results.sqlite'}").rows()
    assert len(rows) >= 2 and all(row["status"] == "ok" for row in rows)
