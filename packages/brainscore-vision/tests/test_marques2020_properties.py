"""Marques2020 property maths, receptive-field mapping and their errors, on synthetic responses.

Expected values come from closed forms (von Mises circular variance ``1 - I1(k)/I0(k)`` and half-width
``acos(1 + ln(t)/k)/2``; log-Gaussian cut-offs ``f0 * 2**(+-s*sqrt(-2 ln t))``; a difference of erf size tuning
solved with scipy's root finder; a cosine over phase with known F0 and F1), or from the per-unit reference in
``marques_naive.py`` (scipy's ``UnivariateSpline`` per curve, one unit at a time).
"""

from __future__ import annotations

import marques_naive as naive
import numpy as np
import pandas as pd
import pytest
from scipy.optimize import brentq
from scipy.special import erf, i0, i1

from brainio.assemblies import NeuroidAssembly
from brainio.stimuli import StimulusSet
from brainscore_vision.benchmark_helpers import _firing_rates
from brainscore_vision.benchmark_helpers._firing_rates import clear_receptive_field_cache
from brainscore_vision.benchmark_helpers._tuning import calc_modulation_ratio, calc_phase_components
from brainscore_vision.benchmark_helpers.properties_common import (
    calc_bandwidth,
    calc_circular_variance,
    calc_orthogonal_preferred_ratio,
    calc_size_tuning,
    calc_spatial_frequency_tuning,
    filter_receptive_fields,
    map_receptive_field_locations,
)
from brainscore_vision.benchmarks.marques2020 import properties
from brainscore_vision.errors import GratingLayoutError, NoSpatialLayoutError, UnitSelectionError
from brainscore_vision.model_interface import BrainModel

ORIENTATION = np.arange(0, 180, 15.0)
#: the 22 spatial frequencies of Marques2020_spatial_frequency (quarter octaves from 0.3856 c/deg)
FREQUENCY = 0.3855527063519852 * 2 ** (np.arange(22) / 4)


def von_mises(kappa, preferred):
    return np.exp(kappa[:, None] * np.cos(np.deg2rad(2 * (ORIENTATION[None, :] - preferred[:, None]))))


def test_circular_variance_of_von_mises_tuning():
    kappa = np.array([0.2, 0.5, 1.0, 2.0, 3.0])
    curves = von_mises(kappa, np.array([0.0, 30.0, 45.0, 100.0, 165.0]))
    # 12 samples over one period: the sums are exact up to aliasing terms I_11(k), below 1e-6 here
    np.testing.assert_allclose(calc_circular_variance(curves, ORIENTATION), 1 - i1(kappa) / i0(kappa), atol=1e-6)
    assert calc_circular_variance(curves[2], ORIENTATION) == pytest.approx(1 - i1(1.0) / i0(1.0), abs=1e-7)


@pytest.mark.parametrize("threshold", [0.5, 0.707])
def test_bandwidth_and_preferred_orientation_of_von_mises_tuning(threshold):
    kappa = np.array([1.0, 1.5, 2.0, 3.0])
    preferred = np.array([0.0, 45.0, 90.0, 150.0])
    half_width = np.rad2deg(np.arccos(1 + np.log(threshold) / kappa)) / 2
    width, peak, grid, fitted = calc_bandwidth(von_mises(kappa, preferred), ORIENTATION, filt_type=None,
                                               thrsh=threshold, mode="full")
    # read on a 1-degree grid (first grid point at or below the threshold on each side: up to 2 degrees wider) from a
    # spline through 15-degree samples (up to about 1 degree off for the narrowest curve here)
    assert np.all(np.abs(width - 2 * half_width) <= 3.0), (width, 2 * half_width)
    np.testing.assert_array_equal(peak, preferred)
    half, _, _, _ = calc_bandwidth(von_mises(kappa, preferred), ORIENTATION, filt_type=None, thrsh=threshold,
                                   mode="half")
    np.testing.assert_allclose(half, width / 2)
    assert grid.shape == (180,) and fitted.shape == (4, 180)


def test_untuned_curve_has_no_bandwidth():
    flat = np.ones((2, len(ORIENTATION)))
    width, _, _, _ = calc_bandwidth(flat, ORIENTATION, thrsh=0.707)
    assert np.isnan(width).all()
    assert calc_orthogonal_preferred_ratio(flat[0], ORIENTATION) == 1.0


