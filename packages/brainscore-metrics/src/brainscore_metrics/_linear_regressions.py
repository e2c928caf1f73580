"""Ridge, RidgeCV and least squares on arrays (scikit-learn ``Ridge``, ``RidgeCV``, ``LinearRegression`` numbers).

With more features than training stimuli all three work in stimulus space on the source's Gram matrix, formed
once; ridge and least squares then predict every split from one factorisation (:mod:`brainscore_metrics._ridge`,
:mod:`brainscore_metrics._least_squares`).
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._array_regression import _ArrayRegression
from brainscore_metrics._least_squares import RCOND, cross_predictions, least_squares_fit
from brainscore_metrics._ridge import (
    ALPHA_LIST,
    FACTORISATION_ERRORS,
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
from brainscore_metrics.backend.plan import with_float64_retry

__all__ = ["LinearRegression", "RidgeCVRegression", "RidgeRegression"]



class _LinearFamily(_ArrayRegression):
    #: a wide source's cross-validated fit costs one n x n stimulus Gram product for every split together
    #: (:func:`brainscore_metrics.notices.notice_wide_source` estimates its time from that)
    shares_one_gram = True

    def _predict(self, plan, state, X, rows, same_source):
        # a dual state (a wide split of cross_predict) predicts rows of the source it was fitted on; fit() keeps
        # primal states (coef_)
        return linear_model_predict(plan.xp, state, X, rows)

    def _shared(self, plan, X):
        return centered_gram(plan, X)

    def _fit_rows(self, plan, X, Y, rows) -> None:
        self._keep_coefficients(self._fit(plan, X, Y, rows, shared=None))

    def _keep_coefficients(self, state: dict) -> None:
        self.fit_state_ = state
        self.coef_ = state["coef"]
        self.intercept_ = state["y_mean"] - state["x_mean"] @ state["coef"]

    def predict(self, X, rows=None):
        """Predictions ``X[rows] @ coef_ + intercept_`` of shape (n_rows, n_neuroids), float64, on the fitting backend;
        a float32 ``X`` is read in float64 row blocks (no float64 copy of it)."""
        with self._plan(X, flops=float(np.prod(X.shape)) * self.coef_.shape[1], backend=self.xp_) as plan:
            return self.predict_in(plan, X, rows)

    def predict_in(self, plan, X, rows=None):
        """:meth:`predict` inside the caller's plan."""
        xp = plan.xp
        X = xp.as_source(xp.asarray(X))
        if rows is not None:
            X = xp.take(X, xp.index(np.asarray(rows), X), 0)
        return xp.rows_times(plan, X, self.coef_) + self.intercept_

    def _heldout_predictions(self, plan, X, Y, splits, alpha: float):
        """All splits from one factorisation of the Gram matrix, or None when the identity does not apply
        (training rows not the complement of the test rows, or no more features than training stimuli)."""
        n_train = max((len(train) for train, _ in splits), default=0)
        if X.shape[1] <= n_train or not covers_complement(X.shape[0], splits):
            return None
        tests = [test for _, test in splits]

        def attempt(plan):
            # the Gram matrix is a temporary: reordered and factorised in its own memory
            gram = centered_gram(plan, X, mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)
            return ridge_heldout_predictions(plan, gram, Y, tests, alpha=alpha, overwrite=True)

        retry_on = (IllConditionedKernelError,) if alpha > 0 else ()  # least squares has its own paths
        predictions = with_float64_retry(plan, X, attempt, retry_on=retry_on)
        self.split_info_ = [{} for _ in splits]
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

    def _fit(self, plan, X, Y, train, shared, *, consume_shared: bool = False):
        """``consume_shared``: nothing reads ``shared`` after this fit (it may be factorised in its own memory)."""
        gram = shared if shared is not None and X.shape[1] > len(train) else None

        def attempt(attempt_plan):  # the shared Gram matrix was formed under ``plan``; the retry forms its own
            first = attempt_plan is plan
            return ridge_fit(attempt_plan, X, Y, train, alpha=self.alpha, gram=gram if first else None,
                             overwrite_gram=consume_shared and first)

        return with_float64_retry(plan, X, attempt, retry_on=FACTORISATION_ERRORS)

    def _shared(self, plan, X):
        if X.shape[1] <= X.shape[0]:
            return None
        return centered_gram(plan, X, mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)

    def _fit_rows(self, plan, X, Y, rows) -> None:
        """Fit on ``X[rows]`` (float32 ``X`` is not copied to float64): with more features than rows through the Gram
        matrix of the rows under the plan's precision, then ``coef_`` from float64 row blocks."""
        xp = plan.xp
        if X.shape[1] > len(rows):
            subset = X if len(rows) == X.shape[0] and np.array_equal(rows, np.arange(X.shape[0])) else \
                xp.take(X, xp.index(rows, X), 0)
            state = self._fit(plan, subset, xp.take(Y, xp.index(rows, Y), 0), np.arange(len(rows)),
                              shared=self._shared(plan, subset), consume_shared=True)
            state = primal_from_dual(plan, state, subset)
        else:
            state = self._fit(plan, X, Y, rows, shared=None)
        self._keep_coefficients(state)

    def _cross_predict(self, plan, X, Y, splits):
        """As :meth:`_ArrayRegression._cross_predict`. With more features than training stimuli and splits whose
        training rows are the complement of their test rows (the cross-validation of
        :class:`~brainscore_metrics.splits.StimulusSplitter`), all splits come from one factorisation of the source's
        Gram matrix (:func:`~brainscore_metrics._ridge.ridge_heldout_predictions`); the source is read once, never
        copied whole."""
        predictions = self._heldout_predictions(plan, X, Y, splits, self.alpha) if self._heldout_shortcut else None
        return super()._cross_predict(plan, X, Y, splits) if predictions is None else predictions


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

    def _fit(self, plan, X, Y, train, shared, *, consume_shared: bool = False):
        gram = shared if shared is not None and X.shape[1] > len(train) else None
        state = ridgecv_fit(plan, X, Y, train, alphas=self.alphas, gram=gram, cv=self.cv,
                            alpha_per_target=self.alpha_per_target)
        self.alpha_ = state["alpha"]
        self.cv_mse_ = state["cv_mse"]
        return state

    def cross_correlate(self, X, Y, splits):
        """Per-split, per-neuroid Pearson r of the test predictions, (n_splits, n_neuroids), without holding the
        predictions of all neuroids: the dual form block by block over the neuroids
        (:func:`~brainscore_metrics._ridgecv_columns.ridgecv_dual_correlations`; same numbers as
        :meth:`cross_predict` then Pearson r). None when the source has no more features than training stimuli
        (the primal form is small then), or for ``cv`` other than ``'loo'`` or ``alpha_per_target``. Fills
        ``split_info_`` with each split's alpha."""
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        with self._plan(X, Y, flops=self._flops(X, Y, len(splits))) as plan:
            return self.cross_correlate_in(plan, X, Y, splits)

    def cross_correlate_in(self, plan, X, Y, splits):
        """:meth:`cross_correlate` inside the caller's plan (this regression's precision)."""
        from brainscore_metrics._ridgecv_columns import ridgecv_dual_correlations

        if X.shape[1] <= max(len(train) for train, _ in splits):
            return None
        if self.cv != "loo" or self.alpha_per_target:  # K-fold and per-target alphas go through cross_predict
            return None
        plan = plan.with_precision(self.precision)
        xp = plan.xp
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        # the Gram matrix also when the source has fewer features than all stimuli (_shared keeps none then)
        gram = centered_gram(plan, xp.as_source(xp.asarray(X)),
                             mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)
        r, self.split_info_ = ridgecv_dual_correlations(plan, gram, xp.asarray(Y), splits, alphas=self.alphas)
        self.xp_ = xp
        return r


