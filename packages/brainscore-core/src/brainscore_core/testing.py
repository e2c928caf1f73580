"""Public checks (the battery) for scores, benchmarks, ceilings, brain models and data plugins, run over every
registered plugin by this repository's tests and available to plugin authors for their own tests (like
scikit-learn's ``check_estimator``)."""

from __future__ import annotations

import copy
import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import xarray as xr

from brainscore_core.score import score_center_error

__all__ = ["assert_scores_close", "check_benchmark", "check_brain_model", "check_ceiling", "check_data_plugin"]


def _describe(score: Any) -> str:
    if not isinstance(score, xr.DataArray):
        return repr(score)
    attrs = {key: (f"<{type(value).__name__} {value.dims}: {np.asarray(value.values).round(6).tolist()}>"
                   if isinstance(value, xr.DataArray) else value) for key, value in score.attrs.items()}
    return f"{type(score).__name__} dims={score.dims} values={np.asarray(score.values).tolist()} attrs={attrs}"


def assert_scores_close(actual: Any, expected: Any, rtol: float = 1e-7, atol: float = 0.0, *,
                        check_attrs: tuple[str, ...] = ()) -> None:
    """Assert that two scores hold the same values within tolerance.

    Both the current form and the legacy ``aggregation`` form are accepted (their centers are compared).

    Parameters
    ----------
    actual, expected : Score or float
        Scores to compare; arrays must have the same dims and shape.
    rtol : float, default=1e-7
        Relative tolerance (as in ``numpy.isclose``).
    atol : float, default=0.0
        Absolute tolerance.
    check_attrs : tuple of str, default=()
        Attrs (e.g. ``('error', 'ceiling')``) whose values must also match within tolerance.

    Raises
    ------
    AssertionError
        With both values and both attrs in the message.
    """
    message = f"scores differ (rtol={rtol}, atol={atol}):\n  actual:   {_describe(actual)}\n" \
              f"  expected: {_describe(expected)}"
    a, e = _center_array(actual), _center_array(expected)
    if isinstance(a, xr.DataArray) and isinstance(e, xr.DataArray):
        if set(a.dims) != set(e.dims):
            raise AssertionError(f"dims {a.dims} != {e.dims}; {message}")
        e = e.transpose(*a.dims)
    a, e = np.asarray(a, dtype=float), np.asarray(e, dtype=float)
    if a.shape != e.shape or not np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True):
        raise AssertionError(message)
    for key in check_attrs:
        if key not in getattr(actual, "attrs", {}) or key not in getattr(expected, "attrs", {}):
            raise AssertionError(f"attr {key!r} missing; {message}")
        a_attr, e_attr = (score_center_error(x.attrs[key])[0] if isinstance(x.attrs[key], xr.DataArray)
                          else x.attrs[key] for x in (actual, expected))
        if not np.allclose(np.asarray(a_attr, dtype=float), np.asarray(e_attr, dtype=float), rtol=rtol,
                           atol=atol, equal_nan=True):
            raise AssertionError(f"attr {key!r} differs: {a_attr!r} != {e_attr!r}; {message}")


def _center_array(score: Any) -> Any:
    """Values of a score as a DataArray (``center`` of the legacy form), or the number itself."""
    if isinstance(score, xr.DataArray) and "aggregation" in score.dims:
        return score.sel(aggregation="center", drop=True)
    return score


def _fail(benchmark: Any, problem: str) -> None:
    name = getattr(benchmark, "identifier", None) or type(benchmark).__name__
    raise AssertionError(f"benchmark {name!r}: {problem}")


