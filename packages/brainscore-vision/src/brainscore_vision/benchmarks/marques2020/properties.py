"""Per-unit properties of the Marques2020 benchmarks, from firing rates to gratings (or textures) and the blank.

Each function has Brain-Score's signature ``f(model_identifier, responses, baseline)``: ``responses`` are firing
rates ``neuroid x presentation`` in Brain-Score's grating order (checked), ``baseline`` the rates to the blank
(``neuroid x 1``). It returns a ``PropertyAssembly`` ``neuroid x neuronal_property`` of the units that respond
(by Brain-Score's threshold of 5 spikes/s), with all the properties of that study. Everything is computed for all
units at once (in chunks of :data:`UNIT_CHUNK` units, which bounds the memory of the fine-grid curves).
"""

from __future__ import annotations

import numpy as np

from brainio.assemblies import PropertyAssembly
from brainscore_vision.benchmark_helpers._firing_rates import UNIT_CHUNK, grating_grid
from brainscore_vision.benchmark_helpers._tuning import (
    calc_bandwidth,
    calc_circular_variance,
    calc_orthogonal_preferred_ratio,
    calc_phase_components,
    calc_size_tuning,
    calc_spatial_frequency_tuning,
)

__all__ = ["CAVANAUGH2002_PROPERTIES", "DEVALOIS1982A_PROPERTIES", "DEVALOIS1982B_PROPERTIES",
           "FREEMANZIEMBA2013_PROPERTIES", "RINGACH2002_PROPERTIES", "SCHILLER1976_PROPERTIES",
           "cavanaugh2002_properties", "devalois1982a_properties", "devalois1982b_properties",
           "freemanziemba2013_properties", "ringach2002_properties", "schiller1976_properties"]

RESPONSE_THRESHOLD = 5
ORIENTATION_BIN_LIM = 157.5
RINGACH2002_PROPERTIES = [
    "baseline", "max_dc", "min_dc", "max_ac", "modulation_ratio", "circular_variance", "bandwidth",
    "orthogonal_preferred_ratio", "orientation_selective", "circular_variance_bandwidth_ratio",
    "orthogonal_preferred_ratio_circular_variance_difference", "orthogonal_preferred_ratio_bandwidth_ratio"]
CAVANAUGH2002_PROPERTIES = ["surround_suppression_index", "strongly_suppressed", "grating_summation_field",
                            "surround_diameter", "surround_grating_summation_field_ratio"]
DEVALOIS1982A_PROPERTIES = ["preferred_orientation"]
DEVALOIS1982B_PROPERTIES = ["peak_spatial_frequency"]
SCHILLER1976_PROPERTIES = ["spatial_frequency_selective", "spatial_frequency_bandwidth"]
FREEMANZIEMBA2013_PROPERTIES = [
    "texture_modulation_index", "absolute_texture_modulation_index", "texture_selectivity", "noise_selectivity",
    "texture_sparseness", "noise_sparseness", "variance_ratio", "sample_variance", "family_variance", "max_texture",
    "max_noise"]


def _rates(responses, baseline) -> tuple[np.ndarray, np.ndarray]:
    values = np.asarray(responses.transpose("neuroid", "presentation").values, dtype=float)
    base = np.asarray(baseline.transpose("neuroid", ...).values, dtype=float).reshape(len(values), -1)[:, 0]
    return values, base


def _by_chunk(compute, values: np.ndarray, base: np.ndarray, n_columns: int) -> np.ndarray:
    """``compute(values_chunk, base_chunk) -> (chunk, n_columns)`` over chunks of units, stacked."""
    out = np.empty((len(values), n_columns))
    for start in range(0, len(values), UNIT_CHUNK):
        stop = start + UNIT_CHUNK
        out[start:stop] = compute(values[start:stop], base[start:stop])
    return out


