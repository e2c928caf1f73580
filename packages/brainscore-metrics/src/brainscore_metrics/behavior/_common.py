"""Shared input handling for behavioural metrics: flatten trials into plain arrays once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from brainscore_metrics.bootstrap import bootstrap_confidence_interval
from brainscore_metrics.errors import (
    BehaviorInputError,
)
from brainscore_metrics.splits import MissingCoordinateError

__all__ = ["BehaviorInputError", "MissingCoordinateError", "add_confidence_interval", "trial_values"]




def _squeezed(assembly, what: str):
    """The assembly with length-1 dims other than its trial dim dropped (e.g. ``choice`` of a label task)."""
    extra = [dim for dim in assembly.dims if assembly.sizes[dim] == 1]
    if assembly.ndim > 1 and extra:
        assembly = assembly.squeeze(extra[: assembly.ndim - 1], drop=True)
    if assembly.ndim != 1:
        raise BehaviorInputError(f"{what}: expected one trial dim (e.g. 'presentation'), got dims {assembly.dims}")
    return assembly


def trial_values(assembly, coords: tuple[str, ...] = (), *, optional: tuple[str, ...] = (),
                 what: str = "assembly") -> dict[str, np.ndarray]:
    """Values (key ``'values'``) and the named trial coordinates of a 1-d behavioural assembly.

    Parameters
    ----------
    assembly : DataArray of dims (presentation,) (a length-1 ``choice`` dim is squeezed) or array-like
        Array-likes without coordinates give only ``'values'``.
    coords : tuple of str
        Required coordinates; a missing one raises :class:`MissingCoordinateError` naming it.
    optional : tuple of str
        Coordinates included when present.

    Returns
    -------
    dict of name -> ndarray of shape (n_trials,)
    """
    if not hasattr(assembly, "dims"):
        if coords:
            raise MissingCoordinateError(coords[0], what)
        return {"values": np.asarray(assembly).ravel()}
    assembly = _squeezed(assembly, what)
    out = {"values": np.asarray(assembly.values)}
    for name in (*coords, *optional):
        if name not in assembly.coords:
            if name in coords:
                raise MissingCoordinateError(name, what)
            continue
        out[name] = np.asarray(assembly[name].values)
    return out


def add_confidence_interval(score, compute: Callable[[np.ndarray], float], n_units: int,
                            bootstrap: int | None, random_state: int) -> None:
    """Set ``ci_low``/``ci_high`` (95 %) from ``bootstrap`` resamples of ``n_units`` (if not None)."""
    if bootstrap is None:
        return
    low, high, _ = bootstrap_confidence_interval(compute, n_units, n_bootstrap=bootstrap, random_state=random_state)
    score.attrs["ci_low"], score.attrs["ci_high"], score.attrs["ci_confidence"] = low, high, 0.95