def check_benchmark(benchmark: Any, candidate: Any = None, *, ceiling_range: tuple[float, float] = (0.0, 1.0),
                    reload: Callable[[], Any] | None = None) -> None:
    """Run the public battery of checks on one benchmark.

    Checks: ``identifier`` is a non-empty str; ``version`` an int (or str); ``parent`` and ``bibtex`` str
    or None; the benchmark and ``preallocate_memory`` are callable; ``ceiling`` is a Score with one
    finite value in ``ceiling_range`` (a non-finite ceiling must be documented in
    ``ceiling.attrs['note']``); a second read gives the same value. The second read is not served from memory: it
    comes from ``reload()`` (a fresh instance, e.g. ``lambda: load_benchmark(identifier)``, whose ceiling is read
    back from the disk cache the first read wrote, or computed again), else from a copy of the benchmark with its
    in-memory ceiling dropped (a :class:`~brainscore_core.benchmarks.BenchmarkBase`), else from reading the property
    again; it must also keep every attr of the first. With a ``candidate``, also scores it and checks the result is a single value with ``attrs['raw']`` and
    ``attrs['ceiling']``.

    Parameters
    ----------
    benchmark : Benchmark
        The benchmark to check (e.g. ``load_benchmark(identifier)``).
    candidate : object or None, default=None
        A model to score; None skips the scoring checks (which may be slow).
    ceiling_range : (float, float), default=(0.0, 1.0)
        Allowed range of the ceiling value.
    reload : callable () -> Benchmark, or None, default=None
        Builds a fresh instance of the same benchmark for the second ceiling read.

    Raises
    ------
    AssertionError
        Naming the benchmark and the failed check.
    """
    from brainscore_core.benchmarks import score_benchmark

    identifier = getattr(benchmark, "identifier", None)
    if not isinstance(identifier, str) or not identifier:
        _fail(benchmark, f"identifier must be a non-empty str, got {identifier!r}")
    version = getattr(benchmark, "version", None)
    if isinstance(version, bool) or not isinstance(version, (numbers.Integral, str)):
        _fail(benchmark, f"version must be an int, got {version!r}")
    for attribute in ("parent", "bibtex"):
        value = getattr(benchmark, attribute, None)
        if value is not None and not isinstance(value, str):
            _fail(benchmark, f"{attribute} must be a str or None, got {type(value).__name__}")
    if not callable(benchmark):
        _fail(benchmark, "is not callable")
    if not callable(getattr(benchmark, "preallocate_memory", None)):
        _fail(benchmark, "has no callable preallocate_memory")
    ceiling = benchmark.ceiling
    if not isinstance(ceiling, xr.DataArray):
        _fail(benchmark, f"ceiling must be a Score, got {type(ceiling).__name__}")
    value, _ = score_center_error(ceiling)
    if isinstance(value, xr.DataArray):
        _fail(benchmark, f"ceiling must be a single value, got dims {value.dims}")
    if not math.isfinite(value):
        if not ceiling.attrs.get("note"):
            _fail(benchmark, f"ceiling is {value} and attrs['note'] does not say why")
    elif not ceiling_range[0] - 1e-9 <= value <= ceiling_range[1] + 1e-9:
        _fail(benchmark, f"ceiling {value} is outside {ceiling_range}")
    second = _fresh(benchmark, reload).ceiling
    again, _ = score_center_error(second)
    if not (again == value or (math.isnan(again) and math.isnan(value))):
        _fail(benchmark, f"ceiling changed between two reads: {value} then {again}")
    lost = sorted(set(ceiling.attrs) - set(getattr(second, "attrs", {})))
    if lost:
        _fail(benchmark, f"ceiling attrs {lost} lost between two reads (the second from a fresh instance)")
    if candidate is None:
        return
    score = score_benchmark(benchmark, candidate)
    if not isinstance(score, xr.DataArray):
        _fail(benchmark, f"returned {type(score).__name__}, not a Score")
    if isinstance(score_center_error(score)[0], xr.DataArray):
        _fail(benchmark, f"score must be a single value, got dims {score.dims}")
    for key in ("raw", "ceiling"):
        if key not in score.attrs:
            _fail(benchmark, f"score has no attrs[{key!r}]")


def _fresh(benchmark: Any, reload: Callable[[], Any] | None) -> Any:
    """The benchmark whose ceiling is read the second time: ``reload()``, or a copy without the ceiling in memory."""
    from brainscore_core.benchmarks import BenchmarkBase

    if reload is not None:
        return reload()
    if isinstance(benchmark, BenchmarkBase):
        fresh = copy.copy(benchmark)
        fresh._cached_ceiling = None
        return fresh
    return benchmark


def _fail_plugin(kind: str, name: str, problem: str) -> None:
    raise AssertionError(f"{kind} {name!r}: {problem}")


def check_ceiling(ceiling: Any, data: Any, *, value_range: tuple[float, float] = (0.0, 1.0),
                  expected_dims: tuple[str, ...] = ()) -> None:
    """The battery for a ceiling (``ceiling(data) -> Score``): callable, its constructor parameters readable
    (``get_params()`` where it has one), values with dims ``expected_dims`` (one value by default), each finite and in
    ``value_range`` (or NaN with ``attrs['note']``), and the same values when called twice (seeded).

    Raises AssertionError naming the ceiling's class and the failed check.
    """
    name = type(ceiling).__name__
    if not callable(ceiling):
        _fail_plugin("ceiling", name, "is not callable")
    params = getattr(ceiling, "get_params", None)
    if callable(params) and not isinstance(params(), dict):
        _fail_plugin("ceiling", name, "get_params() must return a dict")
    first = ceiling(data)
    if not isinstance(first, xr.DataArray):
        _fail_plugin("ceiling", name, f"returned {type(first).__name__}, not a Score")
    value, _ = score_center_error(first)
    dims = tuple(value.dims) if isinstance(value, xr.DataArray) else ()
    if dims != tuple(expected_dims):
        _fail_plugin("ceiling", name, f"must have dims {tuple(expected_dims)}, got dims {dims}")
    values = np.atleast_1d(np.asarray(value, dtype=float))
    if not np.isfinite(values).all():
        if not first.attrs.get("note"):
            _fail_plugin("ceiling", name, f"is {values.tolist()} and attrs['note'] does not say why")
    elif ((values < value_range[0] - 1e-9) | (values > value_range[1] + 1e-9)).any():
        _fail_plugin("ceiling", name, f"value {values.tolist()} is outside {value_range}")
    again = np.atleast_1d(np.asarray(score_center_error(ceiling(data))[0], dtype=float))
    if not np.array_equal(again, values, equal_nan=True):
        _fail_plugin("ceiling", name, f"not deterministic: {values.tolist()} then {again.tolist()}")


