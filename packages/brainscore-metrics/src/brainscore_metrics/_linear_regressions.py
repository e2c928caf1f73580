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
from brainscore_metrics._ridge import (
    ALPHA_LIST,
    MIXED_MIN_FEATURES_PER_STIMULUS,
    IllConditionedKernelError,
    centered_gram,
    covers_complement,
    linear_model_predict,
    ridge_fit,
    ridge_heldout_predictions,
    ridgecv_fit,
)

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

    Parameters
    ----------
    alpha : float, default=1.0
    precision : {'mixed', 'float64'}, default='mixed'
        Products of a float32 source for the stimulus Gram matrix: float32 blocks summed in float64
        ('mixed'; the reference fits float32 sources in float32 throughout) or float64.
    backend : str or None, default=None
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
    """Ridge with the alpha chosen by efficient leave-one-out, scikit-learn
    ``RidgeCV(alphas, alpha_per_target=False)`` numbers.

    Parameters
    ----------
    alphas : sequence of float, default=ALPHA_LIST (99 values, reference grid)
    precision : {'mixed', 'float64'}, default='mixed'
        As :class:`RidgeRegression`.
    backend : str or None, default=None

    Attributes
    ----------
    alpha_ : float
        Chosen alpha after ``fit``.
    """

    _info_keys = ("alpha",)
    _heldout_shortcut = False  # the alpha is chosen per split

    def __init__(self, alphas=ALPHA_LIST, *, precision: str = "mixed", backend=None):
        self.alphas = alphas
        self.precision = precision
        self.backend = backend

    def _fit(self, xp, X, Y, train, shared):
        gram = shared if shared is not None and X.shape[1] > len(train) else None
        state = ridgecv_fit(xp, X, Y, train, alphas=self.alphas, gram=gram)
        self.alpha_ = state["alpha"]
        return state

    def cross_correlate(self, X, Y, splits):
        """Per-split, per-neuroid Pearson r of the test predictions, (n_splits, n_neuroids), without holding the
        predictions of all neuroids: the dual form block by block over the neuroids
        (:func:`~brainscore_metrics._ridgecv_columns.ridgecv_dual_correlations`; same numbers as
        :meth:`cross_predict` then Pearson r). None when the source has no more features than training stimuli
        (the primal form is small then). Fills ``split_info_`` with each split's alpha."""
        from brainscore_metrics._ridgecv_columns import ridgecv_dual_correlations

        if X.shape[1] <= max(len(train) for train, _ in splits):
            return None
        # leave-one-out with one alpha for all targets only (main's RidgeCVRegression also takes cv= and
        # alpha_per_target=, which go through cross_predict)
        if getattr(self, "cv", "loo") != "loo" or getattr(self, "alpha_per_target", False):
            return None
        xp = self._xp(X, Y)
        gram = self._shared(xp, self._as_source(xp, X))
        r, self.split_info_ = ridgecv_dual_correlations(xp, gram, xp.asarray(Y), splits, alphas=self.alphas)
        self.xp_ = xp
        return r


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
