"""Cross-validated RidgeCV in the dual form, correlated block by block over the neuroids: the memory of a wide
target stays near the inputs' (Li2026: 47,503 neuroids against 1,000 stimuli).

Per split the training kernel (stimuli x stimuli, from the one Gram matrix of the source) is factorised once,
``K + 1 = Q diag(s) Q'`` (the ``+ 1`` is the unpenalised intercept direction, as in :func:`~brainscore_metrics._ridge.
ridgecv_fit`). For an alpha, the dual coefficients are ``c = Q diag(w) Q'y`` (``w = 1 / (s + alpha)``, 0 on the
intercept direction) and the leave-one-out residuals ``c / g`` with ``g = (Q * Q) w``, so the mean squared LOO error
over all targets needs only ``M = (Q'y)(Q'y)'`` (stimuli x stimuli): ``sum_j c_ij^2 = (A M A')_ii``, ``A = Q diag(w)``.
``M`` is summed over blocks of neuroids, every alpha is scored from it (scikit-learn's ``RidgeCV(alphas,
alpha_per_target=False)`` choice: the first alpha of the smallest error), and a second pass over the blocks forms the
test predictions ``K[test, train] A Q'y + mean(y)`` and their Pearson r with the test targets. No array of all the
neuroids but the inputs and the (splits x neuroids) result is formed; the numbers are those of
:func:`~brainscore_metrics._ridge.ridgecv_fit` followed by its predictions.

Everything runs inside the caller's plan (:mod:`brainscore_metrics.backend.plan`): the stimuli x stimuli algebra on
one BLAS thread, the products over blocks of neuroids in the backend's fixed tiles on the plan's workers, so the
numbers do not depend on the worker count.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics._ridge import _intercept_direction, train_centered_kernel

__all__ = ["BLOCK_BYTES", "ridgecv_dual_correlations"]

#: float64 scratch of one block of neuroids (its centred training targets, projections, predictions)
BLOCK_BYTES = 64 * 2**20


def _blocks(n_columns: int, n_rows: int, target_bytes: int) -> list[slice]:
    """Blocks of neuroids whose float64 scratch (three arrays of ``n_rows`` rows) takes at most :data:`BLOCK_BYTES` and
    an eighth of the target's size."""
    budget = min(BLOCK_BYTES, max(2**20, target_bytes // 8))
    width = max(1, int(budget // (8 * 3 * max(n_rows, 1))))
    return [slice(start, min(start + width, n_columns)) for start in range(0, n_columns, width)]


def _projections(plan, Y, block, train_t, Q):
    """``Q'`` times the block's training targets centred on their mean, and that mean."""
    xp = plan.xp
    y = xp.asarray(xp.take(Y[:, block], train_t, 0), dtype=xp.float64)
    mean = xp.mean(y, axis=0)
    return xp.matmul(plan, Q.T, y - mean), mean


def _best_alpha(xp, alphas, eigenvalues, Q, intercept: int, outer, n_values: int) -> float:
    """The first alpha of the smallest mean squared leave-one-out error, from ``outer = (Q'y)(Q'y)'``."""
    squares = Q * Q
    best, best_error = None, None
    for alpha in alphas:
        w = 1.0 / (eigenvalues + alpha)
        w[intercept] = 0.0
        weighted = Q * w[None, :]
        row_sums = xp.sum((weighted @ outer) * weighted, axis=1)
        error = xp.item(xp.sum(row_sums / (squares @ w) ** 2)) / n_values
        if best_error is None or error < best_error:
            best, best_error = float(alpha), error
    return best


def ridgecv_dual_correlations(plan, gram, Y, splits, *, alphas) -> tuple[np.ndarray, list[dict]]:
    """Pearson r of every split's RidgeCV test predictions with the test targets, per neuroid.

    Parameters
    ----------
    plan : ComputePlan
        The caller's (entered) plan.
    gram : array of shape (n_stimuli, n_stimuli), float64
        Gram matrix of the column-centred source (:func:`~brainscore_metrics._ridge.centered_gram`).
    Y : array of shape (n_stimuli, n_neuroids), float32 or float64 (read block by block, never copied whole)
    splits : list of (train, test) index arrays
    alphas : sequence of float

    Returns
    -------
    r : ndarray of shape (n_splits, n_neuroids)
    info : list of {'alpha': float} per split
    """
    xp = plan.xp
    alphas = np.asarray(alphas, dtype=float)
    blocks = _blocks(Y.shape[1], max(len(train) for train, _ in splits), Y.shape[0] * Y.shape[1] * Y.dtype.itemsize)
    r = np.empty((len(splits), Y.shape[1]))
    info = []
    for number, (train, test) in enumerate(splits):
        train_t, test_t = xp.index(np.asarray(train), Y), xp.index(np.asarray(test), Y)
        eigenvalues, Q = xp.eigh(train_centered_kernel(xp, gram, train, train) + 1.0)
        intercept = _intercept_direction(xp, Q)

        outer = xp.zeros((Q.shape[1], Q.shape[1]), dtype=xp.float64, like=Q)
        for block in blocks:
            projected, _ = _projections(plan, Y, block, train_t, Q)
            outer += xp.matmul(plan, projected, projected.T)
        best = _best_alpha(xp, alphas, eigenvalues, Q, intercept, outer, len(train) * Y.shape[1])
        w = 1.0 / (eigenvalues + best)
        w[intercept] = 0.0
        predictor = train_centered_kernel(xp, gram, train, test) @ (Q * w[None, :])  # n_test x n_train
        for block in blocks:
            projected, mean = _projections(plan, Y, block, train_t, Q)
            prediction = xp.matmul(plan, predictor, projected) + mean
            target = xp.asarray(xp.take(Y[:, block], test_t, 0), dtype=xp.float64)
            r[number, block] = xp.to_numpy(pearson_columns(xp, prediction, target))
        info.append({"alpha": best})
    return r, info
