"""RDMs of patterns by correlation, squared Euclidean, squared Mahalanobis and crossnobis distance, as rsatoolbox
defines them (``rsatoolbox.rdm.calc_rdm`` with ``method='correlation' | 'euclidean' | 'mahalanobis' | 'crossnobis'``).

Plain arrays in, the strict upper triangle out (row-major, ``scipy.spatial.distance.squareform`` order). Rows are
averaged per condition first when ``conditions`` is given (the conditions in sorted order, as rsatoolbox's
``average_dataset_by``). Definitions, with ``p`` the number of channels (columns):

* ``'correlation'``: ``1 - r`` between the rows (each row centred over its channels);
* ``'euclidean'``: ``||x_i - x_j||^2 / p``;
* ``'mahalanobis'``: ``(x_i - x_j)' P (x_i - x_j) / p`` with the noise *precision* ``P`` (p x p; None: identity);
* ``'crossnobis'``: for every fold f (``folds``: one label per row, e.g. the run), the condition means of the rows
  outside f (``a``) and inside f (``b``) give ``(a_i - a_j)' P (b_i - b_j) / p``; averaged over folds. Unbiased:
  noise independent between folds adds nothing to its expectation.

Every distance comes from one stimulus Gram matrix (:func:`brainscore_metrics._gram.stimulus_gram`: feature blocks,
float64 sums, no centred or float64 copy of a float32 source), with the columns centred first for the
Euclidean-type distances (a common shift of all rows changes no distance, and the Gram matrix of centred columns
loses less to cancellation than rsatoolbox's ``|x_i|^2 + |x_j|^2 - 2 x_i x_j``). A noise precision is applied by
whitening the channels once (``X L`` with ``P = L L'``).
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics.errors import InvalidParameterError, NonFiniteValuesError

__all__ = ["RDM_METHODS", "condition_means", "rdm_vector"]

#: accepted ``method`` values of :func:`rdm_vector`
RDM_METHODS = ("correlation", "euclidean", "mahalanobis", "crossnobis")


def _as_numpy(values) -> np.ndarray:
    if type(values).__module__.startswith("torch"):
        values = values.detach().cpu().numpy()
    values = np.asarray(values)
    if values.dtype not in (np.float32, np.float64):
        values = values.astype(np.float64)
    return values


def _check_patterns(values: np.ndarray) -> None:
    if values.ndim != 2:
        raise InvalidParameterError(f"patterns must be a 2-d array (n_rows, n_channels), got shape {values.shape}")
    finite = np.isfinite(values).all(axis=1)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        raise NonFiniteValuesError(f"patterns hold NaN or infinite values in rows {bad[:10].tolist()}"
                                   f"{' ...' if len(bad) > 10 else ''}")


def condition_means(values: np.ndarray, conditions) -> tuple[np.ndarray, np.ndarray]:
    """Mean row of every condition, conditions in sorted order (rsatoolbox's ``average_dataset_by``).

    Parameters
    ----------
    values : ndarray of shape (n_rows, n_channels)
    conditions : array of shape (n_rows,)

    Returns
    -------
    (means of shape (n_conditions, n_channels), float64; the sorted conditions of shape (n_conditions,))
    """
    conditions = np.asarray(conditions)
    if conditions.shape != (values.shape[0],):
        raise InvalidParameterError(f"conditions must hold one label per row ({values.shape[0]}), got shape "
                                    f"{conditions.shape}")
    labels, index = np.unique(conditions, return_inverse=True)
    sums = np.zeros((len(labels), values.shape[1]))
    np.add.at(sums, index, values)
    return sums / np.bincount(index, minlength=len(labels))[:, None], labels


def _whiten(values: np.ndarray, noise) -> np.ndarray:
    """``values @ L`` with ``noise = L L'`` (a symmetric positive semidefinite precision, p x p)."""
    noise = np.asarray(_as_numpy(noise), dtype=np.float64)
    p = values.shape[1]
    if noise.shape != (p, p):
        raise InvalidParameterError(f"noise must be a precision matrix of shape ({p}, {p}), got {noise.shape}")
    try:
        factor = np.linalg.cholesky(noise)
    except np.linalg.LinAlgError:  # semidefinite: the symmetric square root
        eigenvalues, vectors = np.linalg.eigh(noise)
        factor = vectors * np.sqrt(np.maximum(eigenvalues, 0.0))
    return np.asarray(values, dtype=np.float64) @ factor


def _row_centred(values) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    return values - values.mean(axis=1, keepdims=True)


def _triangle_of_distances(gram: np.ndarray) -> np.ndarray:
    """``G_ii + G_jj - 2 G_ij`` over the strict upper triangle, row-major, one row segment at a time (no pair index
    arrays: 5.1 M pairs at 3,200 rows would take two int64 arrays of 41 MB and a gather)."""
    n = gram.shape[0]
    diagonal = np.diagonal(gram).copy()
    out = np.empty(n * (n - 1) // 2)
    position = 0
    for row in range(n - 1):
        segment = out[position:position + n - 1 - row]
        np.multiply(gram[row, row + 1:], -2.0, out=segment)
        segment += diagonal[row + 1:]
        segment += diagonal[row]
        position += n - 1 - row
    return out


def _fold_means(values: np.ndarray, conditions, folds):
    """Per fold: condition means of the rows outside the fold and inside it (conditions sorted)."""
    conditions = np.asarray(conditions)
    if folds is None:  # rsatoolbox's default: the k-th row of every condition belongs to fold k
        labels, index, counts = np.unique(conditions, return_inverse=True, return_counts=True)
        if not np.all(counts == counts[0]):
            raise InvalidParameterError("crossnobis without folds needs the same number of rows per condition; "
                                        f"counts range {counts.min()}-{counts.max()} (pass folds=)")
        folds = np.empty(len(conditions), dtype=np.int64)
        for label in range(len(labels)):
            folds[index == label] = np.arange(counts[0])
    folds = np.asarray(folds)
    if folds.shape != conditions.shape:
        raise InvalidParameterError(f"folds must hold one label per row ({len(conditions)}), got shape {folds.shape}")
    labels, index = np.unique(conditions, return_inverse=True)
    fold_labels, fold_index = np.unique(folds, return_inverse=True)
    if len(fold_labels) < 2:
        raise InvalidParameterError(f"crossnobis needs at least 2 folds, got {fold_labels.tolist()}")
    cells = fold_index * len(labels) + index
    sums = np.zeros((len(fold_labels) * len(labels), values.shape[1]))
    np.add.at(sums, cells, values)
    counts = np.bincount(cells, minlength=len(fold_labels) * len(labels)).reshape(len(fold_labels), len(labels))
    sums = sums.reshape(len(fold_labels), len(labels), -1)
    missing = np.argwhere(counts == 0)
    if len(missing):
        fold, condition = missing[0]
        raise InvalidParameterError(f"crossnobis: condition '{labels[condition]}' has no row in fold "
                                    f"'{fold_labels[fold]}' ({len(missing)} such pairs)")
    total, total_count = sums.sum(axis=0), counts.sum(axis=0)
    for fold in range(len(fold_labels)):
        inside = sums[fold] / counts[fold][:, None]
        outside = (total - sums[fold]) / (total_count - counts[fold])[:, None]
        yield outside, inside


def rdm_vector(patterns, method: str = "correlation", *, conditions=None, folds=None, noise=None,
               remove_mean: bool = False, precision: str = "mixed", backend=None) -> np.ndarray:
    """Upper triangle of the RDM of ``patterns`` (module docstring for the definitions).

    Parameters
    ----------
    patterns : array of shape (n_rows, n_channels), numpy or torch
    method : {'correlation', 'euclidean', 'mahalanobis', 'crossnobis'}, default='correlation'
    conditions : array of shape (n_rows,) or None, default=None
        Rows of one condition are averaged first (required by 'crossnobis'); None: every row is a condition.
    folds : array of shape (n_rows,) or None, default=None
        'crossnobis' only: the fold (run, session) of every row; None: the k-th row of each condition is fold k.
    noise : array of shape (n_channels, n_channels) or None, default=None
        Noise precision matrix of 'mahalanobis' and 'crossnobis' (None: identity).
    remove_mean : bool, default=False
        Centre every (averaged) pattern over its channels first ('euclidean', 'mahalanobis', 'crossnobis').
    precision : {'mixed', 'float64'}, default='mixed'
        Gram products of a float32 source ('correlation', 'euclidean'); see :mod:`brainscore_metrics._gram`.
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        Where the stimulus Gram matrix is formed.

    Returns
    -------
    ndarray of shape (n_conditions * (n_conditions - 1) / 2,), float64
    """
    from brainscore_metrics._gram import check_precision, gram_plan

    if method not in RDM_METHODS:
        raise InvalidParameterError(f"unknown RDM method {method!r}; available: {RDM_METHODS}")
    check_precision(precision)
    with gram_plan(backend, patterns, precision=precision) as plan:
        return _rdm_vector(plan, patterns, method, conditions=conditions, folds=folds, noise=noise,
                           remove_mean=remove_mean)


def _rdm_vector(plan, patterns, method: str, *, conditions, folds, noise, remove_mean: bool) -> np.ndarray:
    """:func:`rdm_vector` inside its plan."""
    from brainscore_metrics._gram import stimulus_gram_as_numpy
    from brainscore_metrics._rdm_kernels import correlation_distance_triangle

    torch_input = type(patterns).__module__.startswith("torch")
    values = patterns if torch_input and conditions is None and method in ("correlation", "euclidean") else \
        _as_numpy(patterns)
    if not torch_input:
        _check_patterns(values)
    if method == "crossnobis":
        if conditions is None:
            raise InvalidParameterError("crossnobis needs conditions= (the rows of one condition are split by fold)")
        if remove_mean:  # before the noise: the channel mean of a condition mean is the mean of the rows' ones
            values = _row_centred(values)
        values = _whiten(values, noise) if noise is not None else values
        kernel = None
        n_folds = 0
        for outside, inside in _fold_means(values, conditions, folds):
            product = outside @ inside.T
            kernel = product if kernel is None else kernel + product
            n_folds += 1
        symmetric = 0.5 * (kernel + kernel.T)  # a_i'b_j + a_j'b_i: only the symmetric part enters
        return _triangle_of_distances(symmetric) / (values.shape[1] * n_folds)
    if conditions is not None:
        values, _ = condition_means(np.asarray(values), conditions)
    if method == "correlation":
        return correlation_distance_triangle(values, plan=plan)
    if method == "mahalanobis" and noise is not None:
        values = _whiten(_row_centred(values) if remove_mean else values, noise)
        remove_mean = False  # centred before the noise, as rsatoolbox
    # a common shift of all rows changes no distance: centre the columns, or the rows for remove_mean
    gram = stimulus_gram_as_numpy(plan, values, center="rows" if remove_mean else "columns")
    return _triangle_of_distances(gram) / values.shape[1]
