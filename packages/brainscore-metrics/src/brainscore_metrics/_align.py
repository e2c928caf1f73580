"""The one validation door of the regression metrics: unwrap assemblies into aligned matrices."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from brainscore_metrics.errors import (
    DimensionError,
    DuplicateStimulusError,
    NonFiniteValuesError,
    StimulusMismatchError,
)
from brainscore_metrics.splits import MissingCoordinateError

__all__ = ["Matrix", "align_pair", "as_matrix", "neuroid_coords"]


@dataclass
class Matrix:
    """An assembly unwrapped: values of shape (n_presentations, n_neuroids[, n_time_bins]) sorted by
    stimulus id, with the sort order and the ids."""

    values: np.ndarray
    stimulus_ids: np.ndarray
    order: np.ndarray
    neuroid_coords: dict = field(default_factory=dict)
    time_coords: dict = field(default_factory=dict)


def neuroid_coords(assembly, dim: str = "neuroid") -> dict:
    """Coordinates that live only on ``dim``: name -> (dim, values)."""
    coords = {}
    for name, coord in assembly.coords.items():
        if coord.dims == (dim,) and name != dim:
            coords[name] = (dim, np.asarray(coord.values))
    return coords


def _dims(assembly, name: str, time: bool):
    dims = tuple(assembly.dims)
    for required in ("presentation", "neuroid"):
        if required not in dims:
            raise DimensionError(f"{name} has no {required!r} dim (dims: {dims})")
    extra = [d for d in dims if d not in ("presentation", "neuroid", "time_bin")]
    extra = [d for d in extra if assembly.sizes[d] != 1]
    if extra:
        raise DimensionError(f"{name} has unexpected dims {extra} (dims: {dims})")
    order = ["presentation", "neuroid"]
    if "time_bin" in dims:
        if time:
            order.append("time_bin")
        elif assembly.sizes["time_bin"] != 1:
            raise DimensionError(
                f"{name} has {assembly.sizes['time_bin']} time bins; select one ({name}.isel(time_bin=0)), "
                f"average them ({name}.mean('time_bin')), or use a temporal metric (spantime_pls, spantime_ridge)")
    return order


def as_matrix(assembly, name: str = "assembly", *, stimulus_coord: str = "stimulus_id",
              time: bool = False, require_finite: bool = True) -> Matrix:
    """Unwrap ``assembly`` into values sorted by ``stimulus_coord``.

    Raises
    ------
    DimensionError, MissingCoordinateError, DuplicateStimulusError, NonFiniteValuesError
    """
    order_dims = _dims(assembly, name, time)
    try:
        ids = np.asarray(assembly[stimulus_coord].values)
    except KeyError:
        raise MissingCoordinateError(stimulus_coord, name) from None
    unique, counts = np.unique(ids, return_counts=True)
    if len(unique) != len(ids):
        duplicates = unique[counts > 1]
        raise DuplicateStimulusError(
            f"{name} has {len(duplicates)} duplicate {stimulus_coord!r} values, e.g. {duplicates[:5].tolist()}; "
            "average repetitions first (brainio.assemblies.average_repetition)")
    drop = [d for d in assembly.dims if d not in order_dims]
    data = assembly
    if drop:
        data = data.squeeze(drop, drop=True)
    values = np.asarray(data.transpose(*order_dims).values)
    if values.dtype.kind not in "fiu":
        raise DimensionError(f"{name} values are not numeric (dtype {values.dtype})")
    order = np.argsort(ids, kind="stable")
    if np.any(order != np.arange(len(order))):  # already sorted: no copy of the (large) source
        values = values[order]
    if require_finite and not np.all(np.isfinite(values)):
        bad = ~np.all(np.isfinite(values.reshape(len(ids), -1)), axis=1)
        raise NonFiniteValuesError(
            f"{name} holds NaN or infinite values for {int(bad.sum())} stimuli, e.g. "
            f"{ids[order][bad][:5].tolist()}; drop or impute them first")
    time_coords = {}
    if "time_bin" in order_dims:
        time_coords = dict(neuroid_coords(assembly, "time_bin").items())
    return Matrix(values, ids[order], order, neuroid_coords(assembly), time_coords)


def align_pair(source, target, *, stimulus_coord: str = "stimulus_id", time: bool = False):
    """Unwrap source and target, both sorted by ``stimulus_coord``, and check that they hold the same
    stimuli.

    Returns
    -------
    (Matrix, Matrix) of the source and the target.

    Raises
    ------
    StimulusMismatchError naming stimuli found in only one of them.
    """
    source_m = as_matrix(source, "source", stimulus_coord=stimulus_coord, time=time)
    target_m = as_matrix(target, "target", stimulus_coord=stimulus_coord, time=time)
    if not np.array_equal(source_m.stimulus_ids, target_m.stimulus_ids):
        only_source = np.setdiff1d(source_m.stimulus_ids, target_m.stimulus_ids)
        only_target = np.setdiff1d(target_m.stimulus_ids, source_m.stimulus_ids)
        raise StimulusMismatchError(
            f"source and target differ in {stimulus_coord!r}: {len(only_source)} only in source, e.g. "
            f"{only_source[:5].tolist()}; {len(only_target)} only in target, e.g. {only_target[:5].tolist()}")
    return source_m, target_m
