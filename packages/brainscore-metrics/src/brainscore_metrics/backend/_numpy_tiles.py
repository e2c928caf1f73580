"""numpy's tiled products: Gram panels, row-tiled matrix products, row-block conversions and the tiled Cholesky
factorisation and solve (the Gram matrix over feature blocks: :mod:`._numpy_gram`).

Every product here is cut into tiles of a fixed size, each computed by one single-threaded BLAS call, and the tiles
run on the plan's worker threads (:meth:`brainscore_metrics.backend.plan.ComputePlan.map`): the bits of every tile,
and so of the result, are the same for any number of workers (:mod:`brainscore_metrics.backend.plan`).
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["TILE_ROWS", "add_lower_products", "cholesky", "factor_solve", "mirror_lower_triangle", "row_blocks",
           "rows_times", "tiled_matmul", "transpose_times"]

#: rows per tile of a Gram product (a panel ``chunk[rows] chunk[:stop]'``) and of a row-tiled matrix product
TILE_ROWS = 256


def add_lower_products(plan, gram: np.ndarray, chunk: np.ndarray, rows: int | None = None) -> None:
    """``gram += chunk chunk'`` on the lower triangle and the diagonal blocks of ``rows`` (default :data:`TILE_ROWS`;
    C-ordered float64 ``gram``; float32 or float64 ``chunk`` of shape (n, k)): one panel ``chunk[rows] chunk[:start]'``
    plus the diagonal block's ``syrk`` per tile, so the multiply-adds of one ``syrk`` and no n x n temporary."""
    n = gram.shape[0]
    rows = rows or TILE_ROWS

    def panel(start: int) -> None:
        stop = min(start + rows, n)
        part = chunk[start:stop]
        if start:
            lower = gram[start:stop, :start]
            np.add(lower, part @ chunk[:start].T, out=lower)
        diagonal = gram[start:stop, start:stop]
        np.add(diagonal, part @ part.T, out=diagonal)  # numpy hands ``a @ a.T`` to BLAS syrk

    plan.map(panel, reversed(range(0, n, rows)))  # the widest panels first: the workers finish together


def mirror_lower_triangle(matrix: np.ndarray, block: int = 256) -> None:
    """Copy the lower triangle of a square C-ordered matrix onto its upper one, in place, by blocks of rows."""
    n = matrix.shape[0]
    for start in range(0, n, block):
        stop = min(start + block, n)
        diagonal = matrix[start:stop, start:stop]
        upper = np.triu_indices(stop - start, 1)
        diagonal[upper] = diagonal.T[upper]
        matrix[start:stop, stop:] = matrix[stop:, start:stop].T


