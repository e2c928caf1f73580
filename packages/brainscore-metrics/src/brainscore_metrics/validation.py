"""The one validation door of the metrics: the checks every metric and ceiling runs on its inputs.

Regression metrics (:mod:`brainscore_metrics._align`), representational metrics
(:mod:`brainscore_metrics._alignment_representational`), behavioural metrics
(:mod:`brainscore_metrics.behavior._common`), the internal-consistency ceiling and the temporal metrics
all validate through these functions, so one kind of fault raises one kind of error with one message.
Every message names the assembly (``what``) and the dim, coordinate or stimulus identifiers at fault.

Coordinates are read with brainio's helpers (:func:`brainio.coords.coords_for_dim`), so plain
coordinates and pandas MultiIndex levels are treated alike; stimuli are grouped with
:func:`brainio.grouping.group_codes`, the rule of :func:`brainio.grouping.average_repetition`.

Functions that can stand for several of the package's errors take the class to raise as ``error``
(e.g. :class:`~brainscore_metrics.errors.StimulusAlignmentError` for representational metrics,
:class:`~brainscore_metrics.errors.DuplicateStimulusError` for regression metrics).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

import numpy as np

from brainio.coords import coords_for_dim
from brainio.grouping import group_codes
from brainscore_metrics.errors import (
    BehaviorInputError,
    DimensionError,
    DuplicateStimulusError,
    InputTypeError,
    InvalidParameterError,
    MissingCoordinateError,
    NonFiniteValuesError,
    StimulusMismatchError,
    UnknownPropertyError,
)

__all__ = [
    "AVERAGE_REPETITIONS_HINT",
    "check_choice",
    "check_finite_rows",
    "check_input_type",
    "check_numeric",
    "check_same_ids",
    "check_unique",
    "coord_on_dim",
    "coords_on_dim",
    "ids_preview",
    "matrix_dims",
    "one_trial_dim",
    "property_bins",
    "property_column",
    "repetition_index",
    "require_coord",
    "require_dims",
    "require_keys",
    "single_number",
]

#: what to do about duplicated stimulus ids
AVERAGE_REPETITIONS_HINT = "average repetitions first (brainio.assemblies.average_repetition)"


def _plain(value):
    """A numpy scalar as the Python value it holds (so that its repr reads ``'a'``, not ``np.str_('a')``)."""
    return value.item() if isinstance(value, np.generic) else value


def ids_preview(ids: Iterable, limit: int = 5) -> str:
    """``"['a', 'b', ...] (7 in total)"``: the first ``limit`` identifiers (as Python literals) and the count."""
    ids = [_plain(value) for value in ids]
    shown = ", ".join(repr(i) for i in ids[:limit])
    return f"[{shown}{', ...' if len(ids) > limit else ''}] ({len(ids)} in total)"


def _coordinate_error(error: type[Exception], coord: str, message: str) -> Exception:
    """``error`` carrying ``message``; a :class:`MissingCoordinateError` also keeps the coordinate's name."""
    if issubclass(error, MissingCoordinateError):
        return error(coord, message=message)
    return error(message)


# -- dims -------------------------------------------------------------------------------------------------------
def require_dims(assembly, dims: Sequence[str], what: str = "assembly", *,
                 error: type[Exception] = DimensionError) -> None:
    """Raise ``error`` naming the first of ``dims`` that ``assembly`` lacks (and the dims it has)."""
    present = tuple(assembly.dims)
    for dim in dims:
        if dim not in present:
            raise error(f"{what} has no {dim!r} dim (dims: {present})")


