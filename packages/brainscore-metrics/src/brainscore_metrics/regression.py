"""Regressions from source (model) to target (neural) responses on plain arrays.

Each class follows scikit-learn's shape: the constructor stores parameters, ``fit`` learns state
(attributes ending in ``_``), ``predict`` maps new rows. ``fit``/``predict`` take the whole source array
plus optional row indices, so cross-validation never copies the source per split; ``cross_predict``
fits and predicts every split and may share work between splits (the ridge family computes the
source's Gram matrix once). Arrays may be numpy arrays or torch tensors; the backend is ``backend``
when given, else follows the inputs (see :mod:`brainscore_metrics.backend`).

The classes live in :mod:`._pls_regression` (PLS), :mod:`._linear_regressions` (ridge, RidgeCV, least squares) and
here (neuron-to-neuron); this module is their one import path.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._array_regression import _ArrayRegression
from brainscore_metrics._linear_regressions import LinearRegression, RidgeCVRegression, RidgeRegression
from brainscore_metrics._neuron_to_neuron import best_source_units, best_source_units_splits
from brainscore_metrics._pls_regression import PLSRegression
from brainscore_metrics._ridge import ALPHA_LIST
from brainscore_metrics.errors import UnknownRegressionError
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
    "make_regression",
]


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
