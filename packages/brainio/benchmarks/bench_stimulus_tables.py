"""Reading a stimulus CSV through the one validation (``read_stimulus_csv``) against pandas alone.

A MajajHong2015-shaped table, 5,760 stimuli (``--rows``) x 12 columns (ids, file names, 4 text and 6 numeric
columns, some numbers missing), and a wide one with 50 numeric columns. ``read_stimulus_csv`` reads every cell as
text and checks it (duplicate names, missing ids, NUL, field length, words among numbers), then reads the typed
frame; the baseline, timed the same way in the same run, is ``pandas.read_csv`` with the same text columns.
Median of ``--repeats`` calls each.

Run: ``python benchmarks/bench_stimulus_tables.py [--rows 5760] [--repeats 7]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from brainio.stimuli import read_stimulus_csv


def table(rows: int, numeric: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = {"stimulus_id": [f"{i:08x}" for i in range(rows)], "filename": [f"{i:08x}.png" for i in range(rows)]}
    for column in range(4):
        frame[f"text_{column}"] = rng.choice(["car", "face", "animal", "chair", "plane"], rows)
    for column in range(numeric):
        values = rng.normal(size=rows)
        values[rng.random(rows) < 0.01] = np.nan
        frame[f"number_{column}"] = values
    return pd.DataFrame(frame)


def median_seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5760)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    text = {"stimulus_id": str, "filename": str}
    print(f"bench_stimulus_tables: median of {args.repeats} calls each")
    with tempfile.TemporaryDirectory() as folder:
        for label, numeric in (("12 columns", 6), ("wide, 56 columns", 50)):
            path = Path(folder) / f"{numeric}.csv"
            table(args.rows, numeric).to_csv(path, index=False)
            ours = median_seconds(lambda path=path: read_stimulus_csv(path), args.repeats)
            baseline = median_seconds(lambda path=path: pd.read_csv(path, dtype=text), args.repeats)
            print(f"{args.rows:,} rows, {label}: read_stimulus_csv {ours * 1000:.1f} ms, pandas.read_csv "
                  f"{baseline * 1000:.1f} ms, ratio {ours / baseline:.2f}")


if __name__ == "__main__":
    main()
