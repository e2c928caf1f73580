"""torch backend (CPU): the same names as :mod:`brainscore_metrics.backend.numpy` over torch tensors."""

from __future__ import annotations

import numpy as np
import torch

from brainscore_metrics._frozen import frozen

name = "torch"
float64 = torch.float64
float32 = torch.float32
_DEVICE = "cpu"

_NUMPY_TO_TORCH = frozen({np.dtype(np.float64): torch.float64, np.dtype(np.float32): torch.float32})


def _dtype(dtype):
    if dtype is None or isinstance(dtype, torch.dtype):
        return dtype
    return _NUMPY_TO_TORCH[np.dtype(dtype)]


def _device(like):
    return like.device if isinstance(like, torch.Tensor) else _DEVICE


def asarray(x, dtype=None):
    dtype = _dtype(dtype)
    if isinstance(x, torch.Tensor):
        return x.to(dtype=dtype) if dtype is not None else x
    x = np.asarray(x)
    if x.dtype.kind in "fc" or dtype is not None:
        return torch.as_tensor(x, dtype=dtype, device=_DEVICE)
    return torch.as_tensor(x, device=_DEVICE)


def to_numpy(x) -> np.ndarray:
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    return np.asarray(x)


def zeros(shape, dtype=torch.float64, like=None):
    return torch.zeros(shape, dtype=_dtype(dtype), device=_device(like))


def ones(shape, dtype=torch.float64, like=None):
    return torch.ones(shape, dtype=_dtype(dtype), device=_device(like))


def eye(n, dtype=torch.float64, like=None):
    return torch.eye(n, dtype=_dtype(dtype), device=_device(like))


def arange(n, like=None):
    return torch.arange(n, device=_device(like))


def index(rows, like):
    """Integer positions ``rows`` as a tensor on ``like``'s device."""
    return torch.as_tensor(np.asarray(rows), device=like.device)


def full(shape, value, dtype=torch.float64, like=None):
    return torch.full(shape, value, dtype=_dtype(dtype), device=_device(like))


def sqrt(x):
    return torch.sqrt(x)


def abs(x):
    return torch.abs(x)


def isnan(x):
    return torch.isnan(x)


def where(condition, a, b):
    return torch.where(condition, a, b)


def clip(x, low, high):
    return torch.clamp(x, low, high)


def mean(x, axis=None):
    return x.mean() if axis is None else x.mean(dim=axis)


def nanmean(x, axis=None):
    return torch.nanmean(x) if axis is None else torch.nanmean(x, dim=axis)


def column_dots(a, b):
    return torch.einsum("ij,ij->j", a, b)


def sum(x, axis=None):
    return x.sum() if axis is None else x.sum(dim=axis)


def all(x, axis=None):
    return torch.all(x) if axis is None else torch.all(x, dim=axis)


def any(x, axis=None):
    return torch.any(x) if axis is None else torch.any(x, dim=axis)


def max(x, axis=None):
    return torch.amax(x) if axis is None else torch.amax(x, dim=axis)


def min(x, axis=None):
    return torch.amin(x) if axis is None else torch.amin(x, dim=axis)


def argmax(x, axis=None):
    return torch.argmax(x) if axis is None else torch.argmax(x, dim=axis)


def take_along_axis(x, indices, axis):
    return torch.take_along_dim(x, indices, dim=axis)


def take(x, indices, axis):
    indices = torch.as_tensor(np.asarray(indices), device=x.device) if not isinstance(indices, torch.Tensor) \
        else indices
    return torch.index_select(x, axis, indices)


def stack(arrays, axis=0):
    return torch.stack(list(arrays), dim=axis)


def concatenate(arrays, axis=0):
    return torch.cat(list(arrays), dim=axis)


def outer(a, b):
    return torch.outer(a, b)


def sign(x):
    return torch.sign(x)


