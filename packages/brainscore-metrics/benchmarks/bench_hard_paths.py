"""Least squares on the hard inputs of issue 31: what the fallback for a singular stimulus Gram matrix costs against the
fast path, in the same run.

Inputs (the generator of ``compare_reference.py --hard``): int8-quantised activations, 3,200 x 10,000 float32, 200
neuroids, 10 stratified splits of 90 % / 10 % (8 object classes). ``q8`` (lognormal(0, 1.7) channel gains) has a
centred Gram condition number of 2.2e8 and rank n - 1: the fast path (one factorisation of the bordered kernel) takes
it. ``q8r`` (lognormal(0, 2.0) gains: 8,145 constant features, 1,855 varying, rank 1,852) has a singular Gram matrix:
fewer than n - 1 columns vary, so the kernel path is not tried and the fallback (path 3) runs on the varying columns,
exact affine copies merged, as a narrow source (one factorisation in their feature space; no stimulus Gram matrix).
The third row solves ``q8r`` split by split (the per-split pivoted Cholesky path, the fallback before this issue's
third pass), for scale; the last line compares the fallback's predictions with it.

Timing: ``cross_predictions`` only (the float64 Gram product included; loading and splitting not), single calls
alternating between the rows, ``--repeat`` rounds, median per row; the load average is printed with the table.

Run: ``python benchmarks/bench_hard_paths.py [--repeat 3] [--stimuli 3200 --features 10000]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference_inputs import _quantised_activations

from brainscore_metrics import _least_squares as least_squares
from brainscore_metrics.backend import get_backend


def hard_input(sigma: float, n_stimuli: int, n_features: int):
    rng = np.random.default_rng(2024)
    source, latent = _quantised_activations(rng, n_stimuli, n_features, sigma)
    target = latent @ rng.normal(size=(50, 200)) * 0.3 + rng.normal(size=(n_stimuli, 200)) / np.sqrt(10)
    objects = np.arange(n_stimuli) % 8
    splits = list(StratifiedShuffleSplit(10, train_size=0.9, random_state=1).split(np.zeros(n_stimuli), objects))
    return source, target, splits


def per_split(xp, X, Y, splits):
    gram = least_squares.centered_gram(xp, X, "float64")
    return [least_squares.split_predictions(xp, X, Y, train, test, gram=gram) for train, test in splits]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stimuli", type=int, default=3200)
    parser.add_argument("--features", type=int, default=10000)
    args = parser.parse_args()
    xp = get_backend("numpy")
    fast, singular = hard_input(1.7, args.stimuli, args.features), hard_input(2.0, args.stimuli, args.features)
    rows = {
        "q8: fast path (kernel factorisation)": lambda: least_squares.cross_predictions(xp, *fast),
        "q8r: fallback (path 3: varying columns)": lambda: least_squares.cross_predictions(xp, *singular),
        "q8r: per-split pivoted Cholesky (earlier fallback)": lambda: per_split(xp, *singular),
    }
    small = [array[:400] if index < 2 else [(t[t < 400], s[s < 400]) for t, s in array]
             for index, array in enumerate(singular)]
    least_squares.cross_predictions(xp, *small)  # warm-up: imports, BLAS threads
    check = [np.max(np.abs(a - b)) for a, b in zip(rows["q8r: fallback (path 3: varying columns)"](),
                                                    per_split(xp, *singular), strict=True)]
    times: dict[str, list[float]] = {name: [] for name in rows}
    load = [os.getloadavg()[0]]
    for _ in range(args.repeat):
        for name, call in rows.items():
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
            load.append(os.getloadavg()[0])
    base = statistics.median(times[next(iter(rows))])
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average (1 min) {min(load):.1f}-{max(load):.1f},"
          f" {args.stimuli} x {args.features} float32, 10 splits, median of {args.repeat} alternating calls")
    print("| path | seconds (median) | / fast path |")
    print("|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.2f} | {statistics.median(values) / base:.2f} |")
    print(f"fallback vs per-split predictions: max abs difference {max(check):.1e}")


if __name__ == "__main__":
    main()
