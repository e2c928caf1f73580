"""Stimulus Gram matrices of wide sources, formed once, in float64, at BLAS speed.

The kernel (stimulus-space) paths of the metrics (CKA, RDM, ridge, least squares, PLS) all start from
``G = Z Z'`` where ``Z`` is the source with centred columns (or rows): an n x n matrix whose
product costs n x n x p, the floor of every such metric. It is formed here over blocks of features,
without a centred or float64 copy of the source.

Precision (``precision=``):

* ``'float64'``: each block is centred and converted to float64, then multiplied (float64 products, as
  the reference computes on float64 data).
* ``'mixed'``: a float32 source is centred in float32 block by block (the float64 means split into a
  float32 pair ``hi + lo``, ``x - hi - lo``, so the centred values carry one float32 rounding), each
  block product runs in float32 (BLAS ``ssyrk``, about twice the float64 speed) and the block products
  are summed in float64, so a rounding error stays within one block of ``_MIXED_BLOCK`` features
  instead of growing over all features. A float64 source is always multiplied in float64.

BLAS threads (numpy): float32 products run on one BLAS thread, always. OpenBLAS splits a float32 product's sums over
its threads, so the same block gives another float32 rounding on one thread than on two (1e-7 of the Gram matrix, up
to 1e-6 of a score; a whole score for an RDM whose entries are nearly tied): the number would depend on the machine,
on a Dask worker's thread setting (one) and on which thread count the probe found faster (issue 42: a 2-worker grid
scored 0.0659 where ``score()`` gave 0.0625). On one thread every process forms the same products. Float64 products,
whose thread rounding stays near 1e-16, keep the probe: with two blocks or more, the first block's products probe
whether one BLAS thread or all run faster now, and the rest run on the faster (:mod:`brainscore_metrics._thread_probe`):
on cores that other processes keep busy, threaded OpenBLAS waits.

Constant features: with ``center='columns'`` a feature that is constant over all stimuli centres to zero and adds
exactly nothing to ``G`` (nor to any training block or cross block taken from it), so such columns are found in one
pass (:func:`varying_columns`) and left out of the product. Quantised ReLU activations have many (6,611 of 10,000
features in the issue-31 input): the n x n x p product shrinks by the same factor. Nothing is copied when every
column varies.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._thread_probe import fastest_threads, lapack_single_thread, with_probe_blocks

__all__ = ["PRECISIONS", "check_precision", "lapack_single_thread", "stimulus_gram", "stimulus_gram_as_numpy",
           "varying_columns"]

#: accepted ``precision`` values
PRECISIONS = ("mixed", "float64")
#: features per block in float32 products (bounds the float32 rounding error of one summand)
_MIXED_BLOCK = 2048
#: bytes of scratch per block in float64 products
_FLOAT64_BLOCK_BYTES = 16 * 2 ** 20
#: rows per float32 panel product (:func:`_add_lower_products`)
_PANEL_ROWS = 512
#: largest n x n float32 scratch for one syrk per block (n up to 2,048); larger n: panel products, no scratch
_FLOAT32_SCRATCH_BYTES = 16 * 2 ** 20
#: rows on which :func:`varying_columns` first looks for a difference
_HEAD_ROWS = 9


def check_precision(precision: str) -> str:
    """``precision`` itself, or a ValueError naming the allowed values."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    return precision


def _uses_float32(X, precision: str) -> bool:
    return precision == "mixed" and str(X.dtype).endswith("float32")


def _means(xp, X, center: str):
    if center == "rows" and xp is None:  # numpy
        return np.mean(X, axis=1, dtype=np.float64)[:, None]
    if center == "columns":
        if xp.name == "numpy":
            return np.mean(X, axis=0, dtype=np.float64)[None, :]
        return X.mean(dim=0, dtype=xp.float64)[None, :]
    if center == "rows":
        if xp.name == "numpy":
            return np.mean(X, axis=1, dtype=np.float64)[:, None]
        return X.mean(dim=1, dtype=xp.float64)[:, None]
    if center == "none":
        return None
    raise ValueError(f"center must be 'rows', 'columns' or 'none', got {center!r}")