def nanmedian(x, axis=None):
    """Median ignoring NaN, averaging the two middle values for even counts (numpy's definition)."""
    if axis is None:
        x, axis = x.reshape(-1), 0
    x = torch.movedim(x, axis, -1)
    valid = ~torch.isnan(x)
    count = valid.sum(dim=-1)
    ordered = torch.sort(torch.where(valid, x, torch.full_like(x, float("inf"))), dim=-1).values
    low = torch.clamp((count - 1) // 2, min=0).unsqueeze(-1)
    high = torch.clamp(count // 2, min=0).unsqueeze(-1)
    median = (torch.take_along_dim(ordered, low, dim=-1) + torch.take_along_dim(ordered, high, dim=-1)) / 2
    median = median.squeeze(-1)
    return torch.where(count > 0, median, torch.full_like(median, float("nan")))


def pinv(a):
    return torch.linalg.pinv(a)


def eigh(a):
    return torch.linalg.eigh(a)


def svd(a):
    return torch.linalg.svd(a, full_matrices=False)


def cholesky_solve(a, b):
    factor = torch.linalg.cholesky(a)
    return torch.cholesky_solve(b if b.ndim == 2 else b[:, None], factor).reshape(b.shape)


def cholesky_inverse(a, overwrite: bool = False):
    return torch.cholesky_inverse(torch.linalg.cholesky(a))


def cholesky_tail_inverse(plan, a, start: int, *, estimate_condition: bool = True, overwrite: bool = False):
    """Lower Cholesky factor, inverse of its trailing block ``L[start:, start:]`` and a (pessimistic)
    reciprocal 1-norm condition number ``1 / (|a|_1 |W'|_1 |W|_1)`` with ``W = L^-1`` (formed whole only when
    ``estimate_condition``; NaN otherwise); see the numpy backend."""
    factor, info = torch.linalg.cholesky_ex(a)
    if int(info) != 0:
        raise np.linalg.LinAlgError(f"matrix is not positive definite (cholesky info={int(info)})")
    if not estimate_condition:
        tail = factor[start:, start:]
        eye = torch.eye(tail.shape[0], dtype=a.dtype, device=a.device)
        return factor, torch.linalg.solve_triangular(tail, eye, upper=False), float("nan")
    eye = torch.eye(a.shape[0], dtype=a.dtype, device=a.device)
    inverse = torch.linalg.solve_triangular(factor, eye, upper=False)
    norm1 = torch.linalg.matrix_norm(a, ord=1)
    inverse_norm = torch.linalg.matrix_norm(inverse, ord=1) * torch.linalg.matrix_norm(inverse.T, ord=1)
    return factor, inverse[start:, start:].contiguous(), float(1.0 / (norm1 * inverse_norm))


def cholesky(plan, a, *, overwrite: bool = False):
    """Lower Cholesky factor of a symmetric positive definite ``a``; ``numpy.linalg.LinAlgError`` when it is not."""
    factor, info = torch.linalg.cholesky_ex(a)
    if int(info) != 0:
        raise np.linalg.LinAlgError(f"matrix is not positive definite (cholesky info={int(info)})")
    return factor


def factor_solve(plan, factor, b):
    """Solve ``a x = b`` given the lower Cholesky factor of ``a``; ``b`` of shape (n, k)."""
    return torch.cholesky_solve(b, factor, upper=False)


def cholesky_factor_solve(factor, b):
    """Solve ``a x = b`` given the lower Cholesky factor of ``a``; ``b`` of shape (n, k)."""
    return torch.cholesky_solve(b, factor, upper=False)


def solve_triangular(a, b, *, lower: bool = True, transpose: bool = False):
    """Solve ``a x = b`` (``a' x = b`` with ``transpose``) for a triangular ``a``; ``b`` of shape (n,) or (n, k)."""
    matrix, upper = (a.T, lower) if transpose else (a, not lower)
    rhs = b if b.ndim == 2 else b[:, None]
    return torch.linalg.solve_triangular(matrix, rhs, upper=upper).reshape(b.shape)


def pivoted_cholesky(a, tol: float):
    """As the numpy backend's (LAPACK pstrf on the CPU; torch has no pivoted Cholesky): factor on ``a``'s device."""
    from brainscore_metrics.backend import numpy as _numpy

    factor, order, rank = _numpy.pivoted_cholesky(a.detach().to("cpu").numpy(), tol)
    return torch.from_numpy(np.ascontiguousarray(factor)).to(a.device), order, rank


def triangular_rcond(a, lower: bool = True) -> float:
    """As the numpy backend's (LAPACK trcon on the CPU)."""
    from brainscore_metrics.backend import numpy as _numpy

    return _numpy.triangular_rcond(a.detach().to("cpu").numpy(), lower)


def symmetric_product(a, b):
    """``a @ b`` for a symmetric ``a`` (the numpy backend reads one triangle for few columns)."""
    return a @ b


def item(x) -> float:
    return float(x.item()) if isinstance(x, torch.Tensor) else float(x)


def copy(x):
    return x.clone()


# ---------------------------------------------------------------- sources and products (numpy's are in _numpy_*.py)

def single_threaded_blas():
    """numpy's and scipy's BLAS on one thread (this backend calls scipy's LAPACK for ``pivoted_cholesky`` and
    ``triangular_rcond``); torch's own threads are left as set (``torch.set_num_threads``)."""
    from brainscore_metrics.backend import numpy as _numpy

    return _numpy.single_threaded_blas()


def as_source(X):
    """A float32 or float64 tensor as it is, anything else as a float64 tensor."""
    if isinstance(X, torch.Tensor) and X.dtype in (torch.float32, torch.float64):
        return X
    return asarray(X, dtype=torch.float64)


def row_stack(parts):
    """The row blocks ``parts`` as one source (concatenated once)."""
    return torch.cat([asarray(part) for part in parts], dim=0)


def column_means(X):
    """Means of the columns in float64, shape (1, p)."""
    return X.mean(dim=0, dtype=torch.float64)[None, :]


def row_means(X):
    """Means of the rows in float64, shape (n, 1)."""
    return X.mean(dim=1, dtype=torch.float64)[:, None]


#: rows on which :func:`varying_columns` first looks for a difference
_HEAD_ROWS = 9


def varying_columns(X, block: int = 2048, map_blocks=None):
    """As the numpy backend's: every column compared with its first row, first on :data:`_HEAD_ROWS` rows (most
    varying columns differ there), then the undecided columns on all rows (``map_blocks`` unused: one block after the
    other, torch's kernels use its threads). Returns an int ndarray or None."""
    n, p = X.shape
    if n < 2:
        return np.arange(0)
    varying = np.zeros(p, dtype=bool)
    for start in range(0, p, block):
        chunk = X[:, start:start + block]
        decided = to_numpy(torch.any(chunk[1:_HEAD_ROWS] != chunk[:1], dim=0))
        varying[start:start + block] = decided
        undecided = np.flatnonzero(~decided)
        if len(undecided):
            chunk = torch.index_select(chunk, 1, index(undecided, chunk))
            varying[start + undecided] = to_numpy(torch.any(chunk[1:] != chunk[:1], dim=0))
    return None if varying.all() else np.flatnonzero(varying)


def stimulus_gram_blocks(plan, X, blocks: list, center: str, float32: bool):
    """As the numpy backend's: ``Z Z'`` over the column ``blocks`` of the centred ``X``, float64 (``Z Z'`` of each
    block in one product; a float32 block centred as ``x - hi - lo``)."""
    n = X.shape[0]
    means = column_means(X) if center == "columns" else row_means(X) if center == "rows" else None
    gram = torch.zeros((n, n), dtype=torch.float64, device=X.device)
    if float32 and means is not None:
        high = means.to(torch.float32)
        low = (means - high.to(torch.float64)).to(torch.float32)
    for columns in blocks:
        mean_columns = columns if means is not None and means.shape[0] == 1 else slice(None)
        if float32 and means is not None:
            chunk = X[:, columns].to(torch.float32) - high[:, mean_columns]
            chunk -= low[:, mean_columns]
        else:  # float32 without centring, or float64
            chunk = X[:, columns].to(torch.float32 if float32 else torch.float64)
            if means is not None:
                chunk = chunk - means[:, mean_columns]
        gram += (chunk @ chunk.T).to(torch.float64)
    return gram


def matmul(plan, a, b):
    """``a @ b`` (torch's own threads)."""
    return a @ b


def rows_times(plan, X, V):
    """``X @ V`` in float64."""
    return X.to(torch.float64) @ V


def transpose_times(plan, X, U):
    """``X' @ U`` in float64."""
    return X.to(torch.float64).T @ U


def reorder_symmetric(matrix, order, *, overwrite: bool = False):
    """``matrix[order][:, order]`` (a copy)."""
    rows = index(order, matrix)
    return torch.index_select(torch.index_select(matrix, 0, rows), 1, rows)
