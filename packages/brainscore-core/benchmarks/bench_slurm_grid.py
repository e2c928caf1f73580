"""Throughput of a 3 x 3 grid on 2 Slurm jobs against 2 local Dask workers (``--workers 2``), in pairs per minute.

The grid is the same in both runs: 3 models x 3 benchmarks of a small domain written for this script (each pair
sleeps ``--pair-seconds`` and returns a number, so the pairs cost the same everywhere and what differs is the
scheduler's own cost: submitting the jobs, their workers starting and joining, cancelling them). Each run starts
its cluster and ends it, as ``brainscore score --cluster slurm --jobs 2`` and ``--workers 2`` do. The Slurm cluster is
a one-node Slurm started by this script (:func:`brainscore_core.local_slurm.local_slurm`, as root); where Slurm
cannot start, the script says why and measures nothing. Median of ``--repeats`` runs each, alternating; the load
average is printed (the machine is shared).

Run: ``python benchmarks/bench_slurm_grid.py [--repeats 3] [--pair-seconds 2]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

GROUP = "bench_slurm_domain"
DOMAIN = """
import sys, time

from brainscore_core import hookimpl
from brainscore_core.plugins import Domain

PAIR_SECONDS = {seconds}


class Model:
    def __init__(self, identifier):
        self.identifier = identifier


class Benchmark:
    version, parent, region = 1, "IT", "IT"

    def __init__(self, identifier):
        self.identifier = identifier

    def __call__(self, model):
        from brainscore_core.metrics import Score

        time.sleep(PAIR_SECONDS)
        return Score(0.5)


@hookimpl
def brainscore_models():
    return {{name: (lambda name=name: Model(name)) for name in ("m1", "m2", "m3")}}


@hookimpl
def brainscore_benchmarks():
    return {{name: (lambda name=name: Benchmark(name)) for name in ("b1", "b2", "b3")}}


domain = Domain({group!r})
domain.register_plugin(sys.modules[__name__])
"""


def _grid(**cluster) -> float:
    """Seconds of one 3 x 3 grid, cluster start and end included."""
    import importlib

    from brainscore_core.grid import score_many

    domain = importlib.import_module(GROUP).domain
    start = time.perf_counter()
    client = close = None
    if cluster.get("workers"):
        from brainscore_core.local_cluster import start_local_cluster

        client, close = start_local_cluster(cluster.pop("workers"))
    try:
        frame = score_many(["m1", "m2", "m3"], ["b1", "b2", "b3"], client, domain=domain, store=False,
                           progress=False, **cluster)
    finally:
        if client is not None:
            client.close()
            close.close()
    assert list(frame["status"]) == ["ok"] * 9, frame
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pair-seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    from brainscore_core.local_slurm import local_slurm, slurm_missing

    missing = slurm_missing()
    if missing:
        print(json.dumps({"benchmark": "slurm_grid", "skipped": missing}))
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-slurm-"))
    (folder / f"{GROUP}.py").write_text(textwrap.dedent(DOMAIN.format(seconds=args.pair_seconds, group=GROUP)))
    sys.path.insert(0, str(folder))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    os.environ["BRAINSCORE_HOME"] = str(folder / "home")  # the jobs' logs go there
    slurm, local = [], []
    with local_slurm(cpus=2, memory_mb=4096) as cluster:
        os.environ.update(cluster.environment())
        for _ in range(args.repeats):
            slurm.append(_grid(cluster="slurm", jobs=2, cluster_options={"memory": "1GB"}))
            local.append(_grid(workers=2))
    slurm_s, local_s = statistics.median(slurm), statistics.median(local)
    print(json.dumps({
        "benchmark": "slurm_grid", "pairs": 9, "pair_seconds": args.pair_seconds, "repeats": args.repeats,
        "slurm_2_jobs_s": [round(value, 2) for value in slurm], "local_2_workers_s": [round(value, 2) for value in local],
        "slurm_pairs_per_minute": round(9 * 60 / slurm_s, 1), "local_pairs_per_minute": round(9 * 60 / local_s, 1),
        "slurm_over_local_throughput": round(local_s / slurm_s, 3), "load_average": os.getloadavg()}, indent=1))


if __name__ == "__main__":
    main()
