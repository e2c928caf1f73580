"""What the child-process guard of ``read_netcdf`` costs (issue 41): a direct read (the file opened first in a
time-limited child) against the SHA-1-verified fast path (``verified=True``, in-process), and what the in-process
check for references to other files costs inside the fast path.

Two files: a small assembly (100 x 10, as a ceiling's per-split values) and a medium one (20,000 presentations x 500
neuroids, float32, 40 MB). Median of ``--repeats`` calls each, every figure timed the same way in the same run; the
load average is printed (the development machine is shared).

Run: ``python benchmarks/bench_netcdf_guard.py [--repeats 11]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import h5py
import numpy as np

from brainio import NeuroidAssembly, write_netcdf
from brainio._external import external_references
from brainio.netcdf import read_netcdf


def median_seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def assembly(presentations: int, neuroids: int) -> NeuroidAssembly:
    values = np.random.default_rng(0).random((presentations, neuroids), dtype=np.float32)
    return NeuroidAssembly(values, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(presentations)]),
        "repetition": ("presentation", np.arange(presentations) % 4),
        "neuroid_id": ("neuroid", [f"n{i}" for i in range(neuroids)]),
        "region": ("neuroid", ["IT"] * neuroids)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    print(f"bench_netcdf_guard: median of {args.repeats} calls each; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        for label, shape in (("small 100 x 10", (100, 10)), ("medium 20,000 x 500 float32", (20_000, 500))):
            path = Path(folder) / "a.nc"
            write_netcdf(assembly(*shape), path)
            verified = median_seconds(lambda path=path: read_netcdf(path, verified=True), args.repeats)
            guarded = median_seconds(lambda path=path: read_netcdf(path), args.repeats)

            def check_only(path=path):
                with h5py.File(path, "r") as handle:
                    external_references(handle)

            check = median_seconds(check_only, args.repeats)
            print(f"{label} ({path.stat().st_size / 1e6:.1f} MB): verified {verified * 1000:.0f} ms, guarded "
                  f"{guarded * 1000:.0f} ms (ratio {guarded / verified:.2f}); the reference check alone "
                  f"{check * 1000:.1f} ms ({check / verified:.1%} of the verified read)")


if __name__ == "__main__":
    main()
