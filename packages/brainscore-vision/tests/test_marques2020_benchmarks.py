"""The 22 Marques2020 benchmarks: ceilings against Brain-Score's, randomnet end to end, and the unavailable textures.

End to end, randomnet is scored on the 15 grating benchmarks once (module fixture: each stimulus set is extracted
once, model-tools caches it, the receptive-field map is kept for the model). Each score is then recomputed
independently from the same model: firing rates of the selected units, properties by the per-unit scipy reference
(``marques_naive.py``), and the KS similarity by hand with ``numpy.histogram`` per resample over the same seeded
draws (``numpy.random.default_rng(0).integers``, 1000 x n_neurons), divided by the data-vs-data similarity.
"""

from __future__ import annotations

import marques_naive as naive
import numpy as np
import pytest
from conftest import registered_model

import brainscore_vision
from brainscore_vision.benchmark_helpers.properties_common import (
    BLANK_STIM_NAME,
    filter_receptive_fields,
    get_firing_rates,
    get_stimulus_position,
)
from brainscore_vision.benchmarks.marques2020 import BENCHMARKS
from brainscore_vision.data.marques2020 import StimuliUnavailableError

GRATING = [identifier for identifier in BENCHMARKS if "FreemanZiemba" not in identifier]
TEXTURE = [identifier for identifier in BENCHMARKS if "FreemanZiemba" in identifier]

#: the values Brain-Score's own benchmarks/marques2020/test.py asserts (approx, abs=.005)
BRAINSCORE_CEILINGS = {
    "Marques2020_Cavanaugh2002-grating_summation_field": 0.956, "Marques2020_Cavanaugh2002-surround_diameter": 0.955,
    "Marques2020_Cavanaugh2002-surround_suppression_index": 0.958, "Marques2020_DeValois1982-pref_or": 0.962,
    "Marques2020_DeValois1982-peak_sf": 0.967, "Marques2020_FreemanZiemba2013-texture_modulation_index": 0.948,
    "Marques2020_FreemanZiemba2013-abs_texture_modulation_index": 0.958,
    "Marques2020_FreemanZiemba2013-texture_selectivity": 0.940,
    "Marques2020_FreemanZiemba2013-texture_sparseness": 0.935,
    "Marques2020_FreemanZiemba2013-texture_variance_ratio": 0.939,
    "Marques2020_FreemanZiemba2013-max_texture": 0.946, "Marques2020_FreemanZiemba2013-max_noise": 0.945,
    "Marques2020_Ringach2002-circular_variance": 0.959, "Marques2020_Ringach2002-or_bandwidth": 0.964,
    "Marques2020_Ringach2002-orth_pref_ratio": 0.962, "Marques2020_Ringach2002-or_selective": 0.994,
    "Marques2020_Ringach2002-cv_bandwidth_ratio": 0.968, "Marques2020_Ringach2002-opr_cv_diff": 0.967,
    "Marques2020_Ringach2002-modulation_ratio": 0.959, "Marques2020_Ringach2002-max_dc": 0.968,
    "Marques2020_Schiller1976-sf_selective": 0.963, "Marques2020_Schiller1976-sf_bandwidth": 0.933,
}


def test_all_22_registered():
    assert set(BRAINSCORE_CEILINGS) == set(BENCHMARKS)
    assert set(BENCHMARKS) <= set(brainscore_vision.benchmark_registry)


@pytest.mark.parametrize("identifier", sorted(BENCHMARKS))
def test_ceiling_matches_brainscores_test(identifier, raw_data_dir):
    ceiling = float(brainscore_vision.load_benchmark(identifier).ceiling)
    assert ceiling == pytest.approx(BRAINSCORE_CEILINGS[identifier], abs=0.005)
    _, property_name, _ = BENCHMARKS[identifier]
    data = brainscore_vision.load_dataset(BENCHMARKS[identifier][0])
    assert ceiling == pytest.approx(direct_similarity(values_of(data, property_name), data, property_name))


