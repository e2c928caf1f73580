"""Explained variance per neuroid, then aggregated (Brain-Score's ``neuroid_wise_explained_var``).

:func:`brainscore_core.normalization.explained_variance` ceils the aggregate: ``median(r)^2 / ceiling``. Benchmarks
whose neuroids differ strongly in reliability (fMRI voxels) may instead ceil every neuroid by its own ceiling,
``r_i^2 / c_i``, and aggregate those (``TrainTestNeuralBenchmark(per_voxel_ceilings=True)``). Both follow the rule
of Brain-Score #2169 (r squared over the split-half reliability, not the squared ratio).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from brainscore_core.metrics import Score
from brainscore_vision.errors import BenchmarkDataError

__all__ = ["neuroid_wise_explained_var"]


def _neuroid_keys(values) -> np.ndarray | None:
    if "neuroid_id" in values.coords:
        return np.asarray(values["neuroid_id"].values)
    return None


def neuroid_wise_explained_var(score: Score, ceiling: Score, aggregate_func: Callable = np.mean) -> Score:
    """``aggregate_func(r_i^2 / c_i)`` over neuroids i.

    Parameters
    ----------
    score : Score
        A metric's Score whose ``attrs['raw']`` holds the per-neuroid correlations (dim ``neuroid``).
    ceiling : Score
        A ceiling whose ``attrs['raw']`` holds per-neuroid values (dims ``neuroid`` or ``split x neuroid``,
        averaged over splits), or the per-neuroid values themselves.
    aggregate_func : callable, default=numpy.mean
        Reduces the per-neuroid values (a labelled Score, so ``numpy.mean`` skips NaN) to the score.

    Returns
    -------
    Score (0-d) with attrs ``ceiled_scores`` (the per-neuroid values), ``ceiling``, and every attr of ``score``
    and of ``score.attrs['raw']`` not already set (e.g. ``raw``, ``alpha``).

    Raises
    ------
    BenchmarkDataError
        Without per-neuroid raw values, or when the neuroids of the score and of the ceiling differ.
    """
    raw = score.attrs.get("raw")
    if raw is None or not hasattr(raw, "dims") or "neuroid" not in raw.dims:
        raise BenchmarkDataError("neuroid-wise explained variance needs the score's per-neuroid values in "
                                 "attrs['raw'] (dim 'neuroid')")
    raw_ceiling = ceiling.attrs.get("raw", ceiling) if hasattr(ceiling, "attrs") else ceiling
    if not hasattr(raw_ceiling, "dims") or "neuroid" not in raw_ceiling.dims:
        raise BenchmarkDataError("neuroid-wise explained variance needs per-neuroid ceilings (dim 'neuroid')")
    if "split" in raw_ceiling.dims:
        raw_ceiling = raw_ceiling.mean("split")
    if tuple(raw.dims) != tuple(raw_ceiling.dims):
        raise BenchmarkDataError(f"score dims {tuple(raw.dims)} and ceiling dims {tuple(raw_ceiling.dims)} differ")
    score_keys, ceiling_keys = _neuroid_keys(raw), _neuroid_keys(raw_ceiling)
    if raw.sizes["neuroid"] != raw_ceiling.sizes["neuroid"] or (
            score_keys is not None and ceiling_keys is not None and not np.array_equal(score_keys, ceiling_keys)):
        raise BenchmarkDataError(f"the score's {raw.sizes['neuroid']} neuroids and the ceiling's "
                                 f"{raw_ceiling.sizes['neuroid']} neuroids are not the same, in the same order")
    per_neuroid = Score(np.asarray(raw.values, dtype=float) ** 2 / np.asarray(raw_ceiling.values, dtype=float),
                        coords={name: (coord.dims, np.asarray(coord.values)) for name, coord in raw.coords.items()
                                if coord.dims == ("neuroid",)}, dims=list(raw.dims))
    # handed the labelled values, as Brain-Score does: numpy.mean then skips NaN neuroids (xarray's mean)
    aggregated = aggregate_func(per_neuroid)
    ceiled = Score(np.asarray(getattr(aggregated, "values", aggregated), dtype=float))
    ceiled.attrs["ceiled_scores"] = per_neuroid
    ceiled.attrs["ceiling"] = ceiling
    ceiled.attrs["normalization"] = "per neuroid: raw² / ceiling, aggregated"
    for source in (score.attrs, getattr(raw, "attrs", {})):
        for key, value in source.items():
            ceiled.attrs.setdefault(key, value)
    return ceiled
