"""Select the part of one assembly that another assembly describes (Brain-Score's ``subset``)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import xarray as xr

from .coords import flatten_indexes, walk_coords
from .errors import SubsetError

__all__ = ["SubsetError", "index_efficient", "subset"]


def index_efficient(source_values: np.ndarray, target_values: np.ndarray) -> list[int]:
    """Positions (a list, as the reference returns) of ``source_values`` matching ``target_values``, with repeats,
    in sorted-value order.

    For a value held ``s`` times by the source and ``t`` times by the target, the first source position (stable
    order) comes ``t`` times, then the other ``s - 1`` once each: the merge of Brain-Score's ``index_efficient``,
    vectorised.
    """
    source_values, target_values = np.asarray(source_values), np.asarray(target_values)
    order = np.argsort(source_values, kind="stable")
    sorted_source = source_values[order]
    unique_target, target_counts = np.unique(target_values, return_counts=True)
    keep = np.isin(sorted_source, unique_target)
    order, sorted_source = order[keep], sorted_source[keep]
    if not len(order):
        return []
    first_of_value = np.r_[True, sorted_source[1:] != sorted_source[:-1]]
    repeats = np.ones(len(order), dtype=np.int64)
    repeats[first_of_value] = target_counts[np.searchsorted(unique_target, sorted_source[first_of_value])]
    return np.repeat(order, repeats).tolist()


def _levels(assembly: xr.DataArray, dim: Hashable) -> list[Hashable]:
    """The coordinates that label ``dim``: its own coordinate, or the coordinates along it (MultiIndex levels)."""
    names = [name for name, dims, _ in walk_coords(assembly) if dims == (dim,) and name != dim]
    return names or ([dim] if dim in assembly.coords else [])


def _select(source: xr.DataArray, dim: Hashable, indexer: np.ndarray) -> xr.DataArray:
    """``source`` with ``indexer`` applied along every axis named ``dim`` (a dim may repeat: an RDM)."""
    if len(set(source.dims)) == len(source.dims):
        return source.isel({dim: indexer})

    def take(d: Hashable, size: int) -> np.ndarray:
        return indexer if d == dim else np.arange(size)

    coords = {}
    for name, dims, values in walk_coords(source):
        values = np.asarray(values)
        if len(set(dims)) > 1:
            raise SubsetError(f"coordinate {name!r} spans several different dims {dims}; subset cannot select it")
        coords[name] = (dims, values[np.ix_(*[take(d, n) for d, n in zip(dims, values.shape)])] if dims else values)
    data = np.asarray(source.values)[np.ix_(*[take(d, n) for d, n in zip(source.dims, source.shape)])]
    return type(source)(data, coords=coords, dims=source.dims, attrs=dict(source.attrs))


def subset(source_assembly: xr.DataArray, target_assembly: xr.DataArray,
           subset_dims: Sequence[Hashable] | None = None, dims_must_match: bool = True,
           repeat: bool = False) -> xr.DataArray:
    """The entries of ``source_assembly`` whose coordinate values appear in ``target_assembly`` (Brain-Score's
    semantics).

    For every dim of ``subset_dims`` (default: all dims of the target; a coordinate name selects along its dim),
    and every coordinate labelling that dim in the target that the source also has, the source is filtered to
    the entries whose value appears among the target's values: in the source's own order, or, with ``repeat``,
    in sorted-value order with repeats (:func:`index_efficient`). Dims that appear twice (an RDM
    ``presentation x presentation``) are selected along both axes.

    Parameters
    ----------
    source_assembly, target_assembly : DataArray
    subset_dims : sequence of str, optional
        Dims (or coordinates) to select along; default None means ``target_assembly.dims``.
    dims_must_match : bool, default=True
        After selecting, the source must have as many entries along each dim as the target.
    repeat : bool, default=False
        Keep repeated matches (e.g. the repetitions of a stimulus the target names once, or a target naming a
        stimulus twice).

    Raises
    ------
    SubsetError (a ``KeyError`` and ``ValueError``)
        A dim missing from either assembly, no shared coordinate along a dim, or, with ``dims_must_match``, a
        size mismatch after selection (names the dim and both sizes).
    """
    source, target = flatten_indexes(source_assembly), flatten_indexes(target_assembly)
    # the positions chosen along each dim, applied at the end to the source as given: its indexes (a stacked,
    # one-level MultiIndex too) survive the selection, as in Brain-Score; a repeated dim (an RDM) is selected on the
    # flattened copy
    positions = {dim: np.arange(size) for dim, size in source.sizes.items()}
    for requested in (subset_dims if subset_dims is not None else target.dims):
        if requested not in target.dims and requested not in target.coords:
            raise SubsetError(f"subset dim {requested!r} is not in the target (dims {target.dims})")
        if requested in target.dims:
            dim, levels = requested, _levels(target, requested)
        else:
            dims = target[requested].dims
            if len(dims) != 1:
                raise SubsetError(f"subset coordinate {requested!r} lies on dims {dims}; one dim expected")
            dim, levels = dims[0], [requested]
        if dim not in source.dims:
            raise SubsetError(f"subset dim {dim!r} is not in the source (dims {source.dims})")
        shared = [level for level in levels if level in source.coords]
        if not shared:
            raise SubsetError(f"source and target share no coordinate along {dim!r} (target has {levels})")
        for level in shared:
            source_values = np.asarray(source[level].values)
            target_values = np.asarray(target[level].values)
            indexer = np.asarray(index_efficient(source_values, target_values), dtype=np.int64) if repeat \
                else np.flatnonzero(np.isin(source_values, target_values))
            source = _select(source, dim, indexer)
            positions[dim] = positions[dim][indexer]
        if dims_must_match and source.sizes[dim] != target.sizes[dim]:
            raise SubsetError(f"after subsetting along {dim!r} the source has {source.sizes[dim]} entries but the "
                              f"target {target.sizes[dim]} (matched on {shared}); pass dims_must_match=False to "
                              "allow it")
    if len(set(source_assembly.dims)) != len(source_assembly.dims):
        return source
    return source_assembly.isel({dim: index for dim, index in positions.items()
                                 if len(index) != source_assembly.sizes[dim] or np.any(index != np.arange(len(index)))})
