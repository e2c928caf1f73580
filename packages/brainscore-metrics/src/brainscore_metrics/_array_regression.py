"""The shape every regression of :mod:`brainscore_metrics.regression` shares: fit/predict on plain arrays.

The constructor stores parameters, ``fit`` learns state (attributes ending in ``_``), ``predict`` maps new rows.
``fit``/``predict`` take the whole source array plus optional row indices, so cross-validation never copies the
source per split; ``cross_predict`` fits and predicts every split and may share work between splits.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics.backend import resolve_backend

__all__ = ["_ArrayRegression"]


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