def matrix_dims(assembly, what: str = "assembly", *, time: bool = False,
                time_hint: str = "use a temporal metric (spantime_pls, spantime_ridge)") -> tuple[list[str], list[str]]:
    """The dim order of a presentation x neuroid (x time_bin) assembly and the length-1 dims to squeeze.

    Parameters
    ----------
    assembly : DataArray with dims presentation and neuroid (any order), optionally time_bin and
        length-1 dims.
    time : bool, default=False
        Keep a ``time_bin`` dim (if present) instead of requiring it to have one bin.
    time_hint : str
        Advice appended when ``time`` is False and the assembly has several time bins.

    Returns
    -------
    order : list of str
        ``['presentation', 'neuroid']`` plus ``'time_bin'`` if ``time`` and present.
    drop : list of str
        The other dims, all of length 1.

    Raises
    ------
    DimensionError
        A missing presentation/neuroid dim, several time bins without ``time``, or another dim longer than 1.
    """
    dims = tuple(assembly.dims)
    require_dims(assembly, ("presentation", "neuroid"), what)
    order = ["presentation", "neuroid"] + (["time_bin"] if time and "time_bin" in dims else [])
    drop = [dim for dim in dims if dim not in order]
    unexpected = {dim: assembly.sizes[dim] for dim in drop if dim != "time_bin" and assembly.sizes[dim] != 1}
    if unexpected:
        raise DimensionError(f"{what} has unexpected dims {list(unexpected)} of sizes {list(unexpected.values())} "
                             f"(dims: {dims}); select one entry of each or average over them")
    if "time_bin" in drop and assembly.sizes["time_bin"] != 1:
        raise DimensionError(
            f"{what} has {assembly.sizes['time_bin']} time bins (dims: {dims}); select one "
            f"({what}.isel(time_bin=0)), average them ({what}.mean('time_bin')), or {time_hint}")
    return order, drop


def one_trial_dim(assembly, what: str = "assembly", *, error: type[Exception] = BehaviorInputError):
    """``assembly`` with length-1 dims dropped until one (trial) dim remains, e.g. ``choice`` of a label task.

    Raises
    ------
    BehaviorInputError (or ``error``) if more than one dim is longer than 1.
    """
    extra = [dim for dim in assembly.dims if assembly.sizes[dim] == 1]
    if assembly.ndim > 1 and extra:
        assembly = assembly.squeeze(extra[: assembly.ndim - 1], drop=True)
    if assembly.ndim != 1:
        raise error(f"{what}: expected one trial dim (e.g. 'presentation'), got dims {assembly.dims}")
    return assembly


# -- coordinates ------------------------------------------------------------------------------------------------
def coords_on_dim(assembly, dim: str = "neuroid") -> dict[Hashable, tuple[str, np.ndarray]]:
    """``name -> (dim, values)`` of the coordinates that live on ``dim`` alone (not ``dim``'s own index),
    in the assembly's order; the form xarray constructors take."""
    return {name: (dim, np.asarray(values)) for name, values in coords_for_dim(assembly, dim).items()
            if name != dim}


def coord_on_dim(assembly, dim: str, name: str, *, prefix: bool = False) -> np.ndarray | None:
    """Values of coordinate ``name`` if it lives on ``dim`` alone, else None.

    With ``prefix``, a coordinate on ``dim`` whose name starts with ``name`` (first in sorted order, e.g.
    ``stimulus_id_right``) is taken when ``name`` itself is not on ``dim``.
    """
    on_dim = coords_for_dim(assembly, dim)
    candidates = [name] + (sorted(str(c) for c in on_dim if str(c).startswith(name)) if prefix else [])
    for candidate in candidates:
        if candidate in on_dim:
            return np.asarray(on_dim[candidate])
    return None


def require_coord(assembly, name: str, what: str = "assembly", *, dim: str | None = None,
                  error: type[Exception] = MissingCoordinateError) -> np.ndarray:
    """Values of coordinate ``name``, which must exist (and live on ``dim`` alone, if given).

    Raises
    ------
    MissingCoordinateError (or ``error``) naming the coordinate, and the dims it lives on if they are wrong.
    """
    if not hasattr(assembly, "coords") or name not in assembly.coords:
        raise _coordinate_error(error, name, f"{what} has no coordinate {name!r}")
    coord = assembly[name]
    if dim is not None and tuple(coord.dims) != (dim,):
        raise _coordinate_error(error, name, f"{what}: coordinate {name!r} lives on dims {tuple(coord.dims)}, "
                                             f"expected ({dim!r},)")
    return np.asarray(coord.values)


# -- values -----------------------------------------------------------------------------------------------------
def check_numeric(values: np.ndarray, what: str = "assembly", *, error: type[Exception] = DimensionError) -> None:
    """Raise ``error`` unless ``values`` are real numbers (float, int or unsigned int)."""
    if values.dtype.kind not in "fiu":
        raise error(f"{what} values are not numeric (dtype {values.dtype})")