def test_orthogonal_preferred_ratio():
    curves = von_mises(np.array([1.0, 2.0]), np.array([30.0, 150.0]))
    expected = np.exp(np.array([1.0, 2.0]) * (np.cos(np.pi) - 1))  # r(pref + 90) / r(pref)
    np.testing.assert_allclose(calc_orthogonal_preferred_ratio(curves, ORIENTATION), expected)


def log_gaussian(peak, sigma):
    return np.exp(-(np.log2(FREQUENCY)[None, :] - np.log2(peak)[:, None]) ** 2 / (2 * sigma[:, None] ** 2))


def test_spatial_frequency_peak_and_bandwidth_of_log_gaussian_tuning():
    peak = np.array([0.8, 1.5, 3.0, 5.0])
    sigma = np.array([0.6, 0.8, 1.0, 0.7])  # octaves
    width, found, r2, grid, fitted = calc_spatial_frequency_tuning(log_gaussian(peak, sigma), FREQUENCY,
                                                                   filt_type=None, thrsh=0.707, mode="ratio")
    step = (np.log2(FREQUENCY[-1]) - np.log2(FREQUENCY[0])) / 99  # the 100-point log grid
    assert np.all(np.abs(np.log2(found) - np.log2(peak)) <= step / 2 + 1e-9)
    cut = sigma * np.sqrt(-2 * np.log(0.707))
    expected = 2 ** (-2 * cut) * 100
    assert np.all(np.abs(np.log2(width / expected)) <= 2 * step), (width, expected)
    octaves, _, _, _, _ = calc_spatial_frequency_tuning(log_gaussian(peak, sigma), FREQUENCY, filt_type=None,
                                                        mode="oct")
    assert np.all(np.abs(np.log2(octaves + 1) - 2 * cut) <= 2 * step)
    np.testing.assert_allclose(r2, 1.0)  # the spline passes through the samples
    assert grid.shape == (100,) and fitted.shape == (4, 100)


def test_spatial_frequency_tuning_open_at_one_side_has_no_bandwidth():
    low_pass = np.exp(-FREQUENCY / 2)[None, :]
    width, found, _, _, _ = calc_spatial_frequency_tuning(low_pass, FREQUENCY, filt_type=None)
    assert np.isnan(width[0]) and found[0] == pytest.approx(FREQUENCY[0])


def difference_of_erf(radius, excitation, inhibition, centre, surround):
    return excitation * erf(radius / centre) - inhibition * erf(radius / surround)


def radius_where(parameters, level, low, high):
    """The radius in (low, high) where the difference of erf crosses ``level`` (scipy's brentq)."""
    return brentq(lambda r: difference_of_erf(r, *parameters) - level, low, high)


def test_size_tuning_of_difference_of_gaussians():
    radius = np.linspace(0.01, 8, 800)
    parameters = [(1.0, 0.5, 0.3, 1.0), (1.0, 0.8, 0.2, 0.6), (2.0, 1.0, 0.4, 1.5)]
    curves = np.array([difference_of_erf(radius, *p) for p in parameters])
    gsf, surround, ratio, ssi = calc_size_tuning(curves, radius)
    for unit, (ke, ki, a, b) in enumerate(parameters):
        # peak where ke/a exp(-(r/a)^2) = ki/b exp(-(r/b)^2); plateau ke - ki (erf(8/b) = 1 to 1e-12)
        r_peak = np.sqrt(np.log(ke * b / (ki * a)) / (1 / a ** 2 - 1 / b ** 2))
        peak = difference_of_erf(r_peak, ke, ki, a, b)
        plateau = ke - ki
        assert ssi[unit] == pytest.approx((peak - plateau) / peak, abs=1e-4)
        r95 = radius_where(parameters[unit], 0.95 * peak, 1e-6, r_peak)
        r_surround = radius_where(parameters[unit], plateau + 0.05 * abs(plateau), r_peak, 8)
        step = radius[1] - radius[0]
        assert 2 * r95 <= gsf[unit] <= 2 * (r95 + step) + 1e-9
        assert 2 * r_surround <= surround[unit] <= 2 * (r_surround + step) + 1e-9
        assert ratio[unit] == pytest.approx(surround[unit] / gsf[unit])


