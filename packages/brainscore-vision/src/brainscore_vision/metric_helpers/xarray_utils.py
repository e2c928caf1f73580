"""Labelled regression and per-neuroid correlation under Brain-Score's names
(``brainscore_vision.metric_helpers.xarray_utils``): wrap any scikit-learn-style regression and any
``correlation(a, b) -> (r, p)`` function so they take and return assemblies.

Adapters (listed in ``tests/test_compat_wing.py``): Brain-Score's labelled call forms over arrays; the regression
metrics of brainscore-metrics unwrap them (``as_array_regression()``, ``correlation_function``) and run their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from brainio.assemblies import NeuroidAssembly, walk_coords
from brainscore_core.metrics import Score
from brainscore_metrics.arrays import pearson_columns
from brainscore_vision.metric_helpers import Defaults

__all__ = ["XarrayCorrelation", "XarrayRegression", "map_target_to_source"]


def _check_dims(assembly, expected_dims) -> None:
    if set(assembly.dims) != set(expected_dims):
        raise ValueError(f"expected dims {sorted(expected_dims)}, got {list(assembly.dims)}")


class XarrayRegression:
    """``fit(source, target)`` / ``predict(source)`` on ``presentation x neuroid`` assemblies, around a regression
    on arrays; predictions carry the source's presentation coordinates and the target's neuroid coordinates."""

    def __init__(self, regression: Any, expected_dims=Defaults.expected_dims, neuroid_dim=Defaults.neuroid_dim,
                 neuroid_coord=Defaults.neuroid_coord, stimulus_coord=Defaults.stimulus_coord):
        self._regression = regression
        self._expected_dims = expected_dims
        self._neuroid_dim = neuroid_dim
        self._neuroid_coord = neuroid_coord
        self._stimulus_coord = stimulus_coord
        self._target_neuroid_values: dict[str, np.ndarray] | None = None

    def as_array_regression(self) -> Any:
        """The wrapped regression on arrays: how brainscore-metrics' regression metrics use this object when it is
        passed as their ``regression`` (they align and unwrap the assemblies themselves)."""
        return self._regression

    def _align(self, assembly):
        _check_dims(assembly, self._expected_dims)
        return assembly.transpose(*self._expected_dims)

    def fit(self, source, target) -> None:
        source, target = self._align(source), self._align(target)
        source, target = source.sortby(self._stimulus_coord), target.sortby(self._stimulus_coord)
        self._regression.fit(np.asarray(source.values), np.asarray(target.values))
        self._target_neuroid_values = {name: values for name, dims, values in walk_coords(target)
                                       if dims == (self._neuroid_dim,)}

    def predict(self, source):
        if self._target_neuroid_values is None:
            raise RuntimeError("call fit(source, target) before predict(source)")
        source = self._align(source)
        predicted = self._regression.predict(np.asarray(source.values))
        coords = {name: (dims, values) for name, dims, values in walk_coords(source)
                  if self._neuroid_dim not in dims}
        coords.update({name: (self._neuroid_dim, values) for name, values in self._target_neuroid_values.items()})
        return NeuroidAssembly(predicted, coords=coords, dims=list(self._expected_dims))


class XarrayCorrelation:
    """Correlation per neuroid between a prediction and a target, aligned on ``stimulus_id`` and ``neuroid_id``.

    Parameters
    ----------
    correlation : callable
        ``correlation(target_values, prediction_values) -> (r, p)`` (e.g. ``scipy.stats.pearsonr``); Pearson's r
        is brainscore-metrics' (:func:`~brainscore_metrics.arrays.pearson_columns`, all neuroids at once), any
        other function is called once per neuroid.
    """

    def __init__(self, correlation: Callable, correlation_coord=Defaults.stimulus_coord,
                 neuroid_coord=Defaults.neuroid_coord):
        self._correlation = correlation
        self._correlation_coord = correlation_coord
        self._neuroid_coord = neuroid_coord

    @property
    def correlation_function(self) -> Callable:
        """The wrapped ``correlation(a, b) -> (r, p)`` (brainscore-metrics' regression metrics accept Pearson's)."""
        return self._correlation

    def __call__(self, prediction, target) -> Score:
        prediction = prediction.sortby([self._correlation_coord, self._neuroid_coord])
        target = target.sortby([self._correlation_coord, self._neuroid_coord])
        for coord in (self._correlation_coord, self._neuroid_coord):
            if not np.array_equal(prediction[coord].values, target[coord].values):
                raise ValueError(f"prediction and target differ in {coord!r}")
        (neuroid_dim,) = target[self._neuroid_coord].dims
        stimulus_dim = next(d for d in target.dims if d != neuroid_dim)
        a = np.asarray(target.transpose(stimulus_dim, neuroid_dim).values, dtype=np.float64)
        b = np.asarray(prediction.transpose(stimulus_dim, neuroid_dim).values, dtype=np.float64)
        if getattr(self._correlation, "__name__", "") == "pearsonr":  # brainscore-metrics' Pearson, all at once
            correlations = pearson_columns(b, a)
        else:
            correlations = np.array([self._result(self._correlation(a[:, i], b[:, i])) for i in range(a.shape[1])])
        return Score(correlations, coords={name: (dims, values) for name, dims, values in walk_coords(target)
                                           if dims == (neuroid_dim,)}, dims=[neuroid_dim])

    @staticmethod
    def _result(value) -> float:
        return float(value[0] if isinstance(value, tuple) else getattr(value, "statistic", value))


def map_target_to_source(source, target, stimulus_coord: str = Defaults.stimulus_coord) -> np.ndarray:
    """Position in ``source`` of each of ``target``'s samples, matched on ``stimulus_coord``.

    Returns
    -------
    ndarray of int, shape (n_target_samples,)
        ``source`` indexed with it along the stimulus dim lines up with ``target`` (repeated target samples map to
        the same source sample).

    Raises
    ------
    ValueError
        When ``source`` holds a stimulus twice, or a target stimulus is missing from ``source`` (names them).
    """
    import pandas as pd

    source_ids = pd.Index(np.asarray(source[stimulus_coord].values))
    if not source_ids.is_unique:
        raise ValueError(f"source has duplicate samples along {stimulus_coord!r}: "
                         f"{source_ids[source_ids.duplicated()].unique().tolist()[:5]}")
    target_ids = np.asarray(target[stimulus_coord].values)
    positions = source_ids.get_indexer(target_ids)
    if (positions < 0).any():
        raise ValueError(f"target samples without a source along {stimulus_coord!r}: "
                         f"{pd.unique(target_ids[positions < 0]).tolist()[:5]}")
    return positions
