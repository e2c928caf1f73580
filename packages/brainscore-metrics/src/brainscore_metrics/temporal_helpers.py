"""Time-resolved helpers over labelled assemblies, under Brain-Score's names (its ``metric_helpers.temporal``, which
re-exports these), for plugin code that builds time-resolved metrics from them. This package's own time-resolved
metric is :mod:`brainscore_metrics.temporal` (one mapping over all time bins, on plain arrays).

``PerTime(f)(a, b)`` applies ``f`` to each time bin and stacks the results along ``time_bin``; ``SpanTime(f)(a, b)``
treats the time bins as further presentations (``presentation x time_bin`` folded into ``presentation``);
``SpanTimeRegression`` fits one regression shared by all time bins, ``PerTimeRegression`` one per time bin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import xarray as xr

from brainio.assemblies import walk_coords
from brainscore_core.metrics import Score

__all__ = ["PerNeuroid", "PerOps", "PerPresentation", "PerTime", "PerTimeRegression", "SpanOps", "SpanTime",
           "SpanTimeRegression", "average_over_presentation"]


def average_over_presentation(score: Score) -> Score:
    """The mean over ``presentation``, with the per-presentation values in ``attrs['raw']``."""
    averaged = score.mean("presentation")
    averaged.attrs["raw"] = score
    return averaged


class PerOps:
    """Apply ``callable`` to every slice along ``dims`` (one dim) of all assemblies; stack the results along it.

    ``check_coords`` must be equal (after sorting by them) in every assembly.
    """

    def __init__(self, callable: Callable, dims: Sequence[str], check_coords: Sequence[str] = ()):
        if len(dims) != 1:
            raise ValueError(f"one dim to apply over, got {list(dims)}")
        self.callable = callable
        self.dims = list(dims)
        self.check_coords = list(check_coords)

    def __call__(self, *assemblies):
        for coord in self.check_coords:
            assemblies = [assembly.sortby(coord) for assembly in assemblies]
            for other in assemblies[1:]:
                if not np.array_equal(other[coord].values, assemblies[0][coord].values):
                    raise ValueError(f"assemblies differ in {coord!r}")
        (dim,) = self.dims
        results = [self.callable(*(assembly.isel({dim: index}) for assembly in assemblies))
                   for index in range(assemblies[0].sizes[dim])]
        coords = {name: (dims, values) for name, dims, values in walk_coords(assemblies[0]) if dims == (dim,)}
        stacked = xr.concat([xr.DataArray(result) if not isinstance(result, xr.DataArray) else result
                             for result in results], dim=dim)
        stacked = stacked.assign_coords({name: (dim, np.asarray(values)) for name, (_, values) in coords.items()})
        return type(results[0])(stacked) if isinstance(results[0], xr.DataArray) else stacked


class SpanOps:
    """Fold ``source_dims`` into ``aggregated_dim`` (all combinations as entries of one dim), then call
    ``callable`` on the folded assemblies. ``resample`` draws as many entries as ``aggregated_dim`` had, with
    replacement (seeded by numpy's global state, as the reference)."""

    def __init__(self, callable: Callable, source_dims: Sequence[str], aggregated_dim: str, resample: bool = False):
        self.callable = callable
        self.source_dims = list(source_dims)
        self.aggregated_dim = aggregated_dim
        self.resample = resample

    def __call__(self, *assemblies):
        return self.callable(*(self._fold(assembly) for assembly in assemblies))

    def _fold(self, assembly):
        size = assembly.sizes[self.aggregated_dim]
        rest = [d for d in assembly.dims if d not in self.source_dims]
        ordered = assembly.transpose(*self.source_dims, *rest)
        shape = [ordered.sizes[d] for d in self.source_dims]
        n = int(np.prod(shape))
        values = np.asarray(ordered.values).reshape(n, *[ordered.sizes[d] for d in rest])
        grid = np.indices(shape).reshape(len(shape), -1)  # position along each source dim of each folded entry
        coords = {}
        for name, dims, coord_values in walk_coords(assembly):
            if len(dims) == 1 and dims[0] in self.source_dims:
                coords[name] = (self.aggregated_dim, np.asarray(coord_values)[grid[self.source_dims.index(dims[0])]])
            elif not set(dims) & set(self.source_dims):
                coords[name] = (dims, coord_values)
        folded = type(assembly)(values, coords=coords, dims=[self.aggregated_dim, *rest])
        if self.resample:
            folded = folded.isel({self.aggregated_dim: np.random.randint(0, n, size)})
        return folded


class PerTime(PerOps):
    """:class:`PerOps` over ``time_bin``, checking ``time_bin_start``."""

    def __init__(self, callable: Callable, time_dim: str = "time_bin", check_coord: str = "time_bin_start",
                 **kwargs: Any):
        self.time_bin = time_dim
        super().__init__(callable, dims=[time_dim], check_coords=[check_coord], **kwargs)


class PerPresentation(PerOps):
    """:class:`PerOps` over ``presentation``, checking ``stimulus_id``."""

    def __init__(self, callable: Callable, presentation_dim: str = "presentation", check_coord: str = "stimulus_id",
                 **kwargs: Any):
        self.presentation_dim = presentation_dim
        super().__init__(callable, dims=[presentation_dim], check_coords=[check_coord], **kwargs)


class PerNeuroid(PerOps):
    """:class:`PerOps` over ``neuroid``, checking ``neuroid_id``."""

    def __init__(self, callable: Callable, neuroid_dim: str = "neuroid", check_coord: str = "neuroid_id",
                 **kwargs: Any):
        self.neuroid_dim = neuroid_dim
        super().__init__(callable, dims=[neuroid_dim], check_coords=[check_coord], **kwargs)


class SpanTime(SpanOps):
    """:class:`SpanOps` folding ``time_bin x presentation`` into ``presentation``."""

    def __init__(self, callable: Callable, time_dim: str = "time_bin", presentation_dim: str = "presentation",
                 resample: bool = False):
        self.time_dim = time_dim
        self.presentation_dim = presentation_dim
        super().__init__(callable, [time_dim, presentation_dim], presentation_dim, resample=resample)


def _check_time_bins(source, target) -> None:
    if not np.array_equal(source["time_bin"].values if "time_bin" in source.coords else np.arange(
            source.sizes["time_bin"]), target["time_bin"].values if "time_bin" in target.coords else np.arange(
            target.sizes["time_bin"])):
        raise ValueError("source and target have different time bins")


class SpanTimeRegression:
    """One regression (labelled, e.g. ``XarrayRegression``) fitted on all time bins folded into presentations;
    predictions per time bin."""

    def __init__(self, regression: Any):
        self._regression = regression

    def fit(self, source, target) -> None:
        _check_time_bins(source, target)
        SpanTime(self._regression.fit)(source, target)

    def predict(self, source):
        return PerTime(self._regression.predict)(source)


class PerTimeRegression:
    """One regression per time bin (fitted lazily, at ``predict``)."""

    def __init__(self, regression: Any):
        self._regression = regression

    def fit(self, source, target) -> None:
        _check_time_bins(source, target)
        self._train_source, self._train_target = source, target

    def predict(self, source):
        def fit_predict(train_source, train_target, test_source):
            self._regression.fit(train_source, train_target)
            return self._regression.predict(test_source)

        return PerTime(fit_predict)(self._train_source, self._train_target, source)
