"""Receptive-field mapping and firing-rate scaling of model units before a property benchmark (Marques et al. 2021).

Brain-Score's property benchmarks treat a model layer like an electrode array:

1. **Receptive-field map** (``Marques2020_receptive_field``: small gratings on a 21 x 21 grid of positions, 10 trials,
   and the blank): per unit, the rectified response at each position (max over the orientations and phases there)
   minus the rectified blank response, floored at 0; the centre is the response-weighted centroid of the positions
   above 5% of the unit's peak, interpolated from grid indices to degrees. Units without any response get NaN.
2. **Unit selection**: the units whose centre lies within :data:`RF_DELTA` (0.15) degrees of the benchmark's grating
   position.
3. **Firing rates**: one affine map for all selected units (from ``Marques2020_orientation``, 20 trials) that sends
   the median blank response to 0.82 spikes/s and the median peak response to 33.8 spikes/s (medians over the units
   whose peak exceeds the blank by 5/243.1 of the largest such excess, V1 values); responses are rectified before
   and after the map.

Each step runs over all units at once (in column chunks, so that memory stays near the size of the responses).
The map and the affine transformation depend only on the model and region: like Brain-Score's ``@store`` they are
kept per ``(model identifier, region)``, here in memory for the process (:func:`clear_receptive_field_cache`).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from brainio.assemblies import DataAssembly, NeuroidAssembly
from brainscore_vision.errors import GratingLayoutError, NoSpatialLayoutError, UnitSelectionError

__all__ = ["BLANK_STIM_NAME", "GratingLayoutError", "NoSpatialLayoutError", "ORIENTATION_STIM_NAME", "RF_DELTA",
           "RF_STIM_NAME", "UnitSelectionError", "clear_receptive_field_cache", "filter_receptive_fields",
           "firing_rates_affine", "get_firing_rates", "get_stimulus_position", "grating_grid",
           "map_receptive_field_locations", "record_from_model"]

BLANK_STIM_NAME = "Marques2020_blank"
RF_STIM_NAME = "Marques2020_receptive_field"
ORIENTATION_STIM_NAME = "Marques2020_orientation"

RF_NUMBER_OF_TRIALS = 10
ORIENTATION_NUMBER_OF_TRIALS = 20
RF_THRSH = 0.05
RF_DELTA = 0.15
MEDIAN_MAX_RESP = {"V1": 33.8}
MEDIAN_SPONTANEOUS = {"V1": 0.82}
SINGLE_MAX_RESP = {"V1": 243.1}
RESP_THRESH = {"V1": 5}
LOW_INTERVAL_MAX_RESP = {"V1": 11.14}
HIGH_INTERVAL_MAX_RESP = {"V1": 86.27}
LOW_INTERVAL_PERCENTILE = 10
HIGH_INTERVAL_PERCENTILE = 90
#: units per chunk when a step runs over every recorded unit
UNIT_CHUNK = 4096
#: factors of a grating set, outermost first: the order Brain-Score's reshapes assume
GRATING_FACTORS = ("position_y", "position_x", "contrast", "radius", "spatial_frequency", "orientation", "phase")

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 8








def clear_receptive_field_cache() -> None:
    """Forget the receptive-field maps and affine transformations kept for each (model, region)."""
    _CACHE.clear()


def _cached(key, compute):
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    value = compute()
    _CACHE[key] = value
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return value


def _stimulus_set(stimulus_identifier):
    if isinstance(stimulus_identifier, str):
        import brainscore_vision

        return brainscore_vision.load_stimulus_set(stimulus_identifier)
    from brainscore_vision.utils import resolve

    return resolve(stimulus_identifier)


def record_from_model(model, stimulus_identifier, number_of_trials: int):
    """The model's responses (``presentation x neuroid``, single time bin squeezed) to a stimulus set.

    ``stimulus_identifier`` is a registered identifier or a StimulusSet; it is placed on the model's screen
    (source degrees from its ``degrees`` column) first.
    """
    from brainscore_vision.benchmark_helpers._timebins import squeeze_time_bin
    from brainscore_vision.benchmark_helpers.screen import place_on_screen

    stimulus_set = _stimulus_set(stimulus_identifier)
    placed = place_on_screen(stimulus_set, target_visual_degrees=model.visual_degrees())
    activations = squeeze_time_bin(model.look_at(placed, number_of_trials=number_of_trials))
    if "time_bin" in activations.dims:
        raise GratingLayoutError(f"property benchmarks need responses in one time bin, got "
                                 f"{activations.sizes['time_bin']} bins")
    return activations.transpose("presentation", "neuroid")


def _coordinate(activations, name: str) -> np.ndarray:
    source = getattr(activations, "coords", activations)  # an assembly's coordinates, or a table's columns
    if name not in source:
        what = getattr(activations, "attrs", {}).get("stimulus_set_identifier", "the responses")
        raise GratingLayoutError(f"{what}: no {name!r} coordinate; a grating set needs the columns "
                                 f"{list(GRATING_FACTORS)}")
    return np.asarray(source[name].values)


def grating_grid(activations, factors=GRATING_FACTORS) -> dict[str, np.ndarray]:
    """Sorted unique values of each grating factor, after checking the presentations form Brain-Score's grid.

    Presentations must either be the full factorial grid of ``factors`` (first factor outermost, ``phase``
    fastest), or repeat an ``(spatial_frequency, orientation, phase)`` block whole (the 'cycles' of the orientation
    set). ``activations`` is an assembly with presentation coordinates or a stimulus table.

    Raises
    ------
    GratingLayoutError
        Naming the missing coordinate, or the factor whose values are out of order.
    """
    values = {name: _coordinate(activations, name) for name in factors}
    levels = {name: np.array(sorted(set(column.tolist()))) for name, column in values.items()}
    n_stimuli = len(values["phase"])
    sizes = [len(levels[name]) for name in factors]
    if int(np.prod(sizes)) == n_stimuli:
        checked, grid_shape = factors, sizes
    else:
        checked = ("spatial_frequency", "orientation", "phase")
        inner = int(np.prod([len(levels[name]) for name in checked]))
        if n_stimuli % inner:
            raise GratingLayoutError(f"{n_stimuli} presentations are neither the full grid of {list(factors)} "
                                     f"({int(np.prod(sizes))}) nor whole repeats of {list(checked)} ({inner})")
        grid_shape = [n_stimuli // inner] + [len(levels[name]) for name in checked]
    offset = len(grid_shape) - len(checked)
    for axis, name in enumerate(checked, start=offset):
        shape = [1] * len(grid_shape)
        shape[axis] = grid_shape[axis]
        expected = np.broadcast_to(levels[name].reshape(shape), grid_shape).reshape(-1)
        if not np.array_equal(expected, values[name]):
            raise GratingLayoutError(f"presentations are not ordered as Brain-Score's grating grid: {name!r} does "
                                     f"not vary as factor {axis + 1} of {grid_shape} (order {list(checked)})")
    return levels


def _assert_grating_activations(activations) -> None:
    """Brain-Score's name for :func:`grating_grid`'s check."""
    grating_grid(activations)


def get_stimulus_position(stimulus_set) -> np.ndarray:
    """The one grating position ``[position_y, position_x]`` (degrees) of a stimulus set."""
    position_y = np.unique(_coordinate(stimulus_set, "position_y"))
    position_x = np.unique(_coordinate(stimulus_set, "position_x"))
    if len(position_y) != 1 or len(position_x) != 1:
        raise GratingLayoutError(f"a property benchmark shows its stimuli at one position, got "
                                 f"{len(position_y)} x {len(position_x)} positions")
    return np.array([position_y[0], position_x[0]], dtype=float)


def _rectified_rows(activations) -> np.ndarray:
    """``presentation x neuroid`` values (not copied when already float)."""
    return np.asarray(activations.transpose("presentation", "neuroid").values)


def map_receptive_field_locations(model_identifier, model, region):
    """Receptive-field centre and map of every recorded unit (see the module docstring).

    Returns
    -------
    (rf_pos, rf_map)
        ``rf_pos``: DataAssembly ``neuroid x axis`` (``axis`` = y, x; degrees; NaN for silent units);
        ``rf_map``: DataAssembly ``neuroid x position_y x position_x`` (float32).
    """
    return _cached((model_identifier, region, "receptive_field"),
                   lambda: _map_receptive_fields(model))


def _map_receptive_fields(model):
    blank = np.maximum(_rectified_rows(record_from_model(model, BLANK_STIM_NAME, RF_NUMBER_OF_TRIALS))[0], 0)
    activations = record_from_model(model, RF_STIM_NAME, RF_NUMBER_OF_TRIALS)
    levels = grating_grid(activations)
    position_y, position_x = levels["position_y"], levels["position_x"]
    values = _rectified_rows(activations)
    n_units = values.shape[1]
    rf_map = np.empty((n_units, len(position_y), len(position_x)), dtype=np.float32)
    rf_pos = np.full((n_units, 2), np.nan)
    rows, columns = np.arange(len(position_y)), np.arange(len(position_x))
    for start in range(0, n_units, UNIT_CHUNK):
        stop = min(start + UNIT_CHUNK, n_units)
        block = np.maximum(values[:, start:stop], 0).reshape(len(position_y), len(position_x), -1, stop - start)
        block = np.maximum(block.max(axis=2) - blank[start:stop], 0)  # (y, x, units)
        rf_map[start:stop] = np.moveaxis(block, -1, 0)
        peak = block.max(axis=(0, 1))
        weights = np.where(block > peak * RF_THRSH, block, 0).astype(float)
        total = weights.sum(axis=(0, 1))
        with np.errstate(invalid="ignore", divide="ignore"):
            centre_y = rows @ weights.sum(axis=1) / total
            centre_x = columns @ weights.sum(axis=0) / total
        responsive = peak > 0
        rf_pos[start:stop, 0] = np.where(responsive, np.interp(centre_y, rows, position_y), np.nan)
        rf_pos[start:stop, 1] = np.where(responsive, np.interp(centre_x, columns, position_x), np.nan)
    neuroid_ids = activations["neuroid_id"].values
    rf_pos = DataAssembly(rf_pos, coords={"neuroid_id": ("neuroid", neuroid_ids), "axis": ["y", "x"]},
                          dims=["neuroid", "axis"])
    rf_map = DataAssembly(rf_map, coords={"neuroid_id": ("neuroid", neuroid_ids), "position_y": position_y,
                                          "position_x": position_x}, dims=["neuroid", "position_y", "position_x"])
    return rf_pos, rf_map


def filter_receptive_fields(model_identifier, model, region, pos, rf_delta=RF_DELTA) -> np.ndarray:
    """Indices of the units whose receptive-field centre lies within ``rf_delta`` degrees of ``pos`` (y, x).

    Raises
    ------
    NoSpatialLayoutError
        Every responsive unit has its centre at the same place (e.g. a pooled or fully connected layer).
    UnitSelectionError
        No unit responds to the mapping gratings, or none has its centre near ``pos``.
    """
    rf_pos, _ = map_receptive_field_locations(model_identifier=model_identifier, model=model, region=region)
    centres = rf_pos.values
    distance = np.linalg.norm(centres - np.asarray(pos, dtype=float), axis=1)
    in_rf = np.flatnonzero(distance <= rf_delta)
    if len(in_rf):
        return in_rf
    located = centres[~np.isnan(centres[:, 0])]
    where = f"model {model_identifier!r}, region {region!r} ({len(centres)} units)"
    if not len(located):
        raise UnitSelectionError(f"{where}: no unit responds to the receptive-field mapping gratings "
                                 f"({RF_STIM_NAME}) more than to the blank")
    if np.ptp(located, axis=0).max() < 1e-6:
        raise NoSpatialLayoutError(
            f"{where}: the recorded layer has no spatial layout: all {len(located)} responsive units have their "
            f"receptive-field centre at the same place (y, x) = {_point(located[0])} deg, so none can be "
            f"placed at the stimulus position {_point(pos)} deg; record a convolutional layer with a "
            "spatial map (choose another layer for this region)")
    raise UnitSelectionError(f"{where}: no unit has its receptive-field centre within {rf_delta} deg of the "
                             f"stimulus position {_point(pos)} deg")


def _point(values) -> str:
    return "(" + ", ".join(f"{float(v):.3g}" for v in np.ravel(values)) + ")"


def firing_rates_affine(model_identifier, model, region) -> DataAssembly:
    """``[slope, offset]`` mapping the model's responses to V1 firing rates (see the module docstring)."""
    return _cached((model_identifier, region, "affine"), lambda: _affine(model_identifier, model, region))


