"""Islam2021's 8 dimensionality benchmarks against Brain-Score's own on a synthetic stand-in (``_behaviour_standins``:
20 shapes x 2 originals x 5 textures, responses with a shape and a texture part)."""

from __future__ import annotations

import numpy as np
import pytest
from _behaviour_standins import EXPECTED, STANDINS, StandInModel, stimulus_set

import brainscore_vision
from brainscore_vision.benchmarks.islam2021 import benchmark as islam
from brainscore_vision.errors import BenchmarkDataError

FRAME = STANDINS.islam_stimuli()


def _answer(shown, trials):
    from brainio.assemblies import NeuroidAssembly

    features = STANDINS.islam_features(FRAME)
    return NeuroidAssembly(features, coords={"stimulus_id": ("presentation", FRAME["stimulus_id"].to_numpy()),
                                             "neuroid_id": ("neuroid", [f"n{i}" for i in range(features.shape[1])])},
                           dims=["presentation", "neuroid"])


@pytest.mark.parametrize("key", sorted(EXPECTED["islam"]["neuroid_presentation"]))
def test_scores_are_brainscores(key, monkeypatch):
    """Brain-Score's benchmark with its test's layout of the responses (neuroid x presentation), where its pairs
    select images: the same shares of dimensions, exactly."""
    monkeypatch.setattr(islam, "load_stimulus_set", lambda identifier: stimulus_set(FRAME, "Islam2021"))
    region, factor = key.split("_")
    expected = EXPECTED["islam"]["neuroid_presentation"][key]
    benchmark = brainscore_vision.load_benchmark(f"Islam2021-{factor}_{region.lower()}_dimensionality")
    assert (benchmark.identifier, benchmark.version, benchmark.parent) == (expected["identifier"], 1, "Islam2021")
    model = StandInModel(8, _answer)
    score = benchmark(model)
    assert float(score) == expected["score"] and float(benchmark.ceiling) == 1
    assert model.tasks == [("recording", region, [(70, 170)])]
    shares = score.attrs["dimensions"]
    assert sum(shares.values()) == pytest.approx(1) and shares[factor] == float(score)


def test_brainscores_live_layout_pairs_neuroids_instead():
    """Recorded: Brain-Score's benchmark on the presentation x neuroid responses its model commitments give indexes
    the neuroids with its pairs, another number than its test's layout (ours pairs images either way)."""
    live, test = EXPECTED["islam"]["presentation_neuroid"], EXPECTED["islam"]["neuroid_presentation"]
    assert any(live[key]["score"] != test[key]["score"] for key in test)


def test_the_pairs_follow_brainscores_draw():
    factors, rows1, rows2 = islam.draw_pairs(FRAME)
    np.testing.assert_array_equal(rows1, np.arange(len(FRAME)))
    first, second = FRAME.iloc[rows1].reset_index(drop=True), FRAME.iloc[rows2].reset_index(drop=True)
    shape = factors == "shape"
    assert (first["original_image_id"] == second["original_image_id"])[shape].all()
    assert (first["texture"] != second["texture"])[shape].all()
    assert ((first["texture"] == second["texture"]) & (first["shape"] != second["shape"]))[~shape].all()
    assert 0.3 < shape.mean() < 0.7
    again = islam.draw_pairs(FRAME)
    np.testing.assert_array_equal(again[2], rows2)  # random.Random(1751): the same pairs every time
    with pytest.raises(BenchmarkDataError, match="4 textures and 20 shapes"):
        islam.draw_pairs(FRAME[FRAME["texture"] != "texture4"])