def tiled_matmul(plan, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` with the rows of ``a`` in tiles of :data:`TILE_ROWS`, on the plan's workers."""
    if a.ndim != 2 or a.shape[0] <= TILE_ROWS or plan.threads <= 1:
        return a @ b
    out = np.empty((a.shape[0],) + b.shape[1:], dtype=np.result_type(a, b))

    def tile(start: int) -> None:
        np.matmul(a[start:start + TILE_ROWS], b, out=out[start:start + TILE_ROWS])

    plan.map(tile, range(0, a.shape[0], TILE_ROWS))
    return out


def row_blocks(plan, X) -> list[slice]:
    """Row slices of ``X`` holding about ``plan.block_bytes`` of float64 each."""
    rows = max(1, plan.block_bytes // (8 * max(X.shape[1], 1)))
    return [slice(start, start + rows) for start in range(0, X.shape[0], rows)]


def rows_times(plan, X, V) -> np.ndarray:
    """``X @ V`` in float64; a float32 ``X`` is converted block by block (never as a whole), the blocks on the plan's
    workers."""
    if X.dtype == np.float64:
        return tiled_matmul(plan, X, V)
    blocks = row_blocks(plan, X)
    return np.concatenate(plan.map(lambda rows: np.asarray(X[rows], dtype=np.float64) @ V, blocks))


def transpose_times(plan, X, U) -> np.ndarray:
    """``X' @ U`` in float64; a float32 ``X`` is converted block by block (never as a whole): blocks of columns of
    about ``plan.block_bytes`` as float64, each block's rows of the result one product of its own on the plan's
    workers (no partial sums to add: 1.55x faster than row blocks summed in order on 576 x 25,088 float32, one
    worker). The same bits for any number of workers."""
    if X.dtype == np.float64:
        return tiled_matmul(plan, X.T, U)
    n, p = X.shape
    out = np.empty((p, U.shape[1]))
    width = max(1, plan.block_bytes // (8 * max(n, 1)))

    def block(start: int) -> None:
        np.matmul(np.asarray(X[:, start:start + width], dtype=np.float64).T, U, out=out[start:start + width])

    plan.map(block, range(0, p, width))
    return out


#: rows and columns of a diagonal block of the tiled Cholesky factorisation (:func:`cholesky`); smaller matrices (at
#: most two blocks) are factorised by one LAPACK call. 512: on one worker at 3,200 rows within 1.3x of LAPACK's own
#: potrf on one thread (256: 1.8x)
CHOLESKY_BLOCK = 512
#: right-hand columns per tile of :func:`factor_solve`
SOLVE_COLUMNS = 32


def _lower_view(a: np.ndarray, overwrite: bool) -> np.ndarray:
    """``a`` (symmetric) as a Fortran-ordered array, in its own memory with ``overwrite``."""
    fortran = a.T if a.flags.c_contiguous and not a.flags.f_contiguous else a
    return fortran if overwrite and fortran.flags.f_contiguous else np.array(fortran, order="F")


def cholesky(plan, a: np.ndarray, *, overwrite: bool = False) -> np.ndarray:
    """Lower Cholesky factor of a symmetric positive definite ``a`` (Fortran order, strict upper triangle 0).

    Right-looking and blocked, as LAPACK's ``potrf``, with every step in tiles: per block of
    :data:`CHOLESKY_BLOCK` columns, the diagonal block by LAPACK ``potrf``, the panel below it by triangular solves
    in tiles of :data:`TILE_ROWS` rows and the trailing lower triangle updated in tiles of :data:`TILE_ROWS` columns,
    on the plan's workers. The tiles are fixed by ``n``, so the bits are the same for any number of workers (threaded
    LAPACK's are not). At most two blocks: one LAPACK call.

    Raises ``numpy.linalg.LinAlgError`` when ``a`` is not positive definite.
    """
    from scipy.linalg import lapack

    factor = _lower_view(a, overwrite)
    n = factor.shape[0]
    if n <= 2 * CHOLESKY_BLOCK:
        factor, info = lapack.dpotrf(factor, lower=1, clean=1, overwrite_a=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"matrix is not positive definite (potrf info={info})")
        return factor
    for start in range(0, n, CHOLESKY_BLOCK):
        stop = min(start + CHOLESKY_BLOCK, n)
        diagonal, info = lapack.dpotrf(np.array(factor[start:stop, start:stop], order="F"), lower=1, clean=1,
                                       overwrite_a=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"matrix is not positive definite (potrf info={start + info})")
        factor[start:stop, start:stop] = diagonal
        if stop == n:
            break
        plan.map(functools.partial(_cholesky_panel, factor, diagonal, slice(start, stop)), range(stop, n, TILE_ROWS))
        plan.map(functools.partial(_cholesky_update, factor, factor[stop:, start:stop], stop),
                 range(stop, n, TILE_ROWS))
    for start in range(0, n, TILE_ROWS):  # clean the strict upper triangle, as potrf(clean=1)
        stop = min(start + TILE_ROWS, n)
        factor[:start, start:stop] = 0.0
        square = factor[start:stop, start:stop]
        square[np.triu_indices(stop - start, 1)] = 0.0
    return factor


def _cholesky_panel(factor: np.ndarray, diagonal: np.ndarray, block: slice, row: int) -> None:
    """``L[rows, block] = A[rows, block] L_bb^-T`` for the rows of one tile (BLAS ``trsm`` from the right, without the
    GIL: the workers' tiles run together)."""
    from brainscore_metrics.backend._nogil_blas import dtrsm_right_lower_transposed

    rows = slice(row, min(row + TILE_ROWS, factor.shape[0]))
    factor[rows, block] = dtrsm_right_lower_transposed(diagonal, np.array(factor[rows, block], order="F"))


def _cholesky_update(factor: np.ndarray, below: np.ndarray, stop: int, column: int) -> None:
    """``A[column:, columns] -= L[column:, block] L[columns, block]'`` for the columns of one tile (``below``:
    ``L[stop:, block]``)."""
    last = min(column + TILE_ROWS, factor.shape[0])
    factor[column:, column:last] -= below[column - stop:] @ below[column - stop:last - stop].T


def factor_solve(plan, factor: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Solve ``a x = b`` given the lower Cholesky factor of ``a`` (LAPACK ``potrs``), the columns of ``b`` in tiles of
    :data:`SOLVE_COLUMNS` on the plan's workers; ``b`` of shape (n, k)."""
    from brainscore_metrics.backend._nogil_blas import dpotrs_lower

    out = np.empty(b.shape, order="F")

    def solve(column: int) -> None:  # LAPACK without the GIL: the workers' tiles run together
        columns = slice(column, column + SOLVE_COLUMNS)
        solution, info = dpotrs_lower(factor, np.array(b[:, columns], order="F", dtype=np.float64))
        if info != 0:
            raise np.linalg.LinAlgError(f"potrs info={info}")
        out[:, columns] = solution

    plan.map(solve, range(0, b.shape[1], SOLVE_COLUMNS))
    return np.ascontiguousarray(out)
