"""Labelled data assemblies: thin xarray.DataArray subclasses.

Every per-dimension coordinate is a plain 1-D coordinate (no MultiIndex is built on construction, so
constructing, slicing and arithmetic cost what they cost in xarray). ``sel`` accepts any coordinate: a
coordinate without an index is matched with one vectorised comparison and the dimension is kept
(Brain-Score's MultiIndex-level semantics). Objects that carry MultiIndexes (``.stack(...)``, Brain-Score
files) work too. Behaviour lives in functions (:mod:`brainio.coords`, :mod:`brainio.grouping`); the
classes only add dimension checks, ``sel`` and class-preserving wrappers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .coords import (
    array_is_element,
    coords_for_new_dims,
    gather_indexes,
    get_levels,
    merge_data_arrays,
    walk_coords,
)
from .errors import DimensionError, UnknownAssemblyClassError
from .grouping import MultiGroupBy, average_repetition, mean_over_coordinate, multi_dim_apply

__all__ = [
    "BehavioralAssembly",
    "DataAssembly",
    "MetadataAssembly",
    "NeuroidAssembly",
    "NeuronRecordingAssembly",
    "PropertyAssembly",
    "SpikeTimesAssembly",
    "array_is_element",
    "average_repetition",
    "gather_indexes",
    "get_levels",
    "merge_data_arrays",
    "resolve_assembly_class",
    "walk_coords",
]


def _is_list_like(label: Any) -> bool:
    return isinstance(label, (list, tuple, np.ndarray, pd.Index, pd.Series, xr.DataArray, set))


def _label_positions(name: Hashable, values: np.ndarray, label: Any) -> np.ndarray:
    """Positions along the coordinate's dimension that match ``label`` (scalar, list, slice or mask)."""
    if isinstance(label, slice):
        mask = np.ones(len(values), dtype=bool)
        if label.start is not None:
            mask &= values >= label.start
        if label.stop is not None:
            mask &= values <= label.stop
        return np.flatnonzero(mask)
    if _is_list_like(label):
        labels = np.asarray(label.values if isinstance(label, (xr.DataArray, pd.Series)) else list(label)
                            if isinstance(label, set) else label)
        if labels.dtype == bool and len(labels) == len(values):
            return np.flatnonzero(labels)
        index = pd.Index(values)
        if index.is_unique:  # the order of the labels, like a selection on an index
            positions = index.get_indexer(labels)
            missing = labels[positions < 0]
            if len(missing):
                raise KeyError(f"coordinate {name!r} has no value {missing.tolist()[:10]}")
            return positions
        mask = index.isin(labels)
        missing = set(labels.tolist()) - set(index[mask].tolist())
        if missing:
            raise KeyError(f"coordinate {name!r} has no value {sorted(map(str, missing))[:10]}")
        return np.flatnonzero(mask)
    mask = pd.isna(values) if _is_missing(label) else values == label
    positions = np.flatnonzero(mask)
    if not len(positions):
        raise KeyError(f"coordinate {name!r} has no value {label!r}")
    return positions


def _is_missing(label: Any) -> bool:
    try:
        return bool(pd.isna(label))
    except (TypeError, ValueError):
        return False


