"""Least squares with intercept for every cross-validation split, on any input, without a per-split SVD.

The numbers are scikit-learn's ``LinearRegression()``: training rows centred by their means, then ``lstsq`` with
``cond=rcond`` (1e-6: singular values below ``rcond`` times the largest count as zero), so with more features than
training stimuli the minimum-norm solution. Predictions only need the stimulus (or feature) Gram matrix, never an
SVD of the source: an SVD of a 2,880 x 10,000 training block costs about ten Gram products *per split*.

Three solution paths; each split gets the first that applies, and each is needed by some input:

1. **Held-out identity in stimulus space** (more features than training stimuli, every split's training rows the
   complement of its test rows, a well-conditioned kernel): ridge's identity at ``alpha = 0``
   (:func:`brainscore_metrics._ridge.ridge_heldout_predictions`): one Cholesky factorisation of the bordered
   stimulus kernel for all splits. Taken when its estimated condition number is at most
   :data:`~brainscore_metrics._ridge.MAX_LEAST_SQUARES_CONDITION`; not tried when fewer than n - 1 columns vary (the
   kernel is then singular). The fast path of wide sources.
2. **Held-out identity in feature space** (complementary splits; :func:`heldout_predictions_narrow`) on the narrowest
   source with the same centred Gram matrix: the source itself when it has no more features than training stimuli;
   for a wide source with fewer than n - 1 varying columns (dead units) those columns, exact affine copies merged
   (:func:`~brainscore_metrics._affine_columns.merge_affine_columns`; no stimulus Gram matrix is formed); for a wide
   source whose kernel path 1 refuses (singular or too ill-conditioned: duplicated stimuli, low rank) the pivoted
   Cholesky factor ``F`` (n x r) of its centred Gram matrix (:func:`compressed_source`, pivots below ``rcond^2``
   times the largest eigenvalue dropped). Least squares sees the source only through its Gram matrix, so each gives
   the same predictions. With ``C = Zc' Zc`` (features globally centred) and ``Z = [Zc 1]``, ``Z'Z`` is block
   diagonal, so the hat matrix is ``H = W W' + 1 1' / n`` with ``W = Zc L^-T`` (``L L'`` a pivoted Cholesky
   factorisation of ``C``, exactly dependent columns dropped); the residual of stimulus set S under the model fitted
   without S is ``(I - H_SS)^-1 e_S`` (``e``: the residuals of the fit on all rows), a |S| x |S| solve per split. A
   split whose training rows lack a direction (a unit active only on held-out stimuli: ``I - H_SS`` singular) gets
   scikit-learn's minimum-norm solution from the same factorisation (:func:`_minimum_norm_heldout`) when the kept
   columns are all the source's (else path 3: the norm over dropped columns would differ).
3. **Per split** (:func:`split_predictions`; also the single ``fit``, :func:`least_squares_fit`): the training block
   of the Gram matrix (wide: stimuli x stimuli, centred on the training rows; narrow: features x features) is
   factorised by Cholesky with diagonal pivoting, stopped at the pivots below ``rcond^2`` times its largest
   eigenvalue (the squares of the singular values scikit-learn drops), and the solution is the pseudo-inverse one of
   that factor (:func:`psd_pinv_solve`). For non-complementary splits and for what paths 1-2 leave unsolved; one
   pivoted factorisation per split.

None of them forms an SVD or an eigendecomposition.

Accuracy: the Gram matrix squares the condition number of the source, so these paths agree with an SVD of the
source to about ``eps * cond(Xc)^2`` relative (measured: 4e-11 at cond 1e3, 2e-9 at 1e4, 2e-7 at 1e5; path 1's gate
at 1e10 for the squared condition keeps it there). Rank decisions equal scikit-learn's whenever no singular value
lies within a few orders of magnitude of its cutoff (a gap around ``rcond``, as exact or float32-rounded rank
deficiency gives); for a spectrum that decays smoothly through the cutoff, the pivoted factorisation and the SVD
can keep a different number of directions.
"""

