"""Pearson correlation of matching columns, all columns in one matrix expression."""

from __future__ import annotations

__all__ = ["pearson_columns"]


def pearson_columns(xp, a, b):
    """Pearson r between matching columns of ``a`` and ``b``.

    Parameters
    ----------
    xp : backend module
    a, b : arrays of shape (n_presentations, n_neuroids)

    Returns
    -------
    array of shape (n_neuroids,), float64, clipped to [-1, 1]. A column that is constant in ``a`` or in
    ``b``, or that holds a NaN, gives NaN (as ``scipy.stats.pearsonr``).
    """
    a = xp.asarray(a, dtype=xp.float64)
    b = xp.asarray(b, dtype=xp.float64)
    constant = xp.all(a == a[:1], axis=0) | xp.all(b == b[:1], axis=0)
    a = a - xp.mean(a, axis=0)
    b = b - xp.mean(b, axis=0)
    norm_a = xp.sqrt(xp.column_dots(a, a))
    norm_b = xp.sqrt(xp.column_dots(b, b))
    safe = xp.where(constant, xp.ones(norm_a.shape, like=norm_a), norm_a * norm_b)
    r = xp.column_dots(a, b) / safe
    r = xp.clip(r, -1.0, 1.0)
    return xp.where(constant, xp.full(r.shape, float("nan"), like=r), r)
