"""Coordinate helpers that work the same on plain coordinates and on pandas MultiIndexes.

brainio stores every coordinate as a plain 1-D coordinate on its dimension; files and objects built by
Brain-Score keep them as MultiIndex levels. These helpers read either form.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

__all__ = [
    "array_is_element",
    "coords_for_dim",
    "coords_for_new_dims",
    "flatten_indexes",
    "gather_indexes",
    "get_levels",
    "merge_data_arrays",
    "walk_coords",
]


def _multiindex_dims(assembly: xr.DataArray) -> list[Hashable]:
    return [dim for dim in assembly.dims
            if dim in assembly.xindexes and isinstance(assembly.indexes.get(dim), pd.MultiIndex)]


def walk_coords(assembly: xr.DataArray) -> Iterator[tuple[Hashable, tuple[Hashable, ...], np.ndarray]]:
    """Yield ``(name, dims, values)`` for every coordinate, MultiIndex levels included.

    The tuple-valued dimension coordinate of a MultiIndex is skipped; its levels are yielded instead.
    """
    skip = set(_multiindex_dims(assembly))
    for name, coord in assembly.coords.items():
        if name in skip:
            continue
        yield name, coord.dims, coord.values


def coords_for_dim(assembly: xr.DataArray, dim: Hashable) -> dict[Hashable, np.ndarray]:
    """``{name: values}`` of the coordinates that label exactly ``dim``."""
    return {name: values for name, dims, values in walk_coords(assembly) if dims == (dim,)}


def coords_for_new_dims(coords: Any, dims: Any) -> Any:
    """The coordinates a new assembly of ``dims`` keeps from ``coords``: the rule of brainio's constructors.

    Brain-Score's helpers rebuild assemblies from another assembly's coordinates, e.g. an RSM of
    ``presentation x presentation`` from ``{name: coord for name, coord in assembly.coords.items() if name !=
    'neuroid'}``. Under the xarray Brain-Score pins, the coordinates of a dimension were levels of one MultiIndex and
    left together with it; in brainio (and modern xarray) each is a coordinate of its own, so xarray would refuse
    ``neuroid_id`` (dims ``('neuroid',)``) on an array without ``neuroid``. The rule: a coordinate passed as a
    labelled object (a ``DataArray`` or ``Variable``, i.e. taken from another assembly) whose dimensions are not
    all among ``dims`` is left out, as it was under that xarray. Everything else is passed to xarray unchanged:
    tuple-form coordinates such as ``{'neuroid_id': ('neuroid', ids)}`` on the wrong dimension still raise, and
    nothing changes where ``dims`` is not given.
    """
    if dims is None or coords is None or not hasattr(coords, "items"):
        return coords
    names = {dims} if isinstance(dims, str) else set(dims)
    foreign = [name for name, value in coords.items()
               if isinstance(value, (xr.DataArray, xr.Variable)) and not set(value.dims) <= names]
    if not foreign:
        return coords
    return {name: value for name, value in coords.items() if name not in foreign}


def array_is_element(arr: Sequence, element: Any) -> bool:
    """True when ``arr`` holds exactly one item and that item equals ``element`` (e.g. ``dims == ('presentation',)``)."""
    return len(arr) == 1 and arr[0] == element


def get_levels(assembly: xr.DataArray) -> list[Hashable]:
    """Names of the coordinates that label a dimension without being the dimension's own coordinate.

    In Brain-Score these are the MultiIndex levels; here they are plain coordinates or levels.
    """
    return [name for name, dims, _ in walk_coords(assembly) if len(dims) == 1 and name not in assembly.dims]


def gather_indexes(assembly: xr.DataArray) -> xr.DataArray:
    """Put the coordinates of each dimension into one pandas MultiIndex (Brain-Score's layout).

    Dimensions with a single coordinate get a plain index on that coordinate. Returns a new object of
    the same class.
    """
    assembly = flatten_indexes(assembly)
    result = assembly
    for dim in assembly.dims:
        names = [name for name in coords_for_dim(assembly, dim) if name != dim]
        if dim in assembly.coords or not names:
            continue
        result = result.set_index({dim: names}) if len(names) > 1 else result.set_xindex(names[0])
    return result


def flatten_indexes(assembly: xr.DataArray) -> xr.DataArray:
    """Turn every MultiIndex into plain per-dimension coordinates (brainio's layout)."""
    dims = _multiindex_dims(assembly)
    if not dims:
        return assembly
    result = assembly.reset_index(dims)
    return result.drop_vars([d for d in dims if d in result.coords])


def merge_data_arrays(data_arrays: Sequence[xr.DataArray]) -> xr.DataArray:
    """Merge arrays that each cover part of one labelled space (e.g. batches of presentations, layers).

    Entries are matched on all coordinates of each dimension (outer join); where several arrays give a
    value for the same entry, the values must agree. Returns an object of the class of the first array.

    Parameters
    ----------
    data_arrays : sequence of DataArray
        Arrays with the same dims and the same coordinate names per dim.
    """
    if not data_arrays:
        raise ValueError("merge_data_arrays needs at least one array")
    cls = type(data_arrays[0])
    attrs = dict(data_arrays[0].attrs)
    gathered = [xr.DataArray(gather_indexes(a)).rename("__data__") for a in data_arrays]
    merged = xr.merge(gathered, join="outer", compat="no_conflicts", combine_attrs="drop")["__data__"]
    merged = flatten_indexes(merged.transpose(*data_arrays[0].dims))
    merged.name = data_arrays[0].name
    merged.attrs = attrs
    return cls(merged)