class DataAssembly(xr.DataArray):
    """A labelled array of measurements (an ``xarray.DataArray`` with Brain-Score conventions).

    Parameters
    ----------
    data : array-like or DataArray
    coords : mapping, optional
        ``{'name': ('dim', values)}``, e.g. ``{'stimulus_id': ('presentation', ids)}``.
    dims : sequence of str, optional
    name, attrs
        As in ``xarray.DataArray``.

    Examples
    --------
    >>> a = NeuroidAssembly(np.zeros((2, 3)), dims=['presentation', 'neuroid'],
    ...     coords={'stimulus_id': ('presentation', ['a', 'b']), 'region': ('neuroid', ['IT', 'IT', 'V4'])})
    >>> a.sel(region='IT').shape
    (2, 2)
    """

    __slots__ = ()
    #: dims an object of this class must have (as a set, any order); None for free dims
    required_dims: tuple[frozenset[str], ...] | None = None

    def __init__(self, data: Any = xr.core.dtypes.NA, coords: Any = None, dims: Any = None, name: Any = None,
                 attrs: Any = None, indexes: Any = None, fastpath: bool = False):
        # Like Brain-Score's, the constructor accepts any dims (an RDM as presentation x presentation, dims named
        # after coordinates): the class's dims are checked where data is published, at packaging and by
        # ``brainio validate`` (:func:`brainio.validation.check_assembly`), or on demand by ``validate()``.
        if not fastpath:
            coords = coords_for_new_dims(coords, dims)
        super().__init__(data, coords=coords, dims=dims, name=name, attrs=attrs, indexes=indexes, fastpath=fastpath)

    @classmethod
    def dimension_problem(cls, dims: Sequence[Hashable]) -> str | None:
        """Why ``dims`` do not fit this class for packaging (None when they do)."""
        allowed = cls.required_dims
        if allowed is not None and set(dims) not in [set(a) for a in allowed]:
            expected = " or ".join(str(sorted(a)) for a in allowed)
            return f"{cls.__name__} needs dims {expected} (any order), got {list(dims)}"
        return None

    def validate(self) -> None:
        """Raise :class:`~brainio.errors.DimensionError` when the dims do not fit the class (packaging rule)."""
        problem = type(self).dimension_problem(self.dims)
        if problem:
            raise DimensionError(problem)

    # -- selection by any coordinate --------------------------------------------------------------------
    def sel(self, indexers: Mapping[Any, Any] | None = None, method: str | None = None, tolerance: Any = None,
            drop: bool = False, **indexers_kwargs: Any):
        """Like ``xarray.DataArray.sel``, plus selection by coordinates without an index.

        ``a.sel(region='IT')`` keeps the ``neuroid`` dim with the matching entries (also when ``region`` is a
        MultiIndex level, where xarray would drop the level); lists keep their order
        when the coordinate's values are unique; a boolean mask on a dimension (``a.sel(neuroid=a['region']
        == 'IT')``) works on any dimension.
        """
        indexers = dict(indexers or {}, **indexers_kwargs)
        positional: dict[Hashable, np.ndarray] = {}
        remaining = {}
        for key, label in indexers.items():
            if key in self.dims and _is_boolean_mask(label):
                positional[key] = _intersect(positional.get(key), np.flatnonzero(np.asarray(label)))
            elif (key in self.coords and key not in self.dims and self.coords[key].ndim == 1
                  and method is None and tolerance is None):  # plain coordinate or MultiIndex level
                dim = self.coords[key].dims[0]
                positional[dim] = _intersect(positional.get(dim), _label_positions(key, self.coords[key].values,
                                                                                   label))
            else:
                remaining[key] = label
        result = self.isel(positional) if positional else self
        if remaining:
            result = xr.DataArray.sel(result, remaining, method=method, tolerance=tolerance, drop=drop)
        return result

    # -- operations whose xarray implementation returns a plain DataArray --------------------------------
    def _rewrap(self, result: Any) -> Any:
        if isinstance(result, xr.DataArray) and not isinstance(result, type(self)):
            try:  # no copy, no validation: same labels as a result xarray built itself
                return type(self)._construct_direct(result.variable, dict(result._coords), result.name,
                                                    dict(result._indexes))
            except AttributeError:  # xarray without the private shortcut
                return type(self)(result)
        return result

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return self._rewrap(super().__array_ufunc__(ufunc, method, *inputs, **kwargs))

    def astype(self, *args: Any, **kwargs: Any):
        return self._rewrap(super().astype(*args, **kwargs))

    def where(self, *args: Any, **kwargs: Any):
        return self._rewrap(super().where(*args, **kwargs))

    def mean(self, dim: Any = None, *args: Any, **kwargs: Any):
        """Like ``xarray.DataArray.mean``; ``dim`` may also name a coordinate that is not a dimension.

        ``a.mean(dim='repetition')`` (the Brain-Score tutorials' idiom, where ``repetition`` is a
        coordinate on ``presentation``) averages over that coordinate: entries are grouped by every other
        coordinate of its dimension, exactly as :func:`brainio.average_repetition` does.
        """
        if isinstance(dim, str) and dim not in self.dims and dim in self.coords and self.coords[dim].ndim == 1:
            return mean_over_coordinate(self, dim)
        return super().mean(dim, *args, **kwargs)

    # -- Brain-Score helpers -----------------------------------------------------------------------------
    def multi_groupby(self, group_coord_names: Sequence[Hashable]) -> MultiGroupBy:
        """Group along one dimension by several of its coordinates; see :class:`brainio.grouping.MultiGroupBy`."""
        return MultiGroupBy(self, group_coord_names)

    def multi_dim_apply(self, groups: Sequence[Hashable], apply: Callable) -> DataAssembly:
        """Apply ``apply(group, **labels)`` per group of coordinates on one or more dims; see
        :func:`brainio.grouping.multi_dim_apply`."""
        return multi_dim_apply(self, groups, apply)

    @classmethod
    def from_files(cls, file_path: str | os.PathLike, stimulus_set_identifier: str | None = None,
                   stimulus_set: Any = None, merge_stimulus_set_meta: bool = True) -> DataAssembly:
        """Load a netCDF file as this class, optionally with its stimulus set joined onto ``presentation``.

        Extra netCDF groups (arrays in ``attrs``, e.g. the metadata of a spike-times assembly) get the same
        ``stimulus_set`` and ``stimulus_set_identifier`` in their own ``attrs``, as the reference attaches them.
        """
        # netCDF reading sits above this module (it builds these classes): it is reached through the package's lazy
        # namespace, so that this module never imports brainio.netcdf (no two-way tie between the two files)
        import brainio

        from .linking import attach_stimulus_set

        netcdf = brainio.netcdf
        assembly = netcdf.read_netcdf(file_path, cls=cls, timeout=netcdf.UNTRUSTED_TIMEOUT_S)  # a user's file
        extras = [value for value in assembly.attrs.values() if isinstance(value, xr.DataArray)]
        if stimulus_set_identifier is not None:
            assembly.attrs["stimulus_set_identifier"] = stimulus_set_identifier
        if stimulus_set is not None:
            assembly = attach_stimulus_set(assembly, stimulus_set, merge=merge_stimulus_set_meta)
        for extra in extras:
            if stimulus_set_identifier is not None:
                extra.attrs["stimulus_set_identifier"] = stimulus_set_identifier
            if stimulus_set is not None:
                extra.attrs["stimulus_set"] = stimulus_set
        return assembly


