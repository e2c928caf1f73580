"""What binding a child to its caller costs: ``run_child`` against a plain ``subprocess.run`` of the same code.

Two children: an empty one (``python -c pass``: the start-up alone, where the binding's share is largest) and the
netCDF probe on a small assembly file (``probe_netcdf``'s code, imports h5netcdf and walks the file). The baseline,
timed the same way in the same run, starts ``sys.executable`` directly. Median of ``--repeats`` runs each.

Run: ``python benchmarks/bench_children.py [--repeats 11]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from brainio import NeuroidAssembly, write_netcdf
from brainio.netcdf import _PROBE
from brainscore_core.children import run_child


def median_seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "a.nc"
        write_netcdf(NeuroidAssembly(np.zeros((100, 10)), coords={
            "stimulus_id": ("presentation", [f"s{i}" for i in range(100)]),
            "neuroid_id": ("neuroid", [f"n{i}" for i in range(10)])}, dims=["presentation", "neuroid"]), path)
        print(f"bench_children: median of {args.repeats} runs each")
        for label, code, extra in (("python -c pass", "pass", []), ("netCDF probe", _PROBE, [str(path)])):
            bound = median_seconds(lambda code=code, extra=extra: run_child(
                ["-c", code, *extra], timeout=60, check=True, capture_output=True), args.repeats)
            plain = median_seconds(lambda code=code, extra=extra: subprocess.run(
                [sys.executable, "-c", code, *extra], timeout=60, check=True, capture_output=True), args.repeats)
            print(f"{label}: run_child {bound * 1000:.0f} ms, subprocess.run {plain * 1000:.0f} ms, "
                  f"ratio {bound / plain:.2f}")


if __name__ == "__main__":
    main()