def check_finite_rows(values: np.ndarray, ids: np.ndarray, what: str = "assembly", *,
                      hint: str = "drop or impute them first", block: int = 256) -> None:
    """Raise :class:`NonFiniteValuesError` naming the ids of the rows (first axis) that hold NaN or inf.

    Rows are checked ``block`` at a time, so no boolean copy of all values is made.
    """
    bad = []
    for start in range(0, values.shape[0], block):
        chunk = values[start:start + block]
        finite = np.isfinite(chunk.reshape(chunk.shape[0], -1)).all(axis=1)
        bad.extend(ids[start:start + block][~finite])
    if bad:
        raise NonFiniteValuesError(f"{what} holds NaN or infinite values for {len(bad)} stimuli "
                                   f"{ids_preview(bad)}; {hint}")


# -- stimulus identifiers ---------------------------------------------------------------------------------------
def check_unique(ids: np.ndarray, coord: str = "stimulus_id", what: str = "assembly", *,
                 error: type[Exception] = DuplicateStimulusError, hint: str = AVERAGE_REPETITIONS_HINT) -> None:
    """Raise ``error`` naming the duplicated values of ``coord`` if ``ids`` are not unique."""
    unique, counts = np.unique(ids, return_counts=True)
    if len(unique) != len(ids):
        duplicates = unique[counts > 1]
        raise error(f"{what} has {len(duplicates)} duplicate {coord!r} values {ids_preview(duplicates)}; {hint}")


def check_same_ids(ids1: np.ndarray, ids2: np.ndarray, coord: str = "stimulus_id", *,
                   names: tuple[str, str] = ("source", "target"),
                   error: type[Exception] = StimulusMismatchError) -> None:
    """Raise ``error`` naming the ids found in only one of two sorted id arrays, unless they are identical."""
    if len(ids1) == len(ids2) and np.array_equal(ids1, ids2):
        return
    only1 = np.setdiff1d(ids1, ids2)
    only2 = np.setdiff1d(ids2, ids1)
    raise error(f"{names[0]} and {names[1]} differ in {coord!r} ({len(ids1)} vs {len(ids2)} stimuli): "
                f"only in {names[0]} {ids_preview(only1)}, only in {names[1]} {ids_preview(only2)}")