def _affine(model_identifier, model, region) -> DataAssembly:
    if region not in MEDIAN_MAX_RESP:
        raise UnitSelectionError(f"firing-rate statistics are known for regions {sorted(MEDIAN_MAX_RESP)}, "
                                 f"not {region!r}")
    blank = record_from_model(model, BLANK_STIM_NAME, ORIENTATION_NUMBER_OF_TRIALS)
    orientation = record_from_model(model, ORIENTATION_STIM_NAME, ORIENTATION_NUMBER_OF_TRIALS)
    levels = grating_grid(orientation)
    in_rf = filter_receptive_fields(model_identifier, model, region, get_stimulus_position(orientation))
    baseline = np.maximum(_rectified_rows(blank)[0, in_rf], 0)
    responses = np.maximum(_rectified_rows(orientation)[:, in_rf], 0)  # (presentation, unit)
    responses = responses.reshape(-1, len(levels["phase"]), len(in_rf)).mean(axis=1).max(axis=0)
    excess = responses - baseline
    responsive = excess > RESP_THRESH[region] / SINGLE_MAX_RESP[region] * excess.max()
    if not responsive.any():
        raise UnitSelectionError(f"model {model_identifier!r}, region {region!r}: none of the {len(in_rf)} units at "
                                 f"the stimulus responds to the orientation gratings more than to the blank")
    median_baseline = np.median(baseline[responsive])
    median_response = np.median(responses[responsive])
    slope = (MEDIAN_MAX_RESP[region] - MEDIAN_SPONTANEOUS[region]) / (median_response - median_baseline)
    offset = MEDIAN_SPONTANEOUS[region] - slope * median_baseline
    return DataAssembly(np.array([slope, offset]))


def get_firing_rates(model_identifier, model, region, stimulus_identifier, number_of_trials, in_rf):
    """Firing rates (``neuroid x presentation``) of the units ``in_rf`` to a stimulus set.

    Rectified responses through :func:`firing_rates_affine`, rectified again.
    """
    slope, offset = np.asarray(firing_rates_affine(model_identifier, model, region).values, dtype=float)
    activations = record_from_model(model, stimulus_identifier, number_of_trials)
    selected = activations.isel(neuroid=np.asarray(in_rf))
    rates = np.maximum(np.asarray(selected.values, dtype=float), 0) * slope + offset
    rates = np.maximum(rates, 0)
    return NeuroidAssembly(selected.copy(data=rates)).transpose("neuroid", "presentation")
