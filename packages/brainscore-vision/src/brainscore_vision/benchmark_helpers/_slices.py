"""One mapping per slice of the neuroids (``TrainTestNeuralBenchmark(alpha_coord='subject')``), Brain-Score's rule.

For every value of ``alpha_coord`` (a neuroid coordinate, e.g. ``subject``) the split metric is fitted on that
value's neuroids only (its own RidgeCV alpha), and ceiled by the ceiling of those neuroids: the mean over the
ceiling's splits of the median over the slice's neuroids of its per-neuroid values. The score is the mean of the
ceiled slice scores; ``attrs['raw']`` is the mean of the raw slice scores (their per-slice Scores concatenated in
its own ``attrs['raw']``), ``attrs['ceiling']`` the whole ceiling, and each slice's Score is kept under
``attrs[str(value)]`` (Brain-Score keys them by the value itself).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from brainscore_core.metrics import Score
from brainscore_vision.errors import BenchmarkDataError

__all__ = ["score_by_slices", "slice_ceiling"]


def _select(assembly, coord: str, value):
    if coord not in assembly.coords:
        raise BenchmarkDataError(f"assembly {assembly.attrs.get('identifier')!r} has no neuroid coordinate {coord!r} "
                                 f"to fit one mapping per {coord}")
    keep = np.flatnonzero(np.asarray(assembly[coord].values) == value)
    selected = assembly.isel(neuroid=keep)
    selected.attrs = dict(assembly.attrs)
    return selected


def slice_ceiling(ceiling: Score, coord: str, value) -> Score:
    """The ceiling of the neuroids whose ``coord`` is ``value``: mean over splits of their median (Brain-Score's
    ``np.mean(np.median(raw, axis=1))``, so a NaN neuroid makes the slice NaN)."""
    raw = ceiling.attrs.get("raw")
    if raw is None or "neuroid" not in getattr(raw, "dims", ()):
        raise BenchmarkDataError(f"one mapping per {coord} needs the ceiling's per-neuroid values in attrs['raw']")
    raw = _select(raw, coord, value)
    values = np.asarray(raw.transpose(..., "neuroid").values, dtype=float)
    center = np.mean(np.median(values, axis=-1)) if values.ndim > 1 else np.median(values)
    subset = Score(float(center))
    subset.attrs["raw"] = raw
    return subset


def score_by_slices(score_slice: Callable, train, test, ceiling: Score, coord: str, ceil: Callable) -> Score:
    """Mean over the values of ``coord`` of ``ceil(score_slice(train_slice, test_slice), slice_ceiling)``.

    Parameters
    ----------
    score_slice : callable
        ``score_slice(train_slice, test_slice) -> raw Score`` (the split metric on the model's recordings).
    train, test : NeuroidAssembly
        The neural train and test recordings, with ``coord`` on the neuroid dim.
    ceiling : Score
        The benchmark's ceiling, per-neuroid values in ``attrs['raw']``.
    coord : str
    ceil : callable
        ``ceil(raw, ceiling) -> Score`` (explained variance, or per neuroid).
    """
    values = list(dict.fromkeys(np.unique(np.asarray(train[coord].values)).tolist()))
    slices, raws = [], []
    for value in values:
        raw = score_slice(_select(train, coord, value), _select(test, coord, value))
        ceiled = ceil(raw, slice_ceiling(ceiling, coord, value))
        slices.append(ceiled)
        raws.append(float(raw))
    score = Score(float(np.mean([float(s) for s in slices])))
    raw_mean = Score(float(np.mean(raws)))
    raw_mean.attrs["raw"] = Score(np.asarray(raws), coords={coord: values}, dims=[coord])
    score.attrs["raw"] = raw_mean
    score.attrs["ceiling"] = ceiling
    score.attrs[f"{coord}_scores"] = Score(np.asarray([float(s) for s in slices]), coords={coord: values},
                                           dims=[coord])
    for value, ceiled in zip(values, slices, strict=True):
        score.attrs[str(value)] = ceiled
    score.attrs["normalization"] = f"per {coord}: " + str(slices[0].attrs.get("normalization", "explained variance"))
    return score
