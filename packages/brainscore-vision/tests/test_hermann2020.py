"""Hermann2020cueconflict-{shape_bias,shape_match} on the shipped Geirhos cue-conflict images.

End to end with two models of the zoo (``randomnet``, ``CORnet-Z-random``: random weights, 1000-way ImageNet logits
mapped to the 16 classes) on 64 of the 1,280 images (every 20th, to keep the suite fast; the README lists the full
set's values), the expected values counted directly from the model's labels; ``pixels`` cannot label and fails
clearly. Brain-Score's own test asserts resnet-50's values (0.21392405 shape bias, 0.14083333 shape match), which
correspond to 169 shape and 621 texture decisions among the 1,200 conflicting images: a model answering exactly
that gives those numbers here.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import registered_model

import brainscore_vision
from brainio.assemblies import BehavioralAssembly
from brainscore_vision.benchmark_helpers.test_helper import PrecomputedFeatures
from brainscore_vision.benchmarks.hermann2020.benchmark import Hermann2020ShapeBias, Hermann2020ShapeMatch


@pytest.fixture(scope="module")
def cue_conflict(geirhos_raw):
    return brainscore_vision.load_stimulus_set("Geirhos2021_cue-conflict")


def test_registered_under_brainscores_identifiers():
    for kind in ("shape_bias", "shape_match"):
        benchmark = brainscore_vision.load_benchmark(f"Hermann2020cueconflict-{kind}")
        assert benchmark.identifier == f"Hermann2020cueconflict-{kind}"
        assert (benchmark.version, benchmark.parent, float(benchmark.ceiling)) == (1, "Hermann2020", 1.0)


@pytest.mark.parametrize("model_identifier", ["randomnet", "CORnet-Z-random"])
def test_two_models_equal_the_direct_count(cue_conflict, model_identifier):
    model = registered_model(model_identifier)
    subset = cue_conflict.iloc[::20]
    bias = Hermann2020ShapeBias(stimulus_set=subset)(model)
    match = Hermann2020ShapeMatch(stimulus_set=subset)(model)
    model.start_task("label", sorted(set(cue_conflict["truth"].astype(str))))
    labels = model.look_at(subset, number_of_trials=1)
    labels = dict(zip(np.asarray(labels["stimulus_id"].values).astype(str),
                      np.asarray(labels.squeeze("choice").values if "choice" in labels.dims else labels.values)))
    conflicting = subset[subset["shape_category"] != subset["texture_category"]]
    chosen = np.array([labels[s] for s in conflicting["stimulus_id"]])
    shape = np.mean(chosen == conflicting["shape_category"].to_numpy())
    texture = np.mean(chosen == conflicting["texture_category"].to_numpy())
    assert float(match) == pytest.approx(shape, abs=1e-12)
    assert float(bias) == pytest.approx(shape / (shape + texture), abs=1e-12)
    assert bias.attrs["texture_match"] == pytest.approx(texture, abs=1e-12)


def test_pixels_cannot_label(cue_conflict):
    with pytest.raises(Exception, match="(?i)label"):
        Hermann2020ShapeMatch(stimulus_set=cue_conflict.iloc[:4])(registered_model("pixels"))


def test_brainscores_asserted_values_from_the_same_decisions(cue_conflict):
    conflicting = cue_conflict[cue_conflict["shape_category"] != cue_conflict["texture_category"]]
    assert len(conflicting) == 1200
    answers = {}
    for index, row in enumerate(conflicting.itertuples()):
        other = next(c for c in sorted(set(cue_conflict["truth"])) if c not in (row.shape_category,
                                                                                 row.texture_category))
        answers[row.stimulus_id] = row.shape_category if index < 169 else row.texture_category if index < 790 \
            else other
    for row in cue_conflict[cue_conflict["shape_category"] == cue_conflict["texture_category"]].itertuples():
        answers[row.stimulus_id] = row.shape_category
    model = PrecomputedFeatures(BehavioralAssembly(list(answers.values()), coords={
        "stimulus_id": ("presentation", list(answers))}, dims=["presentation"]))
    assert float(brainscore_vision.load_benchmark("Hermann2020cueconflict-shape_bias")(model)) == pytest.approx(
        0.21392405, abs=1e-8)
    assert float(brainscore_vision.load_benchmark("Hermann2020cueconflict-shape_match")(model)) == pytest.approx(
        0.14083333, abs=1e-8)
