"""numpy backend: the reference set of array functions used by the kernels, and numpy's fast paths (tiled products
in :mod:`._numpy_tiles`, the Gram matrix in :mod:`._numpy_gram`, source views in :mod:`._numpy_sources`, LAPACK through scipy)."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from scipy.linalg import lapack
from threadpoolctl import ThreadpoolController

from brainscore_metrics.backend._numpy_gram import stimulus_gram_blocks  # noqa: F401 - part of the flat set
from brainscore_metrics.backend._numpy_sources import (  # noqa: F401 - part of this backend's flat set of names
    RowStack,
    as_source,
    column_means,
    row_means,
    row_stack,
    varying_columns,
)
from brainscore_metrics.backend._numpy_tiles import (  # noqa: F401 - part of this backend's flat set of names
    cholesky,
    factor_solve,
    rows_times,
    transpose_times,
)
from brainscore_metrics.backend._numpy_tiles import tiled_matmul as matmul  # noqa: F401

name = "numpy"
float64 = np.float64
float32 = np.float32

#: numpy's and scipy's BLAS libraries (both loaded by the imports above), found when this module is imported; a
#: handle that is never changed, not a memory of any call
_BLAS_LIBRARIES = ThreadpoolController().select(user_api="blas")


def single_threaded_blas():
    """A context manager inside which numpy's and scipy's BLAS (and LAPACK) run on one thread
    (:mod:`brainscore_metrics.backend.plan`: OpenBLAS gives other bits on other thread counts)."""
    return _BLAS_LIBRARIES.limit(limits=1)


def asarray(x, dtype=None):
    """Array on this backend (``dtype`` default: keep)."""
    return np.asarray(x, dtype=dtype)


def to_numpy(x) -> np.ndarray:
    return np.asarray(x)


def zeros(shape, dtype=np.float64, like=None):
    return np.zeros(shape, dtype=dtype)


def ones(shape, dtype=np.float64, like=None):
    return np.ones(shape, dtype=dtype)


def eye(n, dtype=np.float64, like=None):
    return np.eye(n, dtype=dtype)


def arange(n, like=None):
    return np.arange(n)


def index(rows, like):
    """Integer positions ``rows`` as an index array usable on ``like`` (for ``take`` and item assignment)."""
    return np.asarray(rows)


def full(shape, value, dtype=np.float64, like=None):
    return np.full(shape, value, dtype=dtype)


def sqrt(x):
    return np.sqrt(x)


def abs(x):
    return np.abs(x)


def isnan(x):
    return np.isnan(x)


def where(condition, a, b):
    return np.where(condition, a, b)


def clip(x, low, high):
    return np.clip(x, low, high)


def mean(x, axis=None):
    return np.mean(x, axis=axis)


def nanmean(x, axis=None):
    """Mean ignoring NaN; NaN (no warning) where a slice is all NaN."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nansum(x, axis=axis) / np.sum(~np.isnan(x), axis=axis)


def column_dots(a, b):
    """Dot product of matching columns: array of shape (n_columns,) for a, b of shape (n_rows, n_columns)."""
    return np.einsum("ij,ij->j", a, b)


def sum(x, axis=None):
    return np.sum(x, axis=axis)


def all(x, axis=None):
    return np.all(x, axis=axis)


def any(x, axis=None):
    return np.any(x, axis=axis)


def max(x, axis=None):
    return np.max(x, axis=axis)


def min(x, axis=None):
    return np.min(x, axis=axis)


def argmax(x, axis=None):
    return np.argmax(x, axis=axis)


def take_along_axis(x, indices, axis):
    return np.take_along_axis(x, indices, axis=axis)


def take(x, indices, axis):
    return np.take(x, indices, axis=axis)


def stack(arrays, axis=0):
    return np.stack(arrays, axis=axis)


def concatenate(arrays, axis=0):
    return np.concatenate(arrays, axis=axis)


def outer(a, b):
    return np.outer(a, b)


def sign(x):
    return np.sign(x)


def nanmedian(x, axis=None):
    """Median ignoring NaN; NaN where a slice is all NaN (no warning)."""
    x = np.asarray(x)
    out = np.full(np.delete(x.shape, axis) if axis is not None else (), np.nan)
    valid = ~np.all(np.isnan(x), axis=axis)
    if np.any(valid):
        if axis is None:
            return np.nanmedian(x)
        moved = np.moveaxis(x, axis, -1)[valid]
        out[valid] = np.nanmedian(moved, axis=-1)
    return out


def pinv(a):
    return scipy.linalg.pinv(a, check_finite=False)


def eigh(a):
    """Eigenvalues ascending and eigenvectors of a symmetric matrix."""
    return scipy.linalg.eigh(a, check_finite=False)


def svd(a):
    """Thin SVD ``u, s, vt`` (gesdd)."""
    return scipy.linalg.svd(a, full_matrices=False, check_finite=False)


