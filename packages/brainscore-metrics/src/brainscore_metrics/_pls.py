"""PLS regression (NIPALS, regression deflation) on the cross-covariance instead of the data.

scikit-learn's ``PLSRegression`` (mode A, ``scale=False``) finds each component by power iteration:
``x_weights <- normalise(X_k^T Y_k w)``, ``w <- Y_k^T X_k x_weights / |X_k x_weights|^2``, and then
deflates X_k and Y_k by the component's scores. Every iterate of ``x_weights`` is therefore
``normalise(C_k z)`` with ``C_k = X_k^T Y_k`` (n_features x n_targets) and ``z`` iterated as
``z <- A_k z`` where ``A_k = C_k^T C_k`` (n_targets x n_targets); the scalar normalisations do not change
directions. The convergence test ``|x_w - x_w_old|^2 < tol`` only needs inner products of iterates,
``(C z_i).(C z_j) = z_i^T A_k z_j``. So the power iteration runs on a q x q matrix, with exactly
scikit-learn's start (the first non-constant column of Y_k), stopping rule, iteration cap and sign
convention (largest |x_weights| entry positive). Deflation updates ``C_k`` by a rank-one term
(``C_{k+1} = C_k - (t.t) x_loadings y_loadings^T``), and scores ``t = X_k x_weights`` are taken from the
undeflated X through ``X_k = X - T P^T``, so X is never copied, centred or deflated: it is read twice
per component. Coefficients are ``x_rotations @ y_loadings.T`` with
``x_rotations = W pinv(P^T W)``, as in scikit-learn.
"""

from __future__ import annotations

import warnings

import numpy as np

from brainscore_metrics.errors import PLSConvergenceWarning

__all__ = ["PLSConvergenceWarning", "pls_coef", "pls_fit", "pls_fit_splits", "pls_predict"]

_EPS = float(np.finfo(np.float64).eps)




def _power_iteration(xp, A, start: int, max_iter: int, tol: float):
    """scikit-learn's power iteration of one component on ``A_k`` (n_targets x n_targets).

    Returns (z of shape (n_targets,), n_iter): the x_weights are ``normalise(C_k z)``.
    """
    n_targets = A.shape[0]
    z = xp.zeros((n_targets,), dtype=xp.float64, like=A)
    z[start] = 1.0
    n_iter = 1
    if n_targets > 1:
        # iterate i of scikit-learn's loop is x_weights_i = normalise(C z_i), with z_{i+1} = A z_i / |A z_i|;
        # |C z|^2 = z' A z, and z_{i+1}' A z_i = |A z_i|: one product with A per iteration
        norm2_prev = step = None
        product = A @ z
        norm2 = xp.item(z @ product)
        for iteration in range(max_iter):
            n_iter = iteration + 1
            if step is not None:
                cosine = step / np.sqrt(norm2 * norm2_prev)
                if 2.0 - 2.0 * cosine < tol:  # |x_w_i - x_w_{i-1}|^2 of unit vectors
                    break
            if iteration == max_iter - 1:
                warnings.warn(f"PLS power iteration reached max_iter={max_iter}", PLSConvergenceWarning,
                              stacklevel=4)
                break
            norm2_prev, step = norm2, xp.item(xp.sqrt(xp.sum(product * product)))
            z = product / step
            product = A @ z
            norm2 = xp.item(z @ product)
    return z, n_iter


def _first_x_weights(xp, C, A, start: int, max_iter: int, tol: float):
    """Power iteration of one component; returns (x_weights of shape (n_features,), n_iter)."""
    z, n_iter = _power_iteration(xp, A, start, max_iter, tol)
    x_weights = C @ z
    x_weights = x_weights / (xp.sqrt(xp.sum(x_weights * x_weights)) + _EPS)
    return x_weights, n_iter


