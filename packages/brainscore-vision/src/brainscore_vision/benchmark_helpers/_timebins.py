"""Time bins and regions read from assemblies; squeezing of single time bins."""

from __future__ import annotations

import numpy as np

from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.model_interface import DEFAULT_TIME_BINS  # defined once, in the interface

__all__ = ["BenchmarkDataError", "region_of", "squeeze_time_bin", "timebins_of"]





def timebins_of(assembly, default=None) -> list[tuple[int, int]]:
    """The ``(start_ms, end_ms)`` bins of ``assembly``'s ``time_bin_start``/``time_bin_end`` coordinates.

    Falls back to ``default`` (``[(70, 170)]`` when None) where the assembly has no time-bin coordinates.
    """
    coords = getattr(assembly, "coords", {})
    if "time_bin_start" not in coords or "time_bin_end" not in coords:
        return list(default or DEFAULT_TIME_BINS)
    starts = np.atleast_1d(assembly["time_bin_start"].values)
    ends = np.atleast_1d(assembly["time_bin_end"].values)
    return list(dict.fromkeys((int(s), int(e)) for s, e in zip(starts, ends)))


def region_of(assembly) -> str:
    """The single value of ``assembly``'s ``region`` coordinate."""
    if "region" not in getattr(assembly, "coords", {}):
        raise BenchmarkDataError(
            f"assembly {assembly.attrs.get('identifier')!r} has no 'region' coordinate; pass region= explicitly")
    regions = np.unique(np.atleast_1d(assembly["region"].values))
    if len(regions) != 1:
        raise BenchmarkDataError(
            f"assembly {assembly.attrs.get('identifier')!r} spans regions {[str(r) for r in regions]}; select one "
            f"region first (assembly.sel(region={str(regions[0])!r})), or pass region= to the benchmark")
    return str(regions[0])


def squeeze_time_bin(assembly):
    """``assembly`` without its ``time_bin`` dim when that dim has exactly one entry."""
    if "time_bin" in assembly.dims and assembly.sizes["time_bin"] == 1:
        return assembly.squeeze("time_bin", drop=False)
    return assembly
