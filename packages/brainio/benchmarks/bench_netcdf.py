"""Write/read a MajajHong2015-sized trial assembly with brainio.netcdf against plain xarray and numpy.

268,800 presentations x 296 neuroids x 1 time bin, float32, 25 presentation coordinates (8 text, 17
numeric; all but ``repetition`` are per-image, 5,760 images, as in MajajHong2015), 5 neuroid coordinates. Prints seconds and ratios against the baselines measured in this run.
Run: ``python benchmarks/bench_netcdf.py [--presentations N]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import xarray as xr

from brainio.assemblies import NeuroidAssembly
from brainio.grouping import average_repetition
from brainio.netcdf import read_netcdf, write_netcdf


def build(n_presentations: int, n_neuroids: int = 296, seed: int = 0) -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(seed)
    n_images = 5760
    image = rng.integers(0, n_images, n_presentations)
    coords = {
        "stimulus_id": ("presentation", np.char.add("img_", image.astype(str).astype("<U8")).astype("<U40")),
        "repetition": ("presentation", np.arange(n_presentations) // n_images),
        "time_bin_start": ("time_bin", [70]),
        "time_bin_end": ("time_bin", [170]),
        "neuroid_id": ("neuroid", [f"Chabo_L_M_{i}" for i in range(n_neuroids)]),
        "region": ("neuroid", np.where(np.arange(n_neuroids) < 128, "V4", "IT")),
        "animal": ("neuroid", np.where(np.arange(n_neuroids) % 2, "Chabo", "Tito")),
        "arr": ("neuroid", np.full(n_neuroids, "M")),
        "col": ("neuroid", np.arange(n_neuroids) % 10),
    }
    for i in range(6):
        coords[f"text_{i}"] = ("presentation", np.array(["car", "face", "animal", "chair", "plane"])[image % 5 + 0 * i])
    for i in range(17):
        coords[f"number_{i}"] = ("presentation", rng.normal(size=n_images)[image])  # per-image metadata
    values = rng.poisson(3, size=(n_presentations, n_neuroids, 1)).astype(np.float32)
    return values, coords


def timed(function, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--presentations", type=int, default=268_800)
    args = parser.parse_args()
    values, coords = build(args.presentations)
    small = {name: (dim, column[:10]) if dim == "presentation" else (dim, column) for name, (dim, column) in coords.items()}
    NeuroidAssembly(values[:10], coords=small, dims=["presentation", "neuroid", "time_bin"])  # warm-up (imports)
    xr.DataArray(values[:10], coords=small, dims=["presentation", "neuroid", "time_bin"])
    start = time.perf_counter()
    assembly = NeuroidAssembly(values, coords=coords, dims=["presentation", "neuroid", "time_bin"])
    construct = time.perf_counter() - start
    start = time.perf_counter()
    plain_construct = xr.DataArray(values, coords=coords, dims=["presentation", "neuroid", "time_bin"])
    plain_construct = time.perf_counter() - start
    select = timed(lambda: assembly.sel(text_0="face"), repeat=3)
    average = timed(lambda: average_repetition(assembly))
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        ours_write = timed(lambda: write_netcdf(assembly, folder / "ours.nc"))
        ours_read = timed(lambda: read_netcdf(folder / "ours.nc", verified=True))  # the guard: bench_netcdf_guard.py
        plain = xr.DataArray(assembly)
        xr_write = timed(lambda: plain.to_netcdf(folder / "plain.nc", engine="h5netcdf"))

        def xr_read_fn():
            with xr.open_dataarray(folder / "plain.nc", engine="h5netcdf") as array:
                array.load()

        xr_read = timed(xr_read_fn)
        np_write = timed(lambda: np.save(folder / "values.npy", assembly.values))
        np_read = timed(lambda: np.load(folder / "values.npy"))
        sizes = {name: (folder / name).stat().st_size / 1e6 for name in ("ours.nc", "plain.nc", "values.npy")}
    print(f"assembly {dict(assembly.sizes)} {assembly.dtype}, {len(assembly.coords)} coords")
    print(f"construction from the coords form: NeuroidAssembly {construct:.3f} s, xarray.DataArray "
          f"{plain_construct:.3f} s (ratio {construct / plain_construct:.2f})")
    print(f"sel(text_0='face') {select:.3f} s; average_repetition -> {average_repetition(assembly).sizes['presentation']}"
          f" presentations {average:.2f} s")
    print(f"{'':28s}{'write s':>9s}{'read s':>9s}{'file MB':>9s}")
    print(f"{'brainio.netcdf (zlib 1)':28s}{ours_write:9.2f}{ours_read:9.2f}{sizes['ours.nc']:9.1f}")
    print(f"{'xarray to_netcdf/open (raw)':28s}{xr_write:9.2f}{xr_read:9.2f}{sizes['plain.nc']:9.1f}")
    print(f"{'numpy save/load (values)':28s}{np_write:9.2f}{np_read:9.2f}{sizes['values.npy']:9.1f}")
    print(f"ratios brainio/xarray: write {ours_write / xr_write:.2f}, read {ours_read / xr_read:.2f}")


if __name__ == "__main__":
    main()
