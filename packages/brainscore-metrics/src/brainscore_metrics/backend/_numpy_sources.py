"""How the numpy backend reads a source: as it is, as several row blocks seen as one, and which columns vary."""

from __future__ import annotations

import numpy as np

__all__ = ["RowStack", "as_source", "column_means", "row_means", "row_stack", "varying_columns"]


class RowStack:
    """Several (n_i, p) numpy arrays seen as one (sum n_i, p) array without copying them.

    Supports what the Gram products read: ``shape``, ``dtype``, ``mean(axis=0, dtype=...)`` and column selections
    ``stack[:, columns]`` (slices or index arrays; they copy only that block).
    """

    def __init__(self, parts):
        self.parts = [np.asarray(part) for part in parts]
        widths = {part.shape[1] for part in self.parts}
        if len(widths) != 1:
            raise ValueError(f"stacked arrays need the same number of columns, got {sorted(widths)}")
        self.shape = (sum(part.shape[0] for part in self.parts), widths.pop())
        self.dtype = np.result_type(*self.parts)

    def mean(self, axis=None, dtype=None, out=None, **kwargs):
        if axis != 0:
            raise ValueError("RowStack only averages over rows (axis=0)")
        total = sum(part.sum(axis=0, dtype=np.float64) for part in self.parts)
        return np.asarray(total / self.shape[0], dtype=dtype or np.float64)

    def __getitem__(self, key):
        rows, columns = key
        if rows != slice(None):
            raise IndexError("RowStack only selects columns")
        return np.concatenate([part[:, columns] for part in self.parts], axis=0)


def row_stack(parts):
    """The row blocks ``parts`` as one source: a :class:`RowStack` (nothing copied)."""
    return RowStack(parts)


def as_source(X):
    """A float32 or float64 array as it is (no copy), anything else as float64."""
    if getattr(X, "dtype", None) in (np.float32, np.float64):
        return X
    return np.asarray(X, dtype=np.float64)


def column_means(X) -> np.ndarray:
    """Means of the columns in float64, shape (1, p)."""
    return np.asarray(X.mean(axis=0, dtype=np.float64))[None, :]


def row_means(X) -> np.ndarray:
    """Means of the rows in float64, shape (n, 1)."""
    return np.mean(X, axis=1, dtype=np.float64)[:, None]


#: rows on which :func:`varying_columns` first looks for a difference in a :class:`RowStack`
_HEAD_ROWS = 9


def varying_columns(X, block: int = 2048, map_blocks=None) -> np.ndarray | None:
    """Positions of the columns of ``X`` that are not constant over its rows, or None when every column varies.

    An ndarray: each block of ``block`` columns varies where its column minimum differs from its maximum (two
    vectorised reductions, no scratch of block size). A :class:`RowStack`: each column is compared with its first row
    (a boolean scratch of n x ``block``). A column holding a NaN counts as varying. ``map_blocks``: how the blocks are
    mapped (a plan's ``map``, on its worker threads; the reductions release the GIL), default one after the other.

    Returns
    -------
    int ndarray of shape (n_varying,), increasing, or None (all columns vary)
    """
    n, p = X.shape
    if n < 2:
        return np.arange(0)

    def varies(start: int) -> np.ndarray:
        chunk = X[:, start:start + block]
        if isinstance(X, np.ndarray):  # a NaN makes both NaN: varying
            return chunk.min(axis=0) != chunk.max(axis=0)
        return np.any(chunk[1:] != chunk[:1], axis=0)

    starts = range(0, p, block)
    varying = np.concatenate(list(map_blocks(varies, starts) if map_blocks is not None else map(varies, starts)))
    return None if varying.all() else np.flatnonzero(varying)
