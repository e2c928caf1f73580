"""Wall time of a model x benchmark grid: in this process against a Dask ``LocalCluster`` of 2 worker processes.

The grid is the two built-in models (pixels, randomnet) on every benchmark whose data is local (Cowley2023,
Kriegeskorte2008/Kiani2007, Coggan2024: 8 benchmarks, 16 pairs). Both runs start with cold activations and
ceiling caches (a fresh ``$BRAINSCORE_HOME`` each) and share the packaged data, so both pay the same work;
the figure is the ratio of the two wall times measured in this run, plus the number of forward passes
(extraction runs) each needed, which shows that activations are computed once per (model, stimulus set).

Run: ``python packages/brainscore-vision/benchmarks/bench_grid.py`` (needs model-tools, Dask and
``$BRAINSCORE_RAW_DATA``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

BENCHMARKS = ["Cowley2023.V4-pls", "Cowley2023.V4-ridge", "Kriegeskorte2008.hIT-rdm", "Kiani2007.mIT-rdm",
              "tong.Coggan2024_fMRI.V1-rdm", "tong.Coggan2024_fMRI.V2-rdm", "tong.Coggan2024_fMRI.V4-rdm",
              "tong.Coggan2024_fMRI.IT-rdm"]
MODELS = ["pixels", "randomnet"]


def _entries(home: Path) -> int:
    return len(list((home / "activations").rglob("*.nc"))) if (home / "activations").exists() else 0


def _run(label: str, workers: int | None, root: Path) -> tuple[float, int]:
    import brainscore_core.grid as grid
    import brainscore_vision

    home = root / label
    os.environ["BRAINSCORE_HOME"] = str(home)
    grid._LOADED.clear()
    client = closers = None
    if workers:
        from brainscore_core.local_cluster import start_local_cluster

        client, cluster = start_local_cluster(workers)  # the workers die with this script
        closers = [client, cluster]
    start = time.perf_counter()
    frame = brainscore_vision.score_many(MODELS, BENCHMARKS, client, store=f"sqlite:///{home / 'results.sqlite'}",
                                         progress=False)
    elapsed = time.perf_counter() - start
    for closer in closers or []:
        closer.close()
    assert set(frame["status"]) == {"ok"}, frame[["model", "benchmark", "status", "error_message"]]
    return elapsed, _entries(home)


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-grid-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)  # scratch runs to GBs
    os.environ.setdefault("BRAINSCORE_DATA_STORE", str(root / "data_store"))  # packaged once, shared
    os.environ.setdefault("BRAINIO_HOME", str(root / "brainio"))
    os.environ["BRAINSCORE_PROGRESS"] = "0"
    import brainscore_vision

    for identifier in BENCHMARKS:  # package the data once, outside both timings
        brainscore_vision.load_benchmark(identifier)
    serial, serial_entries = _run("in-process", None, root)
    parallel, parallel_entries = _run("workers-2", 2, root)
    pairs = len(MODELS) * len(BENCHMARKS)
    print(f"grid of {pairs} pairs ({len(MODELS)} models x {len(BENCHMARKS)} benchmarks), cold caches:")
    print(f"  in-process        {serial:7.1f} s   activation cache entries written: {serial_entries}")
    print(f"  --workers 2       {parallel:7.1f} s   activation cache entries written: {parallel_entries}")
    print(f"  speed-up with 2 workers: {serial / parallel:.2f}x (same run)")


if __name__ == "__main__":
    main()