def check_brain_model(model: Any, stimuli: Any, *, regions: tuple[str, ...] = ("V1", "V2", "V4", "IT")) -> None:
    """The battery for a BrainModel: a non-empty ``identifier``, a positive ``visual_degrees()``, and for every
    region it commits (``layer_map`` / ``region_layer_map`` when it has one, else ``regions``): ``look_at`` after
    ``start_recording(region, [(70, 170)])`` gives one finite, non-constant row per stimulus, in the stimuli's
    ``stimulus_id`` order, and the same values when asked twice.

    Raises AssertionError naming the model, the region and the failed check.
    """
    name = getattr(model, "identifier", None)
    if not isinstance(name, str) or not name:
        _fail_plugin("model", repr(model), f"identifier must be a non-empty str, got {name!r}")
    degrees = model.visual_degrees()
    if not (isinstance(degrees, numbers.Real) and math.isfinite(degrees) and degrees > 0):
        _fail_plugin("model", name, f"visual_degrees() must be a positive number, got {degrees!r}")
    committed = getattr(model, "layer_map", None) or getattr(model, "region_layer_map", None) or {}
    expected_ids = [str(s) for s in stimuli["stimulus_id"]]
    for region in [r for r in regions if not committed or r in committed]:
        model.start_recording(region, [(70, 170)])
        first = model.look_at(stimuli)
        if "presentation" not in first.dims or "neuroid" not in first.dims:
            _fail_plugin("model", name, f"{region}: look_at gave dims {first.dims}, not presentation x neuroid")
        if [str(s) for s in first["stimulus_id"].values] != expected_ids:
            _fail_plugin("model", name, f"{region}: presentations are not the stimuli in their order")
        values = np.asarray(first.values, dtype=float)
        if not np.isfinite(values).all() or values.std() == 0:
            _fail_plugin("model", name, f"{region}: responses are not finite, or constant")
        again = np.asarray(model.look_at(stimuli).values, dtype=float)
        if not np.array_equal(values, again):
            _fail_plugin("model", name, f"{region}: two look_at calls on the same stimuli differ")


def check_data_plugin(identifier: str, loaded: Any) -> None:
    """The battery for a data or stimulus-set plugin's result: a StimulusSet with unique string ``stimulus_id``
    values whose files exist (the first ten checked), or a DataAssembly whose ``presentation`` dim (where it has
    one) carries ``stimulus_id``; both named ``identifier``.

    Raises AssertionError naming the identifier and the failed check.
    """
    import os

    import pandas as pd

    kind = "stimulus set" if isinstance(loaded, pd.DataFrame) else "data"
    recorded = getattr(loaded, "identifier", None) or getattr(loaded, "attrs", {}).get("identifier")
    if recorded != identifier:
        _fail_plugin(kind, identifier, f"loads as identifier {recorded!r}")
    if isinstance(loaded, pd.DataFrame):
        if "stimulus_id" not in loaded.columns:
            _fail_plugin(kind, identifier, "has no stimulus_id column")
        ids = loaded["stimulus_id"]
        if ids.duplicated().any() or not all(isinstance(value, str) for value in ids):
            _fail_plugin(kind, identifier, "stimulus_id values must be unique strings")
        paths = getattr(loaded, "stimulus_paths", {}) or {}
        for stimulus_id in list(ids)[:10]:
            if stimulus_id in paths and not os.path.isfile(paths[stimulus_id]):
                _fail_plugin(kind, identifier, f"file of {stimulus_id!r} missing: {paths[stimulus_id]}")
        return
    if not isinstance(loaded, xr.DataArray):
        _fail_plugin(kind, identifier, f"loads a {type(loaded).__name__}, not an assembly")
    if "presentation" in loaded.dims and "stimulus_id" not in loaded.coords:
        _fail_plugin(kind, identifier, "has a presentation dim without stimulus_id")