from __future__ import annotations

import contextlib

import numpy as np

from brainscore_metrics._affine_columns import merge_affine_columns
from brainscore_metrics._gram import stimulus_gram, varying_columns
from brainscore_metrics._psd_pinv import RCOND, largest_eigenvalue, psd_pinv_solve
from brainscore_metrics._ridge import (
    MAX_LEAST_SQUARES_CONDITION,
    IllConditionedKernelError,
    centered_gram,
    covers_complement,
    ridge_heldout_predictions,
    train_centered_kernel,
)

__all__ = ["RCOND", "compressed_source", "cross_predictions", "heldout_predictions_narrow", "least_squares_fit",
           "psd_pinv_solve", "split_predictions"]

#: pivots of ``I - H_SS`` (eigenvalues in [0, 1]) at or below this count as directions the training rows lack:
#: exactly lacking directions come out near ``eps * cond(C)`` (1e-12 at the 1e10 gate), present ones far above
_LACKING_DIRECTION = 1e-9


def _centered_rows(xp, X, rows, mean=None):
    values = xp.asarray(xp.take(X, xp.index(rows, X), 0), dtype=xp.float64)
    mean = xp.mean(values, axis=0) if mean is None else mean
    return values - mean, mean


def least_squares_fit(plan, X, Y, train, *, rcond: float = RCOND) -> dict:
    """Least squares with intercept on ``X[train]`` (scikit-learn ``LinearRegression()``; path 3 of the module
    docstring).

    Through the stimulus Gram matrix of the training rows when features outnumber them, else through the feature Gram
    matrix, both formed under the plan's precision (:func:`~brainscore_metrics._gram.stimulus_gram`: no float64
    copy of a float32 source); ``coef`` from float64 row blocks.

    Returns
    -------
    dict with ``coef`` (n_features, n_neuroids), ``x_mean`` (n_features,) and ``y_mean`` (n_neuroids,)
    """
    xp = plan.xp
    train = np.asarray(train)
    X_train = X if len(train) == X.shape[0] and np.array_equal(train, np.arange(X.shape[0])) else \
        xp.take(X, xp.index(train, X), 0)
    yc, y_mean = _centered_rows(xp, Y, train)
    x_mean = xp.column_means(X_train)[0]
    if X_train.shape[1] > X_train.shape[0]:
        dual = psd_pinv_solve(xp, stimulus_gram(plan, X_train, center="columns"), yc, rcond=rcond)
        coef = xp.transpose_times(plan, X_train, dual) - xp.outer(x_mean, xp.sum(dual, axis=0))
    else:  # Xc' Xc, and Xc' yc = X' yc (yc has zero column sums)
        features_gram = stimulus_gram(plan, X_train.T, center="rows")
        coef = psd_pinv_solve(xp, features_gram, xp.transpose_times(plan, X_train, yc), rcond=rcond)
    return {"coef": coef, "x_mean": x_mean, "y_mean": y_mean}


def split_predictions(plan, X, Y, train, test, *, gram=None, rcond: float = RCOND):
    """Predictions for ``X[test]`` of least squares fitted on ``X[train]`` (path 3 of the module docstring).

    Parameters
    ----------
    plan : ComputePlan
    X : array of shape (n_presentations, n_features)
    Y : array of shape (n_presentations, n_neuroids), float64
    train, test : int arrays
    gram : array of shape (n_presentations, n_presentations) or None, default=None
        :func:`~brainscore_metrics._ridge.centered_gram` of X; with more features than training stimuli the
        training kernel is read from it.
    """
    xp = plan.xp
    train, test = np.asarray(train), np.asarray(test)
    y_train = xp.asarray(xp.take(Y, xp.index(train, Y), 0), dtype=xp.float64)
    y_mean = xp.mean(y_train, axis=0)
    if X.shape[1] > len(train) and gram is not None:
        kernel = train_centered_kernel(xp, gram, train, train)
        cross = train_centered_kernel(xp, gram, train, test)
        dual = psd_pinv_solve(xp, kernel, y_train - y_mean, rcond=rcond)
        return cross @ dual + y_mean
    fitted = least_squares_fit(plan, X, Y, train, rcond=rcond)
    test_rows, _ = _centered_rows(xp, X, test, fitted["x_mean"])
    return test_rows @ fitted["coef"] + y_mean


