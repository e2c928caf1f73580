"""Any estimator with ``fit(X, Y)`` and ``predict(X)`` as a regression of the regression-correlation metrics.

Brain-Score's metrics take a regression *object* (e.g. ``XarrayRegression(sklearn.linear_model.Ridge())`` or a
user's own class). The metrics here fit on plain arrays, so such an estimator is driven through this adapter: a
fresh copy per split (``sklearn.base.clone`` where it works, else ``copy.deepcopy``), fitted on the training rows
and asked for the test rows.
"""

from __future__ import annotations

import copy

import numpy as np

__all__ = ["EstimatorRegression", "fresh_copy"]


def fresh_copy(estimator):
    """An unfitted copy of ``estimator``: scikit-learn's ``clone`` if it supports it, else a deep copy."""
    try:
        from sklearn.base import clone

        return clone(estimator)
    except (TypeError, RuntimeError, AttributeError):  # not a scikit-learn estimator
        return copy.deepcopy(estimator)


class EstimatorRegression:
    """Adapter: ``fit``/``predict``/``cross_predict`` of this package's regressions around ``estimator``.

    Parameters
    ----------
    estimator : object with ``fit(X, Y)`` and ``predict(X) -> (n, n_neuroids)``
        Arrays in, arrays out (numpy, float64).
    """

    backend = None

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, Y, train=None) -> EstimatorRegression:
        rows = slice(None) if train is None else np.asarray(train)
        self.estimator_ = fresh_copy(self.estimator)
        self.estimator_.fit(np.asarray(X, dtype=np.float64)[rows], np.asarray(Y, dtype=np.float64)[rows])
        return self

    def predict(self, X, rows=None) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        return np.asarray(self.estimator_.predict(X if rows is None else X[np.asarray(rows)]), dtype=np.float64)

    def cross_predict(self, X, Y, splits) -> list[np.ndarray]:
        """Fit a fresh copy on each split's training rows (in ascending order) and predict its test rows."""
        predictions = []
        for train, test in splits:
            self.fit(X, Y, np.sort(np.asarray(train)))
            predictions.append(self.predict(X, test).reshape(len(test), -1))
        self.split_info_ = [{} for _ in splits]
        return predictions
