"""Regression metrics and the internal-consistency ceiling at MajajHong2015 scale, against the reference
computation (scikit-learn per split + scipy per neuroid; loops for the split-half) in the same run.

Scale: 3,200 stimuli x 10,000 features -> 200 neuroids (float64); ceiling on 200 neuroids x 10
repetitions x 3,200 stimuli. Prints time, ratio and peak traced memory (tracemalloc, started at the call,
so the inputs are not in it) per metric, and (inputs + that peak) / inputs, the issue's memory figure.
The scikit-learn PLS and the neuron-to-neuron loop are timed on ``--reference-splits`` splits (default 1)
and extrapolated to 10; this is said in the output.

Run: ``python benchmarks/bench_regression.py [--stimuli 3200 --features 10000 --neuroids 200]``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
import warnings

import numpy as np
import scipy.stats
import xarray as xr
from sklearn.cross_decomposition import PLSRegression
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

from brainscore_metrics.internal_consistency import InternalConsistency
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation


def make_data(n_stimuli, n_features, n_neuroids, n_reps, seed=0):
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n_stimuli, 50))
    X = latent @ rng.normal(size=(50, n_features)) + rng.normal(size=(n_stimuli, n_features))
    signal = latent @ rng.normal(size=(50, n_neuroids)) * 0.3
    trials = signal[:, :, None] + rng.normal(size=(n_stimuli, n_neuroids, n_reps))
    Y = trials.mean(axis=2)
    ids = np.array([f"im{i:05d}" for i in range(n_stimuli)])
    objects = np.array([f"obj{i % 8}" for i in range(n_stimuli)])
    return X, Y, trials, ids, objects


def assemblies(X, Y, trials, ids, objects):
    source = xr.DataArray(X, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "object_name": ("presentation", objects),
        "neuroid_id": ("neuroid", np.arange(X.shape[1]))})
    target = xr.DataArray(Y, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "object_name": ("presentation", objects),
        "neuroid_id": ("neuroid", np.arange(Y.shape[1]))})
    n_stimuli, n_neuroids, n_reps = trials.shape
    flat = np.moveaxis(trials, 2, 0).reshape(n_reps * n_stimuli, n_neuroids)
    repeated = xr.DataArray(flat, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", np.tile(ids, n_reps)),
        "object_name": ("presentation", np.tile(objects, n_reps)),
        "repetition": ("presentation", np.repeat(np.arange(n_reps), n_stimuli)),
        "neuroid_id": ("neuroid", np.arange(n_neuroids))})
    return source, target, repeated


def measure(fn):
    tracemalloc.start()
    start = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, elapsed, peak


def reference_regression(X, Y, ids, objects, make_estimator, n_splits_run):
    """scikit-learn per split on stimulus-sorted rows + scipy.stats.pearsonr per neuroid."""
    medians = []
    splits = StratifiedShuffleSplit(10, train_size=0.9, random_state=1).split(np.zeros(len(ids)), objects)
    for number, (train, test) in enumerate(splits):
        if number >= n_splits_run:
            break
        train, test = np.sort(train), np.sort(test)  # ids are generated in sorted order
        prediction = make_estimator().fit(X[train], Y[train]).predict(X[test])
        medians.append(np.median([scipy.stats.pearsonr(prediction[:, j], Y[test, j])[0]
                                  for j in range(Y.shape[1])]))
    return np.array(medians)


class NeuronToNeuronLoop:
    """Reference-style neuron-to-neuron: a loop over neuroids, each correlated with every unit."""

    def fit(self, X, Y):
        Xc = X - X.mean(0)
        Xn = Xc / np.sqrt((Xc ** 2).sum(0))
        self.best_ = []
        for j in range(Y.shape[1]):
            y = Y[:, j] - Y[:, j].mean()
            r = Xn.T @ (y / np.sqrt(y @ y))
            self.best_.append(int(np.nanargmax(r)))
        return self

    def predict(self, X):
        return X[:, self.best_]


def reference_ceiling(trials):
    """Loops per split and per neuroid: average that neuroid's halves over repetitions, then
    scipy.stats.pearsonr and Spearman-Brown (trials: dense stimulus x neuroid x repetition array)."""
    medians = []
    for half_a, half_b in ShuffleSplit(10, train_size=0.5, random_state=1).split(np.zeros(trials.shape[2])):
        rs = []
        for j in range(trials.shape[1]):
            a = trials[:, j, half_a].mean(axis=1)
            b = trials[:, j, half_b].mean(axis=1)
            r = scipy.stats.pearsonr(a, b)[0]
            rs.append(2 * r / (1 + r))
        medians.append(np.median(rs))
    return np.array(medians)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stimuli", type=int, default=3200)
    parser.add_argument("--features", type=int, default=10000)
    parser.add_argument("--neuroids", type=int, default=200)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--reference-splits", type=int, default=1,
                        help="splits of the slow references (sklearn PLS, neuron-to-neuron loop) to run")
    parser.add_argument("--threads", type=int, default=None,
                        help="limit BLAS/OpenMP threads for both sides (stable timings on a shared machine)")
    parser.add_argument("--only", nargs="*", default=["pls", "ridge", "neuron_to_neuron", "internal_consistency"],
                        help="metrics to run, of those and linear (linear_predictivity)")
    parser.add_argument("--skip-baselines", action="store_true",
                        help="only our side: time and peak memory (the reference columns stay NaN)")
    args = parser.parse_args()
    if args.threads:
        from threadpoolctl import threadpool_limits

        threadpool_limits(args.threads)
    X, Y, trials, ids, objects = make_data(args.stimuli, args.features, args.neuroids, args.repetitions)
    source, target, repeated = assemblies(X, Y, trials, ids, objects)
    input_bytes = X.nbytes + Y.nbytes
    print(f"inputs: X {X.shape} + Y {Y.shape} float64 = {input_bytes / 2**20:.0f} MiB; "
          f"trials {repeated.shape} = {repeated.values.nbytes / 2**20:.0f} MiB")
    print(f"{'metric':<22}{'ours s':>9}{'reference s':>13}{'ratio':>8}{'ours peak MiB':>15}"
          f"{'(in+peak)/in':>13}{'ref peak MiB':>14}  value (ours vs reference)")
    references = {
        "pls": (lambda: PLSRegression(n_components=25, scale=False), args.reference_splits),
        "ridge": (lambda: Ridge(alpha=1.0), 10),
        "neuron_to_neuron": (NeuronToNeuronLoop, args.reference_splits),
        "linear": (LinearRegression, 10),
    }
    for name in args.only:
        if name == "internal_consistency":
            score, ours_s, ours_peak = measure(lambda: InternalConsistency()(repeated))
            ref_splits, inputs, ours_splits = 10, repeated.values.nbytes, score.attrs["splits"]
            run_reference = lambda: reference_ceiling(trials)  # noqa: E731
        else:
            score, ours_s, ours_peak = measure(lambda name=name: CrossRegressedCorrelation(name)(source, target))
            make_estimator, ref_splits = references[name]
            inputs, ours_splits = input_bytes, score.attrs["splits"][:ref_splits]
            run_reference = lambda make=make_estimator, count=ref_splits: reference_regression(  # noqa: E731
                X, Y, ids, objects, make, count)
        if args.skip_baselines:
            ref, ref_s, ref_peak = np.full(ref_splits, np.nan), np.nan, np.nan
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref, ref_s, ref_peak = measure(run_reference)
        ref_total = ref_s * 10 / ref_splits
        note = "" if ref_splits == 10 else f" (reference: {ref_splits} split(s) timed, x{10 / ref_splits:g})"
        agreement = np.max(np.abs(ours_splits - ref) / np.abs(ref))
        print(f"{name:<22}{ours_s:>9.2f}{ref_total:>13.2f}{ref_total / ours_s:>7.1f}x{ours_peak / 2**20:>15.0f}"
              f"{(inputs + ours_peak) / inputs:>13.2f}{ref_peak / 2**20:>14.0f}  {float(score):.6f}; per-split max rel. "
              f"diff {agreement:.1e} over {ref_splits} split(s){note}", flush=True)


if __name__ == "__main__":
    main()
