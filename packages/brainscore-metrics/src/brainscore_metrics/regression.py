"""Regressions from source (model) to target (neural) responses on plain arrays.

Each class follows scikit-learn's shape: the constructor stores parameters, ``fit`` learns state
(attributes ending in ``_``), ``predict`` maps new rows. ``fit``/``predict`` take the whole source array
plus optional row indices, so cross-validation never copies the source per split; ``cross_predict``
fits and predicts every split and may share work between splits (the ridge family computes the
source's Gram matrix once). Arrays may be numpy arrays or torch tensors; the backend is ``backend``
when given, else follows the inputs (see :mod:`brainscore_metrics.backend`).
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._gram import check_precision, lapack_single_thread
from brainscore_metrics._neuron_to_neuron import best_source_units, best_source_units_splits
from brainscore_metrics._pls import pls_fit, pls_fit_splits, pls_predict
from brainscore_metrics._pls_kernel import pls_kernel_cross_predict
from brainscore_metrics._ridge import (
    ALPHA_LIST,
    IllConditionedKernelError,
    centered_gram,
    covers_complement,
    linear_fit,
    linear_model_predict,
    ridge_fit,
    ridge_heldout_predictions,
    ridgecv_fit,
)
from brainscore_metrics.backend import resolve_backend
from brainscore_metrics.errors import TooFewFeaturesError, UnknownRegressionError
from brainscore_metrics.mask_regression import MaskRegression

__all__ = [
    "ALPHA_LIST",
    "REGRESSIONS",
    "LinearRegression",
    "MaskRegression",
    "NeuronToNeuron",
    "PLSRegression",
    "RidgeCVRegression",
    "RidgeRegression",
    "TooFewFeaturesError",
    "make_regression",
]




class _ArrayRegression:
    backend = None

    def _xp(self, *arrays):
        xp = resolve_backend(self.backend, *arrays)
        return xp

    @staticmethod
    def _as(xp, X):
        return xp.asarray(X, dtype=xp.float64)

    @staticmethod
    def _as_source(xp, X):
        """The source as is when it is a float32/float64 array of the backend, else as float64 on it."""
        if xp.name == "numpy" and getattr(X, "dtype", None) in (np.float32, np.float64):
            return X
        if xp.name != "numpy" and type(X).__module__.startswith("torch") and X.dtype in (xp.float32, xp.float64):
            return X
        return xp.asarray(X, dtype=xp.float64)

    def _rows(self, X, rows):
        return np.arange(X.shape[0]) if rows is None else np.asarray(rows)

    def fit(self, X, Y, train=None):
        """Fit on ``X[train]`` -> ``Y[train]``.

        Parameters
        ----------
        X : array of shape (n_presentations, n_features)
        Y : array of shape (n_presentations, n_neuroids)
        train : int array of shape (n_train,) or None, default=None (all rows)
        """
        xp = self._xp(X, Y)
        X, Y = self._as(xp, X), self._as(xp, Y)
        self.fit_state_ = self._fit(xp, X, Y, self._rows(X, train), shared=None)
        self.xp_ = xp
        return self

    def predict(self, X, rows=None):
        """Predictions for ``X[rows]`` of shape (n_rows, n_neuroids), on the fitting backend."""
        xp = self.xp_
        return self._predict(xp, self.fit_state_, self._as(xp, X), rows, same_source=False)

    def _shared(self, xp, X):
        return None

    def cross_predict(self, X, Y, splits):
        """Fit and predict each (train, test) split of the rows of X and Y.

        Returns a list of arrays of shape (n_test, n_neuroids) and stores per-split fit information in
        ``split_info_`` (e.g. the chosen alpha).
        """
        xp = self._xp(X, Y)
        X, Y = self._as_source(xp, X), self._as(xp, Y)
        shared = self._shared(xp, X)
        from brainscore_core.progress import progress

        predictions, self.split_info_ = [], []
        for train, test in progress(splits, desc=f"{type(self).__name__} splits", unit="split", leave=False):
            state = self._fit(xp, X, Y, np.asarray(train), shared=shared)
            predictions.append(self._predict(xp, state, X, np.asarray(test), same_source=True))
            self.split_info_.append({k: v for k, v in state.items() if k in self._info_keys})
        self.xp_ = xp
        return predictions

    _info_keys: tuple[str, ...] = ()


class PLSRegression(_ArrayRegression):
    """PLS regression, scikit-learn ``PLSRegression(n_components, scale=False)`` numbers (NIPALS).

    Parameters
    ----------
    n_components : int, default=25
    max_iter : int, default=500
    tol : float, default=1e-6
    allow_fewer_features : bool, default=False
        The reference raises when the source has fewer features than ``n_components``; with True,
        ``min(n_components, n_features, n_train)`` components are used instead.
    lockstep_splits : int or None, default=None
        How many cross-validation splits are fitted together (each group reads the source twice per
        component). None: groups of equal size whose state (per split a features x neuroids
        cross-covariance, the centred training targets and the components, float64) takes at most 60% of
        the inputs' size, so that peak memory stays within twice the inputs; at MajajHong2015 scale
        (10 splits) 2 groups of 5 with a float64 source, 4 groups of 2-3 with a float32 one. Used when
        the source has no more features than training stimuli; wider sources run in stimulus space
        (:mod:`brainscore_metrics._pls_kernel`), all splits together.
    precision : {'float64', 'mixed'}, default='float64'
        Products of a float32 source for the stimulus Gram matrix of the kernel path: float64 (the
        reference's PLS runs in float64) or float32 blocks summed in float64.
    backend : str or None, default=None
    """

    def __init__(self, n_components: int = 25, *, max_iter: int = 500, tol: float = 1e-6,
                 allow_fewer_features: bool = False, lockstep_splits: int | None = None,
                 precision: str = "float64", backend=None):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.allow_fewer_features = allow_fewer_features
        self.lockstep_splits = lockstep_splits
        self.precision = precision
        self.backend = backend

    def _lockstep_groups(self, X, Y, splits, n_components: int) -> list[list[int]]:
        if self.lockstep_splits is not None:
            size = max(1, int(self.lockstep_splits))
        else:
            n_features, n_neuroids = X.shape[1], Y.shape[1]
            n_train = max(len(train) for train, _ in splits)
            per_split = 8 * (n_features * n_neuroids + n_train * n_neuroids + 2 * n_components * n_features)
            source_bytes = int(np.prod(X.shape)) * X.dtype.itemsize  # numpy and torch alike
            size = max(1, int(0.6 * (source_bytes + 8 * int(np.prod(Y.shape))) // per_split))
        n_groups = -(-len(splits) // size)
        return [group.tolist() for group in np.array_split(np.arange(len(splits)), n_groups)]

    def _components(self, n_features: int, n_train: int) -> int:
        upper = min(n_features, n_train)
        if n_train < 2:
            raise TooFewFeaturesError(
                f"PLS needs at least 2 training stimuli, this split has {n_train}: the assembly holds too few distinct "
                "stimuli for cross-validation (check its stimulus_id values, e.g. that different images do not share "
                "one id)")
        if self.n_components > upper:
            if not self.allow_fewer_features:
                limit = (f"{n_train} training stimuli (use more stimuli, or fewer components: "
                         f"regression_kwargs=dict(n_components={upper}))" if n_train < n_features else
                         f"{n_features} source features (pass regression_kwargs=dict(allow_fewer_features=True) to use "
                         "fewer components)")
                raise TooFewFeaturesError(
                    f"PLS with n_components={self.n_components} needs at least {self.n_components} source features "
                    f"and training stimuli; it is limited by the {limit}")
            return upper
        return self.n_components

    def _fit(self, xp, X, Y, train, shared):
        n_components = self._components(X.shape[1], len(train))
        state = pls_fit(xp, X, Y, train, n_components=n_components, max_iter=self.max_iter, tol=self.tol)
        self.n_iter_ = state["n_iter"]
        return state

    def cross_predict(self, X, Y, splits):
        """All splits fitted in lockstep (:func:`brainscore_metrics._pls.pls_fit_splits`). A float32 numpy
        source is not copied to float64 as a whole (products convert it block by block)."""
        xp = self._xp(X, Y)
        X, Y = self._as_source(xp, X), self._as(xp, Y)
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        n_components = self._components(X.shape[1], min(len(train) for train, _ in splits))
        self.xp_ = xp
        if X.shape[1] > max(len(train) for train, _ in splits):
            return self._kernel_cross_predict(xp, X, Y, splits, n_components)
        from brainscore_core.progress import progress

        predictions = []
        groups = list(self._lockstep_groups(X, Y, splits, n_components))
        for group in progress(groups, desc="PLS fit (splits in lockstep)", unit="group", leave=False):
            fitted = pls_fit_splits(xp, X, Y, [splits[s][0] for s in group], n_components=n_components,
                                    max_iter=self.max_iter, tol=self.tol)
            predictions += [pls_predict(xp, state, X, splits[s][1]) for state, s in zip(fitted, group, strict=True)]
        self.split_info_ = [{} for _ in splits]
        self.xp_ = xp
        return predictions

    def _kernel_cross_predict(self, xp, X, Y, splits, n_components: int):
        """Wide source: the Gram matrix once, then all splits in stimulus space; splits advance together
        in groups whose state (per split one stimuli x neuroids matrix and three stimuli x components
        ones, float64) takes what the Gram matrix leaves of the inputs' size (at least half of it)."""
        gram = centered_gram(xp, X, check_precision(self.precision))
        n, q = Y.shape
        per_split = 8 * n * (q + 3 * n_components)
        inputs = int(np.prod(X.shape)) * X.dtype.itemsize + 8 * n * q
        room = max(inputs - 8 * n * n, inputs // 2)
        size = len(splits) if self.lockstep_splits is None else max(1, int(self.lockstep_splits))
        size = max(1, min(size, room // per_split)) if self.lockstep_splits is None else size
        from brainscore_core.progress import progress

        predictions, n_iter = [], []
        with lapack_single_thread(xp):  # matrix-vector work: BLAS threads only contend
            for start in progress(range(0, len(splits), size), desc="PLS fit (stimulus space, splits in lockstep)",
                                  unit="group", leave=False):
                group, iterations = pls_kernel_cross_predict(xp, gram, Y, splits[start:start + size],
                                                             n_components=n_components, max_iter=self.max_iter,
                                                             tol=self.tol)
                predictions += group
                n_iter += iterations
        self.split_info_ = [{} for _ in splits]
        self.n_iter_ = n_iter
        return predictions

    def _predict(self, xp, state, X, rows, same_source):
        return pls_predict(xp, state, X, rows)


class _LinearFamily(_ArrayRegression):
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
        predictions = ridge_heldout_predictions(xp, centered_gram(xp, X, check_precision(self.precision)),
                                                self._as(xp, Y), [test for _, test in splits], alpha=alpha)
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
        return ridge_fit(xp, X, Y, train, alpha=self.alpha, gram=gram)

    def _shared(self, xp, X):
        return centered_gram(xp, X, check_precision(self.precision)) if X.shape[1] > X.shape[0] else None

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


class LinearRegression(_LinearFamily):
    """Least squares with intercept, scikit-learn ``LinearRegression()`` numbers.

    Parameters
    ----------
    rcond : float, default=1e-6
        Singular values below ``rcond`` times the largest are treated as zero (scikit-learn's ``tol``).
    precision : {'float64', 'mixed'}, default='float64'
        Products of a float32 source for the stimulus Gram matrix. Least squares through the Gram
        matrix squares the source's condition number, so float32 products ('mixed') can lose more than
        the reference's own float32 fit; float64 is the default.
    backend : str or None, default=None
    """

    def __init__(self, rcond: float = 1e-6, *, precision: str = "float64", backend=None):
        self.rcond = rcond
        self.precision = precision
        self.backend = backend

    def cross_predict(self, X, Y, splits):
        """With more features than training stimuli and complementary splits, minimum-norm least squares
        for all splits from one Cholesky factorisation of the Gram matrix (ridge's held-out identity at
        alpha = 0, :func:`~brainscore_metrics._ridge.ridge_heldout_predictions`), when the Gram matrix is
        well conditioned (no singular value of the centred source near ``rcond`` times the largest);
        otherwise an SVD per split."""
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        try:
            predictions = self._heldout_predictions(X, Y, splits, 0.0)
        except IllConditionedKernelError:
            predictions = None
        return super().cross_predict(X, Y, splits) if predictions is None else predictions

    def _fit(self, xp, X, Y, train, shared):
        return linear_fit(xp, X, Y, train, rcond=self.rcond)

    def _shared(self, xp, X):
        return None


class NeuronToNeuron(_ArrayRegression):
    """Each target neuroid is predicted by the one source unit with the highest training Pearson r.

    Parameters
    ----------
    backend : str or None, default=None

    Attributes
    ----------
    best_units_ : int ndarray of shape (n_neuroids,)
        Chosen source unit per neuroid (-1 when every correlation is NaN).
    """

    _info_keys = ("best_units",)

    def __init__(self, *, backend=None):
        self.backend = backend

    def _fit(self, xp, X, Y, train, shared):
        best = best_source_units(xp, X, Y, train)
        self.best_units_ = best
        return {"best_units": best}

    def cross_predict(self, X, Y, splits):
        """All splits from one pass over the source (:func:`~brainscore_metrics._neuron_to_neuron.
        best_source_units_splits`: held-out rows are subtracted from sums over all stimuli)."""
        xp = self._xp(X, Y)
        X, Y = self._as_source(xp, X), self._as(xp, Y)
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        best = best_source_units_splits(xp, X, Y, [train for train, _ in splits])
        self.split_info_ = [{"best_units": units} for units in best]
        self.xp_ = xp
        return [self._predict(xp, info, X, test, True) for info, (_, test) in zip(self.split_info_, splits,
                                                                                  strict=True)]

    def _predict(self, xp, state, X, rows, same_source):
        best = state["best_units"]
        rows = np.arange(X.shape[0]) if rows is None else np.asarray(rows)
        values = xp.to_numpy(X)[np.ix_(rows, np.maximum(best, 0))].astype(np.float64)
        values[:, best < 0] = np.nan
        return xp.asarray(values)


#: regression name -> class
REGRESSIONS = {
    "pls": PLSRegression,
    "ridge": RidgeRegression,
    "ridgecv": RidgeCVRegression,
    "linear": LinearRegression,
    "neuron_to_neuron": NeuronToNeuron,
    "mask": MaskRegression,
}




def make_regression(regression, regression_kwargs=None, backend=None):
    """A regression instance from a name in :data:`REGRESSIONS`, or from an object.

    An object is used as is when it is one of this package's regressions (it has ``cross_predict``); a labelled
    wrapper (Brain-Score's ``XarrayRegression`` form, e.g. ``pls_regression()``) is unwrapped through its
    ``as_array_regression()``; any other estimator with ``fit(X, Y)``/``predict(X)`` is driven through
    :class:`~brainscore_metrics._estimator_regression.EstimatorRegression`. None means ``'pls'`` (Brain-Score's
    default).
    """
    if regression is None:
        regression = "pls"
    if not isinstance(regression, str):
        unwrap = getattr(regression, "as_array_regression", None)
        if callable(unwrap):
            regression = unwrap()
        if hasattr(regression, "cross_predict"):
            return regression
        if callable(getattr(regression, "fit", None)) and callable(getattr(regression, "predict", None)):
            from brainscore_metrics._estimator_regression import EstimatorRegression

            return EstimatorRegression(regression)
        raise UnknownRegressionError(f"regression {regression!r} is neither a name in {sorted(REGRESSIONS)} nor an "
                                     "object with fit(X, Y) and predict(X)")
    try:
        cls = REGRESSIONS[regression]
    except KeyError:
        raise UnknownRegressionError(
            f"unknown regression {regression!r}; available: {sorted(REGRESSIONS)}") from None
    return cls(**{"backend": backend, **(regression_kwargs or {})})
