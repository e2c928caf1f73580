"""Columns that are exact affine functions of each other, merged into one without changing the centred Gram matrix.

Two features ``x`` and ``y = a + s x`` are proportional once centred (``yc = s xc``). Quantised ReLU activations have
many: units that fire on one stimulus only (``x = v e_i``) are all proportional to ``e_i - 1/n``. Such columns make
the feature Gram matrix singular, yet they change neither least-squares predictions nor the minimum norm: a group of
centred columns ``d_j w`` (one shared pattern ``w``) adds ``(sum_j d_j^2) w w'`` to the stimulus Gram matrix, exactly
what one column ``sqrt(sum_j d_j^2) w`` adds, and the smallest ``sum_j b_j^2`` with ``sum_j d_j b_j = t`` is
``t^2 / sum_j d_j^2``, the merged column's. Only exact matches are merged (patterns compared bit for bit).
"""

from __future__ import annotations

import numpy as np

__all__ = ["merge_affine_columns"]


def _patterns(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column as ``x[0] + d w`` with ``w[k] = 1`` at its first row of largest ``|x - x[0]|``: (w, d)."""
    shifted = values - values[:1]
    peak = np.argmax(np.abs(shifted), axis=0)
    scale = shifted[peak, np.arange(values.shape[1])]
    return shifted / scale, scale


def _groups(patterns: np.ndarray) -> np.ndarray:
    """Group number of each column; columns share one only when their patterns are equal bit for bit.

    Candidates share two checksums (each column's sum and weighted sum over rows, accumulated row by row, so equal
    columns give equal checksums); a candidate that differs from its group's first column gets a group of its own.
    """
    weights = np.linspace(1.0, 2.0, patterns.shape[0])[:, None]
    checksums = np.stack([patterns.sum(axis=0), (patterns * weights).sum(axis=0)], axis=1)
    _, first, group = np.unique(checksums, axis=0, return_index=True, return_inverse=True)
    group = group.ravel()
    shared = np.flatnonzero(np.bincount(group)[group] > 1)
    mismatched = shared[np.any(patterns[:, shared] != patterns[:, first[group[shared]]], axis=0)]
    group[mismatched] = len(first) + np.arange(len(mismatched))
    return group


def merge_affine_columns(xp, X):
    """``X`` (varying columns only) with every group of columns that are exact affine functions of each other replaced
    by one column of the same centred Gram contribution; ``X`` itself when there is no such group.

    Parameters
    ----------
    X : array of shape (n_stimuli, n_features), float32 or float64, every column varying (not constant)

    Returns
    -------
    array of shape (n_stimuli, n_groups), float64 when anything was merged (else ``X``): the columns that match no
    other unchanged, each group as ``sqrt(sum_j d_j^2) w`` (its centred columns are ``d_j (w - mean(w))``).
    """
    values = np.asarray(xp.to_numpy(X), dtype=np.float64)
    patterns, scales = _patterns(values)
    group = _groups(patterns)
    sizes = np.bincount(group)
    if len(sizes) == values.shape[1]:
        return X
    first = np.zeros(len(sizes), dtype=np.int64)
    first[group[::-1]] = np.arange(values.shape[1])[::-1]  # each group's first column
    merged = np.empty((values.shape[0], len(sizes)))
    single = sizes[group] == 1
    merged[:, group[single]] = values[:, single]
    shared = np.flatnonzero(sizes > 1)
    weight = np.sqrt(np.bincount(group, weights=scales * scales))
    merged[:, shared] = patterns[:, first[shared]] * weight[shared]
    return xp.asarray(merged, dtype=xp.float64)