def _is_boolean_mask(label: Any) -> bool:
    return _is_list_like(label) and not isinstance(label, (set, tuple)) and np.asarray(
        label.values if isinstance(label, (xr.DataArray, pd.Series)) else label).dtype == bool


def _intersect(existing: np.ndarray | None, positions: np.ndarray) -> np.ndarray:
    if existing is None:
        return positions
    return existing[np.isin(existing, positions)]


_NEUROID_DIMS = (frozenset({"presentation", "neuroid"}), frozenset({"presentation", "neuroid", "time_bin"}))


class NeuroidAssembly(DataAssembly):
    """Neural responses, dims presentation x neuroid [x time_bin] in any order."""

    __slots__ = ()
    required_dims = _NEUROID_DIMS


class NeuronRecordingAssembly(NeuroidAssembly):
    """Recordings from single neurons; same dims as :class:`NeuroidAssembly`."""

    __slots__ = ()


class BehavioralAssembly(DataAssembly):
    """Behavioural measurements; free dims (normally with ``presentation``)."""

    __slots__ = ()


class PropertyAssembly(DataAssembly):
    """Single-neuron properties (e.g. tuning widths); free dims. Loaded without a stimulus-set join."""

    __slots__ = ()


class MetadataAssembly(DataAssembly):
    """Per-event metadata (e.g. trial records); free dims. Loaded without a stimulus-set join."""

    __slots__ = ()


class SpikeTimesAssembly(DataAssembly):
    """Spike times, one entry per spike on dim ``event``."""

    __slots__ = ()
    required_dims = (frozenset({"event"}),)


ASSEMBLY_CLASSES: dict[str, type[DataAssembly]] = {
    cls.__name__: cls for cls in (DataAssembly, NeuroidAssembly, NeuronRecordingAssembly, BehavioralAssembly,
                                  PropertyAssembly, MetadataAssembly, SpikeTimesAssembly)
}


def resolve_assembly_class(class_name: str | type) -> type[DataAssembly]:
    """The assembly class named ``class_name`` (a class is returned unchanged)."""
    if isinstance(class_name, type):
        if not issubclass(class_name, xr.DataArray):
            raise UnknownAssemblyClassError(f"{class_name!r} is not a DataArray class")
        return class_name
    try:
        return ASSEMBLY_CLASSES[class_name]
    except KeyError:
        raise UnknownAssemblyClassError(
            f"unknown assembly class {class_name!r}; known: {sorted(ASSEMBLY_CLASSES)}") from None
