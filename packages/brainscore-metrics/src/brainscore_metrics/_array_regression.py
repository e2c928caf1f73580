"""The shape every regression of :mod:`brainscore_metrics.regression` shares: fit/predict on plain arrays.

The constructor stores parameters, ``fit`` learns state (attributes ending in ``_``), ``predict`` maps new rows.
``fit``/``predict`` take the whole source array plus optional row indices, so cross-validation never copies the
source per split; ``cross_predict`` fits and predicts every split and may share work between splits.

Each public method is the entry of its call: it decides one :class:`~brainscore_metrics.backend.plan.ComputePlan`
(backend, ``precision``, worker threads) and passes it to the private ``_fit`` / ``_predict`` / ``_cross_predict``.
``fit`` and ``cross_predict`` read the source alike: a float32 or float64 array as it is (products under the
regression's ``precision``), never a float64 copy of a float32 source.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics.backend.plan import compute_plan

__all__ = ["_ArrayRegression"]


class _ArrayRegression:
    backend = None
    #: products of a float32 source (subclasses with a ``precision`` parameter store their own)
    precision = "float64"
    _info_keys: tuple[str, ...] = ()

    def _plan(self, *arrays, flops: float, backend=None):
        """The plan of one public call (:func:`~brainscore_metrics.backend.plan.compute_plan`)."""
        return compute_plan(self.backend if backend is None else backend, *arrays, precision=self.precision,
                            flops=flops)

    @staticmethod
    def _flops(X, Y, n_fits: int = 1) -> float:
        """An estimate of the floating-point operations of ``n_fits`` fits of ``X`` -> ``Y``."""
        n, p = X.shape
        return n_fits * n * p * (min(n, p) + Y.shape[1])

    @staticmethod
    def _as(xp, X):
        return xp.asarray(X, dtype=xp.float64)

    def _rows(self, X, rows):
        return np.arange(X.shape[0]) if rows is None else np.asarray(rows)

    def fit(self, X, Y, train=None):
        """Fit on ``X[train]`` -> ``Y[train]``.

        Parameters
        ----------
        X : array of shape (n_presentations, n_features), float32 or float64 (numpy or torch)
        Y : array of shape (n_presentations, n_neuroids)
        train : int array of shape (n_train,) or None, default=None (all rows)
        """
        with self._plan(X, Y, flops=self._flops(X, Y)) as plan:
            return self.fit_in(plan, X, Y, train)

    def fit_in(self, plan, X, Y, train=None):
        """:meth:`fit` inside the caller's plan (its backend and workers, this regression's precision)."""
        plan = plan.with_precision(self.precision)
        xp = plan.xp
        X, Y = xp.as_source(xp.asarray(X)), self._as(xp, Y)
        self._fit_rows(plan, X, Y, self._rows(X, train))
        self.xp_ = xp
        return self

    def _fit_rows(self, plan, X, Y, rows) -> None:
        self.fit_state_ = self._fit(plan, X, Y, rows, shared=None)

    def predict(self, X, rows=None):
        """Predictions for ``X[rows]`` of shape (n_rows, n_neuroids), on the fitting backend."""
        with self._plan(X, flops=64.0 * float(np.prod(X.shape)), backend=self.xp_) as plan:
            return self.predict_in(plan, X, rows)

    def predict_in(self, plan, X, rows=None):
        """:meth:`predict` inside the caller's plan."""
        plan = plan.with_precision(self.precision)
        return self._predict(plan, self.fit_state_, self._as(plan.xp, X), rows, same_source=False)

    def _shared(self, plan, X):
        return None

    def cross_predict(self, X, Y, splits):
        """Fit and predict each (train, test) split of the rows of X and Y.

        Returns a list of arrays of shape (n_test, n_neuroids) and stores per-split fit information in
        ``split_info_`` (e.g. the chosen alpha).
        """
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        with self._plan(X, Y, flops=self._flops(X, Y, len(splits))) as plan:
            return self.cross_predict_in(plan, X, Y, splits)

    def cross_predict_in(self, plan, X, Y, splits):
        """:meth:`cross_predict` inside the caller's plan (a metric's: its backend and workers, this regression's
        precision); the caller has entered it (:func:`~brainscore_metrics.backend.plan.compute_plan`)."""
        plan = plan.with_precision(self.precision)
        xp = plan.xp
        splits = [(np.asarray(train), np.asarray(test)) for train, test in splits]
        predictions = self._cross_predict(plan, xp.as_source(xp.asarray(X)), self._as(xp, Y), splits)
        self.xp_ = xp
        return predictions

    def _cross_predict(self, plan, X, Y, splits):
        """Every split fitted on its own, on the work the splits share (:meth:`_shared`)."""
        from brainscore_core.progress import progress

        shared = self._shared(plan, X)
        predictions, self.split_info_ = [], []
        for train, test in progress(splits, desc=f"{type(self).__name__} splits", unit="split", leave=False):
            state = self._fit(plan, X, Y, train, shared=shared)
            predictions.append(self._predict(plan, state, X, test, same_source=True))
            self.split_info_.append({k: v for k, v in state.items() if k in self._info_keys})
        return predictions
