"""Speed of the Marques2020 grating generator, against a per-image full-frame baseline, and of packaging each set.

Measured in one run on the same parameter rows:

* **render**: ours (only the aperture's bounding box, rows sharing an aperture as one vectorised array) against
  the straightforward way (one full 672 x 672 frame per row: pixel grid, sinusoid, disc mask), on up to 432 rows
  of each set; both give the same pixels (checked here);
* **PNG**: encoding the rendered rows (zlib level 6), per image;
* **packaging**: rendering, encoding and packaging the whole set (CSV + ZIP) into a fresh store, then loading it.

Run: ``python packages/brainscore-vision/benchmarks/bench_marques2020_stimuli.py`` (needs ``$BRAINSCORE_RAW_DATA``).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from brainscore_vision.data.marques2020.data_packaging.stimuli import IMAGE_SIZE_PX, read_table, table_path
from brainscore_vision.data.marques2020.gratings import encode_png, render_gratings

GRATING_SETS = ("orientation", "spatial_frequency", "size", "receptive_field")
ROWS = 432


def full_frame(row: pd.Series, size_px: int) -> np.ndarray:
    """Baseline: the whole frame of one row, every pixel computed."""
    pixels_per_degree = size_px / row["degrees"]
    axis = (np.arange(size_px) - size_px / 2) / pixels_per_degree
    x, y = np.meshgrid(axis - row["position_x"], axis - row["position_y"])
    theta, phase = row["orientation"] / 180 * np.pi, row["phase"] / 180 * np.pi
    texture = np.sin((x * np.cos(theta) + y * np.sin(theta)) * row["spatial_frequency"] * 2 * np.pi + phase)
    values = ((texture * row["contrast"] + 1) / 2 * 255).astype(np.uint8)
    return np.where(x ** 2 + y ** 2 <= row["radius"] ** 2, values, np.uint8(128))


def _timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return time.perf_counter() - start, value


def _baseline(rows: pd.DataFrame, size_px: int) -> np.ndarray:
    return np.stack([full_frame(row, size_px) for _, row in rows.iterrows()])


def _encode_all(images: np.ndarray) -> list[bytes]:
    return [encode_png(image) for image in images]


def main() -> None:
    raw = Path(os.environ.get("BRAINSCORE_RAW_DATA", Path(__file__).resolve().parents[3].parent / "shared" / "data"))
    raw = raw / "marques2020"
    print(f"bench_marques2020_stimuli: {ROWS} rows per set (evenly spaced), 672 x 672 px")
    print(f"{'set':18s} {'ours ms/img':>11s} {'base ms/img':>11s} {'speed-up':>8s} {'png ms/img':>10s}")
    for name in GRATING_SETS:
        table = read_table(table_path(raw, name))
        rows = table.iloc[np.linspace(0, len(table) - 1, min(ROWS, len(table))).astype(int)].reset_index(drop=True)
        size_px = IMAGE_SIZE_PX[name]
        ours_s, ours = _timed(render_gratings, rows, size_px)
        base_s, base = _timed(_baseline, rows, size_px)
        if not np.array_equal(ours, base):
            raise AssertionError(f"{name}: the two renderings differ")
        png_s, _ = _timed(_encode_all, ours)
        n = len(rows)
        print(f"{name:18s} {ours_s / n * 1e3:11.2f} {base_s / n * 1e3:11.2f} {base_s / ours_s:7.1f}x "
              f"{png_s / n * 1e3:10.2f}")
    with tempfile.TemporaryDirectory() as home:
        os.environ["BRAINSCORE_HOME"], os.environ["BRAINIO_HOME"] = home, str(Path(home) / "brainio")
        os.environ["BRAINSCORE_RAW_DATA"] = str(raw.parent)
        import brainscore_vision

        print(f"{'whole set':18s} {'images':>6s} {'package+load s':>14s} {'ms/img':>7s}")
        for name in (*GRATING_SETS, "blank"):
            seconds, stimuli = _timed(brainscore_vision.load_stimulus_set, f"Marques2020_{name}")
            print(f"{name:18s} {len(stimuli):>6d} {seconds:14.2f} {seconds / len(stimuli) * 1e3:7.2f}")


if __name__ == "__main__":
    main()