def repetition_index(assembly, repetition_coord: str = "repetition",
                     what: str = "assembly") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stimulus and repetition of every presentation of a non-averaged assembly.

    Stimuli are the groups of all presentation coordinates except ``repetition_coord`` (NaN labels equal),
    as :func:`brainio.grouping.average_repetition` groups them, numbered in sorted label order.

    Returns
    -------
    stimulus : int ndarray of shape (n_presentations,)
    repetition : int ndarray of shape (n_presentations,), index into ``repetitions``
    repetitions : ndarray of the sorted unique values of ``repetition_coord``

    Raises
    ------
    MissingCoordinateError
        No ``repetition_coord``, or no other presentation coordinate (``stimulus_id``) to group by.
    DuplicateStimulusError
        A stimulus occurs more than once with the same repetition value (names both).
    """
    repetition_values = require_coord(assembly, repetition_coord, f"{what} (needs repetitions for the ceiling)")
    labels = {name: values for name, values in coords_for_dim(assembly, "presentation").items()
              if name not in ("presentation", repetition_coord)}
    if not labels:
        raise MissingCoordinateError("stimulus_id", what)
    stimulus, _ = group_codes(list(labels.values()))
    repetitions, repetition = np.unique(repetition_values, return_inverse=True)
    repetition = repetition.reshape(-1)
    flat = stimulus * len(repetitions) + repetition
    _, first, counts = np.unique(flat, return_index=True, return_counts=True)
    if len(first) != len(flat):
        clash = first[counts > 1][0]
        label = ("stimulus_id", labels["stimulus_id"][clash]) if "stimulus_id" in labels else ("presentation", clash)
        raise DuplicateStimulusError(
            f"{what}: {label[0]} {_plain(label[1])!r} occurs more than once with {repetition_coord}="
            f"{_plain(repetition_values[clash])!r}; each stimulus needs distinct repetition values")
    return stimulus, repetition, repetitions


# -- parameters and input types ---------------------------------------------------------------------------------
def check_choice(value, allowed: Sequence, parameter: str, what: str = "metric", *, hint: str = "") -> None:
    """Raise :class:`InvalidParameterError` naming ``what``, ``parameter``, the ``allowed`` values and ``value``
    unless ``value`` is one of them (compared with ``==``; ``None`` by identity)."""
    if any(value is option if option is None else (value is not None and value == option) for option in allowed):
        return
    raise InvalidParameterError(f"{what}: parameter {parameter} must be one of {list(allowed)}, got {value!r}"
                                + (f"; {hint}" if hint else ""))


def check_input_type(value, types: type | tuple[type, ...], what: str, expected: str) -> None:
    """Raise :class:`InputTypeError` naming the input ``what``, the ``expected`` kinds and the type given, unless
    ``value`` is an instance of ``types``."""
    if not isinstance(value, types):
        raise InputTypeError(f"{what} must be {expected}, got {type(value).__name__}")


def require_keys(mapping, keys: Sequence[str], what: str = "input", *,
                 error: type[Exception] = BehaviorInputError) -> None:
    """Raise ``error`` naming the first of ``keys`` that ``mapping`` lacks, and the keys it has."""
    for key in keys:
        if key not in mapping:
            raise error(f"{what} has no entry {key!r} (it has {sorted(map(str, mapping))})")


def single_number(value, what: str = "value") -> float:
    """``value`` (a number, a 0-d or one-element array or assembly) as a float.

    Raises
    ------
    DimensionError
        ``value`` holds no number or more than one (names ``what`` and the shape), or is not numeric.
    """
    array = np.asarray(getattr(value, "values", value))
    check_numeric(array, what)
    if array.size != 1:
        raise DimensionError(f"{what} must be a single number, got shape {array.shape}")
    return float(array.reshape(-1)[0])


# -- neuronal properties ----------------------------------------------------------------------------------------
def property_column(assembly, property_name: str, what: str = "assembly") -> np.ndarray:
    """Values of one neuronal property per neuroid, as float.

    Parameters
    ----------
    assembly : DataArray
        1-d (the property itself), or ``neuroid x neuronal_property`` (either order) where a coordinate of the
        property dim holds ``property_name``.

    Raises
    ------
    DimensionError
        More than two dims.
    UnknownPropertyError
        No coordinate holds ``property_name`` (names the properties the assembly holds).
    """
    if assembly.ndim == 1:
        return np.asarray(assembly.values, dtype=float)
    if assembly.ndim != 2:
        raise DimensionError(f"{what}: expected neuroid (x neuronal_property) dims, got {assembly.dims}")
    held = []
    for dim in assembly.dims:
        names = [name for name, coord in assembly.coords.items() if tuple(coord.dims) == (dim,)]
        for name in sorted(names, key=lambda name: name != dim):
            labels = np.asarray(assembly[name].values)
            if property_name in labels:
                other = next(d for d in assembly.dims if d != dim)
                column = int(np.flatnonzero(labels == property_name)[0])
                return np.asarray(assembly.transpose(other, dim).values[:, column], dtype=float)
            if name == dim or name == "neuronal_property":
                held.extend(str(_plain(label)) for label in labels)
    raise UnknownPropertyError(f"{what}: no coordinate holds property {property_name!r} (dims {assembly.dims}; "
                               f"properties {sorted(set(held)) or 'none'})")


def property_bins(assembly, property_name: str, what: str = "assembly") -> np.ndarray:
    """Bin edges of ``property_name``: ``attrs['<property_name>_bins']`` as a float array of shape (n_bins + 1,).

    Raises
    ------
    UnknownPropertyError
        The attribute is missing (names it and the bins the assembly has).
    DimensionError
        Fewer than two edges, or edges that do not increase.
    """
    key = f"{property_name}_bins"
    if key not in assembly.attrs:
        present = sorted(str(name) for name in assembly.attrs if str(name).endswith("_bins"))
        raise UnknownPropertyError(f"{what} has no attribute {key!r} (bin edges of the property); it has "
                                   f"{present or 'no bins'}")
    bins = np.asarray(assembly.attrs[key], dtype=float).reshape(-1)
    if len(bins) < 2 or not np.all(np.diff(bins) > 0):
        raise DimensionError(f"{what}: attrs[{key!r}] must hold at least two increasing bin edges, got "
                             f"{bins.tolist()}")
    return bins