def varying_columns(xp, X, block: int = 2048) -> np.ndarray | None:
    """Positions of the columns of ``X`` that are not constant over its rows, or None when every column varies.

    A numpy array: each block of ``block`` columns is varying where its column minimum differs from its maximum (two
    vectorised reductions, no scratch of block size). Other arrays: every column is compared with its first row,
    first on the first :data:`_HEAD_ROWS` rows (most varying columns differ there), then the columns still undecided
    on all rows (a boolean scratch of n x ``block``; no copy of ``X`` beyond the undecided columns of one block). A
    column holding a NaN counts as varying.

    Parameters
    ----------
    X : array of shape (n_stimuli, n_features); numpy, torch, or anything whose ``X[:, start:stop]`` is one
    block : int, default=2048

    Returns
    -------
    int ndarray of shape (n_varying,), increasing, or None (all n_features vary)
    """
    n, p = X.shape
    if n < 2:
        return np.arange(0)
    varying = np.zeros(p, dtype=bool)
    if isinstance(X, np.ndarray):  # one vectorised min and max per block (a NaN makes both NaN: varying)
        for start in range(0, p, block):
            chunk = X[:, start:start + block]
            varying[start:start + block] = chunk.min(axis=0) != chunk.max(axis=0)
        return None if varying.all() else np.flatnonzero(varying)
    rows_sliceable = xp.name != "numpy"  # RowStack slices columns only
    for start in range(0, p, block):
        chunk = X[:, start:start + block]
        if rows_sliceable:
            decided = xp.to_numpy(xp.any(chunk[1:_HEAD_ROWS] != chunk[:1], axis=0))
            varying[start:start + block] = decided
            undecided = np.flatnonzero(~decided)
            if len(undecided) == 0:
                continue
            chunk = xp.take(chunk, xp.index(undecided, chunk), 1)
            varying[start + undecided] = xp.to_numpy(xp.any(chunk[1:] != chunk[:1], axis=0))
        else:
            varying[start:start + block] = xp.to_numpy(xp.any(chunk[1:] != chunk[:1], axis=0))
    return None if varying.all() else np.flatnonzero(varying)


