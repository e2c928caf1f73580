"""The pseudo-inverse solve of a symmetric positive semidefinite matrix through its pivoted Cholesky factor (never
an eigendecomposition): least squares' per-split solve and its rank cutoff."""

from __future__ import annotations

import numpy as np

__all__ = ["RCOND", "largest_eigenvalue", "psd_pinv_solve"]

#: scikit-learn's ``LinearRegression(tol=1e-6)``: relative cutoff of singular values
RCOND = 1e-6
_POWER_ITERATIONS = 30
def largest_eigenvalue(xp, matrix) -> float:
    """An estimate of the largest eigenvalue of a symmetric positive semidefinite matrix (power iteration, from
    below; at least its largest diagonal entry)."""
    n = matrix.shape[0]
    diagonal = xp.arange(n, like=matrix)
    estimate = float(xp.to_numpy(matrix[diagonal, diagonal]).max())
    vector = xp.asarray(np.linspace(1.0, 2.0, n), dtype=xp.float64)
    for _ in range(_POWER_ITERATIONS):
        product = matrix @ vector
        norm = xp.item(xp.sqrt(xp.sum(product * product)))
        if norm == 0:
            break
        estimate = max(estimate, xp.item(xp.sum(vector * product)) / xp.item(xp.sum(vector * vector)))
        vector = product / norm
    return estimate


def psd_pinv_solve(xp, matrix, rhs, *, rcond: float = RCOND):
    """``matrix^+ rhs`` for a symmetric positive semidefinite ``matrix``, eigenvalues below ``rcond^2`` times the
    largest counted as zero (through a pivoted Cholesky factor, never an eigendecomposition).

    With the pivoted factor ``G`` (n x r, ``matrix ~= G G'``), ``matrix^+ = G (G'G)^-2 G'``. ``G'G = L1'L1 + L2'L2``
    (``L1`` the leading r x r triangle, ``L2`` the d = n - r rows below it) is inverted through ``L1`` and a d x d
    system (Woodbury) when d <= r, else formed and factorised.

    Parameters
    ----------
    matrix : array of shape (n, n), float64
    rhs : array of shape (n, k), float64
    rcond : float, default=1e-6
        The cutoff on singular values of the data whose Gram matrix ``matrix`` is (so ``rcond^2`` on eigenvalues).

    Returns
    -------
    array of shape (n, k)
    """
    largest = largest_eigenvalue(xp, matrix)
    factor, order, rank = xp.pivoted_cholesky(matrix, rcond * rcond * largest)
    out = xp.zeros(tuple(rhs.shape), like=rhs)
    if rank == 0:
        return out
    order_t = xp.index(order, rhs)
    projected = factor.T @ xp.take(rhs, order_t, 0)  # G' rhs, (r, k)
    apply_inverse = _gram_inverse(xp, factor, rank)
    solution = factor @ apply_inverse(apply_inverse(projected))
    out[order_t] = solution
    return out


def _gram_inverse(xp, factor, rank: int):
    """A function applying ``(factor' factor)^-1`` to (r, k) arrays (see :func:`psd_pinv_solve`)."""
    leading, below = factor[:rank], factor[rank:]
    extra = below.shape[0]
    if extra <= rank:
        # G'G = L1' (I + Z'Z) L1 with Z = L2 L1^-1; (I + Z'Z)^-1 = I - Z' (I + Z Z')^-1 Z
        z_transposed = xp.solve_triangular(leading, below.T, lower=True, transpose=True) if extra else None
        small = xp.eye(extra, like=factor) + z_transposed.T @ z_transposed if extra else None

        def apply(values):
            inner = xp.solve_triangular(leading, values, lower=True, transpose=True)
            if extra:
                inner = inner - z_transposed @ xp.cholesky_solve(small, z_transposed.T @ inner)
            return xp.solve_triangular(leading, inner, lower=True)

        return apply
    normal = factor.T @ factor

    def apply(values):
        return xp.cholesky_solve(normal, values)

    return apply
