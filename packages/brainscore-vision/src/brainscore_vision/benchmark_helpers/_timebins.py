"""Time bins and regions read from assemblies; squeezing, flattening and re-binning of time bins."""

from __future__ import annotations

import numpy as np

from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.model_interface import DEFAULT_TIME_BINS  # defined once, in the interface

__all__ = ["BenchmarkDataError", "assembly_time_align", "flatten_timebins_into_neuroids", "region_of",
           "squeeze_time_bin", "time_align", "timebins_of"]



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


def flatten_timebins_into_neuroids(assembly):
    """Each (neuroid, time bin) as its own neuroid: ``presentation x neuroid x time_bin`` ->
    ``presentation x (neuroid * time_bin) x 1`` (Brain-Score's name and layout).

    Neuroid ``i`` at bin ``t`` becomes neuroid ``i * n_time_bins + t``; its coordinates are neuroid ``i``'s,
    plus ``recording_time`` (the bin's ``time_bin_start``). The single remaining bin spans the first bin's start
    to the last bin's end. Presentation coordinates and attrs are kept. Used by benchmarks that predict every
    bin of every channel separately (Gifford2022 EEG).

    Raises
    ------
    BenchmarkDataError
        When the dims are not ``('presentation', 'neuroid', 'time_bin')`` or the time-bin coordinates are missing.
    """
    if tuple(assembly.dims) != ("presentation", "neuroid", "time_bin"):
        raise BenchmarkDataError(f"flattening time bins needs dims ('presentation', 'neuroid', 'time_bin'), got "
                                 f"{tuple(assembly.dims)} (transpose the assembly first)")
    missing = [name for name in ("time_bin_start", "time_bin_end") if name not in assembly.coords]
    if missing:
        raise BenchmarkDataError(f"flattening time bins needs the coordinates {missing} on the time_bin dim")
    n_presentations, n_neuroids, n_bins = assembly.shape
    starts = np.asarray(assembly["time_bin_start"].values).ravel()
    ends = np.asarray(assembly["time_bin_end"].values).ravel()
    coords = {}
    for name, coord in assembly.coords.items():
        if coord.dims == ("presentation",):
            coords[name] = ("presentation", np.asarray(coord.values))
        elif coord.dims == ("neuroid",):
            coords[name] = ("neuroid", np.repeat(np.asarray(coord.values), n_bins))
    coords["recording_time"] = ("neuroid", np.tile(starts, n_neuroids))
    coords["time_bin_start"] = ("time_bin", [starts[0]])
    coords["time_bin_end"] = ("time_bin", [ends[-1]])
    flattened = type(assembly)(np.asarray(assembly.values).reshape(n_presentations, n_neuroids * n_bins, 1),
                               coords=coords, dims=["presentation", "neuroid", "time_bin"])
    flattened.attrs = dict(assembly.attrs)
    return flattened


def time_align(source_time_bins, target_time_bins, mode: str = "portion") -> np.ndarray:
    """How much each source bin contributes to each target bin: an array of shape (n_target, n_source).

    ``mode='portion'``: the fraction of the source bin that the target bin overlaps, and 0 for a whole target
    bin that the source bins do not cover from its start to its end; ``mode='center'``: 1 for the source bin
    holding the target bin's centre. Source bins are taken as contiguous (Brain-Score's rule).
    """
    source = np.asarray([tuple(b) for b in source_time_bins], dtype=float).reshape(-1, 2)
    target = np.asarray([tuple(b) for b in target_time_bins], dtype=float).reshape(-1, 2)
    for name, bins in (("source", source), ("target", target)):
        if not (bins[:, 0] <= bins[:, 1]).all():
            raise BenchmarkDataError(f"{name} time bins must have start <= end, got {bins.tolist()}")
    if mode == "center":
        middle = target.mean(axis=1)[:, None]
        return ((middle >= source[None, :, 0]) & (middle < source[None, :, 1])).astype(int)
    if mode != "portion":
        raise BenchmarkDataError(f"time alignment mode must be 'center' or 'portion', got {mode!r}")
    overlap_start = np.maximum(target[:, :1], source[None, :, 0])
    overlap_end = np.minimum(target[:, 1:], source[None, :, 1])
    overlap = np.maximum(overlap_end - overlap_start, 0)
    portion = overlap / (source[:, 1] - source[:, 0])[None, :]
    uncovered = (overlap_end.max(axis=1) < target[:, 1]) | (overlap_start.min(axis=1) > target[:, 0])
    portion[uncovered] = 0
    return portion


def assembly_time_align(source, target_time_bins, mode: str = "portion"):
    """``source`` re-binned to ``target_time_bins``: each target bin is the average of the source bins it covers,
    weighted by :func:`time_align` (one matrix product over all presentations and neuroids).

    Raises
    ------
    BenchmarkDataError
        When a target bin receives no source bin.
    """
    source_bins = list(zip(np.asarray(source["time_bin_start"].values).ravel(),
                           np.asarray(source["time_bin_end"].values).ravel(), strict=True))
    weights = time_align(source_bins, target_time_bins, mode)
    empty = np.flatnonzero(weights.sum(axis=1) == 0)
    if len(empty):
        raise BenchmarkDataError(f"target time bins {[tuple(target_time_bins[i]) for i in empty]} cover no source "
                                 f"time bin (the source has {source_bins[0]} .. {source_bins[-1]})")
    source = source.transpose(..., "time_bin")
    values = np.asarray(source.values)
    averaged = (values @ (weights / weights.sum(axis=1, keepdims=True)).T).astype(values.dtype)
    coords = {name: (coord.dims, np.asarray(coord.values)) for name, coord in source.coords.items()
              if "time_bin" not in coord.dims}
    target = np.asarray([tuple(b) for b in target_time_bins])
    coords.update(time_bin_start=("time_bin", target[:, 0]), time_bin_end=("time_bin", target[:, 1]))
    aligned = type(source)(averaged, coords=coords, dims=list(source.dims))
    aligned.attrs = dict(source.attrs)
    return aligned