def cholesky_solve(a, b):
    """Solve ``a x = b`` for a symmetric positive definite ``a`` (lower Cholesky)."""
    factor = scipy.linalg.cho_factor(a, lower=True, check_finite=False, overwrite_a=False)
    return scipy.linalg.cho_solve(factor, b, check_finite=False)


def cholesky_inverse(a, overwrite: bool = False):
    """Inverse of a symmetric positive definite matrix from its Cholesky factor (LAPACK potrf + potri).

    Returned C-contiguous. With ``overwrite=True`` the inverse is formed in ``a``'s memory (``a`` is
    symmetric, so a C-ordered ``a`` is handed to LAPACK as its transpose, which is Fortran-ordered).
    Raises ``numpy.linalg.LinAlgError`` when ``a`` is not positive definite.
    """
    if a.flags.c_contiguous and not a.flags.f_contiguous:
        a = a.T  # same matrix (symmetric), Fortran order: LAPACK works in place
    factor, info = lapack.dpotrf(a, lower=1, clean=0, overwrite_a=overwrite)
    if info != 0:
        raise np.linalg.LinAlgError(f"matrix is not positive definite (potrf info={info})")
    inverse, info = lapack.dpotri(factor, lower=1, overwrite_c=1)
    if info != 0:
        raise np.linalg.LinAlgError(f"matrix is singular (potri info={info})")
    mirror_triangle(inverse, source="lower")
    return inverse.T if not inverse.flags.c_contiguous else inverse  # symmetric: the transpose is itself


def cholesky_tail_inverse(plan, a, start: int, *, estimate_condition: bool = True, overwrite: bool = False):
    """Lower Cholesky factor ``L`` of a symmetric positive definite ``a`` (:func:`cholesky`: tiles on the plan's
    workers), the inverse of its trailing block ``L[start:, start:]`` and an estimate of the reciprocal 1-norm
    condition number of ``a`` (LAPACK pocon, trtri on the block only).

    For a lower triangular ``L``, ``(L^-1)[start:, start:] = (L[start:, start:])^-1`` and ``(L^-1)[:start,
    start:] = 0``: the columns ``start:`` of ``L^-1`` cost ``(n - start)^3 / 3`` instead of ``n^3 / 3``.

    Parameters
    ----------
    plan : ComputePlan
    a : ndarray of shape (n, n)
    start : int
        First row and column of the trailing block, ``0 <= start <= n``.
    estimate_condition : bool, default=True
        When False, ``rcond`` is returned as NaN (saves one pass over ``L``).
    overwrite : bool, default=False
        Factor in ``a``'s memory.

    Returns
    -------
    factor : ndarray of shape (n, n), lower triangular (Fortran order)
    tail_inverse : ndarray of shape (n - start, n - start), lower triangular
    rcond : float

    Raises ``numpy.linalg.LinAlgError`` when ``a`` is not positive definite.
    """
    norm1 = float(np.max(np.sum(np.abs(a), axis=0))) if estimate_condition else np.nan
    factor = cholesky(plan, a, overwrite=overwrite)
    rcond = float(lapack.dpocon(factor, norm1, uplo="L")[0]) if estimate_condition else np.nan
    tail = np.array(factor[start:, start:], order="F")  # a copy: the factor itself is still needed
    tail_inverse, info = lapack.dtrtri(tail, lower=1, overwrite_c=1)
    if info != 0:
        raise np.linalg.LinAlgError(f"Cholesky factor is singular (trtri info={info})")
    return factor, tail_inverse, rcond


def cholesky_factor_solve(factor, b):
    """Solve ``a x = b`` given the lower Cholesky factor of ``a`` (LAPACK potrs); ``b`` of shape (n, k)."""
    solution, info = lapack.dpotrs(factor, b, lower=1)
    if info != 0:
        raise np.linalg.LinAlgError(f"potrs info={info}")
    return solution


def solve_triangular(a, b, *, lower: bool = True, transpose: bool = False):
    """Solve ``a x = b`` (``a' x = b`` with ``transpose``) for a triangular ``a``; ``b`` of shape (n,) or (n, k)."""
    return scipy.linalg.solve_triangular(a, b, lower=lower, trans="T" if transpose else "N", check_finite=False)


def pivoted_cholesky(a, tol: float):
    """Cholesky factorisation with diagonal pivoting of a symmetric positive semidefinite ``a`` (LAPACK pstrf),
    stopped once every remaining pivot is at most ``tol``.

    Returns ``(factor, order, rank)``: ``factor`` of shape (n, rank) is lower trapezoidal with its rows in pivot
    order, ``order`` (int array of shape (n,)) the pivot order (row ``i`` of ``factor`` belongs to row ``order[i]``
    of ``a``), so that ``a[np.ix_(order, order)] ~= factor @ factor.T`` up to the dropped pivots.
    """
    if a.flags.c_contiguous and not a.flags.f_contiguous:
        a = a.T  # symmetric: the transpose is the same matrix, in LAPACK's order
    factor, pivots, rank, info = lapack.dpstrf(a, tol=float(tol), lower=1)
    if info < 0:
        raise np.linalg.LinAlgError(f"pstrf info={info}")
    # pstrf keeps a first pivot at or below tol when it is positive (a 2e-15 pivot of a zero matrix counted as rank
    # 1): the pivots are non-increasing, so the rank is the number of squared diagonal entries above tol
    rank = int(np.count_nonzero(np.diagonal(factor)[:rank] ** 2 > tol))
    return np.tril(factor[:, :rank]), pivots[:].astype(np.int64) - 1, rank


