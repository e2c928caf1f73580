"""PLS regression (NIPALS, regression deflation) onto a **wide target**, all splits at once: reverse predictivity.

Reverse predictivity (Muzellec & Kar) fits PLS from the neural recordings (source X, q neuroids) to a model's
features (target Y, p features, p >> n stimuli). scikit-learn's ``PLSRegression(scale=False)`` then touches the
n x p target in every power iteration of every component of every split. Here the target enters only through
its stimulus Gram matrix ``G = Yc Yc'`` (the n x n x p product, formed once per call over feature blocks) and
one final pass that turns the fitted components into per-feature test correlations.

For one split, with ``Xc``, ``Yc`` centred on the training stimuli (zero elsewhere), ``D_k`` the projection away
from the scores found so far (NIPALS scores are orthogonal), ``X_k = D_k Xc`` and ``Y_k = D_k Yc``:

* scikit-learn's power iteration is ``x_w <- normalise(X_k' Y_k Y_k' X_k x_w) = normalise(B_k x_w)`` with
  ``B_k = X_k' G_s X_k`` (q x q; ``G_s v = h(m * G h(v))``, ``h`` centring on the training rows, ``m`` zeroing the
  others), started from ``normalise(X_k' y)`` with ``y`` the first column of ``Y_k`` that is not constant, and
  stopped when two successive unit iterates differ by less than ``tol`` in squared norm (or at ``max_iter``);
* the score is ``t = X_k x_w``, the x loadings ``p = X_k' t / t't``, ``X_{k+1} = X_k - t p'``, and with
  ``g = G_s t`` the update ``B_{k+1} = B_k - (X_k'g) p' - p (g'X_k) + (t'g) p p'`` (rank two), so ``B_0`` and one
  Gram product per component (all splits in one matrix product) are all the Gram work;
* predictions are ``(X_test - x_mean) R Q' + y_mean`` with ``R = W pinv(P'W)`` and y loadings
  ``Q = Yc' T diag(1/t't)``: the deviations ``L diag(1/t't) (T'Y)`` with ``L = Xc_test R`` (n_test x k) and
  ``T'Y = T'Yc`` (k x p, because scores sum to zero over the training rows). So each feature's test correlation
  needs ``T'Y`` (one product of the k x n scores of every split with Y) and the test rows of Y.

Target columns that are constant over a split's training stimuli (all ``|Yc| < 10 eps``, e.g. units that never
respond) are zeroed by scikit-learn: their predictions are then exactly the training mean, and their
correlation is NaN; the same is done here.
"""

from __future__ import annotations

import warnings

import numpy as np

from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics.errors import PLSConvergenceWarning

__all__ = ["pls_wide_target_correlations"]

_EPS = float(np.finfo(np.float64).eps)
#: target columns per block of the passes over the target
_BLOCK = 2048


class _Split:
    """State of one split: centred, embedded (n-row, zero outside training) source and its components."""

    def __init__(self, xp, X, train, test, n: int):
        self.train_np, self.test_np = np.asarray(train), np.asarray(test)
        self.train, self.test = xp.index(train, X), xp.index(test, X)
        self.n_train = len(train)
        self.mask = xp.zeros((n,), dtype=xp.float64, like=X)
        self.mask[self.train] = 1.0
        x_train = xp.take(X, self.train, 0)
        self.x_mean = xp.mean(x_train, axis=0)
        self.Xk = xp.zeros((n, X.shape[1]), dtype=xp.float64, like=X)
        self.Xk[self.train] = x_train - self.x_mean
        self.x_test = xp.take(X, self.test, 0) - self.x_mean
        self.weights, self.x_loadings, self.scores, self.tt, self.n_iter = [], [], [], [], []
        self.active = True

    def center(self, xp, v):
        """``h(m * v)`` for v of shape (n,) or (n, k)."""
        mask = self.mask if v.ndim == 1 else self.mask[:, None]
        v = v * mask
        return v - (xp.sum(v, axis=0) / self.n_train) * mask

    def deflate(self, xp, v):
        """``D_k v`` for v of shape (n,)."""
        for t, tt in zip(self.scores, self.tt, strict=True):
            v = v - t * (xp.sum(t * v) / tt)
        return v


def _start_column(xp, s, Y):
    """The first column of ``Y_k`` with an entry above eps (scikit-learn's start vector), or None.

    The column found for the first component is kept (centred, ``s.start``) and only deflated for the next
    ones; the columns after it are searched again only if it became constant.
    """
    if getattr(s, "start", None) is not None:
        y = s.deflate(xp, s.start[1])
        if bool(xp.to_numpy(xp.any(xp.abs(y) > _EPS))):
            return y
    first = 0 if getattr(s, "start", None) is None else s.start[0] + 1
    for start in range(first - first % _BLOCK, Y.shape[1], _BLOCK):
        block = xp.asarray(Y[:, start:start + _BLOCK], dtype=xp.float64)
        centred = s.center(xp, block)
        constant = xp.to_numpy(xp.all(xp.abs(xp.take(centred, s.train, 0)) < 10 * _EPS, axis=0))
        for column in np.flatnonzero(~constant):
            if start + int(column) < first:
                continue
            y = s.deflate(xp, centred[:, int(column)])
            if bool(xp.to_numpy(xp.any(xp.abs(y) > _EPS))):
                s.start = (start + int(column), centred[:, int(column)])
                return y
    return None


