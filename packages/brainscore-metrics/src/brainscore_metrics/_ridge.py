"""Ridge and RidgeCV (efficient leave-one-out), with an unpenalised intercept; the held-out identity that least
squares (:mod:`brainscore_metrics._least_squares`) shares at ``alpha = 0``.

Numbers follow scikit-learn's ``Ridge(alpha)`` and ``RidgeCV(alphas, alpha_per_target=False)`` on the same
arrays. When there are more features
than training stimuli the kernel (dual) form is used: the Gram matrix of the globally centred features
is computed once per source (feature blocks, so no centred copy of the features is held); a ridge fit solves
the saddle-point system of an unpenalised intercept on its training block (:mod:`brainscore_metrics._ridge_dual`),
RidgeCV re-centres it on each split's training stimuli in kernel space; predictions are kernel rows times dual
coefficients. RidgeCV uses one eigendecomposition per split for all targets and all alphas, with
scikit-learn's leave-one-out formula (intercept direction left unpenalised, mean squared LOO error
over all targets and stimuli, first best alpha on ties).
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._gram import stimulus_gram
from brainscore_metrics._ridge_cv import covers_complement, kernel_ridge_cv, test_folds
from brainscore_metrics._ridge_dual import (
    kernel_rows,
    saddle_point_dual,
    saddle_point_predictions,
    train_block,
)
from brainscore_metrics.errors import IllConditionedKernelError

__all__ = [
    "ALPHA_LIST",
    "FACTORISATION_ERRORS",
    "MIXED_MIN_FEATURES_PER_STIMULUS",
    "centered_gram",
    "IllConditionedKernelError",
    "covers_complement",
    "ridge_fit",
    "ridge_heldout_predictions",
    "primal_from_dual",
    "ridgecv_fit",
    "train_centered_kernel",
]

#: what a failed factorisation of a float32 kernel raises (torch's linalg errors are RuntimeErrors): the errors on
#: which ridge retries with float64 products (:func:`brainscore_metrics.backend.plan.with_float64_retry`)
FACTORISATION_ERRORS = (IllConditionedKernelError, np.linalg.LinAlgError, RuntimeError)

#: the reference's RidgeCV grid (99 values)
ALPHA_LIST = tuple(float(a) for a in [
    0.01, 0.1, 0.5, 1.0, 10.0, 32.5, 55.0, 77.5,
    *np.arange(100, 1000, 50), *np.arange(1000, 10000, 500), *np.arange(10000, 100000, 5000),
    *np.arange(100000, 1000000, 50000), *np.arange(1000000, 10000001, 500000),
])


#: ridge's kernel takes float32 block products (``precision='mixed'``) only when at least this
#: many features per stimulus vary: with fewer, the centred kernel's smallest eigenvalues lie near zero (its rank is
#: at most the number of varying features, and a near-square source is ill-conditioned), so float32 rounding (about
#: 6e-8 of its largest entries) can exceed alpha and leave ``G + alpha I`` indefinite, and the products would be
#: formed again in float64 after a failed factorisation (issue 31's quantised input: 3,389 varying features for
#: 3,200 stimuli; the failed attempt cost 0.57 s of 1.6 s)
MIXED_MIN_FEATURES_PER_STIMULUS = 2.0


def centered_gram(plan, X, *, mixed_min_features_per_stimulus: float = 0.0):
    """Gram matrix of the column-centred source (:func:`brainscore_metrics._gram.stimulus_gram`).

    Parameters
    ----------
    plan : ComputePlan
        Its ``precision`` rules the products of a float32 source.
    X : array of shape (n_presentations, n_features), float32 or float64
    mixed_min_features_per_stimulus : float, default=0.0
        As :func:`~brainscore_metrics._gram.stimulus_gram` (ridge passes :data:`MIXED_MIN_FEATURES_PER_STIMULUS`).

    Returns
    -------
    array of shape (n_presentations, n_presentations), float64, symmetric
    """
    return stimulus_gram(plan, X, center="columns", mixed_min_features_per_stimulus=mixed_min_features_per_stimulus)


def train_centered_kernel(xp, gram, train, rows):
    """Kernel between ``rows`` and ``train`` of the features centred on the ``train`` mean.

    With G the Gram of globally centred features, ``(x_i - m)(x_j - m) = G_ij - r_i - r_j + r_bar``
    where ``r_i`` is the mean of ``G_ij`` over training j and ``r_bar`` the mean of r over training i.
    """
    train_t, rows_t = xp.index(train, gram), xp.index(rows, gram)
    selector = xp.zeros((gram.shape[0],), dtype=xp.float64, like=gram)
    selector[train_t] = 1.0 / len(train)
    r = gram @ selector  # r_i = mean over training j of G_ij
    r_train = xp.take(r, train_t, 0)
    r_bar = xp.mean(r_train)
    block = kernel_rows(xp, gram, train, rows)
    block -= xp.take(r, rows_t, 0)[:, None]
    block -= r_train[None, :]
    block += r_bar
    return block


def _use_dual(X, n_train: int) -> bool:
    return X.shape[1] > n_train


def _centered_train(xp, X, Y, train):
    train_t = xp.index(train, X)
    x_train = xp.asarray(xp.take(X, train_t, 0), dtype=xp.float64)
    y_train = xp.asarray(xp.take(Y, train_t, 0), dtype=xp.float64)
    x_mean, y_mean = xp.mean(x_train, axis=0), xp.mean(y_train, axis=0)
    return x_train - x_mean, y_train - y_mean, x_mean, y_mean


def ridge_fit(plan, X, Y, train, *, alpha: float = 1.0, gram=None, overwrite_gram: bool = False):
    """Ridge regression with intercept (scikit-learn ``Ridge(alpha)``).

    With more features than training stimuli, in kernel form as a saddle-point system over the given Gram matrix
    (:mod:`brainscore_metrics._ridge_dual`).

    Parameters
    ----------
    plan : ComputePlan
    X : array of shape (n_presentations, n_features)
    Y : array of shape (n_presentations, n_neuroids)
    train : int array of shape (n_train,)
    alpha : float, default=1.0
    gram : array of shape (n_presentations, n_presentations) or None, default=None
        :func:`centered_gram` of X; used (and required for the dual form to skip recomputation) when
        there are more features than training stimuli.
    overwrite_gram : bool, default=False
        The caller no longer needs ``gram`` but for the rows after the training ones: the regularised kernel is
        formed and factorised in its memory when the training rows are its first ones
        (:func:`~brainscore_metrics._ridge_dual.train_block`), and the fit holds no ``gram``.

    Returns
    -------
    dict: either ``coef`` (n_features, n_neuroids) and ``x_mean`` (primal), or ``dual`` (n_train,
    n_neuroids), ``dual_intercept`` (n_neuroids,) and ``train`` (dual; with ``gram`` unless ``overwrite_gram``:
    predictions are ``K[rows, train] dual + dual_intercept + y_mean``), and ``y_mean`` (n_neuroids,).
    """
    xp = plan.xp
    if _use_dual(X, len(train)):
        if gram is None:
            gram = centered_gram(plan, X)
        y_train = xp.asarray(xp.take(Y, xp.index(train, X), 0), dtype=xp.float64)
        y_mean = xp.mean(y_train, axis=0)
        kernel = train_block(xp, gram, train, overwrite=overwrite_gram)  # regularised and factorised in place
        diagonal = xp.arange(len(train), like=kernel)
        kernel[diagonal, diagonal] += alpha
        dual, intercept = saddle_point_dual(xp, plan, xp.cholesky(plan, kernel, overwrite=True), y_train - y_mean)
        fitted = {"dual": dual, "dual_intercept": intercept, "train": np.asarray(train), "y_mean": y_mean}
        return fitted if overwrite_gram else {**fitted, "gram": gram}
    xc, yc, x_mean, y_mean = _centered_train(xp, X, Y, train)
    regularised = xc.T @ xc + alpha * xp.eye(X.shape[1], like=xc)
    coef = xp.cholesky_solve(regularised, xc.T @ yc)
    return {"coef": coef, "x_mean": x_mean, "y_mean": y_mean}


#: least squares through the kernel identity only when the estimated condition number is below this: the Gram
#: matrix squares the source's condition number, and predictions through it agree with an SVD of the source to
#: about eps * cond (measured 2e-7 relative at 1e10); singular values of the centred source then stay above 1e-5
#: times the largest, far from scikit-learn's cutoff (1e-6), so no direction it would drop is kept
MAX_LEAST_SQUARES_CONDITION = 1e10


def ridge_heldout_predictions(plan, gram, Y, tests, *, alpha: float = 1.0, overwrite: bool = False):
    """Ridge-with-intercept predictions of each held-out test set, from one factorisation for all splits.

    Equals fitting :func:`ridge_fit` on the complement of each test set and predicting the test set, when
    every split's training rows are exactly the rows not in its test set. Ridge with an unpenalised
    intercept is the saddle-point system ``M = [[K + alpha I, 1], [1^T, 0]]`` over all rows (K: the Gram
    of the globally centred features, valid for every split since the intercept absorbs any shift). With
    ``B = (K + alpha I)^{-1}``, ``v = B 1`` and ``s = 1^T v``, ``M^{-1}`` restricted to the data rows is
    ``B - v v^T / s``; for a held-out set S the block-inverse identity gives the residuals of the model
    fitted without S as ``(M^{-1})_SS^{-1} (M^{-1} [Y; 0])_S``, so a split costs one |S| x |S| solve.
    ``B`` is never formed. The rows are reordered so that the union U of all test sets comes last; with
    the Cholesky factor L of the reordered system, ``B [Y 1]`` is two triangular solves, and for S inside U
    ``B_SS = W[:, S]' W[:, S]`` needs only the trailing block ``W_UU = (L_UU)^-1`` of ``W = L^-1`` (the
    rows of ``W[:, U]`` above U are zero): a |U|^3 / 3 inversion instead of n^3 / 3 (|U| is about 65% of
    n for 10 splits of 10%, 10% for one split).

    ``alpha=0`` is least squares with intercept, minimum-norm when features outnumber stimuli (the limit
    of ridge as alpha -> 0). The last row of M forces ``1'c = 0``, so ``K + c 1 1'`` may replace K there:
    with ``c`` the mean diagonal it is positive definite whenever the centred source has full row rank
    n - 1; :class:`IllConditionedKernelError` is raised when its estimated condition number exceeds
    :data:`MAX_LEAST_SQUARES_CONDITION` (or it is singular), for the caller to fall back to an SVD.

    Parameters
    ----------
    plan : ComputePlan
    gram : array of shape (n_presentations, n_presentations)
        Gram matrix of the (globally) centred source; not modified (a reordered copy is factorised) unless
        ``overwrite``.
    Y : array of shape (n_presentations, n_neuroids), float64
    tests : list of int arrays (n_test,)
    alpha : float, default=1.0
    overwrite : bool, default=False
        Reorder and factorise a numpy ``gram`` in its own memory (no n x n copy: at 3,200 stimuli an 82 MB
        allocation whose first writes cost about as much as the reordering itself); ``gram`` is then garbage.

    Returns
    -------
    list of arrays of shape (n_test, n_neuroids), one per test set, rows in the order of ``tests``.
    """
    xp = plan.xp
    n = gram.shape[0]
    union = np.unique(np.concatenate([np.asarray(test, dtype=np.int64) for test in tests]))
    start = n - len(union)
    order = np.concatenate([np.setdiff1d(np.arange(n), union, assume_unique=True), union])
    position = np.empty(n, dtype=np.int64)
    position[order] = np.arange(n)
    order_rows = xp.index(order, gram)
    gram = xp.reorder_symmetric(gram, order, overwrite=overwrite)  # the reordered system, U last
    diagonal = xp.arange(n, like=gram)
    if alpha > 0:
        gram[diagonal, diagonal] += alpha
    else:
        gram += xp.item(xp.mean(gram[diagonal, diagonal]))
    try:
        factor, tail_inverse, rcond = xp.cholesky_tail_inverse(plan, gram, start, estimate_condition=alpha <= 0,
                                                               overwrite=True)
    except np.linalg.LinAlgError as error:
        raise IllConditionedKernelError(str(error)) from None
    del gram
    if alpha <= 0 and not rcond * MAX_LEAST_SQUARES_CONDITION >= 1:
        raise IllConditionedKernelError(f"kernel condition number ~{1 / max(rcond, 1e-300):.1e}")
    Y_ordered = xp.take(Y, order_rows, 0)
    ones = xp.ones((n, 1), like=Y_ordered)
    solved = xp.factor_solve(plan, factor, xp.concatenate([Y_ordered, ones], axis=1))  # B [Y 1]
    del factor
    v = solved[:, -1]
    s = xp.sum(v)
    heldout_rhs = solved[:, :-1] - xp.outer(v, (v @ Y_ordered) / s)
    rows_of_inverse = tail_inverse.T  # row j holds column j of W_UU (contiguous for LAPACK's Fortran W)

    def heldout(test):
        local = position[np.asarray(test, dtype=np.int64)]  # rows of the reordered system
        lead = xp.take(rows_of_inverse, xp.index(local - start, rows_of_inverse), 0)
        lead = lead[:, int(np.min(local)) - start:]  # W_UU is lower triangular
        rows = xp.index(local, Y_ordered)
        v_test = xp.take(v, rows, 0)
        block = lead @ lead.T - xp.outer(v_test, v_test / s)
        # (M^-1)_SS is the inverse of a Schur complement of a positive definite system
        residuals = xp.cholesky_solve(block, xp.take(heldout_rhs, rows, 0))
        return xp.take(Y_ordered, rows, 0) - residuals

    return plan.map(heldout, tests)  # one split per task


def _intercept_direction(xp, basis) -> int:
    """Column of the orthonormal ``basis`` (n_train x k) closest to the constant vector."""
    n_train = basis.shape[0]
    constant = xp.full((n_train,), 1.0 / np.sqrt(n_train), like=basis)
    return int(xp.to_numpy(xp.argmax(xp.abs(basis.T @ constant))))


def _best_alpha_loo(xp, alphas, loo_terms):
    """First alpha with the smallest mean squared leave-one-out error.

    ``loo_terms(alpha)`` returns the dual coefficients ``c`` (n_train, n_neuroids) and the diagonal of
    the inverse regularised kernel (n_train,); the LOO residuals are ``c / diag``. Returns the chosen
    alpha (float), its ``c`` and the mean squared LOO errors of all alphas and targets (ndarray (n_alphas,
    n_neuroids)).
    """
    best_mse, best_alpha, best_c = None, None, None
    scores = []
    for alpha in alphas:
        c, g_inv_diag = loo_terms(alpha)
        loo = c / g_inv_diag[:, None]
        per_target = np.asarray(xp.to_numpy(xp.mean(loo * loo, axis=0)), dtype=np.float64)
        mse = float(per_target.mean())
        scores.append(per_target)
        if best_mse is None or mse < best_mse:
            best_mse, best_alpha, best_c = mse, float(alpha), c
    return best_alpha, best_c, np.stack(scores)


def ridgecv_fit(plan, X, Y, train, *, alphas=ALPHA_LIST, gram=None, cv="loo", alpha_per_target: bool = False):
    """RidgeCV with intercept over ``alphas``: efficient leave-one-out (``cv='loo'``, scikit-learn's ``RidgeCV``) or
    held-out folds (``cv=k`` or a splitter, himalaya's ``KernelRidgeCV``), one alpha for all targets or one per target
    (:func:`brainscore_metrics._ridge_cv.kernel_ridge_cv`: one eigendecomposition for every fold and alpha).

    Parameters
    ----------
    plan : ComputePlan
    X : array of shape (n_presentations, n_features)
    Y : array of shape (n_presentations, n_neuroids)
    train : int array of shape (n_train,)
    alphas : sequence of float, default=ALPHA_LIST
    gram : array of shape (n_presentations, n_presentations) or None, default=None
        :func:`centered_gram` of X (the dual form with more features than training stimuli).
    cv : 'loo', int or splitter, default='loo'
        Folds within the training rows (:func:`brainscore_metrics._ridge_cv.test_folds`).
    alpha_per_target : bool, default=False

    Returns
    -------
    The :func:`ridge_fit`-style dict of the chosen alpha(s) plus ``alpha`` (float, or array of shape (n_neuroids,)
    with ``alpha_per_target``), ``cv_mse`` (array of shape (n_alphas, n_neuroids)) and ``loo_mse`` (its mean over
    targets, shape (n_alphas,)).
    """
    xp = plan.xp
    folds = test_folds(cv, len(train))
    if folds is None and not alpha_per_target and not _use_dual(X, len(train)):
        return _ridgecv_loo_primal(xp, X, Y, train, alphas=alphas)
    y_train = xp.asarray(xp.take(Y, xp.index(train, Y), 0), dtype=xp.float64)
    if _use_dual(X, len(train)):
        if gram is None:
            gram = centered_gram(plan, X)
        kernel = train_centered_kernel(xp, gram, train, train)
    else:  # fewer features than training stimuli: the training kernel from the centred rows
        xc, _, x_mean, _ = _centered_train(xp, X, Y, train)
        kernel = xc @ xc.T
    fitted = kernel_ridge_cv(plan, kernel, y_train, alphas, folds=folds, alpha_per_target=alpha_per_target)
    scores = {"alpha": fitted["alpha"], "cv_mse": fitted["cv_mse"], "loo_mse": fitted["cv_mse"].mean(axis=1)}
    if _use_dual(X, len(train)):
        return {"dual": fitted["dual"], "train": np.asarray(train), "y_mean": fitted["y_mean"], "gram": gram, **scores}
    return {"coef": xc.T @ fitted["dual"], "x_mean": x_mean, "y_mean": fitted["y_mean"], **scores}


def _ridgecv_loo_primal(xp, X, Y, train, *, alphas):
    """Leave-one-out RidgeCV with one alpha, fewer features than training stimuli: scikit-learn's SVD of the centred
    training features with a constant column (its intercept direction unpenalised)."""
    alphas = np.asarray(alphas, dtype=float)
    xc, yc, x_mean, y_mean = _centered_train(xp, X, Y, train)
    n_train = xc.shape[0]
    ones = xp.full((n_train, 1), 1.0, like=xc)
    U, s, _ = xp.svd(xp.concatenate([xc, ones], axis=1))
    intercept_dim = _intercept_direction(xp, U)
    Uty = U.T @ yc
    U2 = U * U

    def primal_terms(alpha):
        w = 1.0 / (s * s + alpha) - 1.0 / alpha
        w[intercept_dim] = -1.0 / alpha
        return U @ (w[:, None] * Uty) + yc / alpha, U2 @ w + 1.0 / alpha

    alpha, dual, scores = _best_alpha_loo(xp, alphas, primal_terms)
    return {"coef": xc.T @ dual, "x_mean": x_mean, "y_mean": y_mean, "alpha": alpha, "cv_mse": scores,
            "loo_mse": scores.mean(axis=1)}


def linear_model_predict(xp, fitted, X, rows=None):
    """Predictions of a fitted ridge/RidgeCV/least-squares dict for ``X[rows]``.

    The dual form needs ``X`` to be the array the Gram matrix was computed on.
    """
    if "dual" in fitted:
        if rows is None:
            raise ValueError("dual-form predictions need the presentation rows of the fitted source")
        if "dual_intercept" in fitted:  # ridge_fit's saddle-point form
            return saddle_point_predictions(xp, fitted["gram"], fitted, rows)
        kernel = train_centered_kernel(xp, fitted["gram"], fitted["train"], rows)
        return kernel @ fitted["dual"] + fitted["y_mean"]
    if rows is not None:
        X = xp.take(X, xp.index(rows, X), 0)
    return (xp.asarray(X, dtype=xp.float64) - fitted["x_mean"]) @ fitted["coef"] + fitted["y_mean"]


def primal_from_dual(plan, fitted, X):
    """A dual-form fit on all rows of ``X`` as ``coef`` (n_features, n_neuroids) and ``x_mean``, float64, without a
    float64 copy of ``X``: ``coef = Xc' dual = X' dual - x_mean (1' dual)``, ``X' dual`` over float64 row blocks.
    Other fits are returned as they are.

    Parameters
    ----------
    plan : ComputePlan
    fitted : dict from :func:`ridge_fit` / :func:`ridgecv_fit` whose ``train`` rows are all rows of ``X``
    X : array of shape (n_train, n_features), float32 or float64
    """
    if "dual" not in fitted:
        return fitted
    xp = plan.xp
    dual = fitted["dual"]
    x_mean = xp.column_means(X)[0]
    coef = xp.transpose_times(plan, X, dual) - xp.outer(x_mean, xp.sum(dual, axis=0))
    out = {k: v for k, v in fitted.items() if k not in ("dual", "dual_intercept", "train", "gram")}
    return {**out, "coef": coef, "x_mean": x_mean}