def triangular_rcond(a, lower: bool = True) -> float:
    """Estimated reciprocal 1-norm condition number of a triangular matrix (LAPACK trcon)."""
    if a.shape[0] == 0:
        return 1.0
    rcond, info = lapack.dtrcon(np.asfortranarray(a), norm="1", uplo="L" if lower else "U", diag="N")
    if info != 0:
        raise np.linalg.LinAlgError(f"trcon info={info}")
    return float(rcond)


def mirror_triangle(matrix, source: str = "upper", block: int = 512):
    """Copy one triangle of a square matrix onto the other, in place, block by block (no n x n temporary).

    Parameters
    ----------
    matrix : ndarray of shape (n, n)
    source : {'upper', 'lower'}, default='upper'
        The triangle holding the valid values.
    block : int, default=512
    """
    target = matrix if source == "upper" else matrix.T  # the transposed view shares memory
    n = target.shape[0]
    for start in range(0, n, block):
        stop = min(start + block, n)
        target[start:stop, :start] = target[:start, start:stop].T
        square = target[start:stop, start:stop]
        target[start:stop, start:stop] = np.triu(square) + np.triu(square, 1).T
    return matrix


#: up to this many right-hand columns a symmetric product runs as one BLAS ``dsymv`` per column: it reads one
#: triangle, where a matrix product with few columns reads (and packs) the whole matrix. 3,200 x 3,200 with one
#: column (median of 15): 1.6 ms against 2.2 on two threads, 2.3 against 3.9 on one; from about 6 columns on the
#: matrix product is as fast or faster.
SYMV_MAX_COLUMNS = 4


def symmetric_product(a, b):
    """``a @ b`` for a symmetric ``a``.

    Parameters
    ----------
    a : ndarray of shape (n, n), symmetric (both triangles hold the values)
    b : ndarray of shape (n,) or (n, k)

    Returns
    -------
    ndarray of shape (n,) or (n, k): ``a @ b`` (a float64 C- or Fortran-ordered ``a`` with k <= SYMV_MAX_COLUMNS is
    read one triangle at a time, so rounding may differ from ``a @ b`` in the last bits).
    """
    columns = 1 if b.ndim == 1 else b.shape[1]
    fortran = a.T if a.flags.c_contiguous else a if a.flags.f_contiguous else None
    if fortran is None or a.dtype != np.float64 or b.dtype != np.float64 or columns > SYMV_MAX_COLUMNS:
        return a @ b
    from scipy.linalg import blas

    if b.ndim == 1:
        return blas.dsymv(1.0, fortran, b, lower=0)
    out = np.empty(b.shape)
    for column in range(columns):
        out[:, column] = blas.dsymv(1.0, fortran, b[:, column], lower=0)
    return out


def permute_symmetric_in_place(matrix: np.ndarray, order: np.ndarray) -> None:
    """``matrix[:] = matrix[order][:, order]`` with one row of scratch: rows follow the permutation's cycles, then
    every row is gathered in ``order``.

    Parameters
    ----------
    matrix : ndarray of shape (n, n), C-ordered
    order : int ndarray of shape (n,), a permutation of 0..n-1
    """
    n = len(order)
    if np.array_equal(order, np.arange(n)):
        return
    scratch = np.empty(n, dtype=matrix.dtype)
    placed = order == np.arange(n)
    for start in np.flatnonzero(~placed):
        if placed[start]:
            continue
        scratch[:] = matrix[start]  # the cycle's first row, overwritten first
        row = start
        while True:
            placed[row] = True
            source = order[row]
            if source == start:
                matrix[row] = scratch
                break
            matrix[row] = matrix[source]
            row = source
    for row in range(n):
        np.take(matrix[row], order, out=scratch)
        matrix[row] = scratch


def item(x) -> float:
    return float(x)


def copy(x):
    return np.array(x, copy=True)


def reorder_symmetric(matrix: np.ndarray, order: np.ndarray, *, overwrite: bool = False) -> np.ndarray:
    """``matrix[order][:, order]``: in ``matrix``'s own memory with ``overwrite`` (a C-ordered float64 matrix;
    :func:`permute_symmetric_in_place`), else as one copy."""
    if overwrite and matrix.flags.c_contiguous and matrix.dtype == np.float64:
        permute_symmetric_in_place(matrix, order)
        return matrix
    return matrix[np.ix_(order, order)]
