"""Validation and unwrapping for representational metrics (RDM, RSA ceiling, CKA).

This is the one door through which assemblies enter :mod:`brainscore_metrics.rdm`,
:mod:`brainscore_metrics.rsa_ceiling` and :mod:`brainscore_metrics.cka`: labels are read once here, and
the kernels only see plain numpy arrays.

Two kinds of input are recognised:

* **activations**: a 2-d assembly with a ``neuroid`` dim (any order); the other dim is the stimulus
  dim (normally ``presentation``) and carries the comparison coordinate (``stimulus_id``).
* **RDM stacks**: an assembly *without* a ``neuroid`` dim whose **last two dims** are the stimulus
  dims of square dissimilarity matrices (e.g. ``presentation x presentation_right``). Any leading dims
  (e.g. ``subject x session``) index separate RDMs. The stimulus ids are read from the comparison
  coordinate on one of the two stimulus dims, or from any coordinate whose name starts with it (e.g.
  ``stimulus_id_right``). If both stimulus dims carry ids they must hold the same ids; the columns are
  then reordered to match the rows. If only one carries them, rows and columns are assumed to share
  that order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import xarray as xr

from brainscore_metrics.errors import RDMFormatError, StimulusAlignmentError
from brainscore_metrics.splits import StimulusSplitter
from brainscore_metrics.validation import (
    check_finite_rows,
    check_numeric,
    check_same_ids,
    check_unique,
    coord_on_dim,
    ids_preview,
    require_coord,
)

__all__ = [
    "ActivationMatrix",
    "RDMFormatError",
    "RDMStack",
    "StimulusAlignmentError",
    "check_same_stimuli",
    "is_activation_assembly",
    "make_test_only_splitter",
    "split_frame",
    "unwrap_activations",
    "unwrap_rdms",
]

#: dims of an RDM built by :class:`brainscore_metrics.rdm.RDM` (rows, columns)
RDM_DIMS = ("presentation", "presentation_right")
#: diagonal entries of a precomputed RDM must lie within this distance of 0 (NaN tolerated)
DIAGONAL_TOLERANCE = 1e-6


def is_activation_assembly(assembly, neuroid_dim: str = "neuroid") -> bool:
    """Whether ``assembly`` holds activations (it has ``neuroid_dim``) rather than RDMs."""
    return neuroid_dim in assembly.dims


@dataclass
class ActivationMatrix:
    """Activations as a plain matrix plus the permutation that sorts its rows by stimulus id.

    Attributes
    ----------
    values : ndarray of shape (n_stimuli, n_neuroids)
        A view of the assembly's values in their stored row order (not copied, not sorted).
    order : ndarray of shape (n_stimuli,)
        ``values[order]`` is sorted by stimulus id.
    stimulus_ids : ndarray of shape (n_stimuli,)
        Sorted stimulus ids.
    stimulus_dim : str
        Name of the stimulus dim of the assembly.
    """

    values: np.ndarray
    order: np.ndarray
    stimulus_ids: np.ndarray
    stimulus_dim: str


def unwrap_activations(assembly, *, neuroid_dim: str = "neuroid", comparison_coord: str = "stimulus_id",
                       what: str = "assembly", check_finite: bool = True) -> ActivationMatrix:
    """Validate a stimulus x neuroid assembly and return its matrix and sort order.

    Raises
    ------
    RDMFormatError
        If the assembly is not 2-d with a ``neuroid_dim``.
    StimulusAlignmentError
        If the comparison coordinate is missing, not on the stimulus dim, or duplicated.
    NonFiniteValuesError
        If ``check_finite`` and some value is NaN or infinite (names the stimulus ids).
    """
    dims = tuple(assembly.dims)
    if len(dims) != 2 or neuroid_dim not in dims:
        raise RDMFormatError(f"{what}: expected 2 dims (stimulus x {neuroid_dim!r}), got dims {dims}; "
                             f"select a single time bin or squeeze extra dims first")
    stimulus_dim = dims[0] if dims[1] == neuroid_dim else dims[1]
    ids = require_coord(assembly, comparison_coord, what, dim=stimulus_dim, error=StimulusAlignmentError)
    check_unique(ids, comparison_coord, what, error=StimulusAlignmentError)
    values = np.asarray(assembly.values)
    if dims[0] == neuroid_dim:
        values = values.T
    check_numeric(values, what, error=RDMFormatError)
    if check_finite:
        check_finite_rows(values, ids, what, hint="drop or impute them before computing RDMs/CKA")
    order = np.argsort(ids, kind="stable")
    return ActivationMatrix(values=values, order=order, stimulus_ids=ids[order], stimulus_dim=stimulus_dim)


@dataclass
class RDMStack:
    """One or more RDMs over a common, sorted stimulus order.

    Attributes
    ----------
    values : ndarray of shape (n_rdms, n_stimuli, n_stimuli)
        Rows and columns sorted by stimulus id.
    stimulus_ids : ndarray of shape (n_stimuli,)
    leading_dims : tuple of str
        Dims that index the RDMs (e.g. ``('subject', 'session')``); empty for a single RDM.
    leading_shape : tuple of int
    leading_coords : dict
        ``name -> (dims, values)`` for every coordinate on the leading dims only.
    row_coords : dict
        ``name -> values`` (sorted like the rows) for every coordinate on the row dim only.
    """

    values: np.ndarray
    stimulus_ids: np.ndarray
    leading_dims: tuple = ()
    leading_shape: tuple = ()
    leading_coords: dict = field(default_factory=dict)
    row_coords: dict = field(default_factory=dict)


def unwrap_rdms(assembly, *, comparison_coord: str = "stimulus_id", what: str = "assembly") -> RDMStack:
    """Validate an assembly of RDMs (last two dims = stimulus dims) and sort it by stimulus id.

    Raises
    ------
    RDMFormatError
        Fewer than 2 dims, non-square stimulus dims, or a diagonal that is not ~0 (NaN is tolerated).
    StimulusAlignmentError
        No stimulus ids on either stimulus dim, duplicated ids, or row and column ids that differ.
    """
    dims = tuple(assembly.dims)
    if len(dims) < 2:
        raise RDMFormatError(f"{what}: an RDM needs two stimulus dims, got dims {dims}")
    values = np.asarray(assembly.values, dtype=float)
    if values.shape[-1] != values.shape[-2]:
        raise RDMFormatError(f"{what}: stimulus dims {dims[-2:]} must have equal sizes, got {values.shape[-2:]}")
    row_dim, column_dim = dims[-2:]
    if row_dim == column_dim:  # xarray permits a repeated dim name (the reference's RDM layout)
        row_ids = column_ids = coord_on_dim(assembly, row_dim, comparison_coord, prefix=True)
    else:
        row_ids = coord_on_dim(assembly, row_dim, comparison_coord, prefix=True)
        column_ids = coord_on_dim(assembly, column_dim, comparison_coord, prefix=True)
    if row_ids is None and column_ids is None:
        raise StimulusAlignmentError(f"{what}: neither stimulus dim {row_dim!r} nor {column_dim!r} carries a "
                                     f"coordinate {comparison_coord!r} (or one starting with it)")
    row_ids = column_ids if row_ids is None else row_ids
    column_ids = row_ids if column_ids is None else column_ids
    check_unique(row_ids, comparison_coord, f"{what} (rows {row_dim!r})", error=StimulusAlignmentError)
    check_unique(column_ids, comparison_coord, f"{what} (columns {column_dim!r})", error=StimulusAlignmentError)
    if set(row_ids.tolist()) != set(column_ids.tolist()):
        raise StimulusAlignmentError(
            f"{what}: rows ({row_dim!r}) and columns ({column_dim!r}) hold different {comparison_coord!r}: "
            f"only in rows {ids_preview(np.setdiff1d(row_ids, column_ids))}, "
            f"only in columns {ids_preview(np.setdiff1d(column_ids, row_ids))}")
    row_order = np.argsort(row_ids, kind="stable")
    column_order = np.argsort(column_ids, kind="stable")
    leading_shape = values.shape[:-2]
    stack = values.reshape((-1,) + values.shape[-2:])
    stack = stack[:, row_order][:, :, column_order]
    sorted_ids = row_ids[row_order]
    diagonal = np.diagonal(stack, axis1=1, axis2=2)
    off = np.abs(np.nan_to_num(diagonal, nan=0.0)) > DIAGONAL_TOLERANCE
    if off.any():
        raise RDMFormatError(f"{what}: RDM diagonal must be ~0 (NaN tolerated) but is not for "
                             f"{comparison_coord} {ids_preview(np.unique(sorted_ids[off.any(axis=0)]))}; "
                             f"is this a similarity (not dissimilarity) matrix?")
    leading_dims = dims[:-2]
    leading_coords = {name: (tuple(coord.dims), np.asarray(coord.values)) for name, coord in assembly.coords.items()
                      if coord.dims and set(coord.dims) <= set(leading_dims)}
    row_coords = {name: np.asarray(coord.values)[row_order] for name, coord in assembly.coords.items()
                  if tuple(coord.dims) == (row_dim,)}
    return RDMStack(values=stack, stimulus_ids=sorted_ids, leading_dims=leading_dims,
                    leading_shape=leading_shape, leading_coords=leading_coords, row_coords=row_coords)


def check_same_stimuli(ids1: np.ndarray, ids2: np.ndarray, *, coord: str = "stimulus_id",
                       names: tuple[str, str] = ("source", "target")) -> None:
    """Raise :class:`StimulusAlignmentError` unless the two sorted id arrays are identical."""
    check_same_ids(ids1, ids2, coord, names=names, error=StimulusAlignmentError)


def make_test_only_splitter(crossvalidation_kwargs: dict | None, comparison_coord: str) -> StimulusSplitter:
    """The reference's test-only CV: 10 splits, test_size 0.9, stratified on object_name, seed 1."""
    kwargs = {"n_splits": 10, "test_size": 0.9, "split_coord": comparison_coord,
              "stratification_coord": "object_name", "random_state": 1, **(crossvalidation_kwargs or {})}
    return StimulusSplitter(**kwargs)


def split_frame(assembly, comparison_coord: str, neuroid_dim: str, stratification_coord: str | None):
    """A 1-d ``presentation`` DataArray with the stimulus ids (and stratification labels) of ``assembly``
    in its stored stimulus order, for :meth:`StimulusSplitter.split_values`."""
    if is_activation_assembly(assembly, neuroid_dim):
        stimulus_dim = next(dim for dim in assembly.dims if dim != neuroid_dim)
    else:
        stimulus_dim = assembly[comparison_coord].dims[0] if comparison_coord in assembly.coords \
            else assembly.dims[-2]
    coords = {comparison_coord: ("presentation", np.asarray(assembly[comparison_coord].values))}
    if stratification_coord and stratification_coord in assembly.coords \
            and tuple(assembly[stratification_coord].dims) == (stimulus_dim,):
        coords[stratification_coord] = ("presentation", np.asarray(assembly[stratification_coord].values))
    return xr.DataArray(np.zeros(len(coords[comparison_coord][1])), coords=coords, dims=["presentation"])