@pytest.mark.parametrize("identifier", TEXTURE)
def test_texture_benchmarks_raise_that_the_images_are_unavailable(identifier, raw_data_dir, monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # no S3 reachable, as offline

    class NeverRecorded:
        identifier = "never"

        def start_recording(self, *args, **kwargs):
            raise AssertionError("recorded before the stimuli were checked")

    with pytest.raises(StimuliUnavailableError, match="FreemanZiemba2013_properties' is not available"):
        brainscore_vision.load_benchmark(identifier)(NeverRecorded())


def test_unknown_property_in_the_metric_is_a_clear_error(raw_data_dir):
    ringach = brainscore_vision.load_dataset("Ringach2002")
    metric = brainscore_vision.load_metric("ks_similarity", property_name="preferred_colour")
    with pytest.raises(ValueError, match="preferred_colour"):
        metric(ringach, ringach)


# -- the independent recomputation ---------------------------------------------------------------------------------
def values_of(assembly, property_name):
    names = list(assembly["neuronal_property"].values)
    return np.asarray(assembly.values[:, names.index(property_name)], dtype=float)


def direct_similarity(model_values, data, property_name, n_samples=1000, seed=0):
    """Mean KS similarity of ``n_samples`` seeded resamples of the model values to the data, by hand."""
    bins = np.asarray(data.attrs[f"{property_name}_bins"], dtype=float)
    data_values = np.clip(values_of(data, property_name), bins[0], bins[-1])
    model_values = np.clip(model_values, bins[0], bins[-1])
    q = np.histogram(data_values[~np.isnan(data_values)], bins=bins)[0]
    q = np.cumsum(q / q.sum())
    worst = max(np.abs(1 - q).max(), np.abs(np.r_[np.zeros(len(q) - 1), 1.0] - q).max())
    draws = np.random.default_rng(seed).integers(0, len(model_values), size=(n_samples, len(data_values)))
    similarities = []
    for draw in draws:
        sample = model_values[draw]
        p = np.histogram(sample[~np.isnan(sample)], bins=bins)[0]
        with np.errstate(invalid="ignore"):  # a resample of only NaN values has no histogram: NaN, as in the metric
            similarities.append(1 - np.abs(np.cumsum(p / p.sum()) - q).max() / worst)
    similarities = np.array(similarities)
    return 0.0 if np.isnan(similarities).sum() > n_samples / 10 else float(np.nanmean(similarities))


@pytest.fixture(scope="module")
def randomnet_scored(raw_data_dir):
    model = registered_model("randomnet")
    scores = {identifier: brainscore_vision.load_benchmark(identifier)(model) for identifier in GRATING}
    return model, scores


@pytest.fixture(scope="module")
def naive_properties(randomnet_scored):
    """Per study: the reference properties of randomnet's selected units, from its firing rates."""
    model, _ = randomnet_scored
    rates = {}
    for name in ("orientation", "size", "spatial_frequency"):
        stimuli = brainscore_vision.load_stimulus_set(f"Marques2020_{name}")
        in_rf = filter_receptive_fields(model.identifier, model, "V1", get_stimulus_position(stimuli))
        trials = {"orientation": 40, "size": 1, "spatial_frequency": 1}[name]
        responses = get_firing_rates(model.identifier, model, "V1", stimuli, trials, in_rf)
        baseline = get_firing_rates(model.identifier, model, "V1", BLANK_STIM_NAME, trials, in_rf)
        rates[name] = (responses.values, baseline.values[:, 0], in_rf)
    orientation = np.arange(0, 180, 15.0)
    frequency = np.array(sorted(set(brainscore_vision.load_stimulus_set("Marques2020_spatial_frequency")
                                    ["spatial_frequency"])))
    size_radius = np.array(sorted(set(brainscore_vision.load_stimulus_set("Marques2020_size")["radius"])))
    ringach = naive.ringach(*rates["orientation"][:2], 3, orientation, 8)
    cavanaugh = naive.cavanaugh(*rates["size"][:2], size_radius, 3, 6, 8)
    schiller = naive.schiller(*rates["spatial_frequency"][:2], 2, frequency, 6, 8)
    return {
        "Ringach2002": dict(zip(naive_names("Ringach2002"), ringach.T)),
        "Cavanaugh2002a": dict(zip(naive_names("Cavanaugh2002a"), cavanaugh.T)),
        "Schiller1976c": dict(zip(naive_names("Schiller1976c"), schiller.T)),
        "DeValois1982a": {"preferred_orientation": naive.devalois_a(*rates["orientation"][:2], 3, orientation, 8)},
        "DeValois1982b": {"peak_spatial_frequency": naive.devalois_b(*rates["spatial_frequency"][:2], 2, frequency,
                                                                     6, 8)},
        "n_selected": {name: len(value[2]) for name, value in rates.items()},
    }


def naive_names(study):
    from brainscore_vision.benchmarks.marques2020 import properties

    return {"Ringach2002": properties.RINGACH2002_PROPERTIES, "Cavanaugh2002a": properties.CAVANAUGH2002_PROPERTIES,
            "Schiller1976c": properties.SCHILLER1976_PROPERTIES}[study]


@pytest.mark.parametrize("identifier", GRATING)
def test_randomnet_score_equals_the_direct_computation(identifier, randomnet_scored, naive_properties):
    _, scores = randomnet_scored
    study, property_name, _ = BENCHMARKS[identifier]
    data = brainscore_vision.load_dataset(study)
    model_values = naive_properties[study][property_name]
    assert len(model_values) > 10, f"only {len(model_values)} responsive units"
    raw = direct_similarity(model_values, data, property_name)
    ceiling = direct_similarity(values_of(data, property_name), data, property_name)
    score = scores[identifier]
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=1e-12)
    assert float(score.attrs["ceiling"]) == pytest.approx(ceiling, abs=1e-12)
    assert float(score) == pytest.approx(raw / ceiling, abs=1e-12)
    assert 0 < float(score) < 1.1


def test_randomnet_selects_the_units_at_the_grating(naive_properties):
    # block1 of randomnet: 56 x 56 positions over 8 degrees (0.143 deg apart), 32 channels; the gratings sit at
    # (0.5, 0.5) deg: only a few positions lie within 0.15 deg, so a few dozen to a few hundred units
    counts = naive_properties["n_selected"]
    assert len(set(counts.values())) == 1  # one position for every grating set
    assert 10 <= counts["orientation"] <= 32 * 9
