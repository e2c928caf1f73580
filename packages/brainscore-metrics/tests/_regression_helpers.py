"""Builders of synthetic assemblies and independent reference computations for the regression tests."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.stats
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from threadpoolctl import threadpool_limits

from brainio.assemblies import NeuroidAssembly


def neuroid_assembly(values, stimulus_ids, *, object_names=None, prefix="n", extra_coords=None):
    coords = {
        "stimulus_id": ("presentation", np.asarray(stimulus_ids)),
        "neuroid_id": ("neuroid", [f"{prefix}{i}" for i in range(values.shape[1])]),
        "region": ("neuroid", ["IT"] * values.shape[1]),
    }
    if object_names is not None:
        coords["object_name"] = ("presentation", np.asarray(object_names))
    coords.update(extra_coords or {})
    return NeuroidAssembly(values, coords=coords, dims=["presentation", "neuroid"])


def synthetic_pair(n=200, p=40, q=12, seed=0, noise=3.0, shuffle=True):
    """source (n x p features) and target (n x q neuroids) with a linear relation plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) + 1.5
    Y = X[:, : min(p, 10)] @ rng.normal(size=(min(p, 10), q)) + noise * rng.normal(size=(n, q))
    ids = np.array([f"im{i:05d}" for i in range(n)])
    objects = np.array([f"obj{i % 4}" for i in range(n)])
    order = rng.permutation(n) if shuffle else np.arange(n)
    source = neuroid_assembly(X[order], ids[order], object_names=objects[order], prefix="unit")
    # the target in yet another order
    order_t = rng.permutation(n) if shuffle else np.arange(n)
    target = neuroid_assembly(Y[order_t], ids[order_t], object_names=objects[order_t])
    return source, target, X, Y, ids, objects


def reference_cv(X, Y, ids, target_order_ids, target_order_objects, make_estimator, *, stratify=True,
                 n_splits=10, per_neuroid=False):
    """The reference computation, written independently: scikit-learn per split on stimulus-id-sorted
    rows, scipy.stats.pearsonr per neuroid, median over neuroids, mean and SEM over splits.

    X, Y are indexed like ``ids``; the splits are drawn on the target's order.
    """
    position = {stimulus: i for i, stimulus in enumerate(ids)}
    n = len(target_order_ids)
    if stratify:
        splits = StratifiedShuffleSplit(n_splits=n_splits, train_size=0.9, random_state=1).split(
            np.zeros(n), target_order_objects)
    else:
        splits = ShuffleSplit(n_splits=n_splits, train_size=0.9, random_state=1).split(np.zeros(n))
    medians, raws, estimators = [], [], []
    for train, test in splits:
        train_rows = np.array([position[s] for s in sorted(target_order_ids[train])])
        test_rows = np.array([position[s] for s in sorted(target_order_ids[test])])
        estimator = make_estimator().fit(X[train_rows], Y[train_rows])
        prediction = estimator.predict(X[test_rows])
        rs = []
        for j in range(Y.shape[1]):
            if np.all(prediction[:, j] == prediction[0, j]) or np.all(Y[test_rows, j] == Y[test_rows[0], j]):
                rs.append(np.nan)
            else:
                rs.append(scipy.stats.pearsonr(prediction[:, j], Y[test_rows, j])[0])
        raws.append(rs)
        medians.append(np.nanmedian(rs))
        estimators.append(estimator)
    medians = np.array(medians)
    center = medians.mean()
    error = medians.std() / np.sqrt(len(medians))
    return center, error, np.array(raws), estimators


def shuffle_splits(n: int, n_splits: int, random_state: int) -> list:
    """(train, test) index pairs, each sorted, from scikit-learn's ``ShuffleSplit(train_size=0.9)``."""
    splits = ShuffleSplit(n_splits, train_size=0.9, random_state=random_state).split(np.zeros(n))
    return [(np.sort(train), np.sort(test)) for train, test in splits]


def sklearn_split_predictions(make, X, Y, splits) -> list:
    """scikit-learn's held-out predictions per split (``make()`` an estimator), fitted on the float64 cast of ``X``."""
    X = X.astype(np.float64)
    # one BLAS thread: the small SVDs of the reference thrash on two threads when the cores are busy
    with warnings.catch_warnings(), threadpool_limits(limits=1, user_api="blas"):
        warnings.simplefilter("ignore")
        return [make().fit(X[train], Y[train]).predict(X[test]) for train, test in splits]


def assert_predictions_close(xp, ours, expected, rtol) -> None:
    """Each split's predictions within ``rtol`` times the largest reference prediction (absolute)."""
    for mine, reference in zip(ours, expected, strict=True):
        np.testing.assert_allclose(xp.to_numpy(mine), reference, rtol=0, atol=rtol * np.abs(reference).max())