def heldout_predictions_narrow(plan, X, Y, tests, *, rcond: float = RCOND):
    """Least-squares predictions of each held-out test set from one factorisation (path 2 of the module docstring).

    Every split's training rows must be the complement of its test rows. A split whose training rows lack a direction
    of the kept features (``I - H_SS`` singular) gets the minimum-norm solution (:func:`_minimum_norm_heldout`) when
    the kept features are all the columns of ``X`` (linearly independent: the norm is then the source's, as for
    :func:`compressed_source`'s or a source's varying columns), else None.

    Parameters
    ----------
    plan : ComputePlan
        Its precision rules the products of a float32 ``X`` for ``X'X``.
    X : array of shape (n_presentations, n_features)
    Y : array of shape (n_presentations, n_neuroids)
    tests : list of int arrays
    rcond : float, default=1e-6

    Returns
    -------
    predictions : list of (arrays of shape (n_test, n_neuroids) or None)
        None for a split that leaves dependent kept columns without a direction; the caller solves it by
        :func:`split_predictions`.

    Raises
    ------
    IllConditionedKernelError
        The kept features are too ill-conditioned for the normal equations (estimated condition number of
        ``Xc'Xc`` above :data:`~brainscore_metrics._ridge.MAX_LEAST_SQUARES_CONDITION`).
    """
    xp = plan.xp
    n = X.shape[0]
    features_gram = stimulus_gram(plan, X.T, center="rows")  # Xc' Xc, (p, p)
    largest = largest_eigenvalue(xp, features_gram)
    factor, order, rank = xp.pivoted_cholesky(features_gram, rcond * rcond * largest)
    del features_gram
    if rank == 0:
        raise IllConditionedKernelError("every feature is constant")
    all_columns_kept = rank == X.shape[1]  # independent columns: the minimum norm is the source's
    leading = factor[:rank]
    if xp.triangular_rcond(leading) ** 2 * MAX_LEAST_SQUARES_CONDITION < 1:
        raise IllConditionedKernelError(f"features Gram condition number ~{xp.triangular_rcond(leading) ** -2:.1e}")
    kept, _ = _centered_rows(xp, xp.take(X, xp.index(order[:rank], X), 1), np.arange(n))
    Y = xp.asarray(Y, dtype=xp.float64)
    projected = xp.solve_triangular(leading, kept.T @ Y, lower=True)  # W'Y = L^-1 Xc'Y, W = Xc L^-T
    # W and the residuals only on the rows some split holds out (about 65 % of them for 10 splits of 10 %)
    heldout_rows = np.unique(np.concatenate([np.asarray(test) for test in tests]))
    position = np.zeros(n, dtype=np.int64)
    position[heldout_rows] = np.arange(len(heldout_rows))
    heldout_index = xp.index(heldout_rows, kept)
    basis = xp.solve_triangular(leading, xp.take(kept, heldout_index, 0).T, lower=True).T  # (|U|, rank)
    del kept
    residuals = xp.take(Y, heldout_index, 0) - basis @ projected - xp.mean(Y, axis=0)
    coefficients = None  # C^-1 Xc'Y, the full fit's (kept features), formed when a split needs it
    predictions = []
    for test in tests:
        local_rows = xp.index(position[np.asarray(test)], basis)
        local = xp.take(basis, local_rows, 0)
        block = xp.eye(len(test), like=local) - local @ local.T - 1.0 / n
        # pivoted: a lacking direction can leave a pivot of +1e-15 that a plain Cholesky would divide by
        factor, order, kept_pivots = xp.pivoted_cholesky(block, _LACKING_DIRECTION)
        order = xp.index(order, block)
        held_residuals = xp.take(residuals, local_rows, 0)
        if kept_pivots == len(test):
            heldout = xp.zeros(tuple(held_residuals.shape), like=held_residuals)
            heldout[order] = xp.cholesky_factor_solve(factor, xp.take(held_residuals, order, 0))
        elif not all_columns_kept:
            predictions.append(None)
            continue
        else:
            if coefficients is None:
                coefficients = xp.solve_triangular(leading, projected, lower=True, transpose=True)
            heldout = _minimum_norm_heldout(xp, (factor, order, kept_pivots), local, leading, coefficients,
                                            held_residuals)
        predictions.append(xp.take(Y, xp.index(np.asarray(test), Y), 0) - heldout)
    return predictions


