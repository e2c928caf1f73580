"""RidgeCV on a kernel: efficient leave-one-out, K-fold or any complementary splitter, one alpha for all targets or
one per target, every fold and alpha from **one** eigendecomposition.

Ridge with an unpenalised intercept, fitted on all n training rows, is the saddle-point system
``M = [[K + alpha I, 1], [1', 0]]`` (K: the kernel of the features centred on those rows, so ``K 1 = 0``). Its
inverse restricted to the rows is ``C = V diag(w) V'`` with ``K + c 11' = V diag(lambda) V'``, ``w = 1 / (lambda +
alpha)`` and the weight of the intercept direction (the constant eigenvector, lifted above every other eigenvalue by
the shift ``c``) set to 0. The dual coefficients of the full fit are ``C Y``, and for a held-out set S whose
training rows are all the others the block-inverse identity gives the held-out errors without a fit:
``Y_S - prediction_S = (C_SS)^-1 (C Y)_S`` (one |S| x |S| Cholesky solve). Leave-one-out is the case |S| = 1:
``(C Y)_i / C_ii`` (scikit-learn's GCV formula). So a grid of alphas over k folds costs one eigendecomposition, one
``V' Y`` and per alpha ``V (w * V'Y)`` plus k small blocks, where fitting every fold (himalaya's ``KernelRidgeCV``)
costs k + 1 eigendecompositions; the chosen alphas' full fit is ``C Y`` again, with no further factorisation.

Selection (as himalaya's ``KernelRidgeCV`` and scikit-learn's ``RidgeCV``): the mean squared held-out error of each
fold, averaged over folds; the smallest over alphas (first on ties), per target (``alpha_per_target=True``) or of the
mean over targets.
"""

from __future__ import annotations

import contextlib

import numpy as np

from brainscore_metrics.backend import blas_threads_for, factorisation_threads
from brainscore_metrics.errors import InvalidParameterError

__all__ = ["check_cv", "covers_complement", "kernel_ridge_cv", "test_folds"]


def check_cv(cv):
    """``cv`` itself when it is ``'loo'``, an int >= 2, an object with ``split`` or an iterable of (train, test)
    pairs; an :class:`~brainscore_metrics.errors.InvalidParameterError` naming it otherwise."""
    if isinstance(cv, str):
        if cv != "loo":
            raise InvalidParameterError(f"cv must be 'loo', an int >= 2, a splitter or (train, test) pairs, got {cv!r}")
        return cv
    if isinstance(cv, bool) or (isinstance(cv, (int, np.integer)) and cv < 2):
        raise InvalidParameterError(f"cv must be 'loo', an int >= 2, a splitter or (train, test) pairs, got {cv!r}")
    if isinstance(cv, (int, np.integer)) or hasattr(cv, "split") or hasattr(cv, "__iter__"):
        return cv
    raise InvalidParameterError(f"cv must be 'loo', an int >= 2, a splitter or (train, test) pairs, got {cv!r}")


def test_folds(cv, n: int) -> list[np.ndarray] | None:
    """Held-out row sets of ``cv`` over ``n`` rows (None for ``'loo'``).

    An int k gives scikit-learn's ``KFold(k)`` without shuffling (contiguous folds, the first ``n % k`` one row
    longer: what himalaya and scikit-learn use for ``cv=k``); a splitter is asked for ``split(rows)``; pairs are
    taken as they are. Every split's training rows must be the complement of its test rows.
    """
    cv = check_cv(cv)
    if isinstance(cv, str):
        return None
    if isinstance(cv, (int, np.integer)):
        if cv > n:
            raise InvalidParameterError(f"cv={cv} folds need at least {cv} training rows, got {n}")
        sizes = np.full(int(cv), n // cv)
        sizes[:n % cv] += 1
        edges = np.concatenate([[0], np.cumsum(sizes)])
        return [np.arange(start, stop) for start, stop in zip(edges[:-1], edges[1:], strict=True)]
    splits = cv.split(np.zeros((n, 1))) if hasattr(cv, "split") else cv
    splits = [(np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64)) for train, test in splits]
    if not splits or any(len(test) == 0 or len(train) == 0 for train, test in splits):
        raise InvalidParameterError(f"cv={cv!r} gave no split, or a split with no training or no test row")
    if not covers_complement(n, splits):
        raise InvalidParameterError(f"cv={cv!r}: every split's training rows must be all rows not in its test rows "
                                    "(KFold, GroupKFold, LeaveOneGroupOut, PredefinedSplit are)")
    return [test for _, test in splits]


def covers_complement(n_rows: int, splits) -> bool:
    """Whether every (train, test) split is a partition of all ``n_rows`` rows (test = not train)."""
    for train, test in splits:
        train, test = np.asarray(train), np.asarray(test)
        if len(train) + len(test) != n_rows:
            return False
        seen = np.zeros(n_rows, dtype=bool)
        seen[train] = True
        seen[test] = True
        if not seen.all():
            return False
    return True


def _intercept_direction(xp, basis) -> int:
    n = basis.shape[0]
    constant = xp.full((n,), 1.0 / np.sqrt(n), like=basis)
    return int(xp.to_numpy(xp.argmax(xp.abs(basis.T @ constant))))