def _initial_cross_covariances(plan, X, Y, trains, block: int):
    """``C_s = (X_s - mean)' (Y_s - mean)`` for each training set, centred on its own rows.

    The cross-covariance of the globally centred data is formed once (feature blocks, one pass over
    X); each split then subtracts its held-out rows and a rank-one mean correction, which costs
    (held-out rows x features x neuroids) instead of a pass over all training rows.
    """
    xp = plan.xp
    n_rows, n_features = X.shape
    y_mu = xp.mean(Y, axis=0)
    y_centered = Y - y_mu
    global_cov = xp.zeros((n_features, Y.shape[1]), dtype=xp.float64, like=X)
    x_mu = xp.zeros((n_features,), dtype=xp.float64, like=X)
    for start in range(0, n_features, block):
        chunk = xp.asarray(X[:, start:start + block], dtype=xp.float64)
        mu = xp.mean(chunk, axis=0)
        x_mu[start:start + block] = mu
        global_cov[start:start + block] = (chunk - mu).T @ y_centered
    out = []
    for train in trains:
        held_out = np.setdiff1d(np.arange(n_rows), train)
        train_t, held_t = xp.index(train, X), xp.index(held_out, X)
        y_train = xp.take(Y, train_t, 0)
        y_mean = xp.mean(y_train, axis=0)
        selector = xp.zeros((n_rows,), dtype=xp.float64, like=X)
        selector[train_t] = 1.0 / len(train)
        x_mean = xp.transpose_times(plan, X, selector[:, None])[:, 0]
        if len(held_out) <= len(train):
            C = xp.copy(global_cov)
            y_held = xp.take(y_centered, held_t, 0)
            for start in range(0, n_features, block):  # feature blocks: no held-out x features copy
                x_held = xp.asarray(X[held_t, start:start + block], dtype=xp.float64)  # gathers only these rows
                x_held -= x_mu[start:start + block]
                C[start:start + block] -= x_held.T @ y_held
            C -= len(train) * xp.outer(x_mean - x_mu, y_mean - y_mu)
        else:
            C = (xp.asarray(xp.take(X, train_t, 0), dtype=xp.float64) - x_mean).T @ (y_train - y_mean)
        out.append({"C": C, "x_mean": x_mean, "y_mean": y_mean, "Yk": y_train - y_mean})
    return out


