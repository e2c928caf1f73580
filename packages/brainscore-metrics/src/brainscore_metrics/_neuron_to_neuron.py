"""Neuron-to-neuron mapping: each target neuroid copies the source unit best correlated on training."""

from __future__ import annotations

import numpy as np

__all__ = ["best_source_units", "best_source_units_splits"]


def best_source_units(xp, X, Y, train, *, block: int = 2048):
    """Index of the source unit with the highest training Pearson r, per target neuroid.

    Parameters
    ----------
    X : array of shape (n_presentations, n_features)
    Y : array of shape (n_presentations, n_neuroids)
    train : int array of shape (n_train,)
    block : int, default=2048
        Source units per block (bounds memory to n_train x block floats).

    Returns
    -------
    int ndarray of shape (n_neuroids,): first maximum over units, NaN correlations (constant units or
    neuroids) ignored; -1 where every correlation is NaN.
    """
    train_t = xp.index(train, X)
    y = xp.asarray(xp.take(Y, train_t, 0), dtype=xp.float64)
    y = y - xp.mean(y, axis=0)
    y_norm = xp.sqrt(xp.sum(y * y, axis=0))
    n_neuroids = y.shape[1]
    best_r = np.full(n_neuroids, -np.inf)
    best_unit = np.full(n_neuroids, -1, dtype=np.int64)
    for start in range(0, X.shape[1], block):
        x = xp.asarray(xp.take(X[:, start:start + block], train_t, 0), dtype=xp.float64)
        constant = xp.all(x == x[:1], axis=0)
        x = x - xp.mean(x, axis=0)
        x_norm = xp.sqrt(xp.sum(x * x, axis=0))
        r = xp.to_numpy((x.T @ y) / (x_norm[:, None] * y_norm[None, :]))
        r[xp.to_numpy(constant)] = np.nan
        r[np.isnan(r)] = -np.inf
        block_best = np.argmax(r, axis=0)
        block_r = r[block_best, np.arange(n_neuroids)]
        better = block_r > best_r  # strict: the first maximum wins across blocks too
        best_r[better] = block_r[better]
        best_unit[better] = block_best[better] + start
    return best_unit


#: a unit whose training variance (from the downdated sums) is below this fraction of its variance over
#: all stimuli is re-checked exactly on its gathered training values (constant on training stimuli?)
_RECHECK_FRACTION = 1e-8


def best_source_units_splits(xp, X, Y, trains, *, block: int = 1024):
    """:func:`best_source_units` for several training sets, reading the source once for all of them.

    Each feature block is centred on all stimuli (in float64); for a training set t with held-out rows
    S the training cross-products and sums follow from those over all rows minus those over S:
    ``sum_t (x - mean_t)(y - mean_t)' = X'Y - X_S'Y_S - (sum_S x)(sum_S y)' / n_t`` (both sides centred on
    all stimuli, so nothing cancels). The cost per split is that of its held-out rows. Units whose
    training variance falls below ``1e-8`` of their overall variance (e.g. sparse units that are zero on
    every training stimulus) are recomputed exactly from their gathered training values.

    Parameters
    ----------
    X : array of shape (n_presentations, n_features), float32 or float64
    Y : array of shape (n_presentations, n_neuroids)
    trains : list of int arrays
    block : int, default=1024
        Source units per block.

    Returns
    -------
    list of int ndarrays of shape (n_neuroids,), one per training set (as :func:`best_source_units`).
    """
    n, p = X.shape
    Y = xp.asarray(Y, dtype=xp.float64)
    Yg = Y - xp.mean(Y, axis=0)
    n_neuroids = Y.shape[1]
    held = [xp.index(np.setdiff1d(np.arange(n), train), Y) for train in trains]
    y_stats = []
    for train, rows in zip(trains, held, strict=True):
        y_train = xp.take(Y, xp.index(train, Y), 0)
        y_train = y_train - xp.mean(y_train, axis=0)
        y_norm = xp.to_numpy(xp.sqrt(xp.sum(y_train * y_train, axis=0)))
        y_held = xp.take(Yg, rows, 0)
        y_stats.append((y_norm, y_held, xp.sum(y_held, axis=0)))
    best_r = [np.full(n_neuroids, -np.inf) for _ in trains]
    best_unit = [np.full(n_neuroids, -1, dtype=np.int64) for _ in trains]
    for start in range(0, p, block):
        x = xp.asarray(X[:, start:start + block], dtype=xp.float64)
        constant = xp.to_numpy(xp.all(x == x[:1], axis=0))  # on all stimuli: NaN for every split
        x = x - xp.mean(x, axis=0)
        cross_all = x.T @ Yg
        square_all = xp.sum(x * x, axis=0)
        for number, (train, rows) in enumerate(zip(trains, held, strict=True)):
            n_train = len(train)
            y_norm, y_held, y_held_sum = y_stats[number]
            x_held = xp.take(x, rows, 0)
            x_held_sum = xp.sum(x_held, axis=0)
            cross = cross_all - x_held.T @ y_held - xp.outer(x_held_sum, y_held_sum) / n_train
            variance = square_all - xp.sum(x_held * x_held, axis=0) - x_held_sum * x_held_sum / n_train
            variance = xp.to_numpy(variance)
            with np.errstate(invalid="ignore", divide="ignore"):
                r = xp.to_numpy(cross) / (np.sqrt(np.maximum(variance, 0))[:, None] * y_norm[None, :])
            r[constant] = np.nan
            recheck = np.flatnonzero((variance <= _RECHECK_FRACTION * xp.to_numpy(square_all)) & ~constant)
            if len(recheck):
                r[recheck] = _exact_correlations(xp, X, Y, train, start + recheck)
            _keep_best(r, start, best_r[number], best_unit[number])
    return best_unit


def _exact_correlations(xp, X, Y, train, units):
    """Training Pearson r of the given units with every neuroid, from their gathered values (NaN for a
    unit or neuroid constant on the training stimuli)."""
    train_t = xp.index(train, X)
    x = xp.asarray(xp.take(xp.take(X, xp.index(units, X), 1), train_t, 0), dtype=xp.float64)
    y = xp.take(Y, train_t, 0)
    constant = xp.to_numpy(xp.all(x == x[:1], axis=0))
    x, y = x - xp.mean(x, axis=0), y - xp.mean(y, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = xp.to_numpy(x.T @ y) / (xp.to_numpy(xp.sqrt(xp.sum(x * x, axis=0)))[:, None]
                                    * xp.to_numpy(xp.sqrt(xp.sum(y * y, axis=0)))[None, :])
    r[constant] = np.nan
    return r


def _keep_best(r, start: int, best_r, best_unit):
    """Update the running first maximum over units (NaN ignored) with the block's correlations."""
    r[np.isnan(r)] = -np.inf
    block_best = np.argmax(r, axis=0)
    block_r = r[block_best, np.arange(r.shape[1])]
    better = block_r > best_r  # strict: the first maximum wins across blocks too
    best_r[better] = block_r[better]
    best_unit[better] = block_best[better] + start