def _weights(xp, eigenvalues, alpha: float, intercept: int):
    w = 1.0 / (eigenvalues + alpha)
    w[intercept] = 0.0
    return w


def _heldout_errors(xp, V, w, CY, tests):
    """Mean squared held-out error per target, averaged over the folds ``tests`` (array (n_targets,))."""
    total = None
    for test in tests:
        rows = xp.index(test, V)
        V_S = xp.take(V, rows, 0)
        block = (V_S * w[None, :]) @ V_S.T
        try:
            errors = xp.cholesky_solve(block, xp.take(CY, rows, 0))
        except (np.linalg.LinAlgError, RuntimeError):  # torch raises RuntimeErrors; C_SS is only semidefinite here
            errors = xp.pinv(block) @ xp.take(CY, rows, 0)
        fold = xp.mean(errors * errors, axis=0)
        total = fold if total is None else total + fold
    return total / len(tests)


def kernel_ridge_cv(xp, kernel, Y, alphas, *, folds=None, alpha_per_target: bool = False) -> dict:
    """Cross-validated ridge with intercept on a training kernel (module docstring).

    Parameters
    ----------
    xp : backend module
    kernel : array of shape (n_train, n_train), float64
        Gram matrix of the training features centred on the training rows (its rows sum to 0).
    Y : array of shape (n_train, n_neuroids), float64
    alphas : sequence of float
    folds : list of int arrays or None, default=None
        Held-out row sets, each split's training rows being the others (:func:`test_folds`); None: leave-one-out.
    alpha_per_target : bool, default=False

    Returns
    -------
    dict with ``dual`` (n_train, n_neuroids; predictions of rows r are ``kernel_r @ dual + y_mean``), ``y_mean``
    (n_neuroids,), ``alpha`` (float, or float ndarray of shape (n_neuroids,) with ``alpha_per_target``) and
    ``cv_mse`` (ndarray (n_alphas, n_neuroids): mean squared held-out error of every alpha and target).
    """
    alphas = np.asarray(alphas, dtype=np.float64).reshape(-1)
    if len(alphas) == 0 or not np.all(alphas > 0):
        raise InvalidParameterError(f"alphas must be positive and non-empty, got {alphas.tolist()!r}")
    n, n_targets = kernel.shape[0], Y.shape[1]
    held_out = n ** 2 if folds is None else sum(len(test) ** 2 * n + len(test) ** 3 / 3 for test in folds)
    flops = 10 * n ** 3 + len(alphas) * (2 * n ** 2 * n_targets + held_out)
    # small systems on one BLAS thread: on a loaded machine several threads make each small product wait
    # (a 512-row 5-fold grid over 10 alphas took 9 s on two contended threads)
    with blas_threads_for(xp, flops):
        return _kernel_ridge_cv(xp, kernel, Y, alphas, folds, alpha_per_target)


def _kernel_ridge_cv(xp, kernel, Y, alphas, folds, alpha_per_target: bool) -> dict:
    n = kernel.shape[0]
    y_mean = xp.mean(Y, axis=0)
    yc = Y - y_mean
    # lift the constant direction (K 1 = 0) above every eigenvalue of K so that it is its own eigenvector
    diagonal = xp.arange(n, like=kernel)
    shift = (2.0 * xp.item(xp.sum(kernel[diagonal, diagonal])) + 1.0) / n
    # one LAPACK thread unless a thread probe just found all faster (threaded eigh waits on a loaded machine)
    with factorisation_threads() if xp.name == "numpy" else contextlib.nullcontext():
        eigenvalues, V = xp.eigh(kernel + shift)
    intercept = _intercept_direction(xp, V)
    Vty = V.T @ yc
    squared = V * V if folds is None else None
    mse = []
    for alpha in alphas:
        w = _weights(xp, eigenvalues, float(alpha), intercept)
        CY = V @ (w[:, None] * Vty)
        if folds is None:  # leave-one-out: (C Y)_i / C_ii
            loo = CY / (squared @ w)[:, None]
            mse.append(xp.to_numpy(xp.mean(loo * loo, axis=0)))
        else:
            mse.append(xp.to_numpy(_heldout_errors(xp, V, w, CY, folds)))
    mse = np.stack(mse)
    if alpha_per_target:
        chosen = np.argmin(mse, axis=0)  # first best alpha per target
    else:
        chosen = np.full(mse.shape[1], int(np.argmin(mse.mean(axis=1))))
    dual = xp.zeros(tuple(Y.shape), like=Y)
    for index in np.unique(chosen):
        targets = np.flatnonzero(chosen == index)
        w = _weights(xp, eigenvalues, float(alphas[index]), intercept)
        columns = xp.index(targets, Vty)
        dual[:, columns] = V @ (w[:, None] * xp.take(Vty, columns, 1))
    alpha = alphas[chosen] if alpha_per_target else float(alphas[chosen[0]]) if len(chosen) else float(alphas[0])
    return {"dual": dual, "y_mean": y_mean, "alpha": alpha, "cv_mse": mse}