def _minimum_norm_heldout(xp, pivoted, local, leading, coefficients, residuals):
    """Held-out residuals ``r_S`` of the minimum-norm least-squares fit on the training rows T, when they lack
    directions of the features (``M = I - H_SS`` singular).

    Every solution of the training normal equations satisfies ``M r_S = e_S`` (e: the full fit's residuals), and
    gives the training coefficients ``b_T = b - C^-1 Z_S' r_S`` (b: the full fit's, C = Zc'Zc, Zc the centred kept
    features); the solutions differ by ``u`` in the null space of M, which moves ``b_T`` along the lacking
    directions ``C^-1 Z_S' u``. So ``r_S = r_0 + N a``: ``r_0`` one solution (from the pivoted factor of M, zero on
    its trailing pivots), N a basis of M's null space (from the same factor), and ``a`` chosen so that ``b_T`` is
    orthogonal to the lacking directions (scikit-learn's minimum-norm solution; the intercept is not in the norm,
    and ``C`` has no intercept block since ``Zc' 1 = 0``): with ``P = L^-T W_S' N`` (W_S = ``local``, C = L L'),
    ``(P'P) a = P'(b - L^-T W_S' r_0)``. Triangular solves with k + q columns (k: the lacking directions, q: the
    neuroids) and a k x k solve.

    Parameters
    ----------
    pivoted : tuple (factor, order, rank)
        :func:`pivoted_cholesky` of M at :data:`_LACKING_DIRECTION`, ``order`` already an index for the backend.
    local : array of shape (s, rank_C), the rows of W = Zc L^-T of the held-out stimuli
    leading : array of shape (rank_C, rank_C), L
    coefficients : array of shape (rank_C, q), ``C^-1 Zc'Y`` (the full fit)
    residuals : array of shape (s, q), the full fit's residuals of the held-out stimuli
    """
    factor, order, rank = pivoted
    size = factor.shape[0]
    kept_f, lacking_f = factor[:rank], factor[rank:]
    particular = xp.zeros(tuple(residuals.shape), like=residuals)  # r_0 in pivot order: zero on the lacking pivots
    null = xp.zeros((size, size - rank), like=factor)  # [-(L11^-T L21'); I] in pivot order
    if rank:
        particular[:rank] = xp.cholesky_factor_solve(kept_f, xp.take(residuals, order, 0)[:rank])
        null[:rank] = -xp.solve_triangular(kept_f, lacking_f.T, lower=True, transpose=True)
    null[rank:] = xp.eye(size - rank, like=factor)
    base = xp.zeros(tuple(residuals.shape), like=residuals)
    base[order] = particular
    basis = xp.zeros(tuple(null.shape), like=null)
    basis[order] = null
    lacking = xp.solve_triangular(leading, local.T @ basis, lower=True, transpose=True)  # L^-T W_S' N = P
    shifted = coefficients - xp.solve_triangular(leading, local.T @ base, lower=True, transpose=True)
    weights = xp.cholesky_solve(lacking.T @ lacking, lacking.T @ shifted)
    return base + basis @ weights