class LinearRegression(_LinearFamily):
    """Least squares with intercept, scikit-learn ``LinearRegression()`` numbers.

    Parameters
    ----------
    rcond : float, default=1e-6
        Singular values below ``rcond`` times the largest are treated as zero (scikit-learn's ``tol``).
    precision : {'float64', 'mixed'}, default='float64'
        Products of a float32 source for the Gram matrix (``fit`` and ``cross_predict`` alike). Least squares through
        the Gram matrix squares the source's condition number, so float32 products ('mixed') can lose more than the
        reference's own float32 fit; float64 is the default.
    backend : str or None, default=None

    Attributes
    ----------
    coef_ : array of shape (n_features, n_neuroids), float64
        After ``fit``.
    intercept_ : array of shape (n_neuroids,), float64
        After ``fit``: predictions are ``X @ coef_ + intercept_``.
    """

    def __init__(self, rcond: float = RCOND, *, precision: str = "float64", backend=None):
        self.rcond = rcond
        self.precision = precision
        self.backend = backend

    def _cross_predict(self, plan, X, Y, splits):
        """Every split from the Gram matrix of the source, without an SVD (the three paths of
        :mod:`brainscore_metrics._least_squares`)."""
        predictions = cross_predictions(plan, X, Y, splits, rcond=self.rcond)
        self.split_info_ = [{} for _ in splits]
        return predictions

    def _fit(self, plan, X, Y, train, shared):
        return least_squares_fit(plan, X, Y, train, rcond=self.rcond)

    def _shared(self, plan, X):
        return None
