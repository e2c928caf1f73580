"""A worker that dies of its memory takes only the pair it was running down with it.

Dask hands a worker more tasks than it has threads (its ``worker-saturation``), so when a worker dies, the pairs
queued behind the running one come back failed with it (``KilledWorker``). The grid must not blame them for a death
they did not cause: a pair that had not started on the dead worker runs again; only the pair that ran there is
``oom``. One local worker (one thread, a memory limit of 1.5 GB) gets both pairs at once; the hog is submitted first
and runs first (Dask runs a worker's tasks in the order they were submitted).

Benchmark: the Coggan 2024 fMRI V1 RDM (24 images, real recordings); models: pixels (model-tools) and pixels that first
writes 3 GB (``grid_test_models``).
"""

from __future__ import annotations

import pytest
from grid_test_models import write_grid_models

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_core.results import ResultStore

BENCHMARK = "tong.Coggan2024_fMRI.V1-rdm"


@pytest.fixture
def hog_models(tmp_path, monkeypatch, coggan_raw):
    folder = write_grid_models(tmp_path / "plugins")
    monkeypatch.setenv("BRAINSCORE_PLUGIN_FOLDERS", str(folder))  # the local workers inherit it
    return folder


def test_a_pair_queued_behind_one_that_ran_out_of_memory_runs_again_and_is_not_blamed(hog_models, tmp_path):
    import_or_skip("distributed", extra="brainscore-vision[dask]")
    from brainscore_core.local_cluster import start_local_cluster

    url = f"sqlite:///{tmp_path / 'bystander.sqlite'}"
    events: list[dict] = []
    client, cluster = start_local_cluster(1, memory_limit="1.5GB")
    try:
        frame = brainscore_vision.score_many(["pixels-hog-3000", "pixels"], [BENCHMARK], client, store=url,
                                             on_event=events.append, progress=False)
    finally:
        client.close()
        cluster.close()
    started = [event["model"] for event in events if event.get("kind") == "started"]
    assert started[0] == "pixels-hog-3000", started  # the hog ran first, with pixels queued behind it
    status = {model: (state, kind if isinstance(kind, str) else None)  # pandas shows a missing kind as NaN
              for model, state, kind in zip(frame["model"], frame["status"], frame["failure_kind"])}
    assert status == {"pixels-hog-3000": ("failed", "oom"), "pixels": ("ok", None)}, \
        frame[["model", "status", "failure_kind", "error_message"]]
    lost = [event for event in events if event.get("kind") == "lost"]
    assert [event["model"] for event in lost] == ["pixels"] and lost[0]["again"], lost
    assert "had not started" in lost[0]["reason"], lost
    rows = {row["model_identifier"]: row for row in ResultStore(url).rows(status=None)}
    assert (rows["pixels-hog-3000"]["failure_kind"], rows["pixels"]["status"]) == ("oom", "ok")
    assert "exceeded its memory limit" in rows["pixels-hog-3000"]["error_message"]
