"""The seven FreemanZiemba2013 texture property benchmarks: the property function on responses with hand-worked values,
and the properties and each benchmark's metric, ceiling and score against Brain-Score's own functions on the same inputs.

Expected values: hand-worked below (exact fractions), and ``tests/data/reference_freemanziemba2013_properties.json``,
written by ``benchmarks/reference_freemanziemba2013_properties.py`` with brainscore-vision 2.4.2 (brain-score/vision
c642dbe4): its ``freemanziemba2013_properties``, and its ``BootstrapDistributionSimilarity`` / ``NeuronalPropertyCeiling``
handed the resamples our metric draws (Brain-Score's own are unseeded). The texture images are not available anywhere
(the benchmarks raise saying so, test_marques2020_benchmarks.py), so the benchmarks are checked from the model's
firing rates on: the properties they compute, and the metric and ceiling they hold, on the real recordings.
"""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import brainscore_vision
from brainio.assemblies import DataAssembly
from brainscore_core.normalization import ceil_score
from brainscore_vision.benchmarks.marques2020.properties import (
    FREEMANZIEMBA2013_PROPERTIES,
    freemanziemba2013_properties,
)
from brainscore_vision.utils import resolve

HERE = Path(__file__).resolve().parent
REFERENCE = json.loads((HERE / "data" / "reference_freemanziemba2013_properties.json").read_text())
_spec = importlib.util.spec_from_file_location("reference_freemanziemba2013_properties",
                                               HERE.parent / "benchmarks" / "reference_freemanziemba2013_properties.py")
INPUTS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(INPUTS)


def _properties(rates, baseline, order=None):
    coords = INPUTS.presentation_coords(rates.shape[1:], order)
    n_units = len(rates)
    responses = DataAssembly(INPUTS.flat_rates(rates, order), coords={
        "neuroid_id": ("neuroid", np.arange(n_units)), "stimulus_id": ("presentation", np.arange(coords["type"].size)),
        **{name: ("presentation", values) for name, values in coords.items()}}, dims=["neuroid", "presentation"])
    blank = DataAssembly(baseline.reshape(-1, 1), coords={"neuroid_id": ("neuroid", np.arange(n_units)),
                                                          "stimulus_id": ("presentation", [0])},
                         dims=["neuroid", "presentation"])
    return freemanziemba2013_properties(model_identifier="test", responses=responses, baseline=blank)


def _sparseness(values) -> Fraction:
    """Treves-Rolls sparseness ``(1 - mean(x)^2 / mean(x^2)) / (1 - 1/n)``, in exact fractions."""
    values = [Fraction(value) for value in values]
    n = len(values)
    mean, mean_square = sum(values) / n, sum(value * value for value in values) / n
    return (1 - mean * mean / mean_square) / (1 - Fraction(1, n))


def _hand_worked() -> list[list[Fraction]]:
    """The properties of the kept units A, B, C of ``hand_worked_inputs`` (D's best response is exactly 5: dropped).

    Per unit: texture modulation = NaN-mean over families of (T - N) / (T + N) of the baseline-subtracted family
    means; selectivities = sparseness of the family means; sparsenesses = sparseness of all samples; the variance
    split is a nested ANOVA of the texture samples' variance-stabilised values sqrt(r/10) + sqrt(r/10 + 1) (two
    families a, three samples b): sample = sum of squared deviations from the family means / (a (b - 1)), family =
    (b * var of the family means over a - 1 - sample) / b, shares of their sum, ratio (family + 0.02) / (sample +
    0.02); the maxima of the baseline-subtracted texture and noise rates."""
    # A: T = (30, 15), N = (10, 5) after the baseline 2: (30-10)/40 = (15-5)/20 = 1/2; samples constant within a
    # family, so the sample variance is 0: ratio (1 + 0.02) / (0 + 0.02) = 51
    a = [Fraction(1, 2), Fraction(1, 2), _sparseness([30, 15]), _sparseness([10, 5]), _sparseness([30] * 3 + [15] * 3),
         _sparseness([10] * 3 + [5] * 3), Fraction(51), Fraction(0), Fraction(1), Fraction(30), Fraction(10)]
    assert (a[2], a[4]) == (Fraction(1, 5), Fraction(3, 25))  # (1 - 22.5^2 / 562.5) / (1/2); the same / (5/6)
    # B: stabilised texture samples (1, 3, 2) and (3, 5, 4), rates r(t) = 10 ((t^2 - 1) / 2t)^2: r(1) = 0,
    # r(2) = 45/8, r(3) = 160/9, r(4) = 1125/32, r(5) = 288/5; family means M0, M1; noise M0/3 and M1: modulation
    # (1/2 + 0) / 2 = 1/4. ANOVA on t: family means 2 and 4, sample = (1+1+0+1+1+0) / (2 * 2) = 1, family mean square
    # 3 * ((2-3)^2 + (4-3)^2) / 1 = 6, family = (6 - 1) / 3 = 5/3; shares 3/8 and 5/8; ratio
    # (5/8 + 1/50) / (3/8 + 1/50) = 129/79
    texture_b = [0, Fraction(160, 9), Fraction(45, 8), Fraction(160, 9), Fraction(288, 5), Fraction(1125, 32)]
    assert [INPUTS.rate_of_spikes(t) for t in (1, 2, 3, 4, 5)] == pytest.approx(
        [0, 45 / 8, 160 / 9, 1125 / 32, 288 / 5], rel=1e-15)
    m0, m1 = sum(texture_b[:3]) / 3, sum(texture_b[3:]) / 3
    b = [Fraction(1, 4), Fraction(1, 4), _sparseness([m0, m1]), _sparseness([m0 / 3, m1]), _sparseness(texture_b),
         _sparseness([m0 / 3] * 3 + [m1] * 3), Fraction(129, 79), Fraction(3, 8), Fraction(5, 8), Fraction(288, 5), m1]
    # C: after the baseline 4, T = (10, 0), N = (20, 0): family 0 gives -10/30, family 1 is 0/0 (NaN, left out)
    c = [Fraction(-1, 3), Fraction(1, 3), Fraction(1), Fraction(1), Fraction(3, 5), Fraction(3, 5), Fraction(51),
         Fraction(0), Fraction(1), Fraction(10), Fraction(20)]
    assert (_sparseness([10, 0]), _sparseness([10] * 3 + [0] * 3)) == (c[2], c[4])
    return [a, b, c]