def _assembly(values: np.ndarray, keep: np.ndarray, names: list[str]) -> PropertyAssembly:
    values = values[keep]
    return PropertyAssembly(values, coords={"neuroid_id": ("neuroid", np.arange(len(values))),
                                            "region": ("neuroid", ["V1"] * len(values)),
                                            "neuronal_property": names},
                            dims=["neuroid", "neuronal_property"])


def _curve_at_best(responses: np.ndarray, curve_axis: int) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Per unit: argmax over all conditions, and the curve along ``curve_axis`` through it.

    ``responses`` of shape ``(n_units, *conditions)``; returns (best flat index, curves ``(n_units, n_axis)``,
    best index per condition axis).
    """
    n_units, shape = responses.shape[0], responses.shape[1:]
    best = np.argmax(responses.reshape(n_units, -1), axis=1)
    index = np.unravel_index(best, shape)
    moved = np.moveaxis(responses, curve_axis + 1, -1).reshape(n_units, -1, shape[curve_axis])
    others = [i for axis, i in enumerate(index) if axis != curve_axis]
    other_shape = [size for axis, size in enumerate(shape) if axis != curve_axis]
    curves = moved[np.arange(n_units), np.ravel_multi_index(others, other_shape)]
    return best, curves, index


def ringach2002_properties(model_identifier=None, responses=None, baseline=None) -> PropertyAssembly:
    """Orientation tuning and response magnitude (Ringach et al. 2002), orientation gratings.

    At each unit's preferred (radius, spatial frequency, orientation) by phase-averaged response: ``max_dc``
    (mean over phase), ``max_ac`` (first harmonic over phase), ``modulation_ratio`` = max_ac / max_dc; the
    orientation curve there gives circular variance, half bandwidth at 1/sqrt(2) of the peak (Hanning-smoothed
    spline), orthogonal / preferred ratio, selectivity (bandwidth defined) and their ratios and differences.
    Units kept: max_dc > baseline + 5 spikes/s.
    """
    levels = grating_grid(responses)
    orientation = levels["orientation"]
    grid = (len(levels["spatial_frequency"]), len(orientation), len(levels["phase"]))
    values, base = _rates(responses, baseline)

    def compute(rates, blank):
        dc, ac = calc_phase_components(rates.reshape(len(rates), -1, *grid))  # (units, cycles, sf, orientation)
        best, curves, _ = _curve_at_best(dc, curve_axis=2)
        rows = np.arange(len(rates))
        max_dc, max_ac = dc.reshape(len(rates), -1)[rows, best], ac.reshape(len(rates), -1)[rows, best]
        circular_variance = calc_circular_variance(curves, orientation)
        bandwidth = calc_bandwidth(curves, orientation, filt_type="hanning", thrsh=0.707, mode="half")[0]
        ratio = calc_orthogonal_preferred_ratio(curves, orientation)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.stack([blank, max_dc, curves.min(axis=1), max_ac, max_ac / max_dc, circular_variance,
                             bandwidth, ratio, np.where(np.isnan(bandwidth), 0.0, 1.0), circular_variance / bandwidth,
                             ratio - circular_variance, ratio / bandwidth], axis=1)

    properties = _by_chunk(compute, values, base, len(RINGACH2002_PROPERTIES))
    return _assembly(properties, properties[:, 1] > base + RESPONSE_THRESHOLD, RINGACH2002_PROPERTIES)


def _dc_ac_minus_baseline(rates, blank, grid) -> np.ndarray:
    """``(units, radius, sf, orientation, 2)``: phase-mean minus the blank, and first-harmonic amplitude."""
    dc, ac = calc_phase_components(rates.reshape(len(rates), *grid))
    return np.stack([dc - blank.reshape(-1, 1, 1, 1), ac], axis=-1)


def cavanaugh2002_properties(model_identifier=None, responses=None, baseline=None) -> PropertyAssembly:
    """Size tuning (Cavanaugh et al. 2002), size gratings.

    Baseline-subtracted phase mean and first harmonic; the size curve through each unit's best (radius, spatial
    frequency, orientation, component) gives surround suppression index, strongly suppressed (SSI >= 0.1), grating
    summation field, surround diameter and their ratio. Units kept: best response > 5 spikes/s.
    """
    levels = grating_grid(responses)
    radius = levels["radius"]
    grid = (len(radius), len(levels["spatial_frequency"]), len(levels["orientation"]), len(levels["phase"]))
    values, base = _rates(responses, baseline)

    def compute(rates, blank):
        components = _dc_ac_minus_baseline(rates, blank, grid)
        _, curves, _ = _curve_at_best(components, curve_axis=0)
        gsf, surround, ratio, ssi = calc_size_tuning(curves, radius)
        return np.stack([ssi, (ssi >= 0.1).astype(float), gsf, surround, ratio,
                         components.reshape(len(rates), -1).max(axis=1)], axis=1)

    properties = _by_chunk(compute, values, base, len(CAVANAUGH2002_PROPERTIES) + 1)
    return _assembly(properties[:, :-1], properties[:, -1] > RESPONSE_THRESHOLD, CAVANAUGH2002_PROPERTIES)


def devalois1982a_properties(model_identifier=None, responses=None, baseline=None) -> PropertyAssembly:
    """Preferred orientation (De Valois et al. 1982a), orientation gratings.

    Peak of the smoothed spline through the orientation curve at the best phase-averaged response (1-degree
    grid), shifted into [-22.5, 157.5). Units kept: best response > baseline + 5 spikes/s.
    """
    levels = grating_grid(responses)
    orientation = levels["orientation"]
    grid = (len(levels["spatial_frequency"]), len(orientation), len(levels["phase"]))
    values, base = _rates(responses, baseline)

    def compute(rates, blank):
        dc = rates.reshape(len(rates), -1, *grid).mean(axis=-1)
        _, curves, _ = _curve_at_best(dc, curve_axis=2)
        preferred = calc_bandwidth(curves, orientation, filt_type="smooth", thrsh=0.5, mode="full")[1].astype(float)
        preferred[preferred >= ORIENTATION_BIN_LIM] -= 180
        return np.stack([preferred, dc.reshape(len(rates), -1).max(axis=1)], axis=1)

    properties = _by_chunk(compute, values, base, 2)
    return _assembly(properties[:, :1], properties[:, 1] > base + RESPONSE_THRESHOLD, DEVALOIS1982A_PROPERTIES)


def devalois1982b_properties(model_identifier=None, responses=None, baseline=None) -> PropertyAssembly:
    """Peak spatial frequency (De Valois et al. 1982b), spatial-frequency gratings.

    Baseline-subtracted phase mean and first harmonic; the spatial-frequency curve through each unit's best
    (radius, orientation, component) gives the peak of its smoothed log-frequency spline. Units kept: best
    response > 5 spikes/s.
    """
    levels = grating_grid(responses)
    frequency = levels["spatial_frequency"]
    grid = (len(levels["radius"]), len(frequency), len(levels["orientation"]), len(levels["phase"]))
    values, base = _rates(responses, baseline)

    def compute(rates, blank):
        components = _dc_ac_minus_baseline(rates, blank, grid)
        _, curves, _ = _curve_at_best(components, curve_axis=1)
        peak = calc_spatial_frequency_tuning(curves, frequency, thrsh=0.707, filt_type="smooth", mode="ratio")[1]
        return np.stack([peak, components.reshape(len(rates), -1).max(axis=1)], axis=1)

    properties = _by_chunk(compute, values, base, 2)
    return _assembly(properties[:, :1], properties[:, 1] > RESPONSE_THRESHOLD, DEVALOIS1982B_PROPERTIES)


def schiller1976_properties(model_identifier=None, responses=None, baseline=None) -> PropertyAssembly:
    """Spatial-frequency bandwidth and selectivity (Schiller et al. 1976), spatial-frequency gratings.

    The phase-averaged spatial-frequency curve through each unit's best (radius, orientation): bandwidth as low /
    high cut-off at 1/sqrt(2) of the peak x 100 (smoothed log-frequency spline); selective where it is defined.
    Units kept: best response > baseline + 5 spikes/s.
    """
    levels = grating_grid(responses)
    frequency = levels["spatial_frequency"]
    grid = (len(levels["radius"]), len(frequency), len(levels["orientation"]), len(levels["phase"]))
    values, base = _rates(responses, baseline)

    def compute(rates, blank):
        dc = rates.reshape(len(rates), *grid).mean(axis=-1)
        _, curves, _ = _curve_at_best(dc, curve_axis=1)
        bandwidth = calc_spatial_frequency_tuning(curves, frequency, thrsh=0.707, filt_type="smooth",
                                                  mode="ratio")[0]
        return np.stack([np.where(np.isnan(bandwidth), 0.0, 1.0), bandwidth,
                         dc.reshape(len(rates), -1).max(axis=1)], axis=1)

    properties = _by_chunk(compute, values, base, 3)
    return _assembly(properties[:, :2], properties[:, 2] > base + RESPONSE_THRESHOLD, SCHILLER1976_PROPERTIES)


def _sparseness(values: np.ndarray) -> np.ndarray:
    """Treves-Rolls sparseness of each row."""
    n = values.shape[1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (1 - (values.sum(axis=1) / n) ** 2 / ((values ** 2).sum(axis=1) / n)) / (1 - 1 / n)


def freemanziemba2013_properties(model_identifier=None, responses=None, baseline=None) -> PropertyAssembly:
    """Texture modulation, selectivity, sparseness, variance ratio and magnitude (Freeman, Ziemba et al. 2013).

    ``responses`` to the texture (``type`` 2) and noise (``type`` 1) images, ``family`` x ``sample``. Units
    kept: best baseline-subtracted response > 5 spikes/s.
    """
    for name in ("type", "family", "sample"):
        if name not in responses.coords:
            raise ValueError(f"texture responses need a {name!r} coordinate (type, family, sample)")
    responses = responses.sortby(["type", "family", "sample"])
    shape = [len(np.unique(responses[name].values)) for name in ("type", "family", "sample")]
    values, base = _rates(responses, baseline)
    rates = values.reshape(len(values), *shape)
    spikes = np.sqrt(rates / 10) + np.sqrt(rates / 10 + 1)
    rates = rates - base.reshape(-1, 1, 1, 1)
    family = rates.mean(axis=3)  # (units, type, family)
    with np.errstate(invalid="ignore", divide="ignore"):
        modulation = np.nanmean((family[:, 1] - family[:, 0]) / (family[:, 1] + family[:, 0]), axis=1)
    textures = spikes[:, 1]  # (units, family, sample)
    n_family, n_sample = textures.shape[1:]
    family_mean = textures.mean(axis=2)
    sample_ms = ((textures - family_mean[..., None]) ** 2).sum(axis=(1, 2)) / (n_family * (n_sample - 1))
    family_ms = n_sample * ((family_mean - family_mean.mean(axis=1, keepdims=True)) ** 2).sum(axis=1) / (n_family - 1)
    sample_variance, family_variance = sample_ms, (family_ms - sample_ms) / n_sample
    total = sample_variance + family_variance
    with np.errstate(invalid="ignore", divide="ignore"):
        sample_share, family_share = sample_variance / total, family_variance / total
    n_units = len(rates)
    properties = np.stack([
        modulation, np.abs(modulation), _sparseness(family[:, 1]), _sparseness(family[:, 0]),
        _sparseness(rates[:, 1].reshape(n_units, -1)), _sparseness(rates[:, 0].reshape(n_units, -1)),
        (family_share + 0.02) / (sample_share + 0.02), sample_share, family_share,
        rates[:, 1].reshape(n_units, -1).max(axis=1), rates[:, 0].reshape(n_units, -1).max(axis=1)], axis=1)
    keep = rates.reshape(n_units, -1).max(axis=1) > RESPONSE_THRESHOLD
    return _assembly(properties, keep, FREEMANZIEMBA2013_PROPERTIES)
