"""Ridge, RidgeCV and least squares on arrays (scikit-learn ``Ridge``, ``RidgeCV``, ``LinearRegression`` numbers).

With more features than training stimuli all three work in stimulus space on the source's Gram matrix, formed
once; ridge and least squares then predict every split from one factorisation (:mod:`brainscore_metrics._ridge`,
:mod:`brainscore_metrics._least_squares`).
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._array_regression import _ArrayRegression
from brainscore_metrics._gram import _uses_float32, check_precision
from brainscore_metrics._least_squares import RCOND, cross_predictions, least_squares_fit
from brainscore_metrics._pls import _times as rows_times
from brainscore_metrics._ridge import (
    ALPHA_LIST,
    MIXED_MIN_FEATURES_PER_STIMULUS,
    IllConditionedKernelError,
    centered_gram,
    covers_complement,
    linear_model_predict,
    primal_from_dual,
    ridge_fit,
    ridge_heldout_predictions,
    ridgecv_fit,
)
from brainscore_metrics.backend import blas_threads_for

__all__ = ["LinearRegression", "RidgeCVRegression", "RidgeRegression"]


class _LinearFamily(_ArrayRegression):
    #: a wide source's cross-validated fit costs one n x n stimulus Gram product for every split together
    #: (:func:`brainscore_metrics.notices.notice_wide_source` estimates its time from that)
    shares_one_gram = True

    def _predict(self, xp, state, X, rows, same_source):
        if "dual" in state and not same_source:
            from brainscore_metrics._ridge import dual_to_primal
            state = dual_to_primal(xp, state, self._fit_source_)
        return linear_model_predict(xp, state, X, rows)

    def fit(self, X, Y, train=None):
        super().fit(X, Y, train)
        self._fit_source_ = self._as(self.xp_, X)
        return self

    precision = "mixed"

    def _shared(self, xp, X):
        return centered_gram(xp, X, check_precision(self.precision))

    def _heldout_predictions(self, X, Y, splits, alpha: float):
        """All splits from one factorisation of the Gram matrix, or None when the identity does not apply
        (training rows not the complement of the test rows, or no more features than training stimuli)."""
        n_train = max((len(train) for train, _ in splits), default=0)
        if X.shape[1] <= n_train or not covers_complement(X.shape[0], splits):
            return None
        xp = self._xp(X, Y)
        X = self._as_source(xp, X)
        precision = check_precision(self.precision)
        tests = [test for _, test in splits]
        try:
            # the Gram matrix is a temporary: reordered and factorised in its own memory
            gram = centered_gram(xp, X, precision, mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)
            predictions = ridge_heldout_predictions(xp, gram, self._as(xp, Y), tests, alpha=alpha, overwrite=True)
        except IllConditionedKernelError:
            if alpha <= 0 or not _uses_float32(X, precision):
                raise
            gram = None  # the failed attempt's buffer, released before the next Gram matrix
            # float32 products round the Gram matrix by ~6e-8 of its largest entries: on a low-rank source with a
            # large scale that exceeds alpha and G + alpha I is no longer positive definite; float64 products keep
            # it definite
            predictions = ridge_heldout_predictions(xp, centered_gram(xp, X, "float64"), self._as(xp, Y), tests,
                                                    alpha=alpha, overwrite=True)
        self.split_info_ = [{} for _ in splits]
        self.xp_ = xp
        return predictions


class RidgeRegression(_LinearFamily):
    """Ridge with intercept, scikit-learn ``Ridge(alpha)`` numbers.

    ``fit`` keeps a float32 source in float32 (no float64 copy): with more features than training stimuli it forms
    the stimulus Gram matrix under ``precision``, as ``cross_predict`` does, and the learned ``coef_`` in float64 row
    blocks; ``predict`` reads new sources in float64 row blocks too.

    Parameters
    ----------
    alpha : float, default=1.0
    precision : {'mixed', 'float64'}, default='mixed'
        Products of a float32 source for the stimulus Gram matrix: float32 blocks summed in float64
        ('mixed'; the reference fits float32 sources in float32 throughout) or float64.
    backend : str or None, default=None

    Attributes
    ----------
    coef_ : array of shape (n_features, n_neuroids), float64
        After ``fit``.
    intercept_ : array of shape (n_neuroids,), float64
        After ``fit``: predictions are ``X @ coef_ + intercept_``.
    """

    #: whether cross_predict may use the one-factorisation held-out identity (fixed alpha only)
    _heldout_shortcut = True

    def __init__(self, alpha: float = 1.0, *, precision: str = "mixed", backend=None):
        self.alpha = alpha
        self.precision = precision
        self.backend = backend

    def _fit(self, xp, X, Y, train, shared):
        gram = shared if shared is not None and X.shape[1] > len(train) else None
        try:
            return ridge_fit(xp, X, Y, train, alpha=self.alpha, gram=gram)
        except (np.linalg.LinAlgError, RuntimeError):  # torch's linalg errors are RuntimeErrors
            if gram is None or not _uses_float32(X, check_precision(self.precision)):
                raise
            return ridge_fit(xp, X, Y, train, alpha=self.alpha)  # float64 products (see _heldout_predictions)

    def _shared(self, xp, X):
        if X.shape[1] <= X.shape[0]:
            return None
        return centered_gram(xp, X, check_precision(self.precision),
                             mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)

    def fit(self, X, Y, train=None):
        """Fit on ``X[train]`` -> ``Y[train]`` (float32 ``X`` is not copied to float64).

        Parameters
        ----------
        X : array of shape (n_presentations, n_features), float32 or float64 (numpy or torch)
        Y : array of shape (n_presentations, n_neuroids)
        train : int array of shape (n_train,) or None, default=None (all rows)
        """
        xp = self._xp(X, Y)
        X, Y = self._as_source(xp, X), self._as(xp, Y)
        rows = self._rows(X, train)
        n, p = len(rows), X.shape[1]
        with blas_threads_for(xp, flops=min(n, p) ** 2 * max(n, p) + n * p * Y.shape[1]):
            self._fit_rows(xp, X, Y, rows)
        return self

    def _fit_rows(self, xp, X, Y, rows) -> None:
        if X.shape[1] > len(rows):  # the Gram matrix of the training rows only, under the precision policy
            subset = X if len(rows) == X.shape[0] and np.array_equal(rows, np.arange(X.shape[0])) else \
                xp.take(X, xp.index(rows, X), 0)
            state = self._fit(xp, subset, xp.take(Y, xp.index(rows, Y), 0), np.arange(len(rows)),
                              shared=self._shared(xp, subset))
            state = primal_from_dual(xp, state, subset)
        else:
            state = self._fit(xp, X, Y, rows, shared=None)
        self.fit_state_ = state
        self.coef_ = state["coef"]
        self.intercept_ = state["y_mean"] - state["x_mean"] @ state["coef"]
        self.xp_ = xp

    def predict(self, X, rows=None):
        """Predictions ``X[rows] @ coef_ + intercept_`` of shape (n_rows, n_neuroids), float64, on the fitting backend;
        a float32 ``X`` is read in float64 row blocks."""
        xp = self.xp_
        X = self._as_source(xp, X)
        if rows is not None:
            X = xp.take(X, xp.index(np.asarray(rows), X), 0)
        with blas_threads_for(xp, flops=X.shape[0] * X.shape[1] * self.coef_.shape[1]):
            return rows_times(xp, X, self.coef_) + self.intercept_

    def cross_predict(self, X, Y, splits):
        """As :meth:`_ArrayRegression.cross_predict`. With more features than training stimuli and splits
        whose training rows are the complement of their test rows (the cross-validation of
        :class:`~brainscore_metrics.splits.StimulusSplitter`), all splits come from one factorisation of
        the source's Gram matrix (:func:`~brainscore_metrics._ridge.ridge_heldout_predictions`); the
        source is read once, in float64 blocks, never copied whole."""
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        predictions = self._heldout_predictions(X, Y, splits, self.alpha) if self._heldout_shortcut else None
        return super().cross_predict(X, Y, splits) if predictions is None else predictions


class RidgeCVRegression(RidgeRegression):
    """Ridge with the alpha chosen by cross-validation within the training stimuli: efficient leave-one-out
    (``cv='loo'``, scikit-learn ``RidgeCV(alphas, alpha_per_target=...)`` numbers) or held-out folds (``cv=k`` or a
    splitter, himalaya ``KernelRidgeCV(alphas, cv=..., fit_intercept=True)`` numbers, with ``alpha_per_target`` as its
    ``local_alpha``).

    Every fold and alpha comes from one stimulus Gram product and one eigendecomposition of the training kernel
    (:mod:`brainscore_metrics._ridge_cv`).

    Parameters
    ----------
    alphas : sequence of float, default=ALPHA_LIST (99 values, reference grid)
    cv : 'loo', int, splitter or iterable of (train, test), default='loo'
        ``k``: scikit-learn's ``KFold(k)`` (no shuffling) over the training rows; a splitter's ``split(rows)``
        (its training rows must be the complement of its test rows). Criterion: the mean squared held-out error of
        each fold, averaged over folds; the first best alpha.
    alpha_per_target : bool, default=False
        One alpha per neuroid instead of one for all.
    precision : {'mixed', 'float64'}, default='mixed'
        As :class:`RidgeRegression`.
    backend : str or None, default=None

    Attributes
    ----------
    alpha_ : float, or ndarray of shape (n_neuroids,) with ``alpha_per_target``
        Chosen alpha after ``fit``.
    cv_mse_ : ndarray of shape (n_alphas, n_neuroids)
        Mean squared held-out error of every alpha and neuroid, after ``fit``.
    """

    _info_keys = ("alpha",)
    _heldout_shortcut = False  # the alpha is chosen per split

    def __init__(self, alphas=ALPHA_LIST, *, cv="loo", alpha_per_target: bool = False, precision: str = "mixed",
                 backend=None):
        self.alphas = alphas
        self.cv = cv
        self.alpha_per_target = alpha_per_target
        self.precision = precision
        self.backend = backend

    def _fit(self, xp, X, Y, train, shared):
        gram = shared if shared is not None and X.shape[1] > len(train) else None
        state = ridgecv_fit(xp, X, Y, train, alphas=self.alphas, gram=gram, cv=self.cv,
                            alpha_per_target=self.alpha_per_target)
        self.alpha_ = state["alpha"]
        self.cv_mse_ = state["cv_mse"]
        return state


class LinearRegression(_LinearFamily):
    """Least squares with intercept, scikit-learn ``LinearRegression()`` numbers.

    Parameters
    ----------
    rcond : float, default=1e-6
        Singular values below ``rcond`` times the largest are treated as zero (scikit-learn's ``tol``).
    precision : {'float64', 'mixed'}, default='float64'
        Products of a float32 source for the Gram matrix. Least squares through the Gram matrix squares the
        source's condition number, so float32 products ('mixed') can lose more than the reference's own float32
        fit; float64 is the default.
    backend : str or None, default=None
    """

    def __init__(self, rcond: float = RCOND, *, precision: str = "float64", backend=None):
        self.rcond = rcond
        self.precision = precision
        self.backend = backend

    def cross_predict(self, X, Y, splits):
        """Every split from the Gram matrix of the source, without an SVD: one factorisation for all splits when
        the splits are complementary and the Gram matrix well conditioned, else a pivoted Cholesky factorisation
        of each split's training block (:func:`brainscore_metrics._least_squares.cross_predictions`)."""
        xp = self._xp(X, Y)
        X, Y = self._as_source(xp, X), self._as(xp, Y)
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        predictions = cross_predictions(xp, X, Y, splits, rcond=self.rcond, precision=check_precision(self.precision))
        self.split_info_ = [{} for _ in splits]
        self.xp_ = xp
        return predictions

    def _fit(self, xp, X, Y, train, shared):
        return least_squares_fit(xp, X, Y, train, rcond=self.rcond)

    def _shared(self, xp, X):
        return None
