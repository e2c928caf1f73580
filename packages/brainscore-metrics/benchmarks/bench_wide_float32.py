"""Float32, wide sources (issue 17): every metric against numpy/scikit-learn baselines and the BLAS floor.

Cases: a float32 source of 3,200 stimuli x 10,000 features against 200 float64 neuroids (MajajHong2015
scale; 50-dim latent, 8 objects so splits are stratified) and a 640 x 37,632 float32 "pixel" source
(``--pixels``). The cross-validated metrics use 10 splits. In the same run, interleaved with ours (best
of ``--repeat`` calls each, since the machine is shared):

* the BLAS floor: the float32 stimulus Gram product ``X @ X.T`` (numpy, BLAS syrk); each figure is also
  printed as floor / ours, the fraction of the floor reached;
* baselines on the same arrays: ``cka`` -- the float32 Gram matrices (as the reference forms them) and
  the U-statistic HSIC in numpy; ``rdm`` -- ``np.corrcoef`` + ``scipy.stats.spearmanr``; ``ridge`` --
  scikit-learn ``Ridge(1)`` per split; ``linear_predictivity`` -- ``LinearRegression`` per split;
  ``neuron_to_neuron`` -- a loop over neuroids correlating each with all units; ``pls`` --
  ``PLSRegression(25, scale=False)`` per split. The slow baselines (linear, neuron_to_neuron, pls at
  3,200 x 10,000) run ``--baseline-splits`` splits (default 1) and are multiplied to 10; this is printed.

Run: ``python benchmarks/bench_wide_float32.py [--stimuli 3200 --features 10000 --repeat 2 --pixels]
[--backend torch|torch_cuda]`` (``--backend``: where cka and rdm form their Gram matrix).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy.stats
import xarray as xr
from sklearn.cross_decomposition import PLSRegression
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.model_selection import StratifiedShuffleSplit

from brainscore_metrics.cka import CKAMetric
from brainscore_metrics.rdm import RDMMetric
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

#: metric identifier -> regression name of CrossRegressedCorrelation
REGRESSION = {"linear_predictivity": "linear"}


def make_data(n_stimuli: int, n_features: int, n_neuroids: int = 200, seed: int = 0):
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n_stimuli, 50))
    X = (latent @ rng.normal(size=(50, n_features)) + rng.normal(size=(n_stimuli, n_features))).astype(np.float32)
    Y = latent @ rng.normal(size=(50, n_neuroids)) * 0.3 + rng.normal(size=(n_stimuli, n_neuroids)) / np.sqrt(10)
    ids = np.array([f"im{i:05d}" for i in range(n_stimuli)])
    objects = np.array([f"obj{i % 8}" for i in range(n_stimuli)])

    def assembly(values):
        return xr.DataArray(values, dims=["presentation", "neuroid"], coords={
            "stimulus_id": ("presentation", ids), "object_name": ("presentation", objects),
            "neuroid_id": ("neuroid", np.arange(values.shape[1]))})

    return X, Y, objects, assembly(X), assembly(Y)


def best_of(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, min(times)


# ------------------------------------------------------------------------------------------ baselines
def _u_centre(gram):
    n = len(gram)
    np.fill_diagonal(gram, 0)
    rows = gram.sum(1)
    gram -= rows[:, None] / (n - 2)
    gram -= rows[None, :] / (n - 2)
    gram += rows.sum() / ((n - 1) * (n - 2))
    np.fill_diagonal(gram, 0)
    return gram


def baseline_cka(X, Y):
    K = _u_centre(((X - X.mean(0)) @ (X - X.mean(0)).T).astype(np.float64))
    L = _u_centre((Y - Y.mean(0)) @ (Y - Y.mean(0)).T)
    return float((K * L).sum() / np.sqrt((K * K).sum() * (L * L).sum()))


def baseline_rdm(X, Y):
    rows, columns = np.triu_indices(len(X), k=1)
    return float(scipy.stats.spearmanr((1 - np.corrcoef(X))[rows, columns], (1 - np.corrcoef(Y))[rows, columns])[0])


def _neuron_to_neuron(X, Y, train, test):
    Xc = X[train] - X[train].mean(0)
    norms = np.sqrt((Xc.astype(np.float64) ** 2).sum(0))
    best = []
    for j in range(Y.shape[1]):
        y = Y[train, j] - Y[train, j].mean()
        with np.errstate(invalid="ignore", divide="ignore"):
            best.append(int(np.nanargmax((Xc.T @ y) / (norms * np.sqrt(y @ y)))))
    return X[np.ix_(test, best)].astype(np.float64)


def baseline_cv(name, X, Y, objects, n_splits_run):
    """Per-split fits on the stimulus-sorted arrays + Pearson r per neuroid, median; mean over splits."""
    make = {"ridge": lambda: Ridge(alpha=1.0), "linear_predictivity": LinearRegression,
            "pls": lambda: PLSRegression(25, scale=False)}.get(name)
    medians = []
    splits = StratifiedShuffleSplit(10, train_size=0.9, random_state=1).split(np.zeros(len(X)), objects)
    for number, (train, test) in enumerate(splits):
        if number >= n_splits_run:
            break
        train, test = np.sort(train), np.sort(test)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            prediction = (_neuron_to_neuron(X, Y, train, test) if make is None
                          else make().fit(X[train], Y[train]).predict(X[test]))
        medians.append(np.median([scipy.stats.pearsonr(prediction[:, j], Y[test, j])[0] for j in range(Y.shape[1])]))
    return float(np.mean(medians))


# ------------------------------------------------------------------------------------------------ main
def run_case(label, X, Y, objects, source, target, names, args):
    _, floor = best_of(lambda: X @ X.T, args.repeat)
    print(f"\n{label}: X {X.shape} float32, Y {Y.shape} float64; BLAS floor (float32 X @ X.T) {floor:.2f} s")
    print(f"{'metric':<22}{'ours s':>8}{'baseline s':>12}{'ratio':>8}{'floor/ours':>11}  values (ours, baseline)")
    for name in names:
        if name == "cka":
            ours_fn = lambda: CKAMetric(backend=args.backend)(source, target)  # noqa: E731
            base_fn, base_splits = (lambda: baseline_cka(X, Y)), None
        elif name == "rdm":
            ours_fn = lambda: RDMMetric(backend=args.backend)(source, target)  # noqa: E731
            base_fn, base_splits = (lambda: baseline_rdm(X, Y)), None
        else:
            base_splits = 10 if name == "ridge" or (name == "pls" and X.shape[0] <= 640) else args.baseline_splits
            ours_fn = lambda name=name: CrossRegressedCorrelation(REGRESSION.get(name, name))(source, target)  # noqa: E731
            base_fn = lambda name=name, count=base_splits: baseline_cv(name, X, Y, objects, count)  # noqa: E731
        ours_times, base_times = [], []
        for _ in range(args.repeat):  # interleaved: ours, baseline, ours, baseline
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value, seconds = best_of(ours_fn, 1)
            ours_times.append(seconds)
            if name in args.skip_baseline:
                continue
            base_value, seconds = best_of(base_fn, 1)
            base_times.append(seconds * (10 / base_splits if base_splits else 1))
            if base_splits not in (None, 10):
                break  # a long baseline runs once
        ours_s = min(ours_times)
        if base_times:
            base_s = min(base_times)
            note = "" if base_splits in (None, 10) else f" (baseline: {base_splits} split(s) timed, x{10 / base_splits:g})"
            print(f"{name:<22}{ours_s:>8.2f}{base_s:>12.2f}{base_s / ours_s:>7.1f}x{floor / ours_s:>11.2f}  "
                  f"{float(value):.6f}, {base_value:.6f}{note}", flush=True)
        else:
            print(f"{name:<22}{ours_s:>8.2f}{'-':>12}{'-':>8}{floor / ours_s:>11.2f}  {float(value):.6f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stimuli", type=int, default=3200)
    parser.add_argument("--features", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--baseline-splits", type=int, default=1)
    parser.add_argument("--backend", default="numpy", choices=["numpy", "torch", "torch_cuda"],
                        help="where cka and rdm form the stimulus Gram matrix (the n x n x p product)")
    parser.add_argument("--pixels", action="store_true", help="also the 640 x 37,632 float32 case (pls, linear)")
    parser.add_argument("--only", nargs="*", default=["cka", "rdm", "ridge", "linear_predictivity",
                                                       "neuron_to_neuron", "pls"])
    parser.add_argument("--skip-baseline", nargs="*", default=["pls"],
                        help="metrics whose baseline is not run at the main scale (sklearn PLS: minutes per split)")
    args = parser.parse_args()
    X, Y, objects, source, target = make_data(args.stimuli, args.features)
    run_case("wide", X, Y, objects, source, target, args.only, args)
    if args.pixels:
        del X, source
        X, Y, objects, source, target = make_data(640, 37632)
        args.skip_baseline = []
        run_case("pixels", X, Y, objects, source, target, ["pls", "linear_predictivity"], args)


if __name__ == "__main__":
    main()
