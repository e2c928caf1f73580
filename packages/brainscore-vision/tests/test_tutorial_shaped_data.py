"""The quick-start template on data shaped as the data-packaging tutorial shapes it (two regions, ten time bins):
each error names the ways out, and following them works."""

import numpy as np
import pytest

from brainio.assemblies import NeuroidAssembly
from brainscore_vision import load_ceiling, load_metric
from brainscore_vision.benchmark_helpers._timebins import BenchmarkDataError
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark, average_repetition


def tutorial_trials():
    rng = np.random.default_rng(0)
    n_stimuli, n_repetitions, n_neuroids, n_bins = 20, 3, 8, 10
    signal = rng.normal(size=(n_stimuli, n_neuroids, n_bins))
    values = np.concatenate([signal + 0.5 * rng.normal(size=signal.shape) for _ in range(n_repetitions)])
    return NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", np.tile([f"s{i}" for i in range(n_stimuli)], n_repetitions)),
        "repetition": ("presentation", np.repeat(np.arange(n_repetitions), n_stimuli)),
        "neuroid_id": ("neuroid", [f"n{i}" for i in range(n_neuroids)]),
        "region": ("neuroid", ["IT"] * 4 + ["V4"] * 4),
        "time_bin_start": ("time_bin", np.arange(0, 100, 10)),
        "time_bin_end": ("time_bin", np.arange(10, 110, 10))}, dims=["presentation", "neuroid", "time_bin"])


def template(trials):
    return NeuralBenchmark(identifier="MyLab2026.IT-pls", version=1, assembly=average_repetition(trials),
                           similarity_metric=load_metric("pls"), visual_degrees=8, number_of_trials=3,
                           ceiling_func=lambda: load_ceiling("internal_consistency")(trials), parent="IT")


def test_each_error_names_the_ways_out():
    trials = tutorial_trials()
    with pytest.raises(BenchmarkDataError) as raised:
        template(trials).region  # noqa: B018 - what start_recording asks first
    assert "spans regions ['IT', 'V4']" in str(raised.value) and "sel(region='IT')" in str(raised.value)
    assert "region=" in str(raised.value)
    it_trials = trials.sel(region="IT")
    with pytest.raises(ValueError) as raised:
        template(it_trials).ceiling  # noqa: B018
    message = str(raised.value)
    assert "10 time bins" in message and "isel(time_bin=0)" in message and "internal_consistency_temporal" in message


def test_following_the_advice_works():
    trials = tutorial_trials().sel(region="IT").isel(time_bin=[0])
    benchmark = template(trials)
    assert benchmark.region == "IT"
    ceiling = float(benchmark.ceiling)
    assert 0 < ceiling <= 1
