"""Ferguson2024's 14 value-delta benchmarks: Brain-Score's constants offline, and its own benchmark's numbers on
synthetic stand-ins of its data (``_behaviour_standins``: the human trials and stimuli in the schema of Brain-Score's
data plugin, the same stand-in model on both sides)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _behaviour_standins import EXPECTED, STANDINS, StandInModel, presentation, stimulus_set

import brainscore_vision
from brainscore_vision.benchmarks.ferguson2024 import benchmark as ferguson

#: Brain-Score's benchmarks/ferguson2024/test.py (c642dbe4), test_benchmark_ceiling: the values it asserts
BRAINSCORE_TEST_CEILINGS = {
    "circle_line": 0.883, "color": 0.897, "convergence": 0.862, "eighth": 0.852, "gray_easy": 0.907,
    "gray_hard": 0.863, "half": 0.898, "juncture": 0.767, "lle": 0.831, "llh": 0.812, "quarter": 0.876,
    "round_f": 0.874, "round_v": 0.853, "tilted_line": 0.912}


@pytest.mark.parametrize("experiment", sorted(BRAINSCORE_TEST_CEILINGS))
def test_the_14_ceilings_are_brainscores_constants_offline(experiment):
    benchmark = brainscore_vision.load_benchmark(f"Ferguson2024{experiment}-value_delta")  # reads nothing
    assert benchmark.identifier == f"Ferguson2024{experiment}-value_delta" and benchmark.version == 1
    assert benchmark.parent == "behavior" and benchmark.bibtex.startswith("@misc{ferguson")
    assert float(benchmark.ceiling) == BRAINSCORE_TEST_CEILINGS[experiment]
    assert benchmark.ceiling.attrs["error"] == ferguson.PRECOMPUTED_CEILINGS[experiment][1]


def test_the_command_line_prints_a_ceiling_offline(capsys):
    from brainscore_vision.cli import main

    assert main(["ceiling", "Ferguson2024juncture-value_delta"]) == 0
    assert capsys.readouterr().out.strip() == "Ferguson2024juncture-value_delta  ceiling 0.7670  error 0.1410"


def test_lapse_correction_and_the_integral_by_hand():
    # one subject, accuracies per (block, distractors): first 1, 1, 1; second 0.75, 0.5, 0.25; lapse 0.1:
    # corrected (a - 0.05) / 0.9; deltas second - first = (a2 - a1) / 0.9 = -0.25/0.9, -0.5/0.9, -0.75/0.9;
    # trapezoids: 4 * (d1 + d5) / 2 + 6 * (d5 + d11) / 2 = (-1.5 - 3.75) / 0.9 = -5.8333...
    rows = []
    for block, rates in (("first", (1, 1, 1)), ("second", (0.75, 0.5, 0.25))):
        for distractors, rate in zip(ferguson.DISTRACTOR_NUMS, rates, strict=True):
            rows += [{"participant_id": "a", "block": block, "distractor_nums": distractors, "correct": int(k < rate * 4)}
                     for k in range(4)]
    accuracies = ferguson.block_accuracies(pd.DataFrame(rows), 0.1)
    # -5.8333 held at the 20 bits of its 5 digits (see test_integrals_round_as_brainscores_sympy_floats)
    assert ferguson.delta_integral(accuracies) == pytest.approx(-5.8333, abs=4e-6)
    assert list(ferguson.distractors_of_image([0, 2, 4, 19, 21, 23])) == ["1.0", "5.0", "11.0", "1.0", "5.0", "11.0"]


def test_integrals_round_as_brainscores_sympy_floats():
    """Brain-Score rounds each integral with ``round(sympy.Float, 4)``: 4 decimals at the binary precision of the
    digits kept (recorded with its sympy on 407 values)."""
    pairs = EXPECTED["rounding"]
    assert len(pairs) == 407
    assert [ferguson.symbolic_round(value, 4) for value, _ in pairs] == [rounded for _, rounded in pairs]
    assert ferguson.symbolic_round(-2.30780029, 4) == -2.30780029296875 != round(-2.30780029, 4)


def _humans(experiment):
    from brainio.assemblies import BehavioralAssembly

    trials = STANDINS.ferguson_trials(experiment)
    humans = BehavioralAssembly(trials["correct"].to_numpy(), coords={
        column: ("presentation", trials[column].to_numpy()) for column in trials.columns}, dims=["presentation"])
    humans.attrs["stimulus_set"] = stimulus_set(STANDINS.ferguson_stimuli(experiment), f"Ferguson2024_{experiment}")
    return humans


def _answer(shown, trials):
    from brainio.assemblies import BehavioralAssembly

    values = STANDINS.ferguson_probabilities(shown["stimulus_id"].to_numpy(), shown["image_label"].to_numpy())
    return BehavioralAssembly(values, coords={**presentation(shown), "choice": ("choice", ["oddball", "same"])},
                              dims=["presentation", "choice"])


@pytest.mark.parametrize("experiment", STANDINS.FERGUSON_EXPERIMENTS)
def test_scores_are_brainscores_on_stand_ins(experiment, monkeypatch):
    """Brain-Score's benchmark on the same stand-ins (recorded): integrals, raw, ceiling and ceiled score to 1e-9."""
    humans = _humans(experiment)
    monkeypatch.setattr(ferguson, "load_dataset", lambda identifier: humans)
    monkeypatch.setattr(ferguson, "load_stimulus_set", lambda identifier: stimulus_set(
        STANDINS.ferguson_fitting_stimuli(experiment), identifier))
    model = StandInModel(8, _answer)
    score = brainscore_vision.load_benchmark(f"Ferguson2024{experiment}-value_delta")(model)
    expected = EXPECTED["ferguson"][experiment]
    assert score.attrs["human_integral"] == pytest.approx(expected["human_integral"], abs=1e-9)
    for key, value in (("raw", score.attrs["raw"]), ("ceiling", score.attrs["ceiling"]), ("score", score)):
        assert float(value) == pytest.approx(expected[key], abs=1e-9), key
    assert model.tasks == [("probabilities", {})]
    assert 0 < float(score) < 1 and expected["raw"] < 1  # a stand-in far from both ends


def test_the_model_answers_oddball_by_its_probability_of_oddball():
    from brainio.assemblies import BehavioralAssembly

    stimuli = stimulus_set(STANDINS.ferguson_stimuli("color"), "x").assign(
        image_label=lambda f: np.where(f["image_number"] % 2 == 0, "oddball", "same"))
    values = np.tile([[0.3, 0.7], [0.6, 0.4]], (24, 1))  # columns in either order: read by their labels
    answer = BehavioralAssembly(values, coords={**presentation(stimuli), "choice": ("choice", ["same", "oddball"])},
                                dims=["presentation", "choice"])
    trials = ferguson.model_trials(answer)
    said_oddball = values[:, 1] > values[:, 0]
    np.testing.assert_array_equal(trials["correct"], (said_oddball == (stimuli["image_label"] == "oddball")).astype(float))