def test_size_tuning_without_suppression_is_undefined():
    saturating = np.array([[0.1, 0.5, 0.9, 1.0, 1.0]])
    gsf, surround, ratio, ssi = calc_size_tuning(saturating, np.arange(1.0, 6.0))
    assert ssi[0] == 0 and np.isnan([gsf[0], surround[0], ratio[0]]).all()


def test_modulation_ratio_of_a_cosine_over_phase():
    phase = np.deg2rad(np.arange(0, 360, 45.0))
    f0, f1, phi = np.array([10.0, 4.0, 2.0]), np.array([5.0, 6.0, 0.0]), np.array([0.3, 2.0, 1.0])
    responses = f0[:, None] + f1[:, None] * np.cos(phase[None, :] - phi[:, None])
    dc, ac = calc_phase_components(responses)
    np.testing.assert_allclose(dc, f0)
    np.testing.assert_allclose(ac, f1, atol=1e-12)
    np.testing.assert_allclose(calc_modulation_ratio(responses), f1 / f0, atol=1e-12)


@pytest.mark.parametrize("filt_type, threshold, mode", [("hanning", 0.707, "half"), ("smooth", 0.5, "full"),
                                                        (None, 0.5, "full")])
def test_bandwidth_equals_per_curve_scipy_spline(filt_type, threshold, mode):
    rng = np.random.default_rng(1)
    curves = von_mises(rng.uniform(0.1, 4, 300), rng.uniform(0, 180, 300)) + rng.uniform(0, 0.5, (300, 12))
    width, preferred, _, _ = calc_bandwidth(curves, ORIENTATION, filt_type=filt_type, thrsh=threshold, mode=mode)
    expected = np.array([naive.bandwidth(c, ORIENTATION, filt_type, threshold, mode == "half") for c in curves])
    np.testing.assert_allclose(width, expected[:, 0], equal_nan=True)
    np.testing.assert_array_equal(preferred, expected[:, 1])
    single = calc_bandwidth(curves[0], ORIENTATION, filt_type=filt_type, thrsh=threshold, mode=mode)
    assert isinstance(single[1], int) and np.allclose(single[0], expected[0, 0], equal_nan=True)


def test_spatial_frequency_tuning_equals_per_curve_scipy_spline():
    rng = np.random.default_rng(2)
    curves = log_gaussian(rng.uniform(0.3, 14, 300), rng.uniform(0.3, 2, 300)) + rng.uniform(0, 0.3, (300, 22))
    width, peak, _, _, _ = calc_spatial_frequency_tuning(curves, FREQUENCY, filt_type="smooth", thrsh=0.707)
    expected = np.array([naive.spatial_frequency_tuning(c, FREQUENCY, "smooth", 0.707) for c in curves])
    np.testing.assert_allclose(width, expected[:, 0], equal_nan=True)
    np.testing.assert_allclose(peak, expected[:, 1])


# -- property functions of the benchmarks on a synthetic factorial response grid -------------------------------------
def grating_table(sizes: dict[str, np.ndarray]) -> pd.DataFrame:
    """The full factorial grid in Brain-Score's order (position_y outermost, phase fastest)."""
    names = list(_firing_rates.GRATING_FACTORS)
    mesh = np.meshgrid(*[sizes[name] for name in names], indexing="ij")
    table = pd.DataFrame({name: values.reshape(-1) for name, values in zip(names, mesh)})
    table["stimulus_id"] = [f"g{i}" for i in range(len(table))]
    table["degrees"] = 12.0
    return table


def responses_to(table, rates) -> NeuroidAssembly:
    coords = {name: ("presentation", table[name].values) for name in table.columns}
    coords["neuroid_id"] = ("neuroid", [f"u{i}" for i in range(len(rates))])
    return NeuroidAssembly(rates, coords=coords, dims=["neuroid", "presentation"])


def blank_of(rates):
    return NeuroidAssembly(rates[:, None], coords={"neuroid_id": ("neuroid", [f"u{i}" for i in range(len(rates))]),
                                                   "stimulus_id": ("presentation", ["blank"])},
                           dims=["neuroid", "presentation"])


ONE = np.array([0.5])
PHASES = np.arange(0, 360, 45.0)


def random_rates(rng, n_units, n_stimuli):
    """Positive firing rates with structure (a gain per unit times lognormal noise), some units silent."""
    gain = rng.uniform(0, 60, (n_units, 1))
    return gain * rng.lognormal(0, 0.6, (n_units, n_stimuli))