def _power_iteration(xp, B, x_weights, max_iter: int, tol: float, single_target: bool):
    """scikit-learn's loop on ``B`` (q x q) from the first iterate; returns (unit x_weights, n_iter)."""
    previous = None
    for iteration in range(max_iter):
        if iteration > 0:
            x_weights = B @ x_weights
        x_weights = x_weights / (xp.sqrt(xp.sum(x_weights * x_weights)) + _EPS)
        if single_target:
            return x_weights, iteration + 1
        if previous is not None:
            difference = x_weights - previous
            if xp.item(xp.sum(difference * difference)) < tol:
                return x_weights, iteration + 1
        previous = x_weights
    warnings.warn(f"PLS power iteration reached max_iter={max_iter}", PLSConvergenceWarning, stacklevel=4)
    return x_weights, max_iter


def _fit_components(xp, gram, Y, states, n_components: int, max_iter: int, tol: float):
    """Advance every split's components in lockstep (one Gram product per component for all splits)."""
    products = gram @ xp.concatenate([s.Xk for s in states], axis=1)
    for index, s in enumerate(states):
        q = s.Xk.shape[1]
        s.B = s.Xk.T @ products[:, index * q:(index + 1) * q]  # Xc' G Xc = Xc' G_s Xc (Xc centred, masked)
    del products
    for component in range(n_components):
        chosen = []
        for s in states:
            if not s.active:
                continue
            y = _start_column(xp, s, Y)
            if y is None:
                warnings.warn(f"y residual is constant at component {component}", PLSConvergenceWarning,
                              stacklevel=3)
                s.active = False
                continue
            x_weights, n_iter = _power_iteration(xp, s.B, s.Xk.T @ y, max_iter, tol, Y.shape[1] == 1)
            s.n_iter.append(n_iter)
            s.t = s.Xk @ x_weights
            s.weights.append(x_weights)
            chosen.append(s)
        if not chosen:
            break
        kernel_scores = gram @ xp.stack([s.t for s in chosen], axis=1)  # t is centred and masked already
        for column, s in enumerate(chosen):
            t = s.t
            tt = xp.sum(t * t)
            loadings = (s.Xk.T @ t) / tt
            g = s.center(xp, kernel_scores[:, column])
            xg = s.Xk.T @ g
            cross = xp.outer(xg, loadings)
            s.B = s.B - cross - cross.T + xp.sum(t * g) * xp.outer(loadings, loadings)
            s.Xk = s.Xk - t[:, None] * loadings[None, :]
            s.scores.append(t)
            s.tt.append(tt)
            s.x_loadings.append(loadings)


def pls_wide_target_correlations(xp, gram, X, Y, splits, *, n_components: int = 25, max_iter: int = 500,
                                 tol: float = 1e-6):
    """Per split and target column, the Pearson r between PLS test predictions and the test targets.

    Parameters
    ----------
    xp : backend module
    gram : array of shape (n_presentations, n_presentations), float64
        Gram matrix of the column-centred target (:func:`brainscore_metrics._gram.stimulus_gram` of Y).
    X : array of shape (n_presentations, n_source), float64
        The PLS source (the neural recordings in reverse predictivity).
    Y : array of shape (n_presentations, n_features), float32 or float64
        The (wide) PLS target; read in column blocks, never copied whole.
    splits : list of (train, test) int arrays
    n_components, max_iter, tol
        As scikit-learn's ``PLSRegression``.

    Returns
    -------
    (r of shape (n_splits, n_features) as a numpy array, per split the power iterations of each component)
    """
    n = X.shape[0]
    states = [_Split(xp, X, train, test, n) for train, test in splits]
    _fit_components(xp, gram, Y, states, n_components, max_iter, tol)
    heads = []  # per split: L diag(1 / t't), (n_test, k), and the scores T (n, k)
    for s in states:
        W, P = xp.stack(s.weights, axis=1), xp.stack(s.x_loadings, axis=1)
        rotations = W @ xp.pinv(P.T @ W)
        tt = xp.stack([xp.asarray(v) for v in s.tt]) if hasattr(s.tt[0], "shape") else xp.asarray(np.asarray(s.tt))
        heads.append(((s.x_test @ rotations) / tt[None, :], xp.stack(s.scores, axis=1)))
    all_scores = xp.concatenate([scores for _, scores in heads], axis=1)
    offsets = np.cumsum([0] + [scores.shape[1] for _, scores in heads])
    r = np.empty((len(states), Y.shape[1]))
    for start in range(0, Y.shape[1], _BLOCK):
        block = xp.asarray(Y[:, start:start + _BLOCK], dtype=xp.float64)
        projected = all_scores.T @ block  # T'Y of every split: (sum of k, block)
        for index, (s, (head, _)) in enumerate(zip(states, heads, strict=True)):
            train_rows = xp.take(block, s.train, 0)
            constant = xp.all(xp.abs(train_rows - xp.mean(train_rows, axis=0)) < 10 * _EPS, axis=0)
            deviations = head @ projected[offsets[index]:offsets[index + 1]]
            deviations = xp.where(constant[None, :], xp.zeros(deviations.shape, like=deviations), deviations)
            r[index, start:start + block.shape[1]] = xp.to_numpy(
                pearson_columns(xp, deviations, xp.take(block, s.test, 0)))
    return r, [s.n_iter for s in states]
