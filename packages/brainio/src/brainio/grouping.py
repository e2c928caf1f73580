"""Grouping by several coordinates at once, vectorised; NaN labels group together.

``MultiGroupBy`` backs ``DataAssembly.multi_groupby`` and ``average_repetition``; ``multi_dim_apply``
backs ``DataAssembly.multi_dim_apply``. Labels are factorised once (pandas); group reductions are
``np.bincount`` calls per column (float64 accumulation), never a Python loop over presentations.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .coords import flatten_indexes, walk_coords

__all__ = ["MultiGroupBy", "average_repetition", "group_codes", "multi_dim_apply"]

_BLOCK = 1 << 22  # values per column block of a grouped reduction (bounds the float64 temporaries)

def _factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes in sorted label order; NaN/None form one group of their own (placed last)."""
    try:
        return pd.factorize(values, sort=True, use_na_sentinel=False)
    except TypeError:  # unorderable mix of types: order by text
        codes, uniques = pd.factorize(values, sort=False, use_na_sentinel=False)
        order = np.argsort(np.array([str(u) for u in uniques]), kind="stable")
        remap = np.empty_like(order)
        remap[order] = np.arange(len(order))
        return remap[codes], np.asarray(uniques, dtype=object)[order]


def group_codes(label_arrays: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Group index of every position and the first position of every group.

    Groups are unique combinations of the labels, numbered in sorted (lexicographic) label order.

    Returns
    -------
    codes : ndarray of int of shape (n_positions,)
    first : ndarray of int of shape (n_groups,)
    """
    factorized = [_factorize(np.asarray(values))[0].astype(np.int64) for values in label_arrays]
    combined = np.zeros(len(factorized[0]) if factorized else 0, dtype=np.int64)
    for codes in factorized:  # mixed radix, re-ranked before it could overflow; keeps lexicographic order
        size = int(codes.max()) + 1 if len(codes) else 1
        if len(combined) and (int(combined.max()) + 1) * size >= 2**62:
            combined = np.unique(combined, return_inverse=True)[1].reshape(-1).astype(np.int64)
        combined = combined * size + codes
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    return inverse.reshape(-1), first


class MultiGroupBy:
    """Group an assembly along one dimension by one or more of that dimension's coordinates.

    Reductions return an object of the assembly's class whose grouped dimension holds one entry per unique
    combination of the group coordinates (sorted), labelled by those coordinates; other coordinates of
    the grouped dimension are dropped. NaN labels count as equal.

    Every reduction takes ``dim``: the grouped dimension is always reduced, and the further dimensions that
    ``dim`` names (``...`` for all) are reduced jointly with it, as xarray's
    ``assembly.groupby(coord).<reduction>([grouped dim, *dims])`` does: a group's variance over ``dim='b'`` is
    the variance of all its values across the grouped dimension and ``b``, not an average of per-column
    variances. Coordinates on a reduced dimension are dropped.

    Parameters
    ----------
    assembly : DataArray
    coord_names : sequence of str
        Coordinates that all lie on the same dimension. With a single coordinate the grouped dimension is named
        after it, as xarray's (and Brain-Score's) ``groupby(coord)`` names it, unless ``keep_dim``.
    keep_dim : bool, default=False
        Keep the grouped dimension's name also for a single coordinate (what ``average_repetition`` needs).
    """

    def __init__(self, assembly: xr.DataArray, coord_names: Sequence[Hashable], *, keep_dim: bool = False):
        self.assembly = assembly
        self.coord_names = [coord_names] if isinstance(coord_names, str) else list(coord_names)
        self.keep_dim = keep_dim

    def _prepare(self, dim: Any):
        """The flattened assembly, the grouped dimension, the further dimensions to reduce, and the data as
        a matrix of shape (grouped x reduced positions, kept positions) with the group code of every row."""
        assembly = flatten_indexes(self.assembly)
        dims = {name: assembly[name].dims for name in self.coord_names}
        group_dims = set(dims.values())
        if len(group_dims) != 1 or len(next(iter(group_dims))) != 1:
            raise ValueError(f"multi_groupby coordinates must all lie on one dimension, got {dims}")
        group_dim = next(iter(group_dims))[0]
        codes, first = group_codes([assembly[name].values for name in self.coord_names])
        reduced = self._other_dims(dim, assembly.dims, group_dim)
        kept = [d for d in assembly.dims if d != group_dim and d not in reduced]
        data = np.asarray(assembly.transpose(group_dim, *reduced, *kept).values)
        n_reduced = int(np.prod([assembly.sizes[d] for d in reduced], dtype=np.int64))
        matrix = data.reshape((data.shape[0] * n_reduced,) + data.shape[1 + len(reduced):])
        return assembly, group_dim, reduced, kept, np.repeat(codes, n_reduced), first, matrix

    def _other_dims(self, dim: Any, dims: Sequence[Hashable], group_dim: Hashable) -> list:
        """Dims besides the grouped one that ``dim`` names (``...``: all of them), in the assembly's order."""
        if dim is Ellipsis:
            named = set(dims)
        else:
            named = {dim} if isinstance(dim, str) else set(dim or [])
        named -= {group_dim, self.coord_names[0]}  # the grouped dim, before or after a single-coordinate rename
        unknown = named - set(dims)
        if unknown:
            raise ValueError(f"multi_groupby({self.coord_names}): dim {sorted(map(str, unknown))} not in the "
                             f"assembly's dims {tuple(dims)}")
        return [d for d in dims if d in named]

    def _wrap(self, assembly, group_dim, reduced, kept, first, values):
        # one coordinate groups as xarray's (and Brain-Score's) ``groupby(coord)`` does: the grouped dimension is
        # named after the coordinate; several coordinates keep the dimension and label it with all of them
        single = not self.keep_dim and len(self.coord_names) == 1 and self.coord_names[0] != group_dim
        new_dim = self.coord_names[0] if single else group_dim
        coords = {}
        for name, dims, coord_values in walk_coords(assembly):
            if any(d in reduced for d in dims):
                continue
            if group_dim not in dims:
                coords[name] = (dims, coord_values)
            elif name in self.coord_names:
                coords[name] = (new_dim, coord_values[first])
        result = type(self.assembly)(values, coords=coords, dims=[new_dim, *kept], name=assembly.name,
                                     attrs=dict(assembly.attrs))
        return result.transpose(*[new_dim if d == group_dim else d for d in assembly.dims if d not in reduced])

    def _grouped(self, kind: str, dim: Any, skipna: bool | None, ddof: int = 0):
        assembly, group_dim, reduced, kept, codes, first, data = self._prepare(dim)
        rest_shape = data.shape[1:]
        flat = data.reshape(data.shape[0], -1)
        n_groups = len(first)
        float_input = np.issubdtype(flat.dtype, np.floating)
        skipna = float_input if skipna is None else (skipna and float_input)
        out_dtype = flat.dtype if float_input else np.float64
        if kind == "count":
            out_dtype = np.int64
        elif kind == "sum" and not float_input:
            out_dtype = flat.dtype
        out = np.empty((n_groups, flat.shape[1]), dtype=out_dtype)
        n = len(codes)
        step = max(1, _BLOCK // max(n, 1))
        for begin in range(0, flat.shape[1], step):  # column blocks: bounded memory, one bincount per block
            block = np.ascontiguousarray(flat[:, begin:begin + step].T, dtype=np.float64)  # (k, presentation)
            k = block.shape[0]
            index = (codes[np.newaxis, :] + n_groups * np.arange(k)[:, np.newaxis]).ravel()

            def per_group(weights, index=index, k=k):
                return np.bincount(index, weights=weights.ravel(), minlength=n_groups * k).reshape(k, n_groups)

            if skipna:
                valid = ~np.isnan(block)
                counts = per_group(valid.astype(np.float64))
                block = np.where(valid, block, 0.0)
            else:
                valid = None
                counts = np.broadcast_to(np.bincount(codes, minlength=n_groups).astype(np.float64), (k, n_groups))
            sums = per_group(block)
            if kind == "count":
                result = counts
            elif kind == "sum":
                result = sums
            else:
                with np.errstate(invalid="ignore", divide="ignore"):
                    means = sums / counts
                    if kind == "mean":
                        result = means
                    else:
                        deviations = block - np.take_along_axis(means, np.broadcast_to(codes, block.shape), axis=1)
                        if valid is not None:
                            deviations = np.where(valid, deviations, 0.0)
                        result = per_group(deviations**2) / (counts - ddof)
                        if kind == "std":
                            result = np.sqrt(result)
            out[:, begin:begin + step] = result.T
        values = out.reshape((n_groups,) + rest_shape)
        return self._wrap(assembly, group_dim, reduced, kept, first, values)

    def mean(self, dim: Any = None, skipna: bool | None = None):
        """Mean within each group (NaN skipped for floats unless ``skipna=False``)."""
        return self._grouped("mean", dim, skipna)

    def sum(self, dim: Any = None, skipna: bool | None = None):
        """Sum within each group."""
        return self._grouped("sum", dim, skipna)

    def count(self, dim: Any = None):
        """Number of non-NaN values within each group."""
        return self._grouped("count", dim, True)

    def var(self, dim: Any = None, skipna: bool | None = None, ddof: int = 0):
        """Variance within each group (``ddof`` as in numpy, default=0)."""
        return self._grouped("var", dim, skipna, ddof)

    def std(self, dim: Any = None, skipna: bool | None = None, ddof: int = 0):
        """Standard deviation within each group (``ddof`` default=0)."""
        return self._grouped("std", dim, skipna, ddof)

    def reduce(self, func: Callable, dim: Any = None, **kwargs: Any):
        """Apply ``func(group_values, axis=0, **kwargs)`` to each group (a loop over groups, not rows);
        ``group_values`` has the group's entries of the grouped and the reduced dims on its first axis."""
        assembly, group_dim, reduced, kept, codes, first, data = self._prepare(dim)
        order = np.argsort(codes, kind="stable")
        pieces = np.split(data[order], np.searchsorted(codes[order], np.arange(1, len(first))))
        values = np.stack([np.asarray(func(piece, axis=0, **kwargs)) for piece in pieces])
        return self._wrap(assembly, group_dim, reduced, kept, first, values)

    def max(self, dim: Any = None, **kwargs: Any):
        """Largest value within each group (NaN skipped)."""
        return self.reduce(np.nanmax, dim, **kwargs)

    def min(self, dim: Any = None, **kwargs: Any):
        """Smallest value within each group (NaN skipped)."""
        return self.reduce(np.nanmin, dim, **kwargs)

    def median(self, dim: Any = None, **kwargs: Any):
        """Median within each group (NaN skipped)."""
        return self.reduce(np.nanmedian, dim, **kwargs)


def average_repetition(assembly: xr.DataArray, repetition_coord: str = "repetition") -> xr.DataArray:
    """Mean over repeated presentations of the same stimulus.

    Presentations are grouped by every presentation coordinate except ``repetition_coord`` (Brain-Score's
    rule), so all of them are kept on the result; NaN labels count as equal (Brain-Score let NaN split the
    groups, quirk 6). NaN values are skipped.

    Parameters
    ----------
    assembly : DataArray with a ``presentation`` dimension, shape (presentation, ...)
    repetition_coord : str, default='repetition'

    Returns
    -------
    Same class, shape (unique presentation, ...).
    """
    coords = [name for name, dims, _ in walk_coords(assembly)
              if dims == ("presentation",) and name not in (repetition_coord, "presentation")]
    if not coords:
        raise ValueError("average_repetition needs presentation coordinates besides "
                         f"{repetition_coord!r}; the assembly has none")
    return MultiGroupBy(assembly, coords, keep_dim=True).mean(dim="presentation", skipna=True)


def mean_over_coordinate(assembly: xr.DataArray, coord: str) -> xr.DataArray:
    """Mean over the entries that differ only in the non-dimension coordinate ``coord``.

    ``coord`` lies on one dimension (e.g. ``repetition`` on ``presentation``); entries are grouped by every
    other coordinate of that dimension (NaN labels equal, NaN values skipped), so they are all kept.

    Parameters
    ----------
    assembly : DataArray of shape (..., dim, ...)
    coord : str
        A 1-D coordinate that is not a dimension.

    Returns
    -------
    Same class, with ``dim`` shortened to the unique combinations of the other coordinates.
    """
    (dim,) = assembly[coord].dims
    coords = [name for name, dims, _ in walk_coords(assembly) if dims == (dim,) and name not in (coord, dim)]
    if not coords:
        raise ValueError(f"cannot average over {coord!r}: dimension {dim!r} has no other coordinate to group by")
    return MultiGroupBy(assembly, coords, keep_dim=True).mean(dim=dim, skipna=True)


def multi_dim_apply(assembly: xr.DataArray, coord_names: Sequence[Hashable], func: Callable) -> xr.DataArray:
    """Call ``func(group, **labels)`` on every group of coordinates that may lie on different dimensions.

    Each grouped dimension is reordered group by group (groups in sorted label order, stable inside a
    group); ``func`` returns values of the group's shape (or broadcastable to it). All dims and
    coordinates are kept. One call per group combination, not per entry.
    """
    assembly = flatten_indexes(assembly)
    by_dim: dict[Hashable, list[Hashable]] = {}
    for name in coord_names:
        if assembly[name].ndim != 1:
            raise ValueError(f"multi_dim_apply coordinate {name!r} must be 1-D, it has dims {assembly[name].dims}")
        by_dim.setdefault(assembly[name].dims[0], []).append(name)
    orders, groups = {}, {}
    for dim, names in by_dim.items():
        codes, first = group_codes([assembly[name].values for name in names])
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(first) + 1))
        orders[dim] = order
        groups[dim] = [(np.arange(bounds[g], bounds[g + 1]), {n: assembly[n].values[first[g]] for n in names})
                       for g in range(len(first))]
    ordered = assembly.isel(orders)
    result = np.array(ordered.values, dtype=np.result_type(ordered.dtype, np.float64)
                      if np.issubdtype(ordered.dtype, np.integer) else ordered.dtype)
    dims = list(ordered.dims)
    for combination in itertools.product(*groups.values()):
        positions = {dim: pos for dim, (pos, _) in zip(groups, combination)}
        labels = {k: v for _, labels in combination for k, v in labels.items()}
        cells = ordered.isel(positions)
        values = func(cells, **labels)
        if isinstance(values, xr.DataArray):
            values = values.transpose(*[d for d in dims if d in values.dims]).values
        index = tuple(positions.get(dim, slice(None)) for dim in dims)
        mesh = np.ix_(*[positions[d] if d in positions else np.arange(ordered.sizes[d]) for d in dims])
        result[mesh if len(positions) > 1 else index] = np.broadcast_to(values, cells.shape)
    out = ordered.copy(data=result)
    return type(assembly)(out)
