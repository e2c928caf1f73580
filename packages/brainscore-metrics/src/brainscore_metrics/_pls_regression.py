"""PLS regression on arrays (scikit-learn ``PLSRegression(scale=False)`` numbers), all splits fitted together."""

from __future__ import annotations

import numpy as np

from brainscore_metrics._array_regression import _ArrayRegression
from brainscore_metrics._pls import pls_fit, pls_fit_splits, pls_predict
from brainscore_metrics._pls_kernel import pls_kernel_cross_predict, pls_kernel_fit
from brainscore_metrics._ridge import centered_gram
from brainscore_metrics.errors import TooFewFeaturesError

__all__ = ["PLSRegression"]


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
        Products of a float32 source for the stimulus Gram matrix of the kernel path (``fit`` and ``cross_predict``
        of a source with more features than training stimuli): float64 (the reference's PLS runs in float64) or
        float32 blocks summed in float64.
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

    def _fit(self, plan, X, Y, train, shared):
        n_components = self._components(X.shape[1], len(train))
        if X.shape[1] > len(train):  # the kernel path, as cross_predict (the plan's precision for the Gram matrix)
            state = pls_kernel_fit(plan, X, Y, train, n_components=n_components, max_iter=self.max_iter, tol=self.tol)
        else:
            state = pls_fit(plan, X, Y, train, n_components=n_components, max_iter=self.max_iter, tol=self.tol)
        self.n_iter_ = state["n_iter"]
        return state

    def _cross_predict(self, plan, X, Y, splits):
        """All splits fitted in lockstep (:func:`brainscore_metrics._pls.pls_fit_splits`). A float32 numpy
        source is not copied to float64 as a whole (products convert it block by block)."""
        xp = plan.xp
        n_components = self._components(X.shape[1], min(len(train) for train, _ in splits))
        if X.shape[1] > max(len(train) for train, _ in splits):
            return self._kernel_cross_predict(plan, X, Y, splits, n_components)
        from brainscore_core.progress import progress

        predictions = []
        groups = list(self._lockstep_groups(X, Y, splits, n_components))
        for group in progress(groups, desc="PLS fit (splits in lockstep)", unit="group", leave=False):
            fitted = pls_fit_splits(plan, X, Y, [splits[s][0] for s in group], n_components=n_components,
                                    max_iter=self.max_iter, tol=self.tol)
            predictions += [pls_predict(xp, state, X, splits[s][1]) for state, s in zip(fitted, group, strict=True)]
        self.split_info_ = [{} for _ in splits]
        return predictions

    def _kernel_cross_predict(self, plan, X, Y, splits, n_components: int):
        """Wide source: the Gram matrix once, then all splits in stimulus space; splits advance together
        in groups whose state (per split one stimuli x neuroids matrix and three stimuli x components
        ones, float64) takes what the Gram matrix leaves of the inputs' size (at least half of it)."""
        gram = centered_gram(plan, X)
        n, q = Y.shape
        per_split = 8 * n * (q + 3 * n_components)
        inputs = int(np.prod(X.shape)) * X.dtype.itemsize + 8 * n * q
        room = max(inputs - 8 * n * n, inputs // 2)
        size = len(splits) if self.lockstep_splits is None else max(1, int(self.lockstep_splits))
        size = max(1, min(size, room // per_split)) if self.lockstep_splits is None else size
        from brainscore_core.progress import progress

        predictions, n_iter = [], []
        for start in progress(range(0, len(splits), size), desc="PLS fit (stimulus space, splits in lockstep)",
                              unit="group", leave=False):
            group, iterations = pls_kernel_cross_predict(plan, gram, Y, splits[start:start + size],
                                                         n_components=n_components, max_iter=self.max_iter,
                                                         tol=self.tol)
            predictions += group
            n_iter += iterations
        self.split_info_ = [{} for _ in splits]
        self.n_iter_ = n_iter
        return predictions

    def _predict(self, plan, state, X, rows, same_source):
        return pls_predict(plan.xp, state, X, rows)
