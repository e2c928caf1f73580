"""Shared input handling for behavioural metrics: flatten trials into plain arrays once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from brainscore_metrics.bootstrap import bootstrap_confidence_interval
from brainscore_metrics.validation import one_trial_dim, require_coord

__all__ = ["add_confidence_interval", "trial_values"]


def trial_values(assembly, coords: tuple[str, ...] = (), *, optional: tuple[str, ...] = (),
                 what: str = "assembly") -> dict[str, np.ndarray]:
    """Values (key ``'values'``) and the named trial coordinates of a 1-d behavioural assembly.

    Parameters
    ----------
    assembly : DataArray of dims (presentation,) (a length-1 ``choice`` dim is squeezed) or array-like
        Array-likes without coordinates give only ``'values'``.
    coords : tuple of str
        Required coordinates; a missing one raises :class:`~brainscore_metrics.errors.MissingCoordinateError` naming it.
    optional : tuple of str
        Coordinates included when present.

    Returns
    -------
    dict of name -> ndarray of shape (n_trials,)
    """
    if not hasattr(assembly, "dims"):
        if coords:
            require_coord(assembly, coords[0], what)  # raises: array-likes have no coordinates
        return {"values": np.asarray(assembly).ravel()}
    assembly = one_trial_dim(assembly, what)
    out = {"values": np.asarray(assembly.values)}
    out.update((name, require_coord(assembly, name, what)) for name in coords)
    out.update((name, np.asarray(assembly[name].values)) for name in optional if name in assembly.coords)
    return out


def add_confidence_interval(score, compute: Callable[[np.ndarray], float], n_units: int,
                            bootstrap: int | None, random_state: int) -> None:
    """Set ``ci_low``/``ci_high`` (95 %) from ``bootstrap`` resamples of ``n_units`` (if not None)."""
    if bootstrap is None:
        return
    low, high, _ = bootstrap_confidence_interval(compute, n_units, n_bootstrap=bootstrap, random_state=random_state)
    score.attrs["ci_low"], score.attrs["ci_high"], score.attrs["ci_confidence"] = low, high, 0.95
