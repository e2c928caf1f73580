"""PLS regression (NIPALS, regression deflation) of wide sources in stimulus space, all splits at once.

With more features than training stimuli, scikit-learn's ``PLSRegression(scale=False)`` depends on the
source only through the Gram matrix of its centred rows. Let ``Kc`` be the kernel of the source centred
on a split's training stimuli and ``D_k = I - sum_j t_j t_j' / t_j't_j`` the projection away from the
scores found so far (NIPALS scores are orthogonal, and deflating X and Y by a score is a left
multiplication by that projection). Then, for component k:

* ``A_k = Y_k' K_k Y_k`` (targets x targets) with ``K_k = D_k Kc D_k``; the power iteration of
  :mod:`brainscore_metrics._pls` runs on it unchanged and gives ``z``;
* with ``u = Y_k z``: ``x_weights = X_k' u / |X_k' u|`` and ``t = X_k x_weights = K_k u / sqrt(u' K_k u)``;
* ``y_loadings q = Y_k' t / t't``, ``Y_{k+1} = D Y_k``, and with ``g = K_k t`` (so ``t' K_k Y_k = g' Y_k``)
  ``A_{k+1} = A_k - (Y_k'g) q' - q (g'Y_k) + (t'g) q q'``: a rank-two update, so ``A_0 = Yc' Kc Yc`` is the only
  product of the Gram matrix with all targets.

Predictions: with ``a_k = D_k u / |X_k' u|`` (so ``x_weights = Xc' a_k``), ``P'W = diag(1/t't) T' Kc A`` and
``prediction = Kc[test, train] A pinv(P'W) Q' + y_mean`` -- scikit-learn's ``(X - x_mean) W pinv(P'W) Q'``.
The component signs (scikit-learn makes the largest |x_weights| entry positive) cancel in predictions and
are not computed. Every split works on the one global Gram matrix of the globally centred source:
``Kc v = h(m * G h(v))`` (``h`` centres a vector on the training rows, ``m`` zeroes the others), so each
component costs two products of the n x n Gram matrix with one vector per split (all splits in one
matrix product), and the source is not read again after the Gram matrix.
"""

from __future__ import annotations

import warnings

import numpy as np

from brainscore_metrics._pls import _EPS, PLSConvergenceWarning, _power_iteration

__all__ = ["pls_kernel_cross_predict", "pls_kernel_fit"]


class _Split:
    """State of one split: embedded (n-row, zero outside training) targets, kernel products, components."""

    def __init__(self, xp, gram, Y, train, test):
        n = gram.shape[0]
        self.train, self.test = xp.index(train, gram), xp.index(test, gram)
        self.mask = xp.zeros((n,), dtype=xp.float64, like=gram)
        self.mask[self.train] = 1.0
        self.n_train = len(train)
        y_train = xp.take(Y, self.train, 0)
        self.y_mean = xp.mean(y_train, axis=0)
        self.Yk = xp.zeros((n, Y.shape[1]), dtype=xp.float64, like=gram)
        self.Yk[self.train] = y_train - self.y_mean
        self.scores, self.a, self.kernel_a, self.y_loadings, self.tt = [], [], [], [], []
        self.n_iter, self.active = [], True

    def center(self, xp, v):
        """``h(m * v)``: zero outside the training rows, centred on them (v of shape (n,) or (n, k))."""
        v = v * (self.mask if v.ndim == 1 else self.mask[:, None])
        return v - (xp.sum(v, axis=0) / self.n_train) * (self.mask if v.ndim == 1 else self.mask[:, None])

    def deflate(self, xp, v):
        """``D_k v``: v minus its projections on the scores found so far."""
        for t, tt in zip(self.scores, self.tt, strict=True):
            v = v - t * (xp.sum(t * v) / tt)
        return v


def pls_kernel_cross_predict(plan, gram, Y, splits, *, n_components: int = 25, max_iter: int = 500,
                             tol: float = 1e-6):
    """Test predictions of PLS fitted on each split's training stimuli, from the source's Gram matrix.

    Parameters
    ----------
    plan : ComputePlan
    gram : array of shape (n_presentations, n_presentations), float64
        Gram matrix of the globally centred source (:func:`brainscore_metrics._gram.stimulus_gram`).
    Y : array of shape (n_presentations, n_neuroids), float64
    splits : list of (train, test) int arrays
    n_components, max_iter, tol
        As scikit-learn's ``PLSRegression``.

    Returns
    -------
    (predictions, n_iter): a list of arrays of shape (n_test, n_neuroids), and per split the power
    iterations of each component.
    """
    states = _fitted_states(plan, gram, Y, splits, n_components, max_iter, tol)
    return _predictions(plan, gram, states), [s.n_iter for s in states]


def pls_kernel_fit(plan, X, Y, train, *, n_components: int = 25, max_iter: int = 500, tol: float = 1e-6) -> dict:
    """PLS fitted on ``X[train]`` through the stimulus Gram matrix of ``X`` (formed under the plan's precision), as
    explicit coefficients: ``x_weights = Xc' a_k``, so ``coef = Xc' A pinv(P'W) Q'`` (one pass over ``X`` in
    float64 row blocks).

    Returns
    -------
    dict with ``coef`` (n_features, n_neuroids), ``x_mean`` (n_features,), ``y_mean`` (n_neuroids,) and ``n_iter``
    (per component), as :func:`brainscore_metrics._pls.pls_fit`.
    """
    from brainscore_metrics._gram import stimulus_gram

    xp = plan.xp
    train = np.asarray(train)
    gram = stimulus_gram(plan, X, center="columns")
    (state,) = _fitted_states(plan, gram, Y, [(train, np.arange(0))], n_components, max_iter, tol)
    dual = state.center(xp, xp.stack(state.a, axis=1)) @ _component_coefficients(xp, state)  # (n, n_neuroids)
    del gram
    selector = xp.zeros((X.shape[0], 1), like=dual)
    selector[xp.index(train, selector)] = 1.0 / len(train)
    x_mean = xp.transpose_times(plan, X, selector)[:, 0]
    # the dual rows sum to 0 over the training rows and are 0 elsewhere: Xc' dual = X' dual
    return {"coef": xp.transpose_times(plan, X, dual), "x_mean": x_mean, "y_mean": state.y_mean,
            "n_iter": state.n_iter}