def test_property_order_is_brainscores():
    assert REFERENCE["property_names"] == FREEMANZIEMBA2013_PROPERTIES


def test_properties_of_hand_worked_units():
    properties = _properties(*INPUTS.hand_worked_inputs())
    expected = np.array([[float(value) for value in unit] for unit in _hand_worked()])
    assert list(properties["neuronal_property"].values) == FREEMANZIEMBA2013_PROPERTIES
    assert properties.shape == (3, 11)  # unit D (best response exactly 5 spikes/s) is not kept
    # unit C's constant samples give a sample variance of 1e-31 (float rounding of a mean of three equal numbers)
    np.testing.assert_allclose(properties.values, expected, rtol=1e-12, atol=1e-12)


def test_properties_of_hand_worked_units_equal_brainscores():
    properties = _properties(*INPUTS.hand_worked_inputs())
    np.testing.assert_allclose(properties.values, np.array(REFERENCE["hand_worked"]), rtol=1e-12, atol=1e-12)


def test_properties_of_random_units_in_shuffled_order_equal_brainscores():
    rates, baseline, order = INPUTS.random_inputs()
    properties = _properties(rates, baseline, order)
    assert properties.shape == (39, 11)  # unit 0 stays below 5 spikes/s
    np.testing.assert_allclose(properties.values, np.array(REFERENCE["random"]), rtol=1e-12, atol=1e-12)


def test_the_seven_benchmarks_are_the_registered_ones():
    registered = {info.identifier for info in brainscore_vision.list_plugins("benchmark")
                  if info.identifier.startswith("Marques2020_FreemanZiemba2013-")}
    assert registered == set(INPUTS.BENCHMARK_PROPERTIES) == set(REFERENCE["benchmarks"])


@pytest.mark.parametrize("identifier", sorted(INPUTS.BENCHMARK_PROPERTIES))
def test_benchmark_metric_ceiling_and_score_equal_brainscores(identifier, raw_data_dir):
    """The registered benchmark's property function, metric and ceiling on the random units and the real recordings:
    raw similarity, its error, the ceiling and the ceiled score equal Brain-Score's on the same 1,000 resamples."""
    expected = REFERENCE["benchmarks"][identifier]
    benchmark = brainscore_vision.load_benchmark(identifier)
    assert benchmark._neuronal_property is freemanziemba2013_properties
    assert benchmark._similarity_metric.property_name == expected["property"]
    rates, baseline, order = INPUTS.random_inputs()
    model_properties = _properties(rates, baseline, order)
    data = resolve(benchmark._assembly)
    checksums = REFERENCE["resample_checksums"]
    assert (len(model_properties), len(data)) == (checksums["n_model"], checksums["n_data"])
    # the resamples our metric draws are those Brain-Score's metric was handed (numpy's stream unchanged)
    assert int(INPUTS.resample_indices(len(model_properties), len(data)).sum()) == checksums["model"]
    assert int(INPUTS.resample_indices(len(data), len(data)).sum()) == checksums["ceiling"]
    raw = benchmark._similarity_metric(model_properties, data)
    score = ceil_score(raw, benchmark.ceiling)
    assert float(raw) == pytest.approx(expected["raw"], rel=1e-12, abs=1e-12)
    assert raw.attrs["error"] == pytest.approx(expected["raw_error"], rel=1e-12, abs=1e-12)
    assert float(benchmark.ceiling) == pytest.approx(expected["ceiling"], rel=1e-12, abs=1e-12)
    assert float(score) == pytest.approx(expected["score"], rel=1e-12, abs=1e-12)