def compressed_source(xp, gram, *, rcond: float = RCOND):
    """A source with the same centred Gram matrix and as many features as its rank: the pivoted Cholesky factor.

    Parameters
    ----------
    gram : array of shape (n, n)
        :func:`~brainscore_metrics._ridge.centered_gram` of the source (not modified).
    rcond : float, default=1e-6
        Pivots below ``rcond^2`` times the largest eigenvalue are dropped (singular values below ``rcond`` times the
        largest, scikit-learn's ``tol``).

    Returns
    -------
    array of shape (n, rank), float64, rows in the order of ``gram``, columns centred: ``F F' ~= gram``.
    """
    largest = largest_eigenvalue(xp, gram)
    factor, order, rank = xp.pivoted_cholesky(gram, rcond * rcond * largest)
    source = xp.zeros((gram.shape[0], rank), like=gram)
    source[xp.index(order, source)] = factor
    return source


def cross_predictions(plan, X, Y, splits, *, rcond: float = RCOND):
    """Least-squares predictions of every (train, test) split, by the first path that applies (module docstring).

    Parameters
    ----------
    plan : ComputePlan
    X : array of shape (n_presentations, n_features), float32 or float64
    Y : array of shape (n_presentations, n_neuroids), float64
    splits : list of (train, test) int arrays

    Returns
    -------
    list of arrays of shape (n_test, n_neuroids)
    """
    wide = X.shape[1] > max(len(train) for train, _ in splits)
    tests = [test for _, test in splits]
    predictions, gram = [None] * len(splits), None
    if covers_complement(X.shape[0], splits):
        if wide:
            predictions, gram = _wide_heldout_predictions(plan, X, Y, tests, rcond=rcond)
        else:
            with contextlib.suppress(IllConditionedKernelError):
                predictions = heldout_predictions_narrow(plan, X, Y, tests, rcond=rcond)
    if all(prediction is not None for prediction in predictions):
        return predictions
    if wide and gram is None:
        gram = centered_gram(plan, X)
    return [prediction if prediction is not None else
            split_predictions(plan, X, Y, train, test, gram=gram if wide else None, rcond=rcond)
            for prediction, (train, test) in zip(predictions, splits, strict=True)]


def _wide_heldout_predictions(plan, X, Y, tests, *, rcond: float) -> tuple:
    """Paths 1-2 of the module docstring for a wide source and complementary splits: held-out predictions (None for
    a split neither solves) and the centred Gram matrix when one was formed (else None).

    rank(Xc) is at most the number of varying columns. With fewer than n - 1 (dead units of quantised ReLU
    activations) the stimulus kernel is singular and path 1 is not tried: path 2 runs on the varying columns
    (p'^2 n for p' columns, instead of the n^2 p' Gram product and its n x n pivoted factorisation), then on the
    compressed source for the splits that leaves unsolved. Otherwise path 1, then path 2 on the compressed source
    when the kernel is too ill-conditioned.
    """
    xp = plan.xp
    n = X.shape[0]
    kept = varying_columns(xp, X)
    predictions = [None] * len(tests)
    if kept is not None and len(kept) < n - 1:
        varying = merge_affine_columns(xp, xp.take(X, xp.index(kept, X), 1))
        with contextlib.suppress(IllConditionedKernelError):
            predictions = heldout_predictions_narrow(plan, varying, Y, tests, rcond=rcond)
        del varying
        if all(prediction is not None for prediction in predictions):
            return predictions, None
    gram = centered_gram(plan, X)
    if kept is None or len(kept) >= n - 1:
        with contextlib.suppress(IllConditionedKernelError):  # gram stays intact (a copy is factorised)
            return ridge_heldout_predictions(plan, gram, Y, tests, alpha=0.0), gram
    unsolved = [index for index, prediction in enumerate(predictions) if prediction is None]
    # one r x r factorisation (r <= n - 1) and an |S| x |S| one per split, against a training block each
    with contextlib.suppress(IllConditionedKernelError):
        solved = heldout_predictions_narrow(plan, compressed_source(xp, gram, rcond=rcond), Y,
                                            [tests[index] for index in unsolved], rcond=rcond)
        for index, prediction in zip(unsolved, solved, strict=True):
            predictions[index] = prediction
    return predictions, gram