def pls_fit_splits(plan, X, Y, trains, *, n_components: int = 25, max_iter: int = 500, tol: float = 1e-6,
                   block: int = 512):
    """Fit PLS regression (scikit-learn ``PLSRegression(n_components, scale=False)`` semantics) on
    several training sets of the same arrays at once.

    The splits advance in lockstep over components, so each component reads X twice for all splits
    together (one matrix of weights per pass) instead of twice per split.

    Parameters
    ----------
    plan : ComputePlan
    X : array of shape (n_presentations, n_features), float64 or float32
        Source; not modified and not copied (float32 rows are converted to float64 block by block, so
        every product is a float64 product).
    Y : array of shape (n_presentations, n_neuroids), float64
    trains : list of int arrays
        Rows used for fitting, one array per split.
    n_components : int, default=25
    max_iter : int, default=500
    tol : float, default=1e-6
    block : int, default=512
        Features per block when forming the initial cross-covariances (bounds their scratch memory).

    Returns
    -------
    list of dicts (one per split) with ``rotations`` (n_features, n_components), ``y_loadings``
    (n_neuroids, n_components), ``x_mean`` (n_features,), ``y_mean`` (n_neuroids,) and ``n_iter`` (list of
    int, one per component). The coefficients are ``rotations @ y_loadings.T`` (:func:`pls_coef`); they are
    not formed here, so ten splits at MajajHong2015 scale do not hold ten features x neuroids matrices.
    """
    xp = plan.xp
    n_rows = X.shape[0]
    trains = [np.asarray(train) for train in trains]
    train_ts = [xp.index(train, X) for train in trains]
    states = _initial_cross_covariances(plan, X, Y, trains, block)
    for state in states:
        state.update(weights=[], loadings=[], y_loadings=[], scores=[], n_iter=[], active=True)
    for component in range(n_components):
        chosen = []
        for s, state in enumerate(states):
            if not state["active"]:
                continue
            Yk, C = state["Yk"], state["C"]
            constant = xp.all(xp.abs(Yk) < 10 * _EPS, axis=0)
            if bool(xp.to_numpy(xp.any(constant))):
                Yk[:, constant] = 0.0
                C[:, constant] = 0.0
            varying = xp.to_numpy(xp.any(xp.abs(Yk) > _EPS, axis=0))
            if not varying.any():
                warnings.warn(f"y residual is constant at component {component}", PLSConvergenceWarning,
                              stacklevel=2)
                state["active"] = False
                continue
            x_weights, n_iter = _first_x_weights(xp, C, C.T @ C, int(np.argmax(varying)), max_iter, tol)
            state["n_iter"].append(n_iter)
            biggest = xp.argmax(xp.abs(x_weights))
            chosen.append((s, x_weights * xp.sign(x_weights[biggest])))
        if not chosen:
            break
        # scores of the deflated X for all splits in one pass: X_k w = (X - 1 x_mean' - T P')[train] w
        projected = xp.rows_times(plan, X, xp.stack([w for _, w in chosen], axis=1))
        padded = xp.zeros((n_rows, len(chosen)), dtype=xp.float64, like=X)
        scores = []
        for column, (s, w) in enumerate(chosen):
            state = states[s]
            t = xp.take(projected[:, column], train_ts[s], 0) - state["x_mean"] @ w
            if state["scores"]:
                T, P = xp.stack(state["scores"], axis=1), xp.stack(state["loadings"], axis=1)
                t = t - T @ (P.T @ w)
            padded[train_ts[s], column] = t
            scores.append(t)
        back = xp.transpose_times(plan, X, padded)
        for column, (s, w) in enumerate(chosen):
            state, t = states[s], scores[column]
            tt = t @ t
            x_load = back[:, column] - state["x_mean"] * xp.sum(t)
            if state["scores"]:
                T, P = xp.stack(state["scores"], axis=1), xp.stack(state["loadings"], axis=1)
                x_load = x_load - P @ (T.T @ t)
            x_load = x_load / tt
            y_load = (state["Yk"].T @ t) / tt
            state["Yk"] = state["Yk"] - xp.outer(t, y_load)
            state["C"] = state["C"] - tt * xp.outer(x_load, y_load)
            state["weights"].append(w)
            state["loadings"].append(x_load)
            state["y_loadings"].append(y_load)
            state["scores"].append(t)
    fitted = []
    for state in states:  # release each split's cross-covariance before the next rotations are formed
        for key in ("C", "Yk"):
            state.pop(key, None)
        W = xp.stack(state["weights"], axis=1)
        P = xp.stack(state["loadings"], axis=1)
        fitted.append({"rotations": W @ xp.pinv(P.T @ W), "y_loadings": xp.stack(state["y_loadings"], axis=1),
                       "x_mean": state["x_mean"], "y_mean": state["y_mean"], "n_iter": state["n_iter"]})
        state.clear()
    return fitted


def pls_fit(plan, X, Y, train=None, *, n_components: int = 25, max_iter: int = 500, tol: float = 1e-6):
    """Fit PLS on the rows ``train`` (all when None); see :func:`pls_fit_splits`.

    Returns
    -------
    dict with ``coef`` (n_features, n_neuroids), ``rotations``, ``y_loadings``, ``x_mean``, ``y_mean`` and
    ``n_iter``.
    """
    if train is None:
        train = np.arange(X.shape[0])
    fitted = pls_fit_splits(plan, X, plan.xp.asarray(Y, dtype=plan.xp.float64), [train], n_components=n_components,
                            max_iter=max_iter, tol=tol)[0]
    return {**fitted, "coef": pls_coef(fitted)}


def pls_coef(fitted):
    """Coefficients ``x_rotations @ y_loadings.T`` (n_features, n_neuroids), as scikit-learn's ``coef_.T``."""
    return fitted["rotations"] @ fitted["y_loadings"].T


def pls_predict(xp, fitted, X, rows=None):
    """Predictions ``(X[rows] - x_mean) @ coef + y_mean`` of shape (n_rows, n_neuroids).

    Without ``coef`` in ``fitted`` the product goes through the components,
    ``((X[rows] - x_mean) @ rotations) @ y_loadings.T``, so no features x neuroids matrix is formed.
    """
    if rows is not None:
        X = xp.take(X, xp.index(np.asarray(rows), X), 0)
    centered = X - fitted["x_mean"]
    if "coef" in fitted:
        return centered @ fitted["coef"] + fitted["y_mean"]
    return (centered @ fitted["rotations"]) @ fitted["y_loadings"].T + fitted["y_mean"]