@pytest.mark.parametrize("study", ["ringach", "devalois_a"])
def test_orientation_properties_equal_the_per_unit_reference(study):
    rng = np.random.default_rng(3)
    sfs = np.array([1.0, 2.0, 4.0])
    table = grating_table({"position_y": ONE, "position_x": ONE, "contrast": np.array([1]),
                           "radius": np.array([0.25, 0.5, 1.0]), "spatial_frequency": sfs,
                           "orientation": ORIENTATION, "phase": PHASES})
    rates, base = random_rates(rng, 120, len(table)), rng.uniform(0, 5, 120)
    if study == "ringach":
        found = properties.ringach2002_properties("m", responses_to(table, rates), blank_of(base))
        expected = naive.ringach(rates, base, 3, ORIENTATION, 8)
        assert list(found["neuronal_property"].values) == properties.RINGACH2002_PROPERTIES
    else:
        found = properties.devalois1982a_properties("m", responses_to(table, rates), blank_of(base))
        expected = naive.devalois_a(rates, base, 3, ORIENTATION, 8)[:, None]
    assert 0 < found.sizes["neuroid"] < 120
    np.testing.assert_allclose(found.values, expected, rtol=1e-9, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("study", ["cavanaugh", "devalois_b", "schiller"])
def test_size_and_frequency_properties_equal_the_per_unit_reference(study):
    rng = np.random.default_rng(4)
    orientations = np.arange(0, 180, 30.0)
    if study == "cavanaugh":
        radius, sfs = 0.105 * 2 ** (np.arange(12) / 2), np.array([1.0, 2.0, 4.0])
    else:
        radius, sfs = np.array([0.75, 2.25]), FREQUENCY
    table = grating_table({"position_y": ONE, "position_x": ONE, "contrast": np.array([1]), "radius": radius,
                           "spatial_frequency": sfs, "orientation": orientations, "phase": PHASES})
    rates, base = random_rates(rng, 100, len(table)), rng.uniform(0, 5, 100)
    function, expected = {
        "cavanaugh": (properties.cavanaugh2002_properties, lambda: naive.cavanaugh(rates, base, radius, 3, 6, 8)),
        "devalois_b": (properties.devalois1982b_properties,
                       lambda: naive.devalois_b(rates, base, 2, sfs, 6, 8)[:, None]),
        "schiller": (properties.schiller1976_properties, lambda: naive.schiller(rates, base, 2, sfs, 6, 8)),
    }[study]
    found = function(model_identifier="m", responses=responses_to(table, rates), baseline=blank_of(base))
    np.testing.assert_allclose(found.values, expected(), rtol=1e-9, atol=1e-12, equal_nan=True)


def test_responses_without_a_grating_coordinate_name_it():
    table = grating_table({"position_y": ONE, "position_x": ONE, "contrast": np.array([1]),
                           "radius": np.array([1.0]), "spatial_frequency": np.array([1.0]),
                           "orientation": ORIENTATION, "phase": PHASES}).drop(columns="phase")
    rates = np.ones((3, len(table)))
    with pytest.raises(GratingLayoutError, match="no 'phase' coordinate"):
        properties.ringach2002_properties("m", responses_to(table, rates), blank_of(np.zeros(3)))


def test_responses_out_of_brainscore_order_are_refused():
    table = grating_table({"position_y": ONE, "position_x": ONE, "contrast": np.array([1]),
                           "radius": np.array([1.0]), "spatial_frequency": np.array([1.0, 2.0]),
                           "orientation": ORIENTATION, "phase": PHASES})
    shuffled = table.sample(frac=1, random_state=0)
    with pytest.raises(GratingLayoutError, match="not ordered"):
        properties.ringach2002_properties("m", responses_to(shuffled, np.ones((2, len(table)))),
                                          blank_of(np.zeros(2)))


# -- receptive-field mapping with a synthetic model ----------------------------------------------------------------
RF_GRID = np.arange(-2.5, 2.51, 0.25)


class GaussianReceptiveFields(BrainModel):
    """Units with Gaussian receptive fields at known centres (degrees); ``spatial=False`` ignores position."""

    def __init__(self, centres, identifier, spatial=True):
        self.centres, self._identifier, self.spatial = np.asarray(centres, dtype=float), identifier, spatial

    @property
    def identifier(self):
        return self._identifier

    def visual_degrees(self):
        return 12

    def start_recording(self, recording_target, time_bins):
        self.region = recording_target

    def start_task(self, task, fitting_stimuli=None):
        raise NotImplementedError

    def look_at(self, stimuli, number_of_trials=1):
        n = len(self.centres)
        if "position_x" not in stimuli.columns:  # the blank
            rates = np.full((len(stimuli), n), 0.1)
        else:
            dy = stimuli["position_y"].values[:, None] - self.centres[None, :, 0]
            dx = stimuli["position_x"].values[:, None] - self.centres[None, :, 1]
            distance = np.hypot(dy, dx) if self.spatial else np.zeros_like(dy)
            orientation = np.deg2rad(stimuli["orientation"].values)[:, None]
            rates = np.exp(-distance ** 2 / (2 * 0.3 ** 2)) * (2 + np.cos(2 * orientation)) + 0.1
        coords = {name: ("presentation", stimuli[name].values) for name in stimuli.columns}
        coords["neuroid_id"] = ("neuroid", [f"u{i}" for i in range(n)])
        return NeuroidAssembly(rates, coords=coords, dims=["presentation", "neuroid"])


@pytest.fixture
def table_stimuli(monkeypatch):
    """Stimulus sets as plain tables (no images): the receptive-field grid and the blank."""
    rf = grating_table({"position_y": RF_GRID, "position_x": RF_GRID, "contrast": np.array([1]),
                        "radius": np.array([1 / 6]), "spatial_frequency": np.array([3.0]),
                        "orientation": np.arange(0, 180, 45.0), "phase": np.array([0.0, 180.0])})
    sets = {_firing_rates.RF_STIM_NAME: rf,
            _firing_rates.BLANK_STIM_NAME: pd.DataFrame({"stimulus_id": ["blank"], "degrees": [12.0]})}

    def load(identifier):
        stimulus_set = StimulusSet(sets[identifier].copy())
        stimulus_set.identifier = identifier
        return stimulus_set

    monkeypatch.setattr(_firing_rates, "_stimulus_set", load)
    clear_receptive_field_cache()
    yield
    clear_receptive_field_cache()


def test_receptive_field_centres_recovered(table_stimuli):
    rng = np.random.default_rng(5)
    centres = np.vstack([[[0.5, 0.5], [0.4, 0.6], [-1.0, 2.0]], rng.uniform(-2, 2, (40, 2))])
    model = GaussianReceptiveFields(centres, "gaussian-rfs")
    rf_pos, rf_map = map_receptive_field_locations("gaussian-rfs", model, "V1")
    assert rf_map.dims == ("neuroid", "position_y", "position_x") and rf_map.shape == (43, 21, 21)
    # a centroid of a Gaussian sampled every 0.25 deg (clipped at 5% of its peak): within 0.05 deg of the centre
    assert np.abs(rf_pos.values - centres).max() < 0.05
    values = model.look_at(_firing_rates._stimulus_set(_firing_rates.RF_STIM_NAME)).values
    np.testing.assert_allclose(rf_pos.values, naive.receptive_field_centres(values, np.full(43, 0.1), RF_GRID,
                                                                           RF_GRID), atol=1e-9)
    in_rf = filter_receptive_fields("gaussian-rfs", model, "V1", pos=np.array([0.5, 0.5]))
    expected = np.flatnonzero(np.hypot(*(rf_pos.values - 0.5).T) <= 0.15)
    np.testing.assert_array_equal(in_rf, expected)
    assert {0, 1} <= set(in_rf.tolist()) and 2 not in in_rf


def test_layer_without_spatial_layout_is_a_clear_error(table_stimuli):
    model = GaussianReceptiveFields(np.zeros((16, 2)), "pooled-layer", spatial=False)
    with pytest.raises(NoSpatialLayoutError, match="no spatial layout.*16 responsive units"):
        filter_receptive_fields("pooled-layer", model, "V1", pos=np.array([0.5, 0.5]))


def test_no_unit_at_the_stimulus_is_a_clear_error(table_stimuli):
    model = GaussianReceptiveFields([[-2.0, -2.0], [2.0, -2.0]], "far-units")
    with pytest.raises(UnitSelectionError, match=r"within 0.15 deg of the stimulus position \(0.5, 0.5\)"):
        filter_receptive_fields("far-units", model, "V1", pos=np.array([0.5, 0.5]))
