"""Unwrap assemblies into aligned matrices for the regression metrics (checks in :mod:`.validation`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from brainscore_metrics.validation import (
    check_finite_rows,
    check_numeric,
    check_same_ids,
    check_unique,
    coords_on_dim,
    matrix_dims,
    require_coord,
)

__all__ = ["Matrix", "align_pair", "as_matrix", "sorted_positions"]


@dataclass
class Matrix:
    """An assembly unwrapped: values of shape (n_presentations, n_neuroids[, n_time_bins]) sorted by
    stimulus id, with the sort order and the ids."""

    values: np.ndarray
    stimulus_ids: np.ndarray
    order: np.ndarray
    neuroid_coords: dict = field(default_factory=dict)
    time_coords: dict = field(default_factory=dict)


def as_matrix(assembly, name: str = "assembly", *, stimulus_coord: str = "stimulus_id",
              time: bool = False, require_finite: bool = True, sort: bool = True) -> Matrix:
    """Unwrap ``assembly`` into values sorted by ``stimulus_coord`` (``sort=False``: in the assembly's own order,
    never copied; ``order`` is then the identity).

    Raises
    ------
    DimensionError, MissingCoordinateError, DuplicateStimulusError, NonFiniteValuesError
    """
    order_dims, drop = matrix_dims(assembly, name, time=time)
    ids = require_coord(assembly, stimulus_coord, name, dim="presentation")
    check_unique(ids, stimulus_coord, name)
    data = assembly.squeeze(drop, drop=True) if drop else assembly
    values = np.asarray(data.transpose(*order_dims).values)
    check_numeric(values, name)
    order = np.argsort(ids, kind="stable") if sort else np.arange(len(ids))
    if sort and np.any(order != np.arange(len(order))):  # already sorted: no copy of the (large) source
        values = values[order]
    if require_finite:
        check_finite_rows(values, ids[order], name)
    time_coords = coords_on_dim(assembly, "time_bin") if "time_bin" in order_dims else {}
    return Matrix(values, ids[order], order, coords_on_dim(assembly), time_coords)


def align_pair(source, target, *, stimulus_coord: str = "stimulus_id", time: bool = False,
               keep_source_order: bool = False):
    """Unwrap source and target, both sorted by ``stimulus_coord``, and check that they hold the same
    stimuli.

    ``keep_source_order=True``: both follow the source's own presentation order instead, so the source (a model
    layer: often the one large input, up to gigabytes) is never copied; the target's rows are gathered into
    that order. ``Matrix.order`` then maps each assembly's rows onto that order, and ``sorted_positions`` gives
    each row's place in the sorted order (:func:`sorted_positions`).

    Returns
    -------
    (Matrix, Matrix) of the source and the target.

    Raises
    ------
    StimulusMismatchError naming stimuli found in only one of them.
    """
    source_m = as_matrix(source, "source", stimulus_coord=stimulus_coord, time=time, sort=not keep_source_order)
    target_m = as_matrix(target, "target", stimulus_coord=stimulus_coord, time=time)
    if not keep_source_order:
        check_same_ids(source_m.stimulus_ids, target_m.stimulus_ids, stimulus_coord)
        return source_m, target_m
    check_same_ids(np.sort(source_m.stimulus_ids), target_m.stimulus_ids, stimulus_coord)
    ranks = sorted_positions(source_m.stimulus_ids)
    if np.array_equal(ranks, np.arange(len(ranks))):  # the source is in sorted order already: no copy of the target
        return source_m, target_m
    target_m = Matrix(target_m.values[ranks], target_m.stimulus_ids[ranks], target_m.order[ranks],
                      target_m.neuroid_coords, target_m.time_coords)
    return source_m, target_m


def sorted_positions(ids: np.ndarray) -> np.ndarray:
    """Place of each entry of ``ids`` in the stably sorted order: ``ids[i]`` is ``sorted(ids)[result[i]]``.

    Parameters
    ----------
    ids : ndarray of shape (n,)

    Returns
    -------
    int ndarray of shape (n,), a permutation of 0..n-1
    """
    order = np.argsort(ids, kind="stable")
    positions = np.empty(len(order), dtype=np.intp)
    positions[order] = np.arange(len(order))
    return positions
