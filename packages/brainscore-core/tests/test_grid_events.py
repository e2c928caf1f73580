"""What a grid pair on a Dask worker tells the client while it runs (brainscore_core.grid_events), and progress bars
that report to a listener instead of drawing (brainscore_core.progress.forward_progress)."""

from __future__ import annotations

import logging
import threading
import time

from brainio.skipping import import_or_skip
from brainscore_core.grid_events import describe_event, new_topic, report_stage, worker_reporting
from brainscore_core.progress import forward_progress, progress


def test_forwarded_bars_report_start_updates_and_end_and_draw_nothing(capsys):
    states = []
    with forward_progress(states.append, interval=0.0):
        for _ in progress(range(3), desc="packaging X", unit="file"):
            pass
    assert states[0] == {"desc": "packaging X", "n": 0, "total": 3, "unit": "file", "elapsed_s": states[0]["elapsed_s"],
                         "done": False}
    assert states[-1]["n"] == 3 and states[-1]["done"] is True
    assert [state["done"] for state in states].count(True) == 1
    assert capsys.readouterr().err == ""  # nothing drawn


def test_forwarded_bars_are_throttled():
    states = []
    with forward_progress(states.append, interval=3600.0), progress(total=1000, desc="steps") as bar:
        for _ in range(1000):
            bar.update()
    assert [(state["n"], state["done"]) for state in states] == [(0, False), (1000, True)]  # start and end only


def test_outside_a_worker_reporting_does_nothing():
    with worker_reporting(new_topic(), "m", "b"):  # not in a Dask task: no worker, no error
        report_stage("loading")
    with worker_reporting(None, "m", "b"):
        pass


def _pair_on_worker(topic: str) -> str:
    """What a scoring task does, in miniature: a stage, a notice logged by a metric, a progress bar."""
    with worker_reporting(topic, "randomnet", "Cowley2023.V4-pls"):
        report_stage("scoring")
        logging.getLogger("brainscore_metrics").warning("fitting pls regression on %s features", "25,088")
        threading.Thread(target=lambda: logging.getLogger("brainscore_metrics").warning("another task")).start()
        for _ in progress(range(2), desc="PLS fit", unit="group"):
            time.sleep(0.01)
        return "done"


def test_events_reach_the_client_before_the_result(caplog):
    distributed = import_or_skip("distributed", extra="brainscore-core[test]")
    events: list[tuple[float, dict]] = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,  # in-process: no network
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        topic = new_topic()
        client.subscribe_topic(topic, lambda event: events.append((time.monotonic(), event[1])))
        future = client.submit(_pair_on_worker, topic, pure=False)
        assert future.result() == "done"
        finished = time.monotonic()
        deadline = time.monotonic() + 10
        while not any(e.get("done") for _, e in events) and time.monotonic() < deadline:
            time.sleep(0.05)
    kinds = [event["kind"] for _, event in events]
    assert kinds[:3] == ["started", "stage", "notice"] and kinds[3:] == ["progress"] * (len(kinds) - 3)
    notice_time, notice = events[2]
    assert notice["message"] == "fitting pls regression on 25,088 features" and notice["level"] == "WARNING"
    assert notice_time <= finished  # the notice came while the pair ran, not after it
    assert "another task" not in str(events)  # a record of another thread is not this pair's: logged as usual
    assert "another task" in caplog.text
    assert describe_event(notice) == "randomnet on Cowley2023.V4-pls: fitting pls regression on 25,088 features"
    assert describe_event(events[1][1]) == "randomnet on Cowley2023.V4-pls: scoring"
    assert events[-1][1]["done"] and describe_event(events[-1][1]).startswith(
        "randomnet on Cowley2023.V4-pls: PLS fit 2/2 group (done, ")