def _column_blocks(xp, X, kept, p: int, block: int) -> list:
    """Column selectors of equal blocks of at most ``block`` columns: slices of all p columns, or index arrays of
    the ``kept`` ones."""
    count = p if kept is None else len(kept)
    if count == 0:
        return []
    block = -(-count // -(-count // block))  # equal blocks
    if kept is None:
        return [slice(start, start + block) for start in range(0, count, block)]
    return [xp.index(kept[start:start + block], X) for start in range(0, count, block)]


def stimulus_gram(xp, X, *, center: str = "columns", precision: str = "mixed",
                  mixed_min_features_per_stimulus: float = 0.0):
    """Gram matrix ``Z Z'`` of the centred source, float64, accumulated over feature blocks.

    Parameters
    ----------
    xp : backend module
    X : array of shape (n_stimuli, n_features), float32 or float64
        Not modified and not copied whole (blocks of columns are converted).
    center : {'columns', 'rows', 'none'}, default='columns'
        Subtract each feature's mean over stimuli (CKA, regressions), each stimulus' mean over features
        (pattern correlations), or nothing. With 'columns', constant features are left out of the product
        (they add exactly zero; module docstring).
    precision : {'mixed', 'float64'}, default='mixed'
        See the module docstring; only matters for a float32 source.
    mixed_min_features_per_stimulus : float, default=0.0
        With ``'mixed'``, float64 products instead when fewer than this many features per stimulus vary (with
        column centring: constant features do not count).

    Returns
    -------
    array of shape (n_stimuli, n_stimuli), float64, symmetric.
    """
    check_precision(precision)
    n, p = X.shape
    float32 = _uses_float32(X, precision)
    kept = varying_columns(xp, X, _MIXED_BLOCK) if center in ("columns", "rows") else None
    if float32 and (p if kept is None else len(kept)) < mixed_min_features_per_stimulus * n:
        float32 = False
    block = _MIXED_BLOCK if float32 else max(1, _FLOAT64_BLOCK_BYTES // (8 * max(n, 1)))
    blocks = _column_blocks(xp, X, kept, p, block)
    if xp.name == "numpy":
        gram = _numpy_gram(X, center, blocks, float32)
        if center == "rows" and kept is not None:
            _add_constant_columns(xp, gram, X, kept, _means(None, X, "rows")[:, 0])
        return gram
    means = _means(xp, X, center)
    gram = xp.zeros((n, n), dtype=xp.float64, like=X)
    if float32 and means is not None:  # as in _numpy_gram: centring in float32 with the means as hi + lo
        high = xp.asarray(means, dtype=xp.float32)
        low = xp.asarray(means - xp.asarray(high, dtype=xp.float64), dtype=xp.float32)
    for columns in blocks:
        mean_columns = columns if means is not None and means.shape[0] == 1 else slice(None)
        if float32 and means is not None:
            chunk = xp.asarray(X[:, columns], dtype=xp.float32) - high[:, mean_columns]
            chunk -= low[:, mean_columns]
        else:  # float32 without centring, or float64
            chunk = xp.asarray(X[:, columns], dtype=xp.float32 if float32 else xp.float64)
            if means is not None:
                chunk = chunk - means[:, mean_columns]
        gram += xp.asarray(chunk @ chunk.T, dtype=xp.float64)
    if center == "rows" and kept is not None:
        _add_constant_columns(xp, gram, X, kept, means[:, 0])
    return gram


def _add_constant_columns(xp, gram, X, kept, row_means) -> None:
    """Add the constant columns' share of a row-centred Gram matrix formed over the ``kept`` (varying) columns only.

    A column with the value ``c_k`` on every row adds ``(c_k - m_i)(c_k - m_j)`` to ``G_ij`` (``m``: the row means
    over all columns); over the constant columns that is ``S + n_c (cbar - m_i)(cbar - m_j)`` with ``cbar`` their mean
    value and ``S`` their sum of squared deviations from it (no cancellation when the values are large). Dead units
    of an activation matrix are such columns: the product runs over the others only.
    """
    constant = np.setdiff1d(np.arange(X.shape[1]), kept)
    if len(constant) == 0:
        return
    first_row = X[:1]
    values = np.asarray(xp.to_numpy(xp.take(first_row, xp.index(constant, first_row), 1)), dtype=np.float64)[0]
    mean = values.mean()
    spread = float(np.sum((values - mean) ** 2))
    offsets = mean - np.asarray(xp.to_numpy(row_means), dtype=np.float64)  # (n,)
    correction = spread + len(constant) * (offsets[:, None] * offsets[None, :])
    gram += correction if xp.name == "numpy" else xp.asarray(correction)


def stimulus_gram_as_numpy(X, *, center: str = "columns", precision: str = "mixed", backend=None) -> np.ndarray:
    """:func:`stimulus_gram` formed on ``backend`` and returned as a numpy array.

    The n x n x p product is the whole cost of CKA and of an RDM on wide sources; everything after it
    works on the n x n result. ``backend='torch'`` forms it with torch's CPU kernels, ``'torch_cuda'`` on
    the GPU (the source is moved there once, as float32 when it is float32).

    Parameters
    ----------
    X : array of shape (n_stimuli, n_features), float32 or float64 (numpy array or torch tensor)
    center, precision
        As :func:`stimulus_gram`.
    backend : {'numpy', 'torch', 'torch_cuda'}, backend module or None, default=None
        None: numpy for numpy input, torch for a torch tensor (on its device).

    Returns
    -------
    ndarray of shape (n_stimuli, n_stimuli), float64.
    """
    from brainscore_metrics.backend import resolve_backend

    xp = resolve_backend(backend if backend is not None else "numpy" if isinstance(X, np.ndarray) else None, X)
    if xp.name == "numpy":
        return stimulus_gram(xp, np.asarray(X), center=center, precision=precision)
    return xp.to_numpy(stimulus_gram(xp, xp.asarray(X), center=center, precision=precision))


def _numpy_gram(X, center: str, blocks: list, float32: bool) -> np.ndarray:
    """numpy's :func:`stimulus_gram`. Column means are taken block by block (each block is read while it is in
    cache); a float32 block is centred as ``x - hi - lo`` (the float64 means as a float32 pair). Every block is
    written into one reused buffer (no allocation per block), and the output's pages are written once before the
    first product (so the thread probe does not time their first touch)."""
    from scipy.linalg import blas

    n = X.shape[0]
    blocks = blocks if float32 else with_probe_blocks(blocks)  # float32: the same blocks on every machine
    gram = np.empty((n, n))  # its lower triangle accumulates the products (BLAS syrk, in place)
    gram.fill(0.0)
    # float32 products: one syrk into an n x n float32 scratch when that is small (about 10 % faster), else panels
    # (zeros: syrk writes one triangle, the other stays 0, is added to gram's upper triangle and overwritten at the end)
    small = float32 and blocks and 4 * n * n <= _FLOAT32_SCRATCH_BYTES
    scratch = np.zeros((n, n), dtype=np.float32, order="F") if small else None
    widest = max((_width(columns) for columns in blocks), default=0)
    dtype = np.float32 if float32 else np.float64
    buffer = np.empty(n * widest, dtype=dtype)  # each block's centred values, reused
    gather = isinstance(X, np.ndarray) and bool(blocks) and not isinstance(blocks[0], slice)
    gathered = np.empty(n * widest, dtype=X.dtype) if gather else None  # kept columns of one block, reused
    row_means = _means(None, X, "rows") if center == "rows" else None
    if float32 and row_means is not None:  # the means as a float32 pair hi + lo: centring stays in float32
        high = row_means.astype(np.float32)
        low = (row_means - high).astype(np.float32)

    def block_values(columns):
        if gathered is None:
            return X[:, columns]
        return np.take(X, columns, axis=1, out=gathered[:n * len(columns)].reshape(n, len(columns)))

    def block_product(columns):
        values = block_values(columns)
        chunk = buffer[:n * values.shape[1]].reshape(n, values.shape[1])
        if center == "columns" and float32:  # x - hi is exact for x near the mean (Sterbenz); - lo rounds once
            means = np.mean(values, axis=0, dtype=np.float64)
            column_high = means.astype(np.float32)
            np.subtract(values, column_high, out=chunk, dtype=np.float32)
            chunk -= (means - column_high).astype(np.float32)
        elif center == "columns":
            np.subtract(values, np.mean(values, axis=0, dtype=np.float64), out=chunk, dtype=np.float64)
        elif center == "rows" and float32:  # x - hi is exact for x near the mean (Sterbenz); - lo rounds once
            np.subtract(values, high, out=chunk, dtype=np.float32)
            chunk -= low
        elif center == "rows":
            np.subtract(values, row_means, out=chunk, dtype=np.float64)
        else:
            np.copyto(chunk, values, casting="same_kind")
        if float32 and scratch is None:
            return lambda: _add_lower_products(gram, chunk)
        if float32:  # the float32 product's upper triangle (Fortran order) is the lower one of gram (C order)
            return lambda: np.add(gram, blas.ssyrk(1.0, chunk.T, beta=0.0, c=scratch, trans=1,
                                                   overwrite_c=1).T, out=gram)
        return lambda: blas.dsyrk(1.0, chunk.T, beta=1.0, c=gram.T, trans=1, overwrite_c=1)

    if float32:  # one thread: the same float32 roundings in every process (module docstring)
        from brainscore_metrics.backend import one_blas_thread

        with one_blas_thread():
            for columns in blocks:
                block_product(columns)()
    else:
        with fastest_threads(len(blocks)) as timed:
            for columns in blocks:
                timed(block_product(columns))
    _mirror_lower_triangle(gram)
    return gram


def _width(columns) -> int:
    return columns.stop - columns.start if isinstance(columns, slice) else len(columns)


def _add_lower_products(gram: np.ndarray, chunk: np.ndarray) -> None:
    """``gram += chunk chunk'`` on the lower triangle (and diagonal blocks), the float32 products formed in panels of
    :data:`_PANEL_ROWS` rows (``chunk[rows] chunk[:start]'`` and syrk on the diagonal block): no n x n float32
    temporary, and the multiply-adds of one syrk."""
    n = gram.shape[0]
    for start in range(0, n, _PANEL_ROWS):
        stop = min(start + _PANEL_ROWS, n)
        rows = chunk[start:stop]
        if start:
            lower = gram[start:stop, :start]
            np.add(lower, rows @ chunk[:start].T, out=lower)
        diagonal = gram[start:stop, start:stop]
        np.add(diagonal, rows @ rows.T, out=diagonal)  # numpy hands ``a @ a.T`` to BLAS syrk


def _mirror_lower_triangle(matrix: np.ndarray, block: int = 256) -> None:
    """Copy the lower triangle of a square C-ordered matrix onto its upper one, in place, by blocks of rows."""
    n = matrix.shape[0]
    for start in range(0, n, block):
        stop = min(start + block, n)
        diagonal = matrix[start:stop, start:stop]
        upper = np.triu_indices(stop - start, 1)
        diagonal[upper] = diagonal.T[upper]
        matrix[start:stop, stop:] = matrix[stop:, start:stop].T