def _fitted_states(plan, gram, Y, splits, n_components: int, max_iter: int, tol: float) -> list:
    """The components of every split (module docstring), advanced together."""
    xp = plan.xp
    states = [_Split(xp, gram, Y, train, test) for train, test in splits]
    for s in states:  # a matrix product with all targets, in tiles on the plan's workers
        s.A = s.Yk.T @ xp.matmul(plan, gram, s.Yk)  # Yc' Kc Yc: Yc is zero outside training rows and centred on them
    # the rest is one Gram product with one vector per split at a time, between small steps (one BLAS thread: two
    # measured slower in this loop, 0.62-0.67 s against 0.44 s for 25 components at n = 3,200)
    for component in range(n_components):
        chosen = []
        for s in states:
            if s.active and _choose_direction(xp, s, component, max_iter, tol):
                chosen.append(s)
        if not chosen:
            break
        directions = [s.deflate(xp, s.Yk @ s.z) for s in chosen]
        stacked = xp.stack([s.center(xp, d) for s, d in zip(chosen, directions, strict=True)], axis=1)
        products = xp.symmetric_product(gram, stacked)
        for column, (s, direction) in enumerate(zip(chosen, directions, strict=True)):
            kernel_direction = s.center(xp, products[:, column])  # Kc D_k u
            scale = 1.0 / (xp.sqrt(xp.sum(direction * kernel_direction)) + _EPS)
            s.t = s.deflate(xp, kernel_direction) * scale
            s.a.append(direction * scale)
            s.kernel_a.append(kernel_direction * scale)
        stacked = xp.stack([s.center(xp, s.t) for s in chosen], axis=1)
        products = xp.symmetric_product(gram, stacked)
        for column, s in enumerate(chosen):
            _deflate_targets(xp, s, s.deflate(xp, s.center(xp, products[:, column])))
    return states


def _choose_direction(xp, s, component: int, max_iter: int, tol: float) -> bool:
    """scikit-learn's constant-column handling and start column, then the power iteration on A_k."""
    largest = xp.max(xp.abs(s.Yk), axis=0)  # per target: all |y| < c  <=>  max |y| < c (one pass over Y_k)
    constant = largest < 10 * _EPS
    if bool(xp.to_numpy(xp.any(constant))):
        s.Yk[:, constant] = 0.0
        s.A[:, constant] = 0.0
        s.A[constant, :] = 0.0
    varying = xp.to_numpy(largest > _EPS) & ~xp.to_numpy(constant)  # a zeroed target no longer varies
    if not varying.any():
        warnings.warn(f"y residual is constant at component {component}", PLSConvergenceWarning, stacklevel=3)
        s.active = False
        return False
    s.z, n_iter = _power_iteration(xp, s.A, int(np.argmax(varying)), max_iter, tol)
    s.n_iter.append(n_iter)
    return True


def _deflate_targets(xp, s, g):
    """Record the component with score ``s.t`` and ``g = K_k t``; deflate Y_k and A_k."""
    t = s.t
    tt = xp.sum(t * t)
    loadings = (s.Yk.T @ t) / tt
    yg, tg = s.Yk.T @ g, xp.sum(t * g)
    cross = xp.outer(yg, loadings)
    s.A = s.A - cross - cross.T + tg * xp.outer(loadings, loadings)
    s.Yk -= t[:, None] * loadings[None, :]
    s.scores.append(t)
    s.tt.append(tt)
    s.y_loadings.append(loadings)


def _component_coefficients(xp, s):
    """``pinv(P'W) Q'`` of a split (components x neuroids), with ``P'W = diag(1/t't) T' Kc A``."""
    T, KA = xp.stack(s.scores, axis=1), xp.stack(s.kernel_a, axis=1)
    tt = xp.stack(s.tt) if hasattr(s.tt[0], "shape") else xp.asarray(np.asarray(s.tt))
    pw = (T.T @ KA) / tt[:, None]
    return xp.pinv(pw) @ xp.stack(s.y_loadings, axis=0)


def _predictions(plan, gram, states):
    """``Kc[test, train] A pinv(P'W) Q' + y_mean`` per split (one Gram product for all splits)."""
    xp = plan.xp
    weights = [xp.stack(s.a, axis=1) for s in states]
    products = xp.matmul(plan, gram, xp.concatenate([s.center(xp, w) for s, w in zip(states, weights, strict=True)],
                                                    axis=1))
    out, start = [], 0
    for s, w in zip(states, weights, strict=True):
        block = products[:, start:start + w.shape[1]]
        start += w.shape[1]
        train_mean = xp.sum(block * s.mask[:, None], axis=0) / s.n_train
        test_kernel = xp.take(block, s.test, 0) - train_mean  # Kc[test, train] A
        out.append(test_kernel @ _component_coefficients(xp, s) + s.y_mean)
    return out
